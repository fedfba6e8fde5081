package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
	"github.com/ictal/ictal/internal/modelfile"
)

func TestTrainAndReplay(t *testing.T) {
	dir := t.TempDir()
	a, b, model := filepath.Join(dir, "a.edf"), filepath.Join(dir, "b.edf"), filepath.Join(dir, "m.model")
	mustRun(t,
		[]string{"synth", "-o", a, "-duration", "20m", "-seizures", "3", "-seed", "3", "-channels", "4"},
		[]string{"synth", "-o", b, "-duration", "10m", "-seizures", "2", "-seed", "4", "-channels", "4"},
	)
	var out, errb bytes.Buffer
	if code := run([]string{"train", "-o", model, a}, &out, &errb); code != 0 {
		t.Fatalf("train: %s", errb.String())
	}
	var (
		chans channelsReport
		rep   fileReport
	)
	dec := json.NewDecoder(&out)
	if err := dec.Decode(&chans); err != nil || chans.Type != "channels" || len(chans.Used) != 4 {
		t.Fatalf("train's channels line %+v: %v", chans, err)
	}
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	if rep.Seizures != 3 || rep.LearnedPos == 0 || rep.LearnedNeg == 0 {
		t.Errorf("train report %+v", rep)
	}
	mb, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	meta, _, err := modelfile.Decode(mb)
	if err != nil {
		t.Fatal(err)
	}
	wantTraining := []modelfile.Recording{{File: "a.edf", Duration: rep.Duration, Seizures: 3, Windows: rep.LearnedPos + rep.LearnedNeg}}
	if meta.Legacy || meta.Program != "ictal "+build.String() || meta.Created.IsZero() || !reflect.DeepEqual(meta.Training, wantTraining) ||
		meta.Features.Window != 2 || meta.Features.Step != 1 || len(meta.Channels) != 4 || meta.Rate != 256 {
		t.Errorf("model metadata %+v", meta)
	}
	out.Reset()
	if code := run([]string{"replay", "-model", model, b}, &out, &errb); code != 0 {
		t.Fatalf("replay: %s", errb.String())
	}
	kinds := map[string]int{}
	var sum fileReport
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		kinds[m["type"].(string)]++
		if m["type"] == "file" {
			json.Unmarshal(sc.Bytes(), &sum)
		}
	}
	if kinds["channels"] != 1 || kinds["file"] != 1 || kinds["alert"] == 0 || kinds["alert"] != kinds["end"] {
		t.Errorf("replay printed %v", kinds)
	}
	// Evaluation does not learn unless asked to.
	if sum.Seizures != 2 || sum.Detected < 1 || sum.Alerts != kinds["alert"] || sum.Learn != "off" || sum.LearnedPos+sum.LearnedNeg != 0 {
		t.Errorf("replay summary %+v", sum)
	}
	// A model of another montage is refused with a clear message.
	c8 := filepath.Join(dir, "c8.edf")
	mustRun(t, []string{"synth", "-o", c8, "-duration", "1m", "-channels", "8", "-seizures", "0"})
	errb.Reset()
	if code := run([]string{"replay", "-model", model, c8}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "same montage") {
		t.Errorf("montage mismatch: %d %s", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"train", a}, &out, &errb); code != 1 {
		t.Errorf("train without -o: %d", code)
	}
}

// synthFiles writes short simulated recordings of 4 channels (a, b; one seizure each) and 8
// channels (c8) in dir.
func synthFiles(t *testing.T, dir string) (a, b, c8 string) {
	t.Helper()
	a, b, c8 = filepath.Join(dir, "a.edf"), filepath.Join(dir, "b.edf"), filepath.Join(dir, "c8.edf")
	mustRun(t,
		[]string{"synth", "-o", a, "-duration", "4m", "-seizures", "1", "-seed", "3", "-channels", "4"},
		[]string{"synth", "-o", b, "-duration", "4m", "-seizures", "1", "-seed", "4", "-channels", "4"},
		[]string{"synth", "-o", c8, "-duration", "1m", "-seizures", "0", "-seed", "5", "-channels", "8"},
	)
	return a, b, c8
}

// The case of issue 12: a model trained with -window 4s -step 2s was
// silently accepted by a replay with 2 s and 1 s. It is refused, naming
// both differences; with the same flags it is accepted.
func TestReplayRefusesModelOfOtherFeatures(t *testing.T) {
	dir := t.TempDir()
	a, b, _ := synthFiles(t, dir)
	model := filepath.Join(dir, "m.model")
	mustRun(t, []string{"train", "-o", model, "-window", "4s", "-step", "2s", a})
	var out, errb bytes.Buffer
	code := run([]string{"replay", "-learn", "off", "-model", model, b}, &out, &errb)
	if code != 1 {
		t.Fatalf("replay with 2s/1s exited %d: %s", code, errb.String())
	}
	for _, want := range []string{model + " cannot score " + b, "window: model 4s, pipeline 2s", "step: model 2s, pipeline 1s"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("error %q lacks %q", errb.String(), want)
		}
	}
	errb.Reset()
	if code := run([]string{"replay", "-learn", "off", "-window", "4s", "-step", "2s", "-model", model, b}, &out, &errb); code != 0 {
		t.Errorf("replay with the model's own flags: %d %s", code, errb.String())
	}
}

// train refuses a recording that does not fit the model built on the
// first one (another montage), naming the file and the difference.
func TestTrainRefusesOtherMontage(t *testing.T) {
	dir := t.TempDir()
	a, _, c8 := synthFiles(t, dir)
	var out, errb bytes.Buffer
	if code := run([]string{"train", "-o", filepath.Join(dir, "m.model"), a, c8}, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), c8+" does not fit the model trained on a.edf") || !strings.Contains(errb.String(), "feature dimension: model 68, pipeline 136") {
		t.Errorf("train on 4 then 8 channels: %d %s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "m.model")); err == nil {
		t.Error("a model was written")
	}
}

// A model file written before models carried metadata (the classifier's
// bytes alone) is accepted by replay with a one-line warning, and
// `model info` prints it as legacy.
func TestLegacyModel(t *testing.T) {
	dir := t.TempDir()
	a, b, _ := synthFiles(t, dir)
	model, legacy := filepath.Join(dir, "m.model"), filepath.Join(dir, "old.model")
	mustRun(t, []string{"train", "-o", model, a})
	_, m, err := modelfile.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(legacy, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"replay", "-learn", "off", "-model", legacy, b}, &out, &errb); code != 0 {
		t.Fatalf("replay of a legacy model: %d %s", code, errb.String())
	}
	want := "warning: " + legacy + " has no metadata (written before models recorded how they were built): only its feature dimension (68) could be checked\n"
	if errb.String() != want {
		t.Errorf("stderr %q\nwant   %q", errb.String(), want)
	}
	out.Reset()
	if code := run([]string{"model", "info", legacy}, &out, &errb); code != 0 {
		t.Fatalf("model info: %s", errb.String())
	}
	var info map[string]any
	if err := json.Unmarshal(out.Bytes(), &info); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	c, _ := info["classifier"].(map[string]any)
	if len(info) != 3 || info["type"] != "model-info" || info["legacy"] != true || c["Features"] != 68.0 {
		t.Errorf("model info of a legacy file: %s", out.String())
	}
}

func TestModelInfo(t *testing.T) {
	dir := t.TempDir()
	a, b, _ := synthFiles(t, dir)
	model, saved := filepath.Join(dir, "m.model"), filepath.Join(dir, "saved.model")
	mustRun(t, []string{"train", "-o", model, "-window", "4s", "-step", "2s", a})
	var out, errb bytes.Buffer
	if code := run([]string{"model", "info", model}, &out, &errb); code != 0 {
		t.Fatalf("model info: %s", errb.String())
	}
	if !strings.HasPrefix(out.String(), "{\n  \"type\": \"model-info\",\n  \"program\": \"ictal "+build.String()+"\",\n") {
		t.Errorf("not indented JSON:\n%s", out.String())
	}
	var meta modelfile.Meta
	if err := json.Unmarshal(out.Bytes(), &meta); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	if meta.Features.Window != 4 || meta.Features.Step != 2 || meta.Features.Dim != 68 || meta.Classifier.Features != 68 ||
		meta.Conditioning == "" || len(meta.Training) != 1 || meta.Training[0].File != "a.edf" || meta.Training[0].Seizures != 1 {
		t.Errorf("model info: %+v", meta)
	}
	// replay -save appends the recording it learned from.
	if code := run([]string{"replay", "-learn", "annotations", "-window", "4s", "-step", "2s", "-model", model, "-save", saved, b}, &out, &errb); code != 0 {
		t.Fatalf("replay -save: %s", errb.String())
	}
	out.Reset()
	if code := run([]string{"model", "info", saved}, &out, &errb); code != 0 {
		t.Fatalf("model info: %s", errb.String())
	}
	meta = modelfile.Meta{}
	if err := json.Unmarshal(out.Bytes(), &meta); err != nil {
		t.Fatal(err)
	}
	if len(meta.Training) != 2 || meta.Training[1].File != "b.edf" || meta.Training[1].Windows == 0 {
		t.Errorf("saved model's training: %+v", meta.Training)
	}
	// A truncated file is refused, naming it.
	mb, _ := os.ReadFile(model)
	trunc := filepath.Join(dir, "trunc.model")
	os.WriteFile(trunc, mb[:len(mb)-1], 0o600)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"truncated", []string{"model", "info", trunc}, "ictal model: " + trunc + ": modelfile: corrupt model file"},
		{"missing", []string{"model", "info", filepath.Join(dir, "none")}, "none: no such file"},
		{"no file", []string{"model", "info"}, "one model file is required"},
		{"no subcommand", []string{"model"}, "missing subcommand"},
		{"replay of a truncated file", []string{"replay", "-model", trunc, b}, trunc + ": modelfile: corrupt model file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(tt.args, &out, &errb); code == 0 || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errb.String(), tt.want)
			}
		})
	}
}

// TestRealCytonRaisesNoAlert is the signal path's acceptance test: a
// model trained on a simulated 8-channel, 250 Hz recording, scoring the
// real OpenBCI Cyton recording (a healthy volunteer: blinks, jaw
// clenches, eyes closed) read directly, with conditioning and artifact
// rejection on and -learn off, raises no alert; the blinks and clenches
// are gated as artifacts, and nothing is learned.
func TestRealCytonRaisesNoAlert(t *testing.T) {
	cyton := datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
	dir := t.TempDir()
	rec, model := filepath.Join(dir, "sim.edf"), filepath.Join(dir, "sim.model")
	const montage = "Fp1,Fp2,C3,C4,P7,P8,O1,O2" // the OpenBCI Cyton guide's
	mustRun(t,
		[]string{"synth", "-o", rec, "-duration", "10m", "-channels", "8", "-rate", "250", "-seizures", "2", "-seed", "1"},
		[]string{"train", "-montage", montage, "-o", model, rec},
	)
	var out, errb bytes.Buffer
	if code := run([]string{"replay", "-montage", montage, "-model", model, cyton}, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	var sum fileReport
	lastLine(t, out.Bytes(), &sum)
	if sum.Alerts != 0 || sum.Learn != "off" || sum.LearnedPos+sum.LearnedNeg != 0 || sum.Windows != 88 || sum.Artifact < 20 || sum.Usable < 40 {
		t.Errorf("summary %+v", sum)
	}
	if !strings.Contains(out.String(), `"artifact":"eye","channels":["Fp1","Fp2"]`) || !strings.Contains(out.String(), `"artifact":"muscle"`) {
		t.Errorf("no eye or muscle artifact state in\n%s", out.String())
	}
	// Without -montage the model's montage does not fit the file's
	// unnamed channels, and replay says so.
	if code := run([]string{"replay", "-model", model, cyton}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "channels: model Fp1,Fp2") {
		t.Errorf("replay without -montage: %d %s", code, errb.String())
	}
}
