package modelfile

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/pipeline"
)

func testModel(t testing.TB, d int) classifier.Model {
	t.Helper()
	m, err := classifier.New(classifier.Config{Algorithm: classifier.UOB, Features: d, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, d)
	for i := range 50 {
		for j := range x {
			x[j] = float64((i*7+j*3)%11) - 5
		}
		if err := m.Learn(x, i%5 == 0); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func testMeta() Meta {
	return Meta{
		Program: "ictal test",
		Created: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC),
		Features: Features{
			Window: 2, Step: 1, Names: []string{"line_length", "rms"}, Dim: 4,
		},
		Conditioning: "highpass 0.5 Hz, lowpass 70 Hz, notch 50 Hz",
		Rate:         250,
		Channels:     []string{"Fp1", "Fp2"},
		Training:     []Recording{{File: "a.edf", Duration: 1800, Seizures: 2, Windows: 1799}},
	}
}

func TestRoundTrip(t *testing.T) {
	m := testModel(t, 4)
	b, err := Encode(testMeta(), m)
	if err != nil {
		t.Fatal(err)
	}
	meta, got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	want := testMeta()
	want.Classifier = m.Config()
	if !reflect.DeepEqual(meta, want) {
		t.Errorf("meta = %+v\nwant %+v", meta, want)
	}
	x := []float64{1, -2, 3, 0.5}
	s1, _ := m.Score(x)
	s2, _ := got.Score(x)
	if s1 != s2 {
		t.Errorf("decoded model scores %v, the original %v", s2, s1)
	}
	only, err := DecodeMeta(b)
	if err != nil || !reflect.DeepEqual(only, want) {
		t.Errorf("DecodeMeta = %+v, %v", only, err)
	}
}

// A classifier checkpoint written before this format loads as legacy:
// the migration path of old models and checkpoints.
func TestLegacy(t *testing.T) {
	m := testModel(t, 4)
	raw, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	meta, got, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !meta.Legacy || got == nil || meta.Classifier.Features != 4 {
		t.Fatalf("legacy decode: %+v", meta)
	}
	if err := meta.Check(testMeta()); err != nil {
		t.Errorf("legacy model of the right dimension: %v", err)
	}
	w := testMeta()
	w.Features.Dim = 6
	if err := meta.Check(w); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "feature dimension: model 4, pipeline 6") {
		t.Errorf("legacy model of the wrong dimension: %v", err)
	}
}

func TestCorrupt(t *testing.T) {
	b, err := Encode(testMeta(), testModel(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(b) {
		if _, _, err := Decode(b[:n]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(b))
		}
	}
	for i := 0; i < len(b); i += 7 {
		c := append([]byte(nil), b...)
		c[i] ^= 0x10
		if _, _, err := Decode(c); err == nil {
			t.Fatalf("bit flipped at byte %d: no error", i)
		}
	}
	huge := append([]byte(nil), b...)
	huge[len(Magic)+4], huge[len(Magic)+5], huge[len(Magic)+6], huge[len(Magic)+7] = 0xff, 0xff, 0xff, 0x7f
	if _, _, err := Decode(huge); !errors.Is(err, ErrCorrupt) {
		t.Errorf("metadata length beyond the file: %v", err)
	}
}

func TestCheck(t *testing.T) {
	model := testMeta()
	model.Classifier.Features = 4
	tests := []struct {
		name   string
		change func(*Meta)
		want   []string // substrings of the error; none: fits
	}{
		{"same", func(*Meta) {}, nil},
		{"other rate", func(m *Meta) { m.Rate = 256 }, nil},
		{"pipeline without labels", func(m *Meta) { m.Channels = nil }, nil},
		{"window and step", func(m *Meta) { m.Features.Window, m.Features.Step = 4, 2 },
			[]string{"window: model 2s, pipeline 4s", "step: model 1s, pipeline 2s"}},
		{"features", func(m *Meta) { m.Features.Names = []string{"rms", "line_length"} },
			[]string{"features: model line_length,rms, pipeline rms,line_length"}},
		{"conditioning off", func(m *Meta) { m.Conditioning = "" },
			[]string{`conditioning: model "highpass 0.5 Hz, lowpass 70 Hz, notch 50 Hz", pipeline none`}},
		{"montage", func(m *Meta) { m.Channels = []string{"Fp2", "Fp1"} },
			[]string{"channels: model Fp1,Fp2, pipeline Fp2,Fp1"}},
		{"dimension", func(m *Meta) { m.Features.Dim = 6 }, []string{"feature dimension: model 4, pipeline 6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := testMeta()
			tt.change(&want)
			err := model.Check(want)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrMismatch) {
				t.Fatalf("Check = %v, want ErrMismatch", err)
			}
			for _, s := range tt.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	b, err := Encode(testMeta(), testModel(f, 4))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte(Magic))
	if b, err = Encode(perChannelMeta(), testModel(f, 2)); err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, b)
		// Also with the checksum made right, so that a mutation reaches
		// the metadata's and the model's decoders behind it.
		if len(b) >= 4 {
			sealed := bytes.Clone(b)
			body := sealed[:len(sealed)-4]
			binary.LittleEndian.PutUint32(sealed[len(body):], crc32.Checksum(body, castagnoli))
			checkDecode(t, sealed)
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkDecode decodes b and, if it is accepted, checks that its model
// fits its metadata and that it is written again (as the daemon's
// checkpoints write a model they loaded) into a file that decodes to the
// same metadata.
func checkDecode(t *testing.T, b []byte) {
	meta, m, err := Decode(b)
	if err != nil {
		if m != nil {
			t.Fatal("model returned with an error")
		}
		return
	}
	if m == nil || meta.Classifier.Features != m.Config().Features {
		t.Fatalf("decoded %+v with model %v", meta, m)
	}
	again, err := Encode(meta, m)
	if err != nil {
		t.Fatalf("accepted file cannot be written again: %v", err)
	}
	back, _, err := Decode(again)
	if err != nil {
		t.Fatalf("accepted file written again does not decode: %v", err)
	}
	if x, y := mustJSON(t, back), mustJSON(t, meta); !meta.Legacy && x != y {
		t.Fatalf("accepted file written again decodes differently:\n%s\n%s", x, y)
	}
}

// perChannelMeta describes a per-channel model of 2 features with a
// saved baseline of 2 channels.
func perChannelMeta() Meta {
	m := testMeta()
	m.Channels, m.Rate, m.Features.Dim = nil, 0, 2
	pop := &features.Population{Features: []string{"line_length", "rms"}, Location: []float64{3, 1}, Scale: []float64{0.5, 0.4}}
	base := &features.BaselineState{Features: pop.Features, Channels: 2, Labels: []string{"C3", "C4"},
		Location: []float64{3, 1, 3.1, 1.2}, Scale: []float64{0.5, 0.4, 0.5, 0.4}, Windows: []float64{10, 10}}
	m.Scoring = &pipeline.Scoring{PerChannel: true, Population: pop, TopK: 2, Smooth: 3, Slope: 0.2, Censor: 1, Baseline: base}
	m.Rule = &Rule{Threshold: 0.53, K: 5, N: 6}
	return m
}

// TestPerChannelScoringChecked: a per-channel model's scoring round-trips,
// and a damaged one (a zero scale, a baseline of the wrong shape, a
// negative slope) makes the file corrupt, so that the daemon sets the
// checkpoint aside instead of failing to start its pipeline on it.
func TestPerChannelScoringChecked(t *testing.T) {
	good := perChannelMeta
	b, err := Encode(good(), testModel(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	meta, _, err := Decode(b)
	if err != nil || !meta.PerChannel() || meta.Scoring.Baseline.Windows[1] != 10 || meta.Rule.K != 5 || meta.Scoring.Censor != 1 {
		t.Fatalf("round trip: %+v, %v", meta, err)
	}
	for name, damage := range map[string]func(*Meta){
		"zero scale":       func(m *Meta) { m.Scoring.Population.Scale[1] = 0 },
		"short population": func(m *Meta) { m.Scoring.Population.Location = m.Scoring.Population.Location[:1] },
		"baseline shape":   func(m *Meta) { m.Scoring.Baseline.Channels = 3 },
		"baseline labels":  func(m *Meta) { m.Scoring.Baseline.Labels = []string{"C3"} },
		"negative slope":   func(m *Meta) { m.Scoring.Slope = -1 },
		"negative censor":  func(m *Meta) { m.Scoring.Censor = -1 },
		"unknown feature":  func(m *Meta) { m.Features.Names[1] = "mystery" },
	} {
		m := good()
		damage(&m)
		b, err := Encode(m, testModel(t, 2))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Decode(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
	// A bound on evidence an LDA model cannot censor.
	lda, err := classifier.New(classifier.Config{Algorithm: classifier.UOB, Learner: classifier.LearnerLDA, Features: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if b, err = Encode(good(), lda); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Decode(b); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "scoring.censor") {
		t.Errorf("censored LDA: %v, want ErrCorrupt naming scoring.censor", err)
	}
}
