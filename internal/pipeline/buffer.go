package pipeline

import (
	"log/slog"
	"time"

	"github.com/ictal/ictal/alert"
)

// lateLabels is LearnFeedback's memory: it keeps the vectors of the recent
// usable windows, learns those a clinician's label covers when it arrives
// (a window is learned once, with the first label that covers it), and,
// with a negative horizon, learns the windows no label has covered by
// then as negatives.
type lateLabels struct {
	buf        *ring
	in         chan alert.Label
	minOverlap float64
	horizon    time.Duration
	events     *events                       // finds the alert a label names
	offset     func(time.Time) time.Duration // wall-clock time to offset
	train      func(x []float64, seizure bool)
	ack        func(alert.Ack) // every label's answer, applied or refused
	stats      *Stats
	log        *slog.Logger
	// stopping reports that the pipeline is shutting down: the loops that
	// learn buffered windows stop between windows, leaving the rest
	// unlearned, so a label over a long buffer cannot hold up a SIGTERM.
	// Nil means never.
	stopping func() bool
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

// apply learns the buffered windows lab covers and acknowledges it.
func (l *lateLabels) apply(lab alert.Label, now time.Duration) {
	ack := alert.AckOf(lab)
	defer func() { l.ack(ack) }()
	var a, b time.Duration
	if lab.AlertID != "" {
		var ok bool
		if a, b, ok = l.events.span(lab.AlertID, now); !ok {
			l.stats.LabelsUnused++
			ack.Reason = "no recent alert of this monitor has this id"
			l.log.Warn("feedback for an unknown alert dropped", slog.String("alert_id", lab.AlertID), slog.String("from", lab.From), slog.String("by", lab.By))
			return
		}
	} else {
		a, b = l.offset(lab.Start), l.offset(lab.End)
	}
	if b <= a {
		l.stats.LabelsUnused++
		ack.Reason = "empty interval"
		l.log.Warn("empty label interval dropped", slog.String("from", lab.From), slog.String("by", lab.By))
		return
	}
	if l.stop() {
		l.stats.LabelsUnused++
		ack.Reason = "the monitor is shutting down; send it again once it is back"
		l.log.Warn("label not applied: shutting down", slog.String("from", lab.From), slog.String("by", lab.By))
		return
	}
	ack.Windows = l.learnSpan(a, b, lab.Seizure)
	if l.stop() {
		l.log.Warn("label applied in part: shutting down", slog.Int("windows", ack.Windows), slog.String("from", lab.From), slog.String("by", lab.By))
	}
	if ack.Windows == 0 {
		l.stats.LabelsUnused++
		ack.Reason = "covers no window still in the buffer (already labelled, gated, or older than the buffer)"
		l.log.Warn("label covers no buffered window", slog.Duration("start", a), slog.Duration("end", b), slog.String("from", lab.From), slog.String("by", lab.By))
		return
	}
	ack.Applied = true
	l.stats.LabelsApplied++
	l.log.Info("label applied", slog.Bool("seizure", lab.Seizure), slog.Int("windows", ack.Windows), slog.String("from", lab.From), slog.String("by", lab.By))
}

// learnSpan learns, with the given label, every buffered window not yet
// learned that [a, b) covers by at least minOverlap of its length; it
// stops early, between windows, when the pipeline is stopping.
func (l *lateLabels) learnSpan(a, b time.Duration, seizure bool) int {
	set := &intervalSet{start: []time.Duration{a}, end: []time.Duration{b}}
	learned := 0
	for i := 0; i < l.buf.size && !l.stop(); i++ {
		w := l.buf.at(i)
		if w.learned {
			continue
		}
		o := set.overlap(w.start, w.end)
		if o <= 0 || float64(o) < l.minOverlap*float64(w.end-w.start) {
			continue
		}
		l.train(w.x, seizure)
		w.learned = true
		learned++
	}
	return learned
}

// ageOut learns buffered windows older than the negative horizon that no
// label covered as negatives, when that policy is on. ring.aged numbers
// the first window not yet handled, so each call starts where the last
// one stopped (or where the pipeline's stopping interrupted it).
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
		if !w.learned {
			l.train(w.x, false)
			w.learned = true
		}
		l.buf.aged = oldest + int64(i) + 1
	}
}
