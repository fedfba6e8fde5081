package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ictal/ictal/internal/modelfile"
)

// build compiles ictald into a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ictald")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestCommands(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"version"}, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "ictald "+buildInfo.String()+" go") {
		t.Errorf("version: %d %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"config"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "[classifier]") {
		t.Errorf("config: %d", code)
	}
	p := filepath.Join(t.TempDir(), "ictald.toml")
	os.WriteFile(p, out.Bytes(), 0o600)
	out.Reset()
	if code := run([]string{"check", "-config", p}, &out, &errb); code != 0 {
		t.Errorf("check of the sample: %d %s", code, errb.String())
	}
	os.WriteFile(p, []byte("[source]\ntype = \"synth\"\n[decision]\nk = 9\n"), 0o600)
	errb.Reset()
	if code := run([]string{"check", "-config", p}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "decision") {
		t.Errorf("check of a bad config: %d %s", code, errb.String())
	}
	// A positional argument is refused, wherever the flags are, rather
	// than ending the flags and leaving -config unread.
	errb.Reset()
	if code := run([]string{"check", "stray", "-config", p}, &out, &errb); code != 1 || !strings.Contains(errb.String(), `unexpected argument "stray"`) {
		t.Errorf("check with a stray argument: %d %s", code, errb.String())
	}
	if code := run([]string{"frobnicate"}, &out, &errb); code != 2 {
		t.Errorf("unknown command: %d", code)
	}
}

// TestRunStopsCleanlyOnSIGTERM runs the real binary on a simulated patient,
// sends SIGTERM, and checks it exits 0 with a final checkpoint that loads.
func TestRunStopsCleanlyOnSIGTERM(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "model.ckpt")
	cfg := filepath.Join(dir, "ictald.toml")
	os.WriteFile(cfg, []byte(`
[source]
type = "synth"
channels = 4
speed = 50
[checkpoint]
path = "`+ckpt+`"
[output]
jsonl = "-"
`), 0o600)
	cmd := exec.Command(bin, "run", "-config", cfg)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	// SIGHUP reloads the decision rule; a bad file is rejected and the
	// daemon keeps running.
	os.WriteFile(cfg, []byte("[source]\ntype = \"synth\"\n[decision]\nk = 9\n"), 0o600)
	cmd.Process.Signal(syscall.SIGHUP)
	time.Sleep(300 * time.Millisecond)
	os.WriteFile(cfg, []byte("[source]\ntype = \"synth\"\n[decision]\nk = 2\n"), 0o600)
	cmd.Process.Signal(syscall.SIGHUP)
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("ictald did not stop within 10 s of SIGTERM")
	}
	b, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatalf("no checkpoint: %v\n%s", err, stderr.String())
	}
	if meta, _, err := modelfile.Decode(b); err != nil || meta.Legacy || meta.Program != "ictald "+buildInfo.String() {
		t.Fatalf("checkpoint: %v, %+v", err, meta)
	}
	for _, want := range []string{"configuration rejected", "decision rule reloaded", "ictald stopped"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), `"state":"online"`) {
		t.Errorf("stdout %s", stdout.String())
	}
}

func TestDemoCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"demo", "-duration", "3m", "-speed", "2000", "-mqtt-listen", "127.0.0.1:0"}, &out, &errb); code != 0 {
		t.Fatalf("demo exited %d: %s", code, errb.String())
	}
	// The alerts went through the embedded broker to the demo's subscriber.
	for _, want := range []string{"summary:", "SEIZURE ALERT", "↳ MQTT ictal/demo/bed-1/alert", "↳ MQTT ictal/demo/bed-1/status  online"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out.String())
		}
	}
}
