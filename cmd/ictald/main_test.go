package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/syncbuf"
)

// waitLog waits for the daemon's log (or output) in buf to contain want;
// a daemon that never logs it is caught by go test's -timeout.
func waitLog(t *testing.T, buf *syncbuf.Buffer, want string) {
	t.Helper()
	for !strings.Contains(buf.String(), want) {
		time.Sleep(10 * time.Millisecond)
	}
}

// built is the ictald the tests run, compiled once (build) into a
// directory TestMain removes.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// build compiles ictald, once for all the tests, and returns its path.
func build(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "ictald-test-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "ictald")
		cmd := exec.Command("go", "build", "-o", built.bin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
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
	// The sample with its state directory here (systemd creates
	// /var/lib/ictald when the unit starts; check wants it to exist).
	dir := t.TempDir()
	p := filepath.Join(dir, "ictald.toml")
	os.WriteFile(p, bytes.ReplaceAll(out.Bytes(), []byte("/var/lib/ictald"), []byte(dir)), 0o600)
	out.Reset()
	if code := run([]string{"check", "-config", p}, &out, &errb); code != 0 {
		t.Errorf("check of the sample: %d %s", code, errb.String())
	}
	// check runs run's checks, past the file's values: a checkpoint path
	// that is a directory is refused.
	os.WriteFile(p, []byte("[source]\ntype = \"synth\"\n[checkpoint]\npath = \""+dir+"\"\n"), 0o600)
	errb.Reset()
	if code := run([]string{"check", "-config", p}, &out, &errb); code != exitConfig || !strings.Contains(errb.String(), "checkpoint.path") {
		t.Errorf("check of a checkpoint directory: %d %s", code, errb.String())
	}
	os.WriteFile(p, []byte("[source]\ntype = \"synth\"\n[decision]\nk = 9\n"), 0o600)
	errb.Reset()
	if code := run([]string{"check", "-config", p}, &out, &errb); code != exitConfig || !strings.Contains(errb.String(), "decision") {
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
	var stdout, stderr syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Each step waits for the daemon's log saying the last one was done,
	// not for a time that a busy machine may exceed.
	waitLog(t, &stderr, "msg=running") // signal handlers installed
	// SIGHUP reloads the decision rule; a bad file is rejected and the
	// daemon keeps running.
	os.WriteFile(cfg, []byte("[source]\ntype = \"synth\"\n[decision]\nk = 9\n"), 0o600)
	cmd.Process.Signal(syscall.SIGHUP)
	waitLog(t, &stderr, "configuration rejected")
	os.WriteFile(cfg, []byte("[source]\ntype = \"synth\"\n[decision]\nk = 2\n"), 0o600)
	cmd.Process.Signal(syscall.SIGHUP)
	waitLog(t, &stderr, "decision rule reloaded")
	waitLog(t, &stdout, `"state":"online"`) // past the artifact detector's warm-up
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	err := <-done
	if err != nil {
		t.Fatalf("exit: %v\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatalf("no checkpoint: %v\n%s", err, stderr.String())
	}
	if meta, _, err := modelfile.Decode(b); err != nil || meta.Legacy || meta.Program != "ictald "+buildInfo.String() {
		t.Fatalf("checkpoint: %v, %+v", err, meta)
	}
	for _, want := range []string{"configuration rejected", "decision rule reloaded", "level=INFO msg=\"ictald stopped\""} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	// The reload names the rule's fields, and no line dumps a Go struct
	// (rule="{Threshold:0.5 K:3 …}") or has an empty message.
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, `="{`) || strings.Contains(line, `msg=""`) {
			t.Errorf("log line: %s", line)
		}
	}
	// k = 2 with n and the threshold left to their defaults: the day-one
	// model's threshold, as at start, with the default n.
	if !regexp.MustCompile(`msg="decision rule reloaded" threshold=0\.787\d* k=2 n=4 `).MatchString(stderr.String()) {
		t.Errorf("reload does not name the rule's fields:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), `"state":"online"`) {
		t.Errorf("stdout %s", stdout.String())
	}
}

// linesWith returns the lines of log that contain s.
func linesWith(log, s string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

// waitLines waits until the daemon's log in buf has n lines containing s
// and returns them; a daemon that exits first (exited is closed) fails
// the test.
func waitLines(t *testing.T, buf *syncbuf.Buffer, exited <-chan struct{}, s string, n int) []string {
	t.Helper()
	for {
		if l := linesWith(buf.String(), s); len(l) >= n {
			return l
		}
		select {
		case <-exited:
			t.Fatalf("ictald exited before %d lines with %s:\n%s", n, s, buf.String())
		case <-time.After(10 * time.Millisecond): // look again
		}
	}
}

// TestReloadKeepsTheModelsRule: a reload (SIGHUP, `systemctl reload`)
// resolves the decision rule exactly as the start did. ictald starts
// from the day-one model, whose own rule (0.787, 5 of 6) applies where
// [decision] leaves the default; a reload of the unchanged file used to
// replace it with the generic rule (0.5, 3 of 4), loosening the detector
// without a word. A reload that sets the threshold keeps the model's k of
// n, one that sets k and n keeps its threshold, as a start would.
func TestReloadKeepsTheModelsRule(t *testing.T) {
	bin := build(t)
	cfg := filepath.Join(t.TempDir(), "ictald.toml")
	base := "[source]\ntype = \"synth\"\nchannels = 4\nspeed = 20\nseizures = 0\n[checkpoint]\npath = \"\"\n[output]\njsonl = \"\"\n"
	if err := os.WriteFile(cfg, []byte(base), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "-config", cfg)
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var exitErr error
	go func() { exitErr = cmd.Wait(); close(exited) }()
	defer func() { cmd.Process.Kill(); <-exited }()
	const dayOne = `threshold=0\.787\d* k=5 n=6` // the day-one model's 0.7874896843033917
	waitLines(t, &stderr, exited, `msg=model from="the day-one model"`, 1)
	if l := waitLines(t, &stderr, exited, "msg=running", 1); !regexp.MustCompile(dayOne + "$").MatchString(l[0]) {
		t.Fatalf("start: %s\nwant the day-one model's rule, %s", l[0], dayOne)
	}
	steps := []struct{ decision, want string }{
		{"", dayOne}, // the file unchanged
		{"[decision]\nthreshold = 0.9\n", `threshold=0\.9 k=5 n=6`},
		{"[decision]\nk = 2\nn = 3\n", `threshold=0\.787\d* k=2 n=3`},
		{"", dayOne}, // back to the model's rule
	}
	for i, st := range steps {
		if err := os.WriteFile(cfg, []byte(base+st.decision), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd.Process.Signal(syscall.SIGHUP)
		l := waitLines(t, &stderr, exited, `msg="decision rule reloaded"`, i+1)[i]
		if !regexp.MustCompile(`msg="decision rule reloaded" ` + st.want + " ").MatchString(l) {
			t.Errorf("reload %d (%q): %s\nwant %s", i+1, st.decision, l, st.want)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	<-exited
	if exitErr != nil {
		t.Errorf("exit: %v\n%s", exitErr, stderr.String())
	}
}

// A daemon that fails on its configuration — here its recording is
// missing, or a key is out of range — logs why at ERROR, with the syslog
// priority err when its standard error is the journal, and exits 78
// (exitConfig) without printing the error a second time.
func TestRunFailureIsLoggedAtError(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.edf")
	good := filepath.Join(dir, "ictald.toml")
	os.WriteFile(good, []byte("[source]\ntype = \"file\"\npath = \""+missing+"\"\n"), 0o600)
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[source]\ntype = \"synth\"\n[decision]\nk = 9\n"), 0o600)
	tests := []struct {
		name    string
		config  string
		journal bool
		want    string
	}{
		{"recording missing", good, false, `level=ERROR msg="ictald stopped" uptime=0s err="invalid configuration: source.path: `},
		{"recording missing, journal", good, true, `<3>level=ERROR msg="ictald stopped" uptime=0s err="invalid configuration: source.path: `},
		{"configuration rejected", bad, false, `level=ERROR msg="ictald: configuration rejected" config=` + bad + ` err="` + bad + `: invalid configuration: decision.k`},
		{"configuration rejected, journal", bad, true, `<3>level=ERROR msg="ictald: configuration rejected" config=`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			t.Setenv("JOURNAL_STREAM", "")
			if tt.journal {
				fi, _ := f.Stat()
				st := fi.Sys().(*syscall.Stat_t)
				t.Setenv("JOURNAL_STREAM", fmt.Sprintf("%d:%d", st.Dev, st.Ino))
			}
			var out bytes.Buffer
			code := run([]string{"run", "-config", tt.config}, &out, f)
			b, _ := os.ReadFile(f.Name())
			if code != exitConfig || !strings.Contains(string(b), tt.want) { // both are the configuration's
				t.Fatalf("exit %d, stderr:\n%s\nwant a line with %s", code, b, tt.want)
			}
			if strings.Contains(string(b), "ictald run: ") {
				t.Errorf("the error is printed again:\n%s", b)
			}
			if tt.journal && regexp.MustCompile(`(?m)(^|[> ])time=`).Match(b) {
				t.Errorf("a time under the journal:\n%s", b)
			}
		})
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

// TestDemoRefusesBadSpeed: a speed that is no multiple of real time is
// refused before anything runs (nan played the demo unpaced).
func TestDemoRefusesBadSpeed(t *testing.T) {
	for _, speed := range []string{"nan", "inf", "-5"} {
		var out, errb bytes.Buffer
		if code := run([]string{"demo", "-speed", speed}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "-speed") || out.Len() != 0 {
			t.Errorf("-speed %s: exit %d, %q, output %q", speed, code, errb.String(), out.String())
		}
	}
}

// TestGCPercent: ictald collects at gcPercent unless GOGC says otherwise.
func TestGCPercent(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	setGCPercent(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC: GC percent %d, want %d", got, gcPercent)
	}
	debug.SetGCPercent(200) // as the runtime does for GOGC=200
	setGCPercent(func(k string) string {
		if k == "GOGC" {
			return "200"
		}
		return ""
	})
	if got := debug.SetGCPercent(100); got != 200 {
		t.Errorf("with GOGC=200: GC percent %d, want 200 kept", got)
	}
}
