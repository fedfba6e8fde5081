package journal

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stream returns a file standing for standard error and sets
// JOURNAL_STREAM to its device and inode numbers when journal is true, as
// systemd does for a service whose output goes to the journal.
func stream(t *testing.T, journal bool) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	dev, ino, ok := devIno(f)
	if !ok {
		t.Skip("no device and inode numbers on this system")
	}
	if journal {
		t.Setenv("JOURNAL_STREAM", fmt.Sprintf("%d:%d", dev, ino))
	} else {
		t.Setenv("JOURNAL_STREAM", fmt.Sprintf("%d:%d", dev, ino+1)) // another stream: output redirected
	}
	return f
}

// logAll logs one record at each level through a handler for f and
// returns the lines written.
func logAll(t *testing.T, f *os.File, format string) []string {
	t.Helper()
	log := slog.New(NewHandler(f, format, &slog.HandlerOptions{Level: slog.LevelDebug})).With(slog.String("component", "test"))
	log.Debug("tuning", slog.Int("n", 1))
	log.Info("running", slog.String("source", "synth"))
	log.Warn("mqtt: connection lost; reconnecting")
	log.Error("ictald stopped", slog.String("err", "source failed:\nline two"))
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func TestHandlerUnderJournald(t *testing.T) {
	tests := []struct {
		name    string
		journal bool
		format  string
		want    []string // line prefixes, one per level
		time    bool     // lines carry a time
	}{
		{"text to the journal", true, "text", []string{`<7>level=DEBUG msg=tuning component=test n=1`, `<6>level=INFO msg=running`, `<4>level=WARN msg="mqtt: connection lost; reconnecting"`, `<3>level=ERROR msg="ictald stopped" component=test err="source failed:\nline two"`}, false},
		{"json to the journal", true, "json", []string{`<7>{"level":"DEBUG","msg":"tuning"`, `<6>{"level":"INFO"`, `<4>{"level":"WARN"`, `<3>{"level":"ERROR"`}, false},
		{"text elsewhere", false, "text", []string{`time=`, `time=`, `time=`, `time=`}, true},
		{"json elsewhere", false, "json", []string{`{"time":`, `{"time":`, `{"time":`, `{"time":`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := stream(t, tt.journal)
			if got := Connected(f); got != tt.journal {
				t.Fatalf("Connected = %v, want %v", got, tt.journal)
			}
			lines := logAll(t, f, tt.format)
			if len(lines) != len(tt.want) {
				t.Fatalf("%d lines, want %d (one per record, the message's newline escaped):\n%s", len(lines), len(tt.want), strings.Join(lines, "\n"))
			}
			for i, l := range lines {
				if !strings.HasPrefix(l, tt.want[i]) {
					t.Errorf("line %d: %s\nwant prefix %s", i, l, tt.want[i])
				}
				if has := strings.Contains(l, "time="+"2") || strings.Contains(l, `"time":`); has != tt.time {
					t.Errorf("line %d has a time: %v, want %v: %s", i, has, tt.time, l)
				}
			}
		})
	}
}

func TestConnectedWithoutJournalStream(t *testing.T) {
	f := stream(t, true)
	t.Setenv("JOURNAL_STREAM", "")
	if Connected(f) {
		t.Error("connected without JOURNAL_STREAM")
	}
	if Connected(nil) {
		t.Error("a nil file is connected")
	}
}

func TestPriority(t *testing.T) {
	tests := []struct {
		level slog.Level
		want  int
	}{
		{slog.LevelDebug - 4, PriDebug}, {slog.LevelDebug, PriDebug}, {slog.LevelInfo, PriInfo}, {slog.LevelInfo + 2, PriInfo},
		{slog.LevelWarn, PriWarning}, {slog.LevelError, PriErr}, {slog.LevelError + 3, PriErr},
		{LevelCritical, PriCrit}, {LevelCritical + 4, PriCrit},
	}
	for _, tt := range tests {
		if got := Priority(tt.level); got != tt.want {
			t.Errorf("Priority(%v) = %d, want %d", tt.level, got, tt.want)
		}
	}
}

// A user's ReplaceAttr still applies under the journal, after the time is
// dropped.
func TestJournalHandlerKeepsReplaceAttr(t *testing.T) {
	var b strings.Builder
	h := NewJournalHandler(&b, "text", &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == "password" {
			a.Value = slog.StringValue("…")
		}
		return a
	}})
	slog.New(h).WithGroup("mqtt").Info("connect", slog.String("password", "secret"))
	if got, want := b.String(), "<6>level=INFO msg=connect mqtt.password=…\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A lost alert is logged at LevelCritical: priority crit (2) under the
// journal, and named CRIT in either format, anywhere.
func TestLevelCritical(t *testing.T) {
	tests := []struct {
		name, format string
		journal      bool
		want         string
	}{
		{"text to the journal", "text", true, `<2>level=CRIT msg="alert lost" payload="{\"v\":1}"` + "\n"},
		{"json to the journal", "json", true, `<2>{"level":"CRIT","msg":"alert lost","payload":"{\"v\":1}"}` + "\n"},
		{"text elsewhere", "text", false, `level=CRIT msg="alert lost" payload="{\"v\":1}"` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			h := NewJournalHandler(&b, tt.format, nil)
			if !tt.journal {
				h = NewHandler(&b, tt.format, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
					if a.Key == slog.TimeKey {
						return slog.Attr{}
					}
					return a
				}})
			}
			slog.New(h).Log(context.Background(), LevelCritical, "alert lost", slog.String("payload", `{"v":1}`))
			if got := b.String(); got != tt.want {
				t.Errorf("got %s\nwant %s", got, tt.want)
			}
		})
	}
}
