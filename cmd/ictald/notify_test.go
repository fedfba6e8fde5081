package main

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/internal/pipeline"
	"github.com/ictal/ictal/systemd"
)

// TestNotifierRateLimitsKeepAlives drives the notifier with a fake clock:
// READY=1 first, then WATCHDOG=1 only when half the watchdog period has
// passed, never without the watchdog.
func TestNotifierRateLimitsKeepAlives(t *testing.T) {
	tests := []struct {
		name    string
		every   time.Duration
		windows []time.Duration // when each window ends, after ready
		pings   int
	}{
		{"one ping per half period at one window a second", 2 * time.Second, secs(1, 2, 3, 4, 5, 6), 3},
		{"no keep-alive before half the period has passed", 10 * time.Second, secs(1, 2, 3, 4, 5, 6), 0},
		{"a late window after a stall pings at once", 2 * time.Second, secs(30), 1},
		{"no watchdog, no pings", 0, secs(1, 2, 3, 30), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t0 := time.Unix(1000, 0)
			now := t0
			var sent []string
			n := &notifier{
				send:  func(s string) (bool, error) { sent = append(sent, s); return true, nil },
				now:   func() time.Time { return now },
				every: tt.every,
				log:   slog.New(slog.DiscardHandler),
			}
			n.ready()
			for _, w := range tt.windows {
				now = t0.Add(w)
				n.window(pipeline.Stats{Windows: 7, Usable: 6, Events: 1})
			}
			if len(sent) == 0 || !strings.HasPrefix(sent[0], "READY=1\nSTATUS=") {
				t.Fatalf("first message %q, want READY=1 with a status", sent)
			}
			pings := 0
			for _, s := range sent[1:] {
				if !strings.HasPrefix(s, "WATCHDOG=1\nSTATUS=monitoring: 7 windows (6 usable), 1 events, 0 gaps") {
					t.Errorf("unexpected message %q", s)
				}
				pings++
			}
			if pings != tt.pings {
				t.Errorf("%d keep-alives, want %d (%q)", pings, tt.pings, sent)
			}
		})
	}
}

func secs(s ...int) []time.Duration {
	d := make([]time.Duration, len(s))
	for i, v := range s {
		d[i] = time.Duration(v) * time.Second
	}
	return d
}

// notifySocket listens on a unixgram socket like systemd's and delivers
// every datagram on the returned channel.
func notifySocket(t *testing.T) (string, <-chan string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notify.sock")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ch := make(chan string, 1024)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := c.Read(buf)
			if err != nil {
				close(ch)
				return
			}
			ch <- string(buf[:n])
		}
	}()
	return path, ch
}

// startRun runs the built ictald on config with NOTIFY_SOCKET and a 1 s
// watchdog, as systemd would with Type=notify and WatchdogSec=1.
func startRun(t *testing.T, bin, config, sock string) *bytes.Buffer {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "ictald.toml")
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "-config", cfg)
	cmd.Env = append(os.Environ(), "NOTIFY_SOCKET="+sock, "WATCHDOG_USEC=1000000")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("ictald stderr:\n%s", stderr.String())
		}
	})
	return &stderr
}

// next waits up to d for a datagram.
func next(ch <-chan string, d time.Duration) (string, bool) {
	select {
	case m, ok := <-ch:
		return m, ok
	case <-time.After(d):
		return "", false
	}
}

// runReady builds ictald and runs it (startRun) on a simulated patient of
// 4 channels paced at speed times real time, with no checkpoint and no
// output, and waits for its READY=1; the channel delivers the datagrams
// that follow.
func runReady(t *testing.T, speed string) <-chan string {
	t.Helper()
	bin := build(t)
	sock, ch := notifySocket(t)
	startRun(t, bin, `
[source]
type = "synth"
channels = 4
speed = `+speed+`
[checkpoint]
path = ""
[output]
jsonl = ""
`, sock)
	m, ok := <-ch // a daemon that never gets ready is a hang: go test -timeout
	if !ok || !strings.HasPrefix(m, "READY=1\n") {
		t.Fatalf("first datagram %q (ok=%v), want READY=1", m, ok)
	}
	return ch
}

// TestRunNotifiesReadyAndWatchdog runs `ictald run` on a simulated patient
// at 4× real time (4 windows a second) under a fake systemd notify socket:
// READY=1 arrives first, then WATCHDOG=1 keeps arriving about every 0.5 s.
func TestRunNotifiesReadyAndWatchdog(t *testing.T) {
	ch := runReady(t, "4")
	start := time.Now()
	for i := 0; i < 6; i++ {
		m, ok := <-ch // a pipeline that stopped sending them hangs here
		if !ok {
			t.Fatalf("keep-alive %d: the notify socket closed", i+1)
		}
		if !strings.HasPrefix(m, "WATCHDOG=1\nSTATUS=monitoring: ") {
			t.Fatalf("datagram %q, want WATCHDOG=1 with a status", m)
		}
	}
	// Six pings rate-limited to one per 0.5 s take at least 2.5 s.
	if el := time.Since(start); el < 2500*time.Millisecond {
		t.Errorf("6 keep-alives in %v: not rate-limited to half of WATCHDOG_USEC", el)
	}
}

// TestRunStuckPipelineSendsNoWatchdog makes the pipeline stall: the
// simulated patient is paced at 1/1000 of real time, so after the first
// frame (READY=1) the next 2 s window would take over an hour. No
// WATCHDOG=1 may arrive; systemd would then restart the daemon.
func TestRunStuckPipelineSendsNoWatchdog(t *testing.T) {
	ch := runReady(t, "0.001")
	// Three watchdog periods of silence.
	if m, ok := next(ch, 3*time.Second); ok {
		t.Fatalf("a stuck pipeline sent %q", m)
	}
}

// TestNotifierWindowAllocatesNothing: between keep-alives the per-window
// hook is a clock read and a comparison.
func TestNotifierWindowAllocatesNothing(t *testing.T) {
	t0 := time.Unix(1000, 0)
	n := &notifier{
		send:  func(string) (bool, error) { t.Fatal("no keep-alive expected"); return false, nil },
		now:   func() time.Time { return t0 },
		every: time.Hour,
		last:  t0,
		log:   slog.New(slog.DiscardHandler),
	}
	st := pipeline.Stats{Windows: 9}
	if a := testing.AllocsPerRun(1000, func() { n.window(st) }); a != 0 {
		t.Errorf("window allocates %v times per call", a)
	}
}

// TestConfigErrorExits78 runs the built ictald as systemd would
// (NOTIFY_SOCKET set): a configuration it refuses — a key beyond its
// bounds, one it does not know, a file that is missing — makes `ictald
// run` send a STATUS= line saying why and exit 78, which the unit's
// RestartPreventExitStatus=78 keeps from being restarted every 15 s for
// ever; `ictald check` exits 78 on the same files. A failure that is not
// the configuration's (the amplifier absent) still exits 1, and systemd
// restarts it until the device answers.
func TestConfigErrorExits78(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	tests := []struct {
		name, config string // "" : no file
		code         int
		key          string // in the STATUS line and check's error
	}{
		{"refractory of 114 years", "[source]\ntype = \"synth\"\n[decision]\nrefractory = \"1000000h\"\n", exitConfig, "decision.refractory"},
		{"flat limit of 1e308 µV", "[source]\ntype = \"synth\"\n[quality]\nflat_microvolts = 1e308\n", exitConfig, "quality.flat_microvolts"},
		{"record range of 1e308 µV", "[source]\ntype = \"synth\"\n[record]\nenabled = true\ndir = \"" + dir + "\"\nrange_uv = 1e308\n", exitConfig, "record.range_uv"},
		{"metrics on no address", "[source]\ntype = \"synth\"\n[metrics]\nlisten = \"999.999.1.1:99999\"\n", exitConfig, "metrics.listen"},
		{"unknown key", "[source]\ntype = \"synth\"\n[decision]\nrefactory = \"1m\"\n", exitConfig, "decision.refactory"},
		{"no file", "", exitConfig, "no such file"},
		{"amplifier absent", "[source]\ntype = \"openbci\"\nport = \"" + filepath.Join(dir, "ttyUSB9") + "\"\n[checkpoint]\npath = \"\"\n[output]\njsonl = \"\"\n", 1, ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := filepath.Join(dir, fmt.Sprintf("ictald-%d.toml", i))
			if tt.config != "" {
				if err := os.WriteFile(cfg, []byte(tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			sock, ch := notifySocket(t)
			cmd := exec.Command(bin, "run", "-config", cfg)
			cmd.Env = append(os.Environ(), "NOTIFY_SOCKET="+sock)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			var err error
			select {
			case err = <-exited:
			case <-time.After(time.Minute): // a failure detector, not a timing requirement
				cmd.Process.Kill()
				<-exited
				t.Fatalf("ictald run did not exit: it took the configuration\n%s", stderr.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tt.code {
				t.Fatalf("run: %v, want exit %d\n%s", err, tt.code, stderr.String())
			}
			if tt.code != exitConfig {
				if strings.Contains(stderr.String(), "configuration rejected") {
					t.Errorf("a failure that is not the configuration's taken for one:\n%s", stderr.String())
				}
				return
			}
			// The datagram was sent before the exit; the socket's reader
			// delivers it.
			var status string
			for status == "" {
				select {
				case m := <-ch:
					if strings.HasPrefix(m, "STATUS=configuration rejected") {
						status = m
					}
				case <-time.After(time.Minute): // a failure detector, not a timing requirement
					t.Fatalf("no STATUS= line saying why\n%s", stderr.String())
				}
			}
			if !strings.HasPrefix(status, "STATUS=configuration rejected, not restarted (exit 78): ") || !strings.Contains(status, tt.key) || strings.Contains(status, "\n") {
				t.Errorf("%q: want one STATUS= line naming %s", status, tt.key)
			}
			out, err := exec.Command(bin, "check", "-config", cfg).CombinedOutput()
			if !errors.As(err, &ee) || ee.ExitCode() != exitConfig || !strings.Contains(string(out), tt.key) {
				t.Errorf("check: %v, %s; want exit %d naming %s", err, out, exitConfig, tt.key)
			}
		})
	}
}

// TestUnitPreventsRestartOnConfigErrors: the unit does not restart a
// daemon that exited with exitConfig.
func TestUnitPreventsRestartOnConfigErrors(t *testing.T) {
	var prevent []string
	for _, l := range strings.Split(systemd.Unit, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "RestartPreventExitStatus="); ok {
			prevent = append(prevent, strings.Fields(v)...)
		}
	}
	if !slices.Contains(prevent, strconv.Itoa(exitConfig)) {
		t.Errorf("RestartPreventExitStatus %q lacks %d: systemd would restart a refused configuration for ever", prevent, exitConfig)
	}
}
