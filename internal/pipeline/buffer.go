package pipeline

import (
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"
	"unsafe"

	"github.com/ictal/ictal/alert"
)

// lateLabels is LearnFeedback's memory: it keeps the vectors of the recent
// usable windows and applies clinicians' labels to those they cover. A
// label is bounded (maxInterval, for intervals) and stays pending for the
// grace period: a later label replaces it on the windows both cover, and
// when the grace period is over its windows are learned, each once, and
// the label is final: a contradicting label is refused. With a negative
// horizon, the windows no label has covered by then are learned as
// negatives.
type lateLabels struct {
	buf         *ring
	x           []float64 // vector's scratch
	in          chan alert.Label
	minOverlap  float64
	horizon     time.Duration
	maxInterval time.Duration
	grace       time.Duration
	learnAgreed bool                          // Learning.LearnAgreed
	pending     int                           // windows claimed by a label and not yet learned
	events      *events                       // finds the alert a label names
	motor       *events                       // and a motor alert (nil: none)
	offset      func(time.Time) time.Duration // wall-clock time to offset
	wall        func(time.Duration) time.Time // offset to wall-clock time
	train       func(x []float64, seizure bool)
	ack         func(alert.Ack) // every label's answer, applied or refused
	stats       *Stats
	log         *slog.Logger
	// stopping reports that the pipeline is shutting down: the loops that
	// learn buffered windows stop between windows, leaving the rest
	// unlearned, so labels over a long buffer cannot hold up a SIGTERM.
	// Nil means never.
	stopping func() bool
}

// windowBytes is what the late-label buffer takes per window of dim
// features once reserved (ring.reserve): the window's record (times,
// decision, claim and its vector's slice header, unsafe.Sizeof(window{}):
// 120 bytes on 64-bit platforms) and the vector in single precision. A
// claim's names point into its label, shared by the windows it covers;
// nothing else is kept per window. bufferWindows bounds n × windowBytes
// by MaxBufferBytes.
func windowBytes(dim int) int64 {
	return int64(unsafe.Sizeof(window{})) + int64(dim)*int64(unsafe.Sizeof(float32(0)))
}

// vector returns w's vector in double precision, in l.x (reused: the
// caller learns it before the next call).
func (l *lateLabels) vector(w *window) []float64 {
	if cap(l.x) < len(w.x) {
		l.x = make([]float64, len(w.x))
	}
	x := l.x[:len(w.x)]
	for i, v := range w.x {
		x[i] = float64(v)
	}
	return x
}

// stop reports whether the pipeline is stopping.
func (l *lateLabels) stop() bool { return l.stopping != nil && l.stopping() }

// drain applies the labels that have arrived.
func (l *lateLabels) drain(now time.Duration) {
	for {
		select {
		case lab := <-l.in:
			l.apply(lab, now)
		default:
			return
		}
	}
}

// push buffers a usable window. A pending window that the buffer must let
// go is learned first: its label was accepted, and its grace period is cut
// short by the buffer's length.
func (l *lateLabels) push(start, end time.Duration, x []float64, decided bool) {
	if r := l.buf; r.size == r.capacity && r.size > 0 {
		if w := r.at(0); w.claim.set && !w.learned {
			l.learn(w)
		}
	}
	l.buf.push(start, end, x, decided)
}

// learn learns a claimed window with its label: it is final. Unless
// learnAgreed, a window the detector had already decided as labelled is
// not taught (Learning.LearnAgreed), only counted.
func (l *lateLabels) learn(w *window) {
	if w.decided == w.claim.seizure && !l.learnAgreed {
		l.stats.Agreed++
	} else {
		l.train(l.vector(w), w.claim.seizure)
	}
	w.learned = true
	l.pending--
}

// finalise learns the claimed windows whose grace period is over at now;
// it stops between windows when the pipeline is stopping.
func (l *lateLabels) finalise(now time.Duration) {
	for i := 0; l.pending > 0 && i < l.buf.size && !l.stop(); i++ {
		if w := l.buf.at(i); w.claim.set && !w.learned && w.claim.due <= now {
			l.learn(w)
		}
	}
}

// finaliseAll learns every pending window when the recording ends: the
// labels were accepted, and the grace period ends with the monitoring.
// When Run's context is done (SIGTERM) it learns none, so that shutdown
// is not held up, and says how many labelled windows go unlearned.
func (l *lateLabels) finaliseAll() {
	l.finalise(math.MaxInt64)
	if l.pending > 0 {
		l.log.Warn("labelled windows not learned: shutting down within their grace period", slog.Int("windows", l.pending))
	}
}

// apply claims the buffered windows lab covers and acknowledges it, or
// refuses it: an unknown alert, an interval longer than maxInterval or
// empty, one that contradicts a final label, or one covering no window
// still open to it.
func (l *lateLabels) apply(lab alert.Label, now time.Duration) {
	ack := alert.AckOf(lab)
	defer func() { l.ack(ack) }()
	refuse := func(msg, reason string, attrs ...any) {
		l.stats.LabelsUnused++
		ack.Reason = reason
		l.log.Warn(msg, append(attrs, slog.Bool("seizure", lab.Seizure), slog.String("reason", reason),
			slog.String("from", lab.From), slog.String("sender", lab.Sender), slog.String("by", lab.By))...)
	}
	var a, b time.Duration
	if lab.AlertID != "" {
		var ok bool
		if a, b, ok = l.events.span(lab.AlertID, now); !ok && l.motor != nil {
			a, b, ok = l.motor.span(lab.AlertID, now)
		}
		if !ok {
			refuse("feedback for an unknown alert refused", "no recent alert of this monitor has this id", slog.String("alert_id", lab.AlertID))
			return
		}
	} else {
		if d := lab.End.Sub(lab.Start); d > l.maxInterval {
			refuse("label interval too long refused", fmt.Sprintf("an interval of %v is longer than learning.max_interval %v: "+
				"label a seizure, or a stretch without one, a few minutes at a time (a longer seizure is labelled by confirming its alert)", d, l.maxInterval))
			return
		}
		a, b = l.offset(lab.Start), l.offset(lab.End)
	}
	if b <= a {
		refuse("empty label interval refused", "empty interval")
		return
	}
	if n, c := l.contradictions(a, b, lab.Seizure); n > 0 {
		refuse("label contradicting a final label refused", fmt.Sprintf("contradicts the %s label by %s on %d windows, final since %s "+
			"(labels are final learning.grace %v after they arrive and cannot be undone; restoring the checkpoint from before it can)",
			labelName(c.seizure), who(c.by, c.sender), n, l.wall(c.due).UTC().Format(time.RFC3339), l.grace),
			slog.Duration("start", a), slog.Duration("end", b))
		return
	}
	if l.stop() {
		refuse("label not applied: shutting down", "the monitor is shutting down; send it again once it is back")
		return
	}
	taken, replaced, agreed, prev := l.claim(a, b, claim{set: true, seizure: lab.Seizure, due: now + l.grace, start: a, end: b, by: lab.By, sender: lab.Sender})
	if taken == 0 {
		refuse("label covers no buffered window", "covers no window still in the buffer (already learned, gated, or older than the buffer)",
			slog.Duration("start", a), slog.Duration("end", b))
		return
	}
	ack.Applied, ack.Windows, ack.Replaced, ack.FinalAt = true, taken, replaced, l.wall(now+l.grace)
	var notes []string
	if replaced > 0 {
		notes = append(notes, fmt.Sprintf("replaces the %s label by %s on %d windows (it was within its grace period)", labelName(prev.seizure), who(prev.by, prev.sender), replaced))
	}
	if agreed > 0 && !l.learnAgreed {
		notes = append(notes, fmt.Sprintf("the detector already had %d of the %d windows right; the model learns the other %d", agreed, taken, taken-agreed))
	}
	ack.Note = strings.Join(notes, "; ")
	l.stats.LabelsApplied++
	l.stats.Relabelled += int64(replaced)
	l.log.Info("label applied", slog.Bool("seizure", lab.Seizure), slog.String("alert_id", lab.AlertID), slog.Int("windows", taken),
		slog.Int("replaced", replaced), slog.Time("final_at", ack.FinalAt),
		slog.String("from", lab.From), slog.String("sender", lab.Sender), slog.String("by", lab.By))
}

// covers reports whether [a, b) covers w by at least minOverlap of its
// length.
func (l *lateLabels) covers(w *window, a, b time.Duration) bool {
	o := min(b, w.end) - max(a, w.start)
	return o > 0 && float64(o) >= l.minOverlap*float64(w.end-w.start)
}

// contradictions counts the windows [a, b) covers that a final label of
// the other class, whose own span overlaps [a, b), has learned, and
// returns the first such label. A window at the shared edge of two
// adjacent labels is no contradiction: it keeps the first.
func (l *lateLabels) contradictions(a, b time.Duration, seizure bool) (n int, first claim) {
	for i := 0; i < l.buf.size; i++ {
		w := l.buf.at(i)
		c := w.claim
		if !w.learned || !c.set || c.seizure == seizure || min(b, c.end) <= max(a, c.start) || !l.covers(w, a, b) {
			continue
		}
		if n == 0 {
			first = c
		}
		n++
	}
	return n, first
}

// claim gives c to every window [a, b) covers that is not learned yet:
// free windows, and pending ones, whose earlier label c replaces. It
// returns how many windows it took, how many of those an earlier label of
// the other class had, and the first such label.
func (l *lateLabels) claim(a, b time.Duration, c claim) (taken, replaced, agreed int, prev claim) {
	for i := 0; i < l.buf.size; i++ {
		w := l.buf.at(i)
		if w.learned || !l.covers(w, a, b) {
			continue
		}
		if w.decided == c.seizure {
			agreed++
		}
		switch {
		case !w.claim.set:
			l.pending++
		case w.claim.seizure != c.seizure:
			if replaced == 0 {
				prev = w.claim
			}
			replaced++
		}
		w.claim = c
		taken++
	}
	return taken, replaced, agreed, prev
}

// labelName is a label's name in the contract.
func labelName(seizure bool) string {
	if seizure {
		return alert.LabelSeizure
	}
	return alert.LabelNonSeizure
}

// who names the sender of a label for an acknowledgement.
func who(by, sender string) string {
	switch {
	case by != "" && sender != "":
		return fmt.Sprintf("%q (sender %q)", by, sender)
	case by != "":
		return fmt.Sprintf("%q", by)
	case sender != "":
		return fmt.Sprintf("sender %q", sender)
	}
	return "an unnamed sender"
}

// ageOut learns buffered windows older than the negative horizon that no
// label covered as negatives, when that policy is on. ring.aged numbers
// the first window not yet handled, so each call starts where the last
// one stopped (or where the pipeline's stopping interrupted it). A window
// a label claims is left to its label.
func (l *lateLabels) ageOut(now time.Duration) {
	if l.horizon <= 0 {
		return
	}
	oldest := l.buf.pushed - int64(l.buf.size) // number of the window at index 0
	for i := int(max(l.buf.aged-oldest, 0)); i < l.buf.size && !l.stop(); i++ {
		w := l.buf.at(i)
		if w.end > now-l.horizon {
			return
		}
		if !w.learned && !w.claim.set {
			l.train(l.vector(w), false)
			w.learned = true
		}
		l.buf.aged = oldest + int64(i) + 1
	}
}
