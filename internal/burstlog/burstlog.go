// Package burstlog logs a burst of like events — feedback dropped because
// a queue is full or a sender exceeds its rate — as one line with a
// count, instead of one line per event, so that a flood cannot flood the
// log as well.
package burstlog

import (
	"log/slog"
	"sync"
	"time"
)

// Defaults of a Log.
const (
	// DefaultQuiet ends a burst: this long without an event.
	DefaultQuiet = 10 * time.Second
	// DefaultSpan bounds the time a burst goes unreported: a flood that
	// never pauses is logged once per span, each line counting its part.
	DefaultSpan = time.Minute
)

// Log counts the events of a burst and logs the burst once, at WARN, when
// it is over (Quiet without an event, or Flush with final), or when it
// has lasted Span: msg with "count", "first" and "last" (the times of the
// first and latest events) and the attributes of the latest event. It is
// safe for concurrent use; times come from the caller.
type Log struct {
	log         *slog.Logger
	msg         string
	quiet, span time.Duration

	mu          sync.Mutex
	n           int
	first, last time.Time
	attrs       []slog.Attr
}

// New returns a Log of bursts of msg on log (nil: discarded), ending after
// quiet and reported at least every span (zero: the defaults).
func New(log *slog.Logger, msg string, quiet, span time.Duration) *Log {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	if span <= 0 {
		span = DefaultSpan
	}
	return &Log{log: log, msg: msg, quiet: quiet, span: span}
}

// Add counts an event at now; attrs describe it (the sender, the reason),
// and those of the latest event are logged with the burst. An event after
// a quiet spell first reports the burst before it.
func (b *Log) Add(now time.Time, attrs ...slog.Attr) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flush(now, false)
	if b.n == 0 {
		b.first = now
	}
	b.n++
	b.last = now
	b.attrs = append(b.attrs[:0], attrs...)
}

// Flush logs the burst in progress if it is over at now (or has lasted
// the span), or whatever the time if final; it returns how many events
// the line counted (0: nothing logged). Call it periodically, and with
// final when closing.
func (b *Log) Flush(now time.Time, final bool) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flush(now, final)
}

func (b *Log) flush(now time.Time, final bool) int {
	if b.n == 0 || !final && now.Sub(b.last) < b.quiet && now.Sub(b.first) < b.span {
		return 0
	}
	args := make([]any, 0, 3+len(b.attrs))
	args = append(args, slog.Int("count", b.n), slog.Time("first", b.first), slog.Time("last", b.last))
	for _, a := range b.attrs {
		args = append(args, a)
	}
	b.log.Warn(b.msg, args...)
	n := b.n
	b.n = 0
	return n
}
