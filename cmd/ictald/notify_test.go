package main

import (
	"bytes"
	"github.com/ictal/ictal/internal/pipeline"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
