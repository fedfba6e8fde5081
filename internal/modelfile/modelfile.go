// Package modelfile stores a trained model together with how it was built:
// the feature configuration, the signal conditioning, the sample rate and
// channel labels it was trained on, the training data and the program
// version. A pipeline that loads a model compares that record with its own
// configuration (Meta.Check) and refuses a model built for another one,
// naming the difference, instead of scoring vectors whose features mean
// something else.
//
// # Format
//
// A model file is
//
//	magic    "ICTALMDL" (8 bytes)
//	version  uint32, little-endian (1)
//	n        uint32, little-endian: length of the metadata
//	meta     n bytes of UTF-8 JSON (Meta)
//	model    the classifier's own checkpoint (classifier.Model.MarshalBinary,
//	         itself versioned and CRC-32C checked)
//	crc      uint32, little-endian: CRC-32C (Castagnoli) of everything before
//
// so a reader can print the metadata without understanding the model, and a
// torn or bit-flipped file is refused as a whole.
//
// # Files without metadata
//
// Models and checkpoints written before this format are the classifier's
// bytes alone. Decode still loads them and returns a Meta with Legacy set:
// their dimension is all that can be checked, and the caller says so (the
// daemon logs it once, and its next checkpoint is written in this format,
// which is the migration).
package modelfile

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/pipeline"
)

// Magic opens every model file.
const Magic = "ICTALMDL"

// Version is the format version this package writes.
const Version = 1

// MaxMeta bounds the metadata a file may claim, so that a corrupt length
// cannot make Decode allocate gigabytes.
const MaxMeta = 1 << 20

// MaxSize bounds a model file, and a checkpoint (the same format): the
// largest a model the classifier accepts can make, so that refusing a
// longer file unread (ReadFile, the daemon's checkpoints) never refuses a
// model. The classifier bounds a model's state by MaxLearnWork numbers of
// 8 bytes (its members' learners and a SMOTE memory: classifier.Config),
// 512 MiB; to it come the metadata (at most MaxMeta) and 1 MiB for the
// rest, the headers and checksums and each member's running sums, rates
// and random stream (140 bytes each, 140 KiB for MaxMembers). 514 MiB in
// all: the largest file a model of any valid configuration writes. The
// models ictald runs are far smaller (measured): the day-one model's file
// is 9,420 bytes; the sample configuration's classifier (UOB, 10
// naive-Bayes members) at 23 channels of 17 features writes 127,647
// bytes, 12.5 MB with qda members; the unit's MemoryMax (128 MiB) could
// hold no model near the bound.
const MaxSize = 8*classifier.MaxLearnWork + MaxMeta + 1<<20

// ErrCorrupt is wrapped by Decode's errors for files that are truncated,
// fail their checksum or hold malformed metadata.
var ErrCorrupt = errors.New("modelfile: corrupt model file")

// ErrMismatch is wrapped by Check's errors: the model was built for another
// configuration than the one it is asked to serve.
var ErrMismatch = errors.New("modelfile: model does not fit the configuration")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Features describes the feature extraction a model's vectors come from.
type Features struct {
	Window    float64  `json:"window_s"`
	Step      float64  `json:"step_s"`
	Names     []string `json:"features"` // per-channel features, in vector order
	Summaries bool     `json:"summaries"`
	Dim       int      `json:"dim"` // length of the feature vector
}

// Recording describes one recording a model was trained on.
type Recording struct {
	File     string  `json:"file"` // base name
	Duration float64 `json:"duration_s"`
	Seizures int     `json:"seizures"`
	Windows  int64   `json:"windows,omitempty"` // windows learned from it
}

// Meta is what a model file records about its model.
type Meta struct {
	// Legacy is set by Decode for a file without metadata (written before
	// this format); every other field is then zero except Classifier.
	Legacy bool `json:"legacy,omitempty"`
	// Program names the program and version that wrote the file
	// ("ictal v1.2.0").
	Program string    `json:"program,omitempty"`
	Created time.Time `json:"created,omitzero"`
	// Features and Conditioning are the signal path the vectors came
	// from. Conditioning is the conditioning stage's own description
	// (its String), empty when none ran.
	Features     Features `json:"features"`
	Conditioning string   `json:"conditioning"`
	// Rate and Channels are the source's sample rate and channel labels
	// the model was trained on.
	Rate     float64  `json:"rate_hz,omitempty"`
	Channels []string `json:"channels,omitempty"`
	// Classifier is the model's configuration as the classifier reports
	// it (filled in by Decode from the model itself).
	Classifier classifier.Config `json:"classifier"`
	// Training lists the recordings the model learned from, in order.
	Training []Recording `json:"training,omitempty"`
	// Scoring is how the pipeline scores with the model: nil for a model
	// of the whole feature vector (channels × features, the vote); for a
	// per-channel model, the population its baseline starts from, the
	// calibration and, in a checkpoint, the patient's baseline. A
	// per-channel model fits any montage and rate: Channels and Rate are
	// not recorded, and Check compares the features and conditioning only.
	Scoring *pipeline.Scoring `json:"scoring,omitempty"`
	// Rule is the decision rule chosen with the model on its training
	// data, the default of a pipeline that scores with it.
	Rule *Rule `json:"rule,omitempty"`
}

// Rule is a decision rule: a window is positive when its score exceeds
// Threshold, and an alert starts when K of the last N windows are.
type Rule struct {
	Threshold float64 `json:"threshold"`
	K         int     `json:"k"`
	N         int     `json:"n"`
}

// Configure returns pc with what the model file says about scoring with
// its model: a per-channel model's Scoring, and its decision rule where
// pc leaves the threshold, or K and N, to their defaults (zero).
func (m Meta) Configure(pc pipeline.Config) pipeline.Config {
	if m.Scoring != nil {
		pc.Scoring = *m.Scoring
	}
	if r := m.Rule; r != nil {
		d := &pc.Detector
		if d.Threshold == 0 {
			d.Threshold = r.Threshold
		}
		if d.K == 0 && d.N == 0 {
			d.K, d.N = r.K, r.N
		}
	}
	return pc
}

// PerChannel reports whether the model scores each channel on its own.
func (m Meta) PerChannel() bool { return m.Scoring != nil && m.Scoring.PerChannel }

// Encode returns the file holding m and meta. meta.Classifier is taken
// from m.
func Encode(meta Meta, m classifier.Model) ([]byte, error) {
	meta.Legacy = false
	meta.Classifier = m.Config()
	js, err := json.Marshal(meta)
	if err != nil {
		return nil, fmt.Errorf("modelfile: metadata: %w", err)
	}
	if len(js) > MaxMeta {
		return nil, fmt.Errorf("modelfile: metadata is %d bytes, more than %d", len(js), MaxMeta)
	}
	mb, err := m.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("modelfile: %w", err)
	}
	b := make([]byte, 0, len(Magic)+8+len(js)+len(mb)+4)
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint32(b, Version)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(js)))
	b = append(b, js...)
	b = append(b, mb...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// Decode reads a model file: the format above, or a classifier checkpoint
// without metadata (Meta.Legacy). Errors wrap ErrCorrupt for damaged
// files, or the classifier's own error for a model it cannot load.
func Decode(b []byte) (Meta, classifier.Model, error) {
	if !bytes.HasPrefix(b, []byte(Magic)) {
		m, err := classifier.Load(b)
		if err != nil {
			return Meta{}, nil, fmt.Errorf("modelfile: neither a model file (no %q header) nor a classifier checkpoint: %w", Magic, err)
		}
		return Meta{Legacy: true, Classifier: m.Config()}, m, nil
	}
	meta, body, err := split(b)
	if err != nil {
		return Meta{}, nil, err
	}
	m, err := classifier.Load(body)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("modelfile: the model: %w", err)
	}
	if sc := meta.Scoring; sc != nil && sc.PerChannel && sc.Censor > 0 {
		// A bound on evidence the model's members cannot censor (LDA,
		// QDA) is a record that does not fit its model: corrupt, as a
		// damaged scoring is, rather than a pipeline that cannot start.
		if _, err := m.(classifier.CensoredGrader).CensoredMargin(make([]float64, m.Config().Features), sc.Censor); err != nil {
			return Meta{}, nil, fmt.Errorf("%w: metadata: scoring.censor %v: %v", ErrCorrupt, sc.Censor, err)
		}
	}
	meta.Legacy = false
	meta.Classifier = m.Config()
	return meta, m, nil
}

// DecodeMeta reads only the metadata of a model file, checking the file's
// checksum but not loading the model (for `ictal model info` on a file
// whose model this build cannot load).
func DecodeMeta(b []byte) (Meta, error) {
	if !bytes.HasPrefix(b, []byte(Magic)) {
		meta, _, err := Decode(b)
		return meta, err
	}
	meta, _, err := split(b)
	return meta, err
}

// split checks the header and checksum of a file with the magic and
// returns its metadata and the classifier's bytes.
func split(b []byte) (Meta, []byte, error) {
	const head = len(Magic) + 8
	if len(b) < head+4 {
		return Meta{}, nil, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header and checksum", ErrCorrupt, len(b), head+4)
	}
	if v := binary.LittleEndian.Uint32(b[len(Magic):]); v != Version {
		return Meta{}, nil, fmt.Errorf("%w: format version %d, this build reads %d", ErrCorrupt, v, Version)
	}
	n := binary.LittleEndian.Uint32(b[len(Magic)+4:])
	if n > MaxMeta || int(n) > len(b)-head-4 {
		return Meta{}, nil, fmt.Errorf("%w: metadata length %d does not fit the file's %d bytes", ErrCorrupt, n, len(b))
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if got := crc32.Checksum(body, castagnoli); got != sum {
		return Meta{}, nil, fmt.Errorf("%w: checksum %08x, the file says %08x (truncated or damaged)", ErrCorrupt, got, sum)
	}
	var meta Meta
	dec := json.NewDecoder(bytes.NewReader(b[head : head+int(n)]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&meta); err != nil {
		return Meta{}, nil, fmt.Errorf("%w: metadata: %v", ErrCorrupt, err)
	}
	if err := meta.checkScoring(); err != nil {
		return Meta{}, nil, fmt.Errorf("%w: metadata: %v", ErrCorrupt, err)
	}
	return meta, body[head+int(n):], nil
}

// checkScoring checks a per-channel model's scoring (ranges, population,
// saved baseline) against its features, so that a damaged record is a
// corrupt file (which the daemon sets aside) and not a pipeline that
// refuses to start.
func (m Meta) checkScoring() error {
	if m.Scoring == nil {
		return nil
	}
	feats := make([]features.Feature, len(m.Features.Names))
	for i, name := range m.Features.Names {
		f, err := features.ParseFeature(name)
		if err != nil {
			return err
		}
		feats[i] = f
	}
	return m.Scoring.Check(feats)
}

// Check reports whether a model described by m can serve a pipeline whose
// own description is want: the same features (window, step, list,
// summaries, dimension), the same conditioning and, where both name them,
// the same channels in the same order. The sample rate may differ (the
// features are defined in seconds and hertz) unless the conditioning
// differs with it. The error wraps ErrMismatch and names every
// difference. A legacy model is checked on its dimension alone.
func (m Meta) Check(want Meta) error {
	var diffs []string
	add := func(what string, model, pipeline any) {
		diffs = append(diffs, fmt.Sprintf("%s: model %v, pipeline %v", what, model, pipeline))
	}
	if m.Legacy {
		if d := m.Classifier.Features; d != want.Features.Dim {
			add("feature dimension", d, want.Features.Dim)
		}
		return mismatch(diffs)
	}
	f, g := m.Features, want.Features
	if f.Window != g.Window {
		add("window", seconds(f.Window), seconds(g.Window))
	}
	if f.Step != g.Step {
		add("step", seconds(f.Step), seconds(g.Step))
	}
	if !slices.Equal(f.Names, g.Names) {
		add("features", strings.Join(f.Names, ","), strings.Join(g.Names, ","))
	}
	if f.Summaries != g.Summaries {
		add("summaries", f.Summaries, g.Summaries)
	}
	if m.Conditioning != want.Conditioning {
		add("conditioning", quoted(m.Conditioning), quoted(want.Conditioning))
	}
	if m.PerChannel() {
		if d := m.Classifier.Features; d != len(g.Names) {
			add("features per channel", d, len(g.Names))
		}
		if f.Summaries {
			add("summaries in a per-channel model", true, false)
		}
		return mismatch(diffs)
	}
	if len(m.Channels) > 0 && len(want.Channels) > 0 && !slices.Equal(m.Channels, want.Channels) {
		add("channels", strings.Join(m.Channels, ","), strings.Join(want.Channels, ","))
	}
	if d := m.Classifier.Features; d != g.Dim {
		add("feature dimension", d, g.Dim)
	}
	return mismatch(diffs)
}

func mismatch(diffs []string) error {
	if len(diffs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrMismatch, strings.Join(diffs, "; "))
}

func seconds(s float64) string { return fmt.Sprintf("%gs", s) }

func quoted(s string) string {
	if s == "" {
		return "none"
	}
	return fmt.Sprintf("%q", s)
}
