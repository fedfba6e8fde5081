package mqtt

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"syscall"

	"github.com/mochi-mqtt/server/v2/packets"
)

// brokerLog adapts the embedded broker's (mochi-mqtt's) log records to
// ictald's log. mochi's TCP listener reports every connection that ended
// with an error as a WARN with an empty message ("msg=\"\"
// error=\"read connection: EOF\""): a client closing its socket without
// DISCONNECT, a port probe, a session taken over by a reconnecting client.
// Those routine ends become DEBUG "mqtt client connection ended"; the
// others (a refused login, a protocol violation) stay WARN as "mqtt client
// connection failed". Every other record passes unchanged.
type brokerLog struct{ h slog.Handler }

// Enabled reports whether the wrapped handler takes records of level l;
// Handle checks again after a record's level changed.
func (b brokerLog) Enabled(ctx context.Context, l slog.Level) bool { return b.h.Enabled(ctx, l) }

// Handle names and grades the broker's anonymous records, then hands them
// on.
func (b brokerLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Message != "" {
		return b.h.Handle(ctx, r)
	}
	var cause error
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "error" {
			cause, _ = a.Value.Any().(error)
			return false
		}
		return true
	})
	level, msg := slog.LevelWarn, "mqtt client connection failed"
	if routineEnd(cause) {
		level, msg = slog.LevelDebug, "mqtt client connection ended"
	}
	if !b.h.Enabled(ctx, level) {
		return nil
	}
	out := slog.NewRecord(r.Time, level, msg, r.PC)
	r.Attrs(func(a slog.Attr) bool { out.AddAttrs(a); return true })
	return b.h.Handle(ctx, out)
}

// WithAttrs implements slog.Handler.
func (b brokerLog) WithAttrs(as []slog.Attr) slog.Handler { return brokerLog{b.h.WithAttrs(as)} }

// WithGroup implements slog.Handler.
func (b brokerLog) WithGroup(name string) slog.Handler { return brokerLog{b.h.WithGroup(name)} }

// routineEnd reports whether err is how an MQTT connection normally ends:
// the client closed or reset its socket, stopped answering (keep-alive
// deadline), disconnected, was replaced by a new connection with its
// client ID, was refused at the connection limit (capListener logs that),
// or the broker is shutting down.
func routineEnd(err error) bool {
	if err == nil {
		return true
	}
	for _, e := range []error{io.EOF, io.ErrUnexpectedEOF, net.ErrClosed, os.ErrDeadlineExceeded,
		syscall.ECONNRESET, syscall.EPIPE, packets.CodeDisconnect, packets.ErrSessionTakenOver,
		packets.ErrServerShuttingDown, packets.ErrKeepAliveTimeout, errConnectionLimit} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
