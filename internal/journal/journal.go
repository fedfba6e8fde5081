// Package journal writes a program's log/slog records to standard error
// in the form systemd's journal reads best.
//
// When a service's standard error is connected to the journal, systemd
// says so in JOURNAL_STREAM ("device:inode" of the stream, systemd.exec(5)).
// Each record is then written as one line starting with its syslog
// priority in sd-daemon(3)'s "<N>" form, which journald strips and stores
// as the entry's PRIORITY, and without a time: the journal stamps every
// entry itself, so `journalctl -u ictald` would otherwise show two times
// on each line. `journalctl -p err -u ictald` then finds failures, and
// `journalctl -p warning` warnings too. Anywhere else (a terminal, a
// file, a pipe) records are written as slog's text or JSON handler writes
// them.
package journal

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
)

// Syslog priorities (syslog(3), sd-daemon(3)) used for slog's levels.
const (
	PriCrit    = 2
	PriErr     = 3
	PriWarning = 4
	PriInfo    = 6
	PriDebug   = 7
)

// LevelCritical is the slog level of what must reach the journal above
// every error: an alert lost for good, logged whole as the only trace
// left of it. Handlers of this package name it "CRIT"; its priority is
// crit (2), above err: `journalctl -p crit` shows it, and a journal or a
// unit set to keep errors only (MaxLevelStore=err, LogLevelMax=err)
// keeps it.
const LevelCritical = slog.LevelError + 4

// Priority returns the syslog priority of a slog level: LevelCritical and
// above are crit (2), ERROR err (3), WARN warning (4), INFO info (6),
// below INFO debug (7).
func Priority(l slog.Level) int {
	switch {
	case l >= LevelCritical:
		return PriCrit
	case l >= slog.LevelError:
		return PriErr
	case l >= slog.LevelWarn:
		return PriWarning
	case l >= slog.LevelInfo:
		return PriInfo
	}
	return PriDebug
}

// Connected reports whether f is the stream JOURNAL_STREAM names: its
// device and inode numbers match the variable's. A process that inherited
// the variable but whose standard error was redirected elsewhere is not
// connected.
func Connected(f *os.File) bool {
	v := os.Getenv("JOURNAL_STREAM")
	if v == "" || f == nil {
		return false
	}
	dev, ino, ok := devIno(f)
	return ok && v == fmt.Sprintf("%d:%d", dev, ino)
}

// NewHandler returns a handler writing records to w as slog's text handler
// does, or its JSON handler when format is "json". When w is an *os.File
// connected to the journal (Connected), each record is prefixed with its
// priority and has no time attribute.
func NewHandler(w io.Writer, format string, opts *slog.HandlerOptions) slog.Handler {
	f, ok := w.(*os.File)
	if !ok || !Connected(f) {
		return newFormat(w, format, opts)
	}
	return NewJournalHandler(w, format, opts)
}

// NewJournalHandler returns a handler writing records to w in the
// journal's form whatever w is: "<N>" priority prefix, no time.
func NewJournalHandler(w io.Writer, format string, opts *slog.HandlerOptions) slog.Handler {
	o := slog.HandlerOptions{}
	if opts != nil {
		o = *opts
	}
	user := o.ReplaceAttr
	o.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		if user != nil {
			return user(groups, a)
		}
		return a
	}
	s := &line{out: w}
	return &handler{inner: newFormat(s, format, &o), line: s}
}

// newFormat returns slog's text or JSON handler, writing LevelCritical as
// "CRIT" (slog's own name for it is "ERROR+4").
func newFormat(w io.Writer, format string, opts *slog.HandlerOptions) slog.Handler {
	o := slog.HandlerOptions{}
	if opts != nil {
		o = *opts
	}
	user := o.ReplaceAttr
	o.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && a.Key == slog.LevelKey {
			if l, ok := a.Value.Any().(slog.Level); ok && l >= LevelCritical {
				a.Value = slog.StringValue("CRIT")
			}
		}
		if user != nil {
			return user(groups, a)
		}
		return a
	}
	if format == "json" {
		return slog.NewJSONHandler(w, &o)
	}
	return slog.NewTextHandler(w, &o)
}

// line assembles one record: its priority prefix, then what the inner
// handler writes, in one Write to out.
type line struct {
	mu  sync.Mutex
	buf []byte
	out io.Writer
}

// Write is called by the inner handler, with mu held by handler.Handle.
func (l *line) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	return len(p), nil
}

// handler prefixes the inner handler's line with the record's priority.
// Handlers derived by WithAttrs and WithGroup share the line, so their
// records never interleave.
type handler struct {
	inner slog.Handler
	line  *line
}

// Enabled implements slog.Handler.
func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

// Handle implements slog.Handler.
func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	l := h.line
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf[:0], '<', byte('0'+Priority(r.Level)), '>')
	if err := h.inner.Handle(ctx, r); err != nil {
		return err
	}
	_, err := l.out.Write(l.buf)
	return err
}

// WithAttrs implements slog.Handler.
func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	return &handler{inner: h.inner.WithAttrs(as), line: h.line}
}

// WithGroup implements slog.Handler.
func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{inner: h.inner.WithGroup(name), line: h.line}
}
