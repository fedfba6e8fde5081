package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/dayone"
	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/pipeline"
	"github.com/ictal/ictal/internal/syncbuf"
)

// testMeta is the description of a pipeline making 4 features.
func testMeta() modelfile.Meta {
	return modelfile.Meta{
		Features:     modelfile.Features{Window: 2, Step: 1, Names: []string{"line_length", "rms"}, Dim: 4},
		Conditioning: "highpass 0.5 Hz, lowpass 70 Hz, mains both",
		Rate:         256,
		Channels:     []string{"Fp1", "Fp2"},
	}
}

func TestLoadModelFallbacks(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "model.ckpt")
	cfg := classifier.Config{Algorithm: "UOB", Features: 4}
	want := testMeta()
	log := slog.New(slog.DiscardHandler)

	m, _, from, err := LoadModel(ckpt, "", cfg, want, log)
	if err != nil || from != "new untrained model" {
		t.Fatalf("first start: %v, %q", err, from)
	}
	m.Learn([]float64{1, 2, 3, 4}, true)
	if err := modelfile.WriteFile(ckpt, want, m); err != nil {
		t.Fatal(err)
	}
	if _, _, from, err = LoadModel(ckpt, "", cfg, want, log); err != nil || !strings.HasPrefix(from, "checkpoint") {
		t.Fatalf("restart: %v, %q", err, from)
	}
	// A truncated checkpoint is set aside and the daemon starts fresh.
	b, _ := os.ReadFile(ckpt)
	os.WriteFile(ckpt, b[:len(b)/2], 0o600)
	var logs bytes.Buffer
	m2, _, from, err := LoadModel(ckpt, "", cfg, want, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil || from != "new untrained model" || m2 == nil {
		t.Fatalf("corrupt checkpoint: %v, %q", err, from)
	}
	if _, err := os.Stat(ckpt); err == nil {
		t.Error("corrupt checkpoint left in place")
	}
	set, _ := filepath.Glob(ckpt + ".corrupt-*")
	if len(set) != 1 || !strings.Contains(logs.String(), "set aside") {
		t.Errorf("set aside as %v; log %s", set, logs.String())
	}
	// A checkpoint of another dimension is set aside too, and the trained
	// bootstrap model takes over.
	other, _ := classifier.New(classifier.Config{Algorithm: "UOB", Features: 6})
	wide := want
	wide.Features.Dim = 6
	modelfile.WriteFile(ckpt, wide, other)
	boot := filepath.Join(dir, "patient.model")
	modelfile.WriteFile(boot, want, m)
	if _, _, from, err = LoadModel(ckpt, boot, cfg, want, log); err != nil || !strings.HasPrefix(from, "trained model") {
		t.Fatalf("dimension change: %v, %q", err, from)
	}
	// A bad bootstrap model is an error: it was configured explicitly.
	os.WriteFile(boot, []byte("nonsense"), 0o600)
	if _, _, _, err = LoadModel(filepath.Join(dir, "none.ckpt"), boot, cfg, want, log); err == nil || !strings.Contains(err.Error(), boot) {
		t.Errorf("a corrupt classifier.model: %v", err)
	}
}

// A checkpoint or bootstrap model built for another configuration of the
// same dimension (here a 4 s window and 2 s step, the daemon 2 s and 1 s)
// is handled as a dimension mismatch: the checkpoint set aside, the
// bootstrap refused, naming the difference.
func TestLoadModelConfigurationMismatch(t *testing.T) {
	dir := t.TempDir()
	ckpt, boot := filepath.Join(dir, "model.ckpt"), filepath.Join(dir, "patient.model")
	cfg := classifier.Config{Algorithm: "UOB", Features: 4}
	want := testMeta()
	trained := want
	trained.Features.Window, trained.Features.Step = 4, 2
	m, _ := classifier.New(cfg)
	modelfile.WriteFile(ckpt, trained, m)
	var logs bytes.Buffer
	_, _, from, err := LoadModel(ckpt, "", cfg, want, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil || from != "new untrained model" {
		t.Fatalf("checkpoint of another window: %v, %q", err, from)
	}
	if set, _ := filepath.Glob(ckpt + ".corrupt-*"); len(set) != 1 || !strings.Contains(logs.String(), "window: model 4s, pipeline 2s") {
		t.Errorf("set aside as %v; log %s", set, logs.String())
	}
	modelfile.WriteFile(boot, trained, m)
	_, _, _, err = LoadModel(ckpt, boot, cfg, want, slog.New(slog.DiscardHandler))
	if !errors.Is(err, modelfile.ErrMismatch) {
		t.Fatalf("bootstrap of another window: %v", err)
	}
	for _, s := range []string{"classifier.model " + boot, "window: model 4s, pipeline 2s", "step: model 2s, pipeline 1s"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
}

// A checkpoint or bootstrap model written before the modelfile format (the
// classifier's bytes alone) loads with its dimension checked and a log
// line; the Meta returned, which the next checkpoint writes, is the
// daemon's own (the migration).
func TestLoadModelLegacy(t *testing.T) {
	dir := t.TempDir()
	ckpt, boot := filepath.Join(dir, "model.ckpt"), filepath.Join(dir, "patient.model")
	cfg := classifier.Config{Algorithm: "UOB", Features: 4}
	want := testMeta()
	m, _ := classifier.New(cfg)
	raw, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(ckpt, raw, 0o600)
	var logs bytes.Buffer
	_, meta, from, err := LoadModel(ckpt, "", cfg, want, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil || !strings.HasPrefix(from, "checkpoint") {
		t.Fatalf("legacy checkpoint: %v, %q", err, from)
	}
	if !strings.Contains(logs.String(), "rewritten in the new format at the next checkpoint") || meta.Legacy || !reflect.DeepEqual(meta, want) {
		t.Errorf("legacy checkpoint: meta %+v; log %s", meta, logs.String())
	}
	// Of another dimension, it is set aside.
	wide, _ := classifier.New(classifier.Config{Algorithm: "UOB", Features: 6})
	raw6, _ := wide.MarshalBinary()
	os.WriteFile(ckpt, raw6, 0o600)
	logs.Reset()
	if _, _, from, err = LoadModel(ckpt, "", cfg, want, slog.New(slog.NewTextHandler(&logs, nil))); err != nil || from != "new untrained model" ||
		!strings.Contains(logs.String(), "feature dimension: model 6, pipeline 4") {
		t.Errorf("legacy checkpoint of another dimension: %v, %q; log %s", err, from, logs.String())
	}
	os.WriteFile(boot, raw, 0o600)
	logs.Reset()
	if _, _, from, err = LoadModel("", boot, cfg, want, slog.New(slog.NewTextHandler(&logs, nil))); err != nil || !strings.HasPrefix(from, "trained model") ||
		!strings.Contains(logs.String(), "only its feature dimension could be checked") {
		t.Errorf("legacy bootstrap: %v, %q; log %s", err, from, logs.String())
	}
	os.WriteFile(boot, raw6, 0o600)
	if _, _, _, err = LoadModel("", boot, cfg, want, slog.New(slog.DiscardHandler)); !errors.Is(err, modelfile.ErrMismatch) {
		t.Errorf("legacy bootstrap of another dimension: %v", err)
	}
}

// The checkpoints carry the training history of the model they started
// from.
func TestLoadModelKeepsTraining(t *testing.T) {
	boot := filepath.Join(t.TempDir(), "patient.model")
	cfg := classifier.Config{Algorithm: "UOB", Features: 4}
	trained := testMeta()
	trained.Program = "ictal test"
	trained.Training = []modelfile.Recording{{File: "a.edf", Duration: 600, Seizures: 2, Windows: 599}}
	m, _ := classifier.New(cfg)
	modelfile.WriteFile(boot, trained, m)
	_, meta, _, err := LoadModel("", boot, cfg, testMeta(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	want := testMeta()
	want.Training = trained.Training
	if !reflect.DeepEqual(meta, want) {
		t.Errorf("meta %+v\nwant %+v", meta, want)
	}
}

// TestRunWritesCheckpointOnStop runs the daemon on a simulated patient,
// stops it, and checks a final checkpoint was written and loads.
func TestRunWritesCheckpointOnStop(t *testing.T) {
	dir := t.TempDir()
	text := `
[source]
type = "synth"
channels = 4
speed = 200
seizures = 0
duration = "2m"
` + outputsIn(dir)
	cfg, err := ParseConfig(text, "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	// The source ends after 2 simulated minutes (0.6 s at 200×): Run
	// returns at its end (one that did not would hang: go test -timeout).
	ready := false
	windows := 0
	if err := Run(context.Background(), cfg, slog.New(slog.DiscardHandler), Options{Ready: func() { ready = true }, Window: func(pipeline.Stats) { windows++ }}); err != nil {
		t.Fatal(err)
	}
	if !ready || windows < 100 {
		t.Errorf("ready %v, %d windows", ready, windows)
	}
	b, err := os.ReadFile(filepath.Join(dir, "model.ckpt"))
	if err != nil {
		t.Fatal(err)
	}
	meta, _, err := modelfile.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	// Without a model the daemon starts from the day-one model, per
	// channel: the checkpoint records no montage, and the patient's
	// baseline for each of the 4 channels, having taken in the usable
	// windows.
	if meta.Legacy || meta.Program != "ictald" || meta.Created.IsZero() || meta.Features.Window != 2 || len(meta.Channels) != 0 ||
		!meta.PerChannel() || meta.Classifier.Features != len(meta.Features.Names) || meta.Rule == nil {
		t.Errorf("checkpoint metadata %+v", meta)
	} else if b := meta.Scoring.Baseline; b == nil || b.Channels != 4 || b.Windows[0] < 50 {
		t.Errorf("checkpoint baseline %+v", b)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "out.jsonl"))
	if !strings.Contains(string(out), `"type":"status","v":1,"state":"online"`) {
		t.Errorf("output: %s", out)
	}
}

// TestCheckpointKeepsItsScoring: a checkpoint of a bed that started from
// an earlier day-one model (uncensored, its own threshold) goes on grading
// as it was written, and the next checkpoint records the same scoring and
// rule: an upgrade of the shipped model does not change a running
// patient's detector.
func TestCheckpointKeepsItsScoring(t *testing.T) {
	dir := t.TempDir()
	meta, m, err := dayone.Load()
	if err != nil {
		t.Fatal(err)
	}
	if meta.Scoring.Censor == 0 {
		t.Fatal("the shipped day-one model does not censor: this test has nothing to tell apart")
	}
	meta.Scoring.Censor, meta.Rule.Threshold = 0, 0.532
	meta.Program = "ictald"
	if err := modelfile.WriteFile(filepath.Join(dir, "model.ckpt"), meta, m); err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(`
[source]
type = "synth"
channels = 4
speed = 200
seizures = 0
duration = "1m"
`+outputsIn(dir), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), cfg, slog.New(slog.DiscardHandler), Options{}); err != nil {
		t.Fatal(err)
	}
	got, _, err := modelfile.ReadFile(filepath.Join(dir, "model.ckpt"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Scoring == nil || got.Scoring.Censor != 0 || got.Rule == nil || got.Rule.Threshold != 0.532 || got.Scoring.Baseline == nil {
		t.Errorf("the next checkpoint: scoring %+v, rule %+v; want the loaded one's (censor 0, threshold 0.532) with a baseline", got.Scoring, got.Rule)
	}
}

func TestDemo(t *testing.T) {
	var out bytes.Buffer
	sum, err := Demo(context.Background(), DemoOptions{Duration: 5 * time.Minute, Speed: 1000, TrainDuration: 20 * time.Minute, TrainSeizures: 4, Seed: 1}, &out, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(out.String())
	if len(sum.Seizures) != 2 || sum.Detected < 1 {
		t.Errorf("demo detected %d of %d seizures", sum.Detected, len(sum.Seizures))
	}
	for _, want := range []string{"SEIZURE ALERT", "summary:", "status online"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// TestDemoWithBoard runs the demo with the embedded broker and the ward
// board: every alert is judged by the demo's clinician through the
// board's HTTP API, and the monitor applies every verdict. Blind, the
// clinician judges as if the recording held no seizure and rejects every
// alert: the rejection path end to end (the simulated patient gives the
// detector few false alarms to reject).
func TestDemoWithBoard(t *testing.T) {
	for _, blind := range []bool{false, true} {
		t.Run(fmt.Sprintf("blind=%v", blind), func(t *testing.T) {
			var out syncbuf.Buffer
			sum, err := Demo(context.Background(), DemoOptions{Duration: 5 * time.Minute, Speed: 1000, TrainDuration: 20 * time.Minute, TrainSeizures: 4, Seed: 1,
				MQTTListen: "127.0.0.1:0", BoardListen: "127.0.0.1:0", clinicianBlind: blind}, &out, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			t.Log(out.String())
			alerts := sum.Detected + sum.FalseAlarms
			if alerts == 0 {
				t.Fatal("no alert to judge")
			}
			confirmed, rejected, verdict := sum.Detected, sum.FalseAlarms, "confirmed"
			if blind {
				confirmed, rejected, verdict = 0, alerts, "rejected"
			}
			want := fmt.Sprintf("confirmed %d alerts and rejected %d through the board's HTTP API; the monitor applied %d of these verdicts", confirmed, rejected, alerts)
			for _, w := range []string{want, "feedback/ack  " + verdict, `log in as "demo" with the one-time password`} {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q", w)
				}
			}
		})
	}
}

func TestDemoShortDurations(t *testing.T) {
	var out bytes.Buffer
	if _, err := Demo(context.Background(), DemoOptions{Duration: time.Minute, Speed: 1000, TrainDuration: 10 * time.Minute, TrainSeizures: 2}, &out, slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("a 1-minute demo with a seizure: %v", err)
	}
	sum, err := Demo(context.Background(), DemoOptions{Duration: 2 * time.Minute, Speed: 1000, TrainDuration: 10 * time.Minute, TrainSeizures: 2}, &out, slog.New(slog.DiscardHandler))
	if err != nil || len(sum.Seizures) != 1 {
		t.Errorf("a 2-minute demo: %v, %d seizures", err, len(sum.Seizures))
	}
}
