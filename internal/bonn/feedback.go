package bonn

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/internal/eval"
)

// DefaultMarkDelay is how long after a seizure without an alert ends the
// simulated clinician marks it, in recording time.
const DefaultMarkDelay = 3 * time.Minute

// Kinds of the simulated clinician's labels.
const (
	Confirm = "confirm" // an alert overlapping a seizure: confirmed
	Reject  = "reject"  // an alert overlapping none: rejected
	Mark    = "mark"    // a seizure no alert overlapped: its interval marked
)

// ClinicianName is the By and From of the simulated clinician's labels.
const ClinicianName = "simulated clinician"

// Decision is one label of the simulated clinician and what became of it.
type Decision struct {
	// Kind is Confirm, Reject or Mark; a verdict is decided when it is
	// sent, so it is empty for one never sent.
	Kind    string
	AlertID string // the alert of a verdict; empty for a mark
	// Start and End bound the alert (a verdict) or the seizure (a mark),
	// in offsets from the start of the recording.
	Start, End time.Duration
	// Due is when the label is given: the end of the alert plus the
	// SzCORE pre-tolerance (a verdict: by then every seizure the alert
	// may have detected has begun), or the end of the seizure plus the
	// mark delay (a mark). It reaches the pipeline with the first window
	// ending at or after Due.
	Due time.Duration
	// Sent is false for a label due after the recording ended (or, never
	// seen in practice, one the pipeline's label channel had no room for:
	// Reason says so).
	Sent bool
	// Acked, Applied, Windows and Reason are the pipeline's answer
	// (alert.Ack): applied to how many buffered windows, or refused and
	// why.
	Acked, Applied bool
	Windows        int
	Reason         string
}

// Clinician is a simulated clinician for replays of spliced recordings,
// where the true seizures are known. As a sink of the pipeline it sees
// every alert and every window's score; it confirms an alert that
// overlaps a seizure extended by SzCORE's tolerance (eval.DefaultParams:
// 30 s before onset, 60 s after end, the rule by which eval counts the
// seizure detected) and rejects any other, once the alert has ended; and
// it marks every seizure that no alert overlapped that way as a seizure
// interval, MarkDelay after the seizure ends. Its labels reach the
// pipeline as a clinician's do, through Pipeline.Labels (Attach), in
// recording time: Score releases the labels due by the end of the
// window it is told of, and the pipeline takes them in that same window,
// so a replay is deterministic. It takes the pipeline's answers through
// Ack. The pipeline's guards (learning.max_interval, the grace period,
// the buffer) apply to these labels as to any: a refused label is kept
// with its reason, not retried. It is not safe for concurrent use; the
// pipeline calls it from its one goroutine.
type Clinician struct {
	seizures  []eval.Event // sorted by end
	params    eval.Params
	markDelay time.Duration
	labels    chan<- alert.Label

	wall0   time.Time // wall-clock time of offset 0, from the scores
	alerts  []eval.Event
	open    map[string]int // alerts going on, by ID: index in alerts
	judged  int            // seizures judged so far (in order of end)
	ended   bool           // Finish was called
	pending []int          // decisions not yet due, in order of Due
	unacked []int          // decisions sent and not yet acknowledged
	dec     []Decision
}

// NewClinician returns a clinician for a recording with the given
// annotations (the seizure ones count); markDelay 0 means
// DefaultMarkDelay.
func NewClinician(annotations []acquire.Interval, markDelay time.Duration) *Clinician {
	if markDelay == 0 {
		markDelay = DefaultMarkDelay
	}
	sz := eval.FromIntervals(annotations)
	slices.SortStableFunc(sz, func(a, b eval.Event) int { return cmp.Compare(a.End, b.End) })
	return &Clinician{seizures: sz, params: eval.DefaultParams(), markDelay: markDelay, open: map[string]int{}}
}

// Attach sets the channel the labels are sent on: the pipeline's Labels.
func (c *Clinician) Attach(labels chan<- alert.Label) { c.labels = labels }

// Decisions returns the labels given or due so far, in the order they
// were made (a verdict when its alert ends, a mark when its seizure is
// judged). The slice is the clinician's own.
func (c *Clinician) Decisions() []Decision { return c.dec }

// Alert implements alert.Sink: the clinician sees the alert.
func (c *Clinician) Alert(e *alert.Event) error {
	c.open[e.ID] = len(c.alerts)
	c.alerts = append(c.alerts, eval.Event{Start: e.OnsetOffset, Detected: e.DetectedOffset})
	return nil
}

// EventEnd implements alert.EventEnder: the verdict on the alert is due
// the SzCORE pre-tolerance after its end.
func (c *Clinician) EventEnd(e *alert.Event) error {
	i, ok := c.open[e.ID]
	if !ok {
		return fmt.Errorf("bonn: clinician: end of alert %s, which it never saw", e.ID)
	}
	delete(c.open, e.ID)
	c.alerts[i].End = e.EndOffset
	c.schedule(Decision{AlertID: e.ID, Start: e.OnsetOffset, End: e.EndOffset, Due: e.EndOffset + c.params.PreTolerance})
	return nil
}

// schedule adds a decision and keeps the pending ones in order of Due
// (ties in the order they were made).
func (c *Clinician) schedule(d Decision) {
	c.dec = append(c.dec, d)
	i := len(c.pending)
	for i > 0 && c.dec[c.pending[i-1]].Due > d.Due {
		i--
	}
	c.pending = slices.Insert(c.pending, i, len(c.dec)-1)
}

// Score implements alert.ScoreSink: at the end of each window the
// clinician judges the seizures whose mark delay is over and sends the
// labels due by then.
func (c *Clinician) Score(s alert.Score) error {
	now := s.Offset
	c.wall0 = s.T.Add(-now)
	c.judge(now)
	for len(c.pending) > 0 && c.dec[c.pending[0]].Due <= now {
		i := c.pending[0]
		c.pending = c.pending[1:]
		if err := c.send(i, now); err != nil {
			return err
		}
	}
	return nil
}

// judge decides on the seizures whose mark delay is over at now (all of
// them when the recording has ended): a seizure no alert overlapped is
// to be marked.
func (c *Clinician) judge(now time.Duration) {
	for ; c.judged < len(c.seizures); c.judged++ {
		sz := c.seizures[c.judged]
		if sz.End+c.markDelay > now && !c.ended {
			return
		}
		if !c.overlapsAlert(sz, now) {
			c.schedule(Decision{Kind: Mark, Start: sz.Start, End: sz.End, Due: sz.End + c.markDelay})
		}
	}
}

// Finish ends the recording at end: the seizures whose mark delay runs
// past it are judged now, and the marks they need are kept, due after the
// end and never sent, as are verdicts on alerts that ended too late.
func (c *Clinician) Finish(end time.Duration) {
	c.ended = true
	c.judge(end)
}

// overlapsAlert reports whether an alert raised by now overlaps the
// seizure sz extended by the tolerance (one still going on lasts until
// now): eval would count sz detected.
func (c *Clinician) overlapsAlert(sz eval.Event, now time.Duration) bool {
	hyp := slices.Clone(c.alerts)
	for i := range hyp {
		if hyp[i].End == 0 {
			hyp[i].End = now
		}
	}
	return eval.Events([]eval.Event{sz}, hyp, now, c.params).Detected > 0
}

// send decides a verdict (against the seizures begun by now) and sends
// decision i's label without blocking.
func (c *Clinician) send(i int, now time.Duration) error {
	d := &c.dec[i]
	if c.labels == nil {
		return fmt.Errorf("bonn: clinician: a label is due at %v and no pipeline is attached", d.Due)
	}
	lab := alert.Label{Seizure: true, From: ClinicianName, By: ClinicianName}
	if d.AlertID != "" {
		var ref []eval.Event
		for _, sz := range c.seizures {
			if sz.Start <= now {
				ref = append(ref, sz)
			}
		}
		hyp := eval.Event{Start: d.Start, End: d.End}
		lab.AlertID, lab.Seizure = d.AlertID, eval.Events(ref, []eval.Event{hyp}, now, c.params).Detected > 0
		d.Kind = Reject
		if lab.Seizure {
			d.Kind = Confirm
		}
	} else {
		lab.Start, lab.End = c.wall0.Add(d.Start), c.wall0.Add(d.End)
	}
	select {
	case c.labels <- lab:
		d.Sent = true
		c.unacked = append(c.unacked, i)
	default:
		d.Reason = "not sent: the pipeline's label channel was full"
	}
	return nil
}

// Ack implements alert.AckSink: the pipeline's answer to the oldest label
// not yet answered (it answers in the order it takes them).
func (c *Clinician) Ack(a alert.Ack) error {
	if len(c.unacked) == 0 {
		return fmt.Errorf("bonn: clinician: an acknowledgement (alert %q) for no label it sent", a.AlertID)
	}
	d := &c.dec[c.unacked[0]]
	c.unacked = c.unacked[1:]
	if a.AlertID != d.AlertID {
		return fmt.Errorf("bonn: clinician: acknowledgement of alert %q, want %q", a.AlertID, d.AlertID)
	}
	d.Acked, d.Applied, d.Windows, d.Reason = true, a.Applied, a.Windows, a.Reason
	return nil
}

// Part is what happened in one part of a replayed recording: the SzCORE
// event scores of the seizures and false alarms that start in it, and the
// clinician's labels due in it. Parts add up (Add): summed over the three
// parts of a recording they are the whole recording's scores.
type Part struct {
	Duration                        time.Duration
	Seizures, Detected, FalseAlarms int
	// The clinician's labels by kind (those sent), how many it sent, how
	// many the pipeline applied and refused, and how many were due after
	// the recording ended (or not sent for want of room).
	Confirmed, Rejected, Marked    int
	Sent, Applied, Refused, Unsent int
}

// Add adds q's counts and duration to p.
func (p *Part) Add(q Part) {
	p.Duration += q.Duration
	p.Seizures += q.Seizures
	p.Detected += q.Detected
	p.FalseAlarms += q.FalseAlarms
	p.Confirmed += q.Confirmed
	p.Rejected += q.Rejected
	p.Marked += q.Marked
	p.Sent += q.Sent
	p.Applied += q.Applied
	p.Refused += q.Refused
	p.Unsent += q.Unsent
}

// Sensitivity is detected / seizures, NaN without seizures.
func (p Part) Sensitivity() float64 {
	if p.Seizures == 0 {
		return math.NaN()
	}
	return float64(p.Detected) / float64(p.Seizures)
}

// FalseAlarmsPerDay is the false alarms per 24 h of the part.
func (p Part) FalseAlarmsPerDay() float64 {
	if p.Duration <= 0 {
		return 0
	}
	return float64(p.FalseAlarms) / (p.Duration.Hours() / 24)
}

// Parts is the number of parts Split cuts a recording into.
const Parts = 3

// PartNames name the parts of Split.
var PartNames = [Parts]string{"first", "middle", "last"}

// Split scores a replay (the recording's annotations, the detector's
// events, the clinician's decisions, nil without one) in three equal
// parts of its duration. The recording is scored once, as eval.Match
// does; each seizure after merging counts in the part where it starts,
// and so does each hypothesis after merging, a false alarm when any of it
// lies outside the tolerance of the seizures it detects (eval's rule). A
// decision counts in the part where it is due.
func Split(annotations []acquire.Interval, events []alert.Event, decisions []Decision, duration time.Duration) [Parts]Part {
	var parts [Parts]Part
	part := func(t time.Duration) *Part {
		if duration <= 0 {
			return &parts[0]
		}
		return &parts[min(max(int(Parts*int64(t)/int64(duration)), 0), Parts-1)]
	}
	for i := range parts {
		parts[i].Duration = duration*time.Duration(i+1)/Parts - duration*time.Duration(i)/Parts
	}
	ref := eval.FromIntervals(annotations)
	sum := eval.Events(ref, eval.FromAlerts(events, duration), duration, eval.DefaultParams())
	for _, s := range sum.Seizures {
		p := part(s.Start)
		p.Seizures++
		if s.Detected {
			p.Detected++
		}
	}
	for _, h := range sum.Hypotheses {
		// Alone, h is a false alarm exactly when it is among all: the
		// seizures whose tolerance covers part of it are those it detects.
		if eval.Events(ref, []eval.Event{h}, duration, eval.DefaultParams()).FalseAlarms > 0 {
			part(h.Start).FalseAlarms++
		}
	}
	for _, d := range decisions {
		p := part(d.Due)
		if !d.Sent {
			p.Unsent++
			continue
		}
		p.Sent++
		switch d.Kind {
		case Confirm:
			p.Confirmed++
		case Reject:
			p.Rejected++
		case Mark:
			p.Marked++
		}
		switch {
		case d.Applied:
			p.Applied++
		case d.Acked:
			p.Refused++
		}
	}
	return parts
}
