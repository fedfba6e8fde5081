package daemon

import (
	"context"
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
	other = strings.Replace(other, "[checkpoint]", "[classifier]\nmodel = \""+filepath.Join(dir, "model.ckpt")+"\"\n[checkpoint]", 1)
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
