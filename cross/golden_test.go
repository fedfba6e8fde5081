package cross

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"hash"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/synth"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
)

var record = flag.Bool("record", false, "write testdata/golden.json from this run instead of comparing (on a platform that does not fuse, see fuses)")

// golden holds what the test pins, as SHA-256 hashes (hex) and float64
// bits.
type golden struct {
	Recorded string            `json:"recorded"` // platform of the recording
	Samples  string            `json:"samples"`  // the simulated patient's sample bits
	Features map[string]string `json:"features"` // feature name ("F7-T7/rms") → bits of its column over all windows
	// Window is the feature vector of window goldenWindow, as
	// math.Float64bits, in Names order.
	Window []uint64 `json:"window"`
	// Models: "time:UOB/nb" is trained on the time-domain features,
	// "all:UOB/nb" on every feature; both are pinned on every platform.
	Models map[string]model `json:"models"`
}

type model struct {
	Checkpoint string `json:"checkpoint"` // SHA-256 of MarshalBinary after the stream
	Scores     string `json:"scores"`     // SHA-256 of the prequential scores, before each Learn
	// Margins: SHA-256 of each window's Margin and, for naive Bayes,
	// its CensoredMargin at 1 nat (the day-one model's grading), before
	// each Learn.
	Margins string `json:"margins"`
}

const goldenWindow = 60

// timeDomain are the features that need no spectrum (until the FFT was
// ictal's own, the only ones pinned where multiply-adds are fused).
var timeDomain = []features.Feature{features.LineLength, features.RMS, features.HjorthMobility,
	features.HjorthComplexity, features.ZeroCrossings, features.TeagerEnergy}

// platform names the code generation that matters: GOARCH with its
// GOAMD64 or GOARM level.
func platform() string {
	p := runtime.GOOS + "/" + runtime.GOARCH
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "GOAMD64" || s.Key == "GOARM" {
				p += " " + s.Key + "=" + s.Value
			}
		}
	}
	return p
}

// fuses reports whether the Go compiler fuses x*y + z into one
// multiply-add on this platform (arm64, ppc64x, s390x, riscv64, loong64,
// and amd64 from GOAMD64=v3). Our code rounds every product on its own
// (float64(x*y)), so the goldens are the same there; they are recorded
// where nothing can fuse, so that a product left unrounded shows as a
// failure on arm64 rather than slipping into the goldens.
func fuses() bool {
	switch runtime.GOARCH {
	case "arm64", "ppc64", "ppc64le", "s390x", "riscv64", "loong64":
		return true
	case "amd64":
		p := platform()
		return !strings.Contains(p, "GOAMD64=v1") && !strings.Contains(p, "GOAMD64=v2")
	}
	return false
}

// stream is the fixed input: a simulated patient (2 channels at 256 Hz,
// 3 minutes, one seizure, seed 7) through an extractor of feats (2 s
// windows every second: 179 windows), with the patient's annotations.
type stream struct {
	names   []string
	xs      [][]float64
	ys      []bool
	samples string
}

func newStream(t *testing.T, feats []features.Feature) stream {
	t.Helper()
	sc := synth.DefaultConfig()
	sc.Channels, sc.Rate, sc.Duration, sc.Seizures, sc.Seed = 2, 256, 3*time.Minute, 1, 7
	p, err := synth.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	ext, err := features.New(features.Config{Channels: 2, Rate: 256, Labels: synth.DefaultLabels(2), Features: feats})
	if err != nil {
		t.Fatal(err)
	}
	s := stream{names: ext.Names()}
	samples := sha256.New()
	f := acquire.NewFrame(2)
	for {
		err := p.ReadFrame(f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range f.Samples {
			putBits(samples, v)
		}
		if ext.Push(f.Samples) {
			s.xs = append(s.xs, ext.Vector(make([]float64, ext.Dim())))
			s.ys = append(s.ys, inSeizure(p.Intervals(), f.Time))
		}
	}
	s.samples = sum(samples)
	pos := 0
	for _, y := range s.ys {
		if y {
			pos++
		}
	}
	if len(s.xs) != 179 || pos == 0 || pos == len(s.ys) {
		t.Fatalf("stream of %d windows, %d positive: want 179 with both classes", len(s.xs), pos)
	}
	return s
}

// TestGoldenBits pins, end to end, the bits the daemon computes: the
// simulated patient's samples, every feature column and the vector of one
// window, and for every algorithm (plain and "ns") × learner the
// prequential scores and margins (censored too, for naive Bayes) and the
// checkpoint after learning the stream with
// the patient's annotations — recorded on linux/amd64 (GOAMD64=v1).
// cross/test runs it under qemu for arm64 and armv7, so a checkpoint
// written on an emulated board is compared with one written on amd64.
//
// Every bit must match on every platform, including those where the
// compiler fuses multiply-adds (fuses): the features' arithmetic, the FFT
// (features/fft.go, for the stream's 512-sample windows) and its twiddles
// and Hann window (internal/detmath) round every product on their own.
// Record again (-record) only after a deliberate change to the
// arithmetic, and check that every platform agrees (cross/test).
func TestGoldenBits(t *testing.T) {
	all := newStream(t, nil)
	tdom := newStream(t, timeDomain)
	got := golden{
		Recorded: platform(),
		Samples:  all.samples,
		Features: map[string]string{},
		Window:   make([]uint64, len(all.names)),
		Models:   map[string]model{},
	}
	for j, name := range all.names {
		h := sha256.New()
		for _, x := range all.xs {
			putBits(h, x[j])
		}
		got.Features[name] = sum(h)
		got.Window[j] = math.Float64bits(all.xs[goldenWindow][j])
	}
	for _, alg := range classifier.Algorithms {
		for _, a := range []classifier.Algorithm{alg, alg.NS()} {
			for _, l := range classifier.Learners {
				got.Models["time:"+string(a)+"/"+string(l)] = train(t, a, l, tdom)
				got.Models["all:"+string(a)+"/"+string(l)] = train(t, a, l, all)
			}
		}
	}

	path := filepath.Join("testdata", "golden.json")
	if *record {
		if fuses() {
			t.Fatalf("%s fuses multiply-adds: record on amd64 with GOAMD64=v1", platform())
		}
		b, err := json.MarshalIndent(got, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %s on %s", path, got.Recorded)
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want golden
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	on := platform()
	if got.Samples != want.Samples {
		t.Errorf("simulated patient's samples differ on %s from %s", on, want.Recorded)
	}
	if len(want.Window) != len(all.names) || len(want.Features) != len(all.names) {
		t.Fatalf("golden has %d features, the extractor %d", len(want.Features), len(all.names))
	}
	for j, name := range all.names {
		if got.Window[j] != want.Window[j] {
			g, w := math.Float64frombits(got.Window[j]), math.Float64frombits(want.Window[j])
			t.Errorf("window %d, %s = %v (%#016x) on %s, %v (%#016x) on %s", goldenWindow, name, g, got.Window[j], on, w, want.Window[j], want.Recorded)
		}
		if got.Features[name] != want.Features[name] {
			t.Errorf("feature %s differs on %s from %s", name, on, want.Recorded)
		}
	}
	for _, k := range sortedKeys(want.Models) {
		g, w := got.Models[k], want.Models[k]
		if g.Scores != w.Scores {
			t.Errorf("%s: prequential scores differ on %s from %s", k, on, want.Recorded)
		}
		if g.Margins != w.Margins {
			t.Errorf("%s: margins differ on %s from %s", k, on, want.Recorded)
		}
		if g.Checkpoint != w.Checkpoint {
			t.Errorf("%s: checkpoint SHA-256 %s on %s, %s on %s", k, g.Checkpoint, on, w.Checkpoint, want.Recorded)
		}
	}
	if len(got.Models) != len(want.Models) {
		t.Errorf("%d models, golden has %d", len(got.Models), len(want.Models))
	}
	if fuses() && !t.Failed() {
		t.Logf("%s fuses multiply-adds where the code lets it: every feature and all %d models match %s bit for bit", on, len(want.Models), want.Recorded)
	}
}

// train learns the stream prequentially (score, then learn) with 4
// members and returns the hashes of the scores and of the checkpoint.
func train(t *testing.T, algorithm classifier.Algorithm, learner classifier.LearnerName, s stream) model {
	t.Helper()
	m, err := classifier.New(classifier.Config{Algorithm: algorithm, Learner: learner, Features: len(s.xs[0]), Members: 4, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	scores, margins := sha256.New(), sha256.New()
	for i, x := range s.xs {
		mg, err := m.(classifier.Grader).Margin(x)
		if err != nil {
			t.Fatalf("%s/%s window %d: %v", algorithm, learner, i, err)
		}
		putBits(margins, mg)
		if learner == classifier.LearnerNB {
			if mg, err = m.(classifier.CensoredGrader).CensoredMargin(x, 1); err != nil {
				t.Fatalf("%s/%s window %d: %v", algorithm, learner, i, err)
			}
			putBits(margins, mg)
		}
		v, err := m.Score(x)
		if err != nil {
			t.Fatalf("%s/%s window %d: %v", algorithm, learner, i, err)
		}
		putBits(scores, v)
		if err := m.Learn(x, s.ys[i]); err != nil {
			t.Fatalf("%s/%s window %d: %v", algorithm, learner, i, err)
		}
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	c := sha256.Sum256(b)
	return model{Checkpoint: hex.EncodeToString(c[:]), Scores: sum(scores), Margins: sum(margins)}
}

func putBits(h hash.Hash, v float64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
	h.Write(b[:])
}

func sum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

// inSeizure reports whether the window ending at end lies in a seizure.
func inSeizure(iv []acquire.Interval, end time.Duration) bool {
	for _, s := range iv {
		if s.Seizure && end > s.Start && end <= s.End {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for s := range m {
		k = append(k, s)
	}
	slices.Sort(k)
	return k
}
