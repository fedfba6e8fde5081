package daemon

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/pipeline"
)

func TestLoadModelFallbacks(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "model.ckpt")
	cfg := classifier.Config{Algorithm: "UOB", Features: 4}
	log := slog.New(slog.DiscardHandler)

	m, from, err := LoadModel(ckpt, "", cfg, log)
	if err != nil || from != "new untrained model" {
		t.Fatalf("first start: %v, %q", err, from)
	}
	m.Learn([]float64{1, 2, 3, 4}, true)
	if err := SaveModel(ckpt, m); err != nil {
		t.Fatal(err)
	}
	if _, from, err = LoadModel(ckpt, "", cfg, log); err != nil || !strings.HasPrefix(from, "checkpoint") {
		t.Fatalf("restart: %v, %q", err, from)
	}
	// A truncated checkpoint is set aside and the daemon starts fresh.
	b, _ := os.ReadFile(ckpt)
	os.WriteFile(ckpt, b[:len(b)/2], 0o600)
	var logs bytes.Buffer
	m2, from, err := LoadModel(ckpt, "", cfg, slog.New(slog.NewTextHandler(&logs, nil)))
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
	SaveModel(ckpt, other)
	boot := filepath.Join(dir, "patient.model")
	SaveModel(boot, m)
	if _, from, err = LoadModel(ckpt, boot, cfg, log); err != nil || !strings.HasPrefix(from, "trained model") {
		t.Fatalf("dimension change: %v, %q", err, from)
	}
	// A bad bootstrap model is an error: it was configured explicitly.
	os.WriteFile(boot, []byte("nonsense"), 0o600)
	if _, _, err = LoadModel(filepath.Join(dir, "none.ckpt"), boot, cfg, log); err == nil {
		t.Error("a corrupt classifier.model was accepted")
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
[checkpoint]
path = "` + filepath.Join(dir, "model.ckpt") + `"
[output]
jsonl = "` + filepath.Join(dir, "out.jsonl") + `"
`
	cfg, err := ParseConfig(text, "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	ready := false
	windows := 0
	if err := Run(ctx, cfg, slog.New(slog.DiscardHandler), Options{Ready: func() { ready = true }, Window: func(pipeline.Stats) { windows++ }}); err != nil {
		t.Fatal(err)
	}
	if !ready || windows < 100 {
		t.Errorf("ready %v, %d windows", ready, windows)
	}
	b, err := os.ReadFile(filepath.Join(dir, "model.ckpt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := classifier.Load(b); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "out.jsonl"))
	if !strings.Contains(string(out), `"type":"status","v":1,"state":"online"`) {
		t.Errorf("output: %s", out)
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
