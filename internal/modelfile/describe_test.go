package modelfile

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/checkpoint"
)

func testInfo(rate float64, labels ...string) acquire.Info {
	info := acquire.Info{Rate: rate}
	for _, l := range labels {
		info.Channels = append(info.Channels, acquire.Channel{Label: l})
	}
	return info
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		name string
		fcfg features.Config
		info acquire.Info
		want Meta
	}{
		{
			name: "defaults",
			fcfg: features.Config{Features: []features.Feature{features.LineLength, features.RMS}},
			info: testInfo(256, "EEG Fp1-F7", "EEG F7-T7"),
			want: Meta{
				Features:     Features{Window: 2, Step: 1, Names: []string{"line_length", "rms"}, Dim: 4},
				Conditioning: "highpass 0.5 Hz, lowpass 70 Hz, mains both, harmonics 25 dB",
				Rate:         256,
				Channels:     []string{"Fp1-F7", "F7-T7"},
			},
		},
		{
			name: "window, step, summaries, conditioning off, unnamed channels",
			fcfg: features.Config{
				Window: 4 * time.Second, Step: 2 * time.Second, Features: []features.Feature{features.RMS},
				Summaries: true, Conditioning: features.Conditioning{Off: true},
				Channels: 9, Rate: 1, Labels: []string{"ignored"}, // from info instead
			},
			info: testInfo(250, "", "", ""),
			want: Meta{
				Features:     Features{Window: 4, Step: 2, Names: []string{"rms"}, Summaries: true, Dim: 3 + 4},
				Conditioning: "off",
				Rate:         250,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Describe(tt.fcfg, tt.info)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Describe = %+v\nwant       %+v", got, tt.want)
			}
		})
	}
}

// A model made before harmonics were notched only where the low-pass
// falls short (its conditioning string has no "harmonics" part: every
// harmonic was notched) saw other filters; it is refused, and the error
// names the difference.
func TestModelBeforeHarmonicRuleRefused(t *testing.T) {
	want, err := Describe(features.Config{}, testInfo(256, "Fp1", "Fp2"))
	if err != nil {
		t.Fatal(err)
	}
	old := want
	old.Conditioning = "highpass 0.5 Hz, lowpass 70 Hz, mains both"
	old.Classifier.Features = want.Features.Dim
	err = old.Check(want)
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("Check = %v, want ErrMismatch", err)
	}
	if msg := `conditioning: model "highpass 0.5 Hz, lowpass 70 Hz, mains both", pipeline "highpass 0.5 Hz, lowpass 70 Hz, mains both, harmonics 25 dB"`; !strings.Contains(err.Error(), msg) {
		t.Fatalf("Check = %v, want it to say %s", err, msg)
	}
}

// All features by default: the names are the features package's, in its
// order, and the dimension is the extractor's.
func TestDescribeAllFeatures(t *testing.T) {
	info := testInfo(256, "Fp1", "Fp2", "C3")
	got, err := Describe(features.Config{}, info)
	if err != nil {
		t.Fatal(err)
	}
	ext, err := features.New(features.Config{Channels: 3, Rate: 256})
	if err != nil {
		t.Fatal(err)
	}
	if got.Features.Dim != ext.Dim() || len(got.Features.Names) != len(features.AllFeatures()) || got.Features.Names[0] != "line_length" {
		t.Errorf("Describe = %+v; extractor dimension %d", got.Features, ext.Dim())
	}
}

func TestDescribeInvalid(t *testing.T) {
	_, err := Describe(features.Config{}, testInfo(40, "Fp1"))
	if !errors.Is(err, features.ErrConfig) || !strings.Contains(err.Error(), "1 channels at 40 Hz") {
		t.Errorf("Describe at 40 Hz: %v", err)
	}
}

// The case of issue 12: a model trained with a 4 s window and a 2 s step
// is refused by a pipeline with 2 s and 1 s, naming both.
func TestDescribeCheckWindowStep(t *testing.T) {
	info := testInfo(256, "EEG Fp1", "EEG Fp2")
	trained, err := Describe(features.Config{Window: 4 * time.Second, Step: 2 * time.Second}, info)
	if err != nil {
		t.Fatal(err)
	}
	trained.Classifier.Features = trained.Features.Dim
	want, err := Describe(features.Config{Window: 2 * time.Second, Step: time.Second}, info)
	if err != nil {
		t.Fatal(err)
	}
	err = trained.Check(want)
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("Check = %v, want ErrMismatch", err)
	}
	for _, s := range []string{"window: model 4s, pipeline 2s", "step: model 2s, pipeline 1s"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
	if err := trained.Check(trained); err != nil {
		t.Errorf("a model checked against its own description: %v", err)
	}
}

func TestReadWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.model")
	m := testModel(t, 4)
	if err := WriteFile(path, testMeta(), m); err != nil {
		t.Fatal(err)
	}
	meta, got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Program != "ictal test" || got.Config().Features != 4 {
		t.Errorf("read back %+v, %v", meta, got.Config())
	}
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(path, b[:len(b)-10], 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = ReadFile(path)
	if !errors.Is(err, ErrCorrupt) || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("truncated file: %v", err)
	}
	if _, _, err := ReadFile(filepath.Join(t.TempDir(), "none")); err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadFileRefusesWhatIsNoModel: classifier.model naming a link to
// /dev/zero or a FIFO is refused at once, the error naming the file and
// what it is, instead of reading zeros until memory runs out or blocking
// until a writer opens the FIFO.
func TestReadFileRefusesWhatIsNoModel(t *testing.T) {
	dir := t.TempDir()
	zero, fifo := filepath.Join(dir, "zero.model"), filepath.Join(dir, "fifo.model")
	if err := errors.Join(os.Symlink("/dev/zero", zero), syscall.Mkfifo(fifo, 0o600)); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, what string }{
		{"link to /dev/zero", zero, "character device"},
		{"FIFO", fifo, "(a FIFO)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, _, err := ReadFile(tt.path)
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute): // a failure detector, not a timing requirement
				if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close() // release a blocked open, so the test ends
				}
				t.Fatalf("ReadFile(%s) did not return", tt.path)
			}
			if !errors.Is(err, checkpoint.ErrNotRegular) || !strings.HasPrefix(err.Error(), tt.path+": ") || !strings.Contains(err.Error(), tt.what) {
				t.Errorf("ReadFile = %v; want %v naming the file and %q", err, checkpoint.ErrNotRegular, tt.what)
			}
		})
	}
}
