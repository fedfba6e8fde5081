package mqtt

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/ictal/ictal/internal/syncbuf"
)

// Clients that go away — cleanly, by closing their socket without
// DISCONNECT, or a port probe that never speaks MQTT — leave no WARN and
// no record without a message in the daemon's log (mochi's listener logs
// each of the last two as WARN msg="").
func TestBrokerLogsNoEmptyWarnOnDisconnect(t *testing.T) {
	var buf syncbuf.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	b, err := StartBroker("127.0.0.1:0", nil, log)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c := testClient(t, Connection{Brokers: []string{b.URL()}}, "clean", true)
	c.Disconnect(100)

	// A client that connects, is accepted, and drops its socket.
	conn, err := net.Dial("tcp", b.Addr())
	if err != nil {
		t.Fatal(err)
	}
	conn.Write([]byte{0x10, 12, 0, 4, 'M', 'Q', 'T', 'T', 4, 2, 0, 60, 0, 0}) // CONNECT, clean session, no client ID
	connack := make([]byte, 4)
	if _, err := io.ReadFull(conn, connack); err != nil || connack[0] != 0x20 || connack[3] != 0 {
		t.Fatalf("CONNACK %x: %v", connack, err)
	}
	conn.Close()
	// A port probe.
	if conn, err = net.Dial("tcp", b.Addr()); err != nil {
		t.Fatal(err)
	}
	conn.Close()

	// Both ends are logged once the broker has seen them: at DEBUG, and
	// without the fix as WARN msg="".
	for s := buf.String(); strings.Count(s, `msg="mqtt client connection ended"`)+strings.Count(s, `msg=""`) < 2; s = buf.String() {
		time.Sleep(10 * time.Millisecond)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if strings.Contains(line, `msg=""`) || strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
			t.Errorf("broker log line: %s", line)
		}
	}
}

func TestBrokerLogGradesConnectionEnds(t *testing.T) {
	tests := []struct {
		name      string
		msg       string
		err       error
		wantLevel slog.Level
		wantMsg   string
	}{
		{"connection reset", "", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, slog.LevelDebug, "mqtt client connection ended"},
		{"socket closed", "", fmt.Errorf("read connection: %w", io.EOF), slog.LevelDebug, "mqtt client connection ended"},
		{"session taken over", "", packets.ErrSessionTakenOver, slog.LevelDebug, "mqtt client connection ended"},
		{"keep-alive expired", "", &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, slog.LevelDebug, "mqtt client connection ended"},
		{"login refused", "", packets.ErrBadUsernameOrPassword, slog.LevelWarn, "mqtt client connection failed"},
		{"protocol violation", "", fmt.Errorf("read connection: %w", packets.ErrProtocolViolationRequireFirstConnect), slog.LevelWarn, "mqtt client connection failed"},
		{"a named record passes", "client store quota reached", nil, slog.LevelWarn, "client store quota reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []slog.Record
			h := brokerLog{recorder{&got}}
			r := slog.NewRecord(time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC), slog.LevelWarn, tt.msg, 0)
			if tt.err != nil {
				r.AddAttrs(slog.Any("error", tt.err))
			}
			r.AddAttrs(slog.String("listener", "tcp"))
			if err := h.Handle(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Level != tt.wantLevel || got[0].Message != tt.wantMsg || got[0].NumAttrs() != r.NumAttrs() {
				t.Fatalf("got %+v, want %v %q with %d attributes", got, tt.wantLevel, tt.wantMsg, r.NumAttrs())
			}
		})
	}
}

// recorder is a slog.Handler keeping every record at every level.
type recorder struct{ recs *[]slog.Record }

func (recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r recorder) Handle(_ context.Context, rec slog.Record) error {
	*r.recs = append(*r.recs, rec)
	return nil
}
func (r recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r recorder) WithGroup(string) slog.Handler      { return r }
