package daemon

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
	"github.com/ictal/ictal/internal/modelfile"
)

// outputsIn is the [checkpoint] and [output] tables of a test
// configuration that writes model.ckpt and out.jsonl into dir.
func outputsIn(dir string) string {
	return `[checkpoint]
path = "` + filepath.Join(dir, "model.ckpt") + `"
[output]
jsonl = "` + filepath.Join(dir, "out.jsonl") + `"
`
}

// TestRunOpenBCIRecording runs the daemon on the real Cyton recording as
// a file source with the electrodes named: the status names them, the
// first seconds are settling, and the checkpoint records the montage.
func TestRunOpenBCIRecording(t *testing.T) {
	path := datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
	dir := t.TempDir()
	text := `
[source]
type = "file"
path = "` + path + `"
labels = ["Fp1", "Fp2", "C3", "C4", "P7", "P8", "O1", "O2"]
[classifier]
model = "new" # a model of this montage's whole vector, not the day-one model
` + outputsIn(dir)
	cfg, err := ParseConfig(text, "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), cfg, slog.New(slog.DiscardHandler), Options{}); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(dir, "out.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"state":"artifact","since":"2019-05-15T16:00:55.329Z","artifact":"settling"`,
		`"artifact":"eye","channels":["Fp1","Fp2"]`,
		`"artifact":"muscle","channels":["C3"`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	meta, _, err := modelfile.ReadFile(filepath.Join(dir, "model.ckpt"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(meta.Channels, ",") != "Fp1,Fp2,C3,C4,P7,P8,O1,O2" || meta.Rate != 250 {
		t.Errorf("checkpoint montage %v at %g Hz", meta.Channels, meta.Rate)
	}

	// The same recording with the labels of another montage is refused
	// by a model built for this one, naming the difference.
	other := strings.Replace(text, `"O1", "O2"`, `"T7", "T8"`, 1)
	other = strings.Replace(other, "model.ckpt", "other.ckpt", 1)
	other = strings.Replace(other, `model = "new"`, `model = "`+filepath.Join(dir, "model.ckpt")+`"`, 1)
	if cfg, err = ParseConfig(other, "test.toml"); err != nil {
		t.Fatal(err)
	}
	err = Run(context.Background(), cfg, slog.New(slog.DiscardHandler), Options{})
	if err == nil || !strings.Contains(err.Error(), "channels: model Fp1,Fp2,C3,C4,P7,P8,O1,O2, pipeline Fp1,Fp2,C3,C4,P7,P8,T7,T8") {
		t.Errorf("a model of another montage: %v", err)
	}
}

func TestSourceLabelErrors(t *testing.T) {
	path := datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
	for _, tt := range []struct{ labels, want string }{
		{`["Fp1", "Fp2"]`, "source.labels: 2 labels for 8 channels"},
		{`["Fp1", "Fp1", "C3", "C4", "P7", "P8", "O1", "O2"]`, `source.labels: label "Fp1" given for channels 1 and 2`},
		{`["Fp1", " ", "C3", "C4", "P7", "P8", "O1", "O2"]`, "source.labels: label 2 is empty"},
	} {
		cfg, err := ParseConfig("[source]\ntype = \"file\"\npath = \""+path+"\"\nlabels = "+tt.labels+"\n", "test.toml")
		if err == nil {
			_, err = OpenSource(context.Background(), cfg.Source, slog.New(slog.DiscardHandler))
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("labels %s: %v, want %q", tt.labels, err, tt.want)
		}
	}
}

// TestSourceChoosesEEG opens an OpenBCI sleep recording (EOG, EMG, ECG,
// trigger and accelerometer channels beside the EEG) as a file source: the
// EEG channels are served and the choice is logged once, with every
// channel left out and why; source.select overrides it.
func TestSourceChoosesEEG(t *testing.T) {
	path := datadir.Path(t, "data", "eeg", "edf-conformance", "mne-testing-data", "multiple_annotation_chans.bdf")
	var logged strings.Builder
	src, err := OpenSource(context.Background(), SourceConfig{Type: "file", Path: path}, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var labels []string
	for _, c := range src.Info().Channels {
		labels = append(labels, c.Label)
	}
	if got := strings.Join(labels, " "); got != "A1 A2 C3 C4 F3 Fz F4 P3 Pz P4 O1 O2" {
		t.Errorf("channels %s", got)
	}
	for _, want := range []string{"msg=channels by=labels used=\"[A1 A2 C3", `EMG: signal type EMG (muscle)`, `Trigger: names a channel of triggers or events`,
		`acc1: unit \"G\" is not a voltage`, "BDF Annotations: annotation signal"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, logged.String())
		}
	}
	if n := strings.Count(logged.String(), "msg=channels"); n != 1 {
		t.Errorf("the choice is logged %d times", n)
	}

	sel, err := OpenSource(context.Background(), SourceConfig{Type: "file", Path: path, Select: []string{"c4", "ECG"}}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer sel.Close()
	if ch := sel.Info().Channels; len(ch) != 2 || ch[0].Label != "C4" || ch[1].Label != "ECG" {
		t.Errorf("source.select c4,ECG: %+v", ch)
	}
	_, err = OpenSource(context.Background(), SourceConfig{Type: "file", Path: path, Select: []string{"Cz"}}, slog.New(slog.DiscardHandler))
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), `source.select: `+path+`: acquire: no channel "Cz"`) {
		t.Errorf("a selected channel that is not there: %v", err)
	}
}
