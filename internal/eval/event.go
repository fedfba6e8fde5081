package eval

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Event is one seizure, annotated (reference) or detected (hypothesis),
// as offsets from the start of the recording.
type Event struct {
	Start, End time.Duration
	// Detected is when a detector raised the event (its first alert); zero
	// means at Start. Reference events leave it zero.
	Detected time.Duration
	// Kind is the kind of the alert that raised a hypothesis event
	// (alert.KindSeizure, KindMotor, …; empty for reference events).
	// Scoring treats every kind alike; a merged event keeps the kind of its
	// first, the pieces of a split one keep theirs.
	Kind string
}

// raised is when the event became known.
func (e Event) raised() time.Duration {
	if e.Detected == 0 {
		return e.Start
	}
	return e.Detected
}

// Params are the rules of event scoring. DefaultParams returns SzCORE's.
type Params struct {
	PreTolerance  time.Duration // before a reference onset (30 s)
	PostTolerance time.Duration // after a reference end (60 s)
	MinGap        time.Duration // events closer than this are merged (90 s)
	MaxDuration   time.Duration // events longer than this are split (300 s)
	// MinOverlap is the fraction of the extended reference event a
	// hypothesis must cover; 0 means any overlap.
	MinOverlap float64
}

// DefaultParams returns the SzCORE parameters of timescoring.
func DefaultParams() Params {
	return Params{PreTolerance: 30 * time.Second, PostTolerance: 60 * time.Second,
		MinGap: 90 * time.Second, MaxDuration: 300 * time.Second}
}

// SeizureResult is one reference event after merging and splitting.
type SeizureResult struct {
	Start, End time.Duration
	Detected   bool
	// Delay is from Start to the first overlapping hypothesis (see the
	// package documentation); valid when Detected.
	Delay time.Duration
}

// Summary is the result of event scoring.
type Summary struct {
	Duration    time.Duration
	Seizures    []SeizureResult // reference events after merging and splitting
	Hypotheses  []Event         // hypothesis events after merging and splitting
	Detected    int             // true positives: reference events detected
	FalseAlarms int             // hypothesis events reaching outside detected tolerance windows
	// Sensitivity, Precision and F1 are NaN when undefined (no reference
	// event; no hypothesis event).
	Sensitivity, Precision, F1 float64
	FalseAlarmsPerDay          float64
	// Delays of the detected reference events, in order of onset, and
	// their median (zero when none was detected).
	Delays      []time.Duration
	MedianDelay time.Duration
}

// grid is the time resolution of overlaps (timescoring's 10 Hz).
const grid = 100 * time.Millisecond

func sample(t time.Duration) int64 { return int64(math.Round(float64(t) / float64(grid))) }

// span is a half-open range of grid samples.
type span struct{ a, b int64 }

// Events scores hypothesis events against reference events of a recording
// of the given duration (events are clipped to it). The inputs are not
// modified and need not be sorted.
func Events(ref, hyp []Event, duration time.Duration, p Params) Summary {
	s := Summary{Duration: duration}
	r := split(merge(clip(ref, duration), p.MinGap), p.MaxDuration)
	h := split(merge(clip(hyp, duration), p.MinGap), p.MaxDuration)
	s.Hypotheses = h
	n := sample(duration)
	bound := func(t time.Duration) int64 { return min(max(sample(t), 0), n) }
	var hmask []span
	for _, e := range h {
		hmask = addSpan(hmask, span{bound(e.Start), bound(e.End)})
	}
	var tp []span
	raw := clip(hyp, duration)
	for _, e := range r {
		lo, hi := max(0, e.Start-p.PreTolerance), min(duration, e.End+p.PostTolerance)
		x := span{bound(lo), bound(hi)}
		res := SeizureResult{Start: e.Start, End: e.End}
		cov := covered(hmask, x)
		if hi > lo && float64(cov)*float64(grid)/float64(hi-lo) > p.MinOverlap+1e-6 {
			res.Detected = true
			s.Detected++
			tp = addSpan(tp, x)
			first := time.Duration(math.MaxInt64)
			for _, o := range raw {
				if covered([]span{{bound(o.Start), bound(o.End)}}, x) > 0 {
					first = min(first, max(o.raised(), lo))
				}
			}
			if first == time.Duration(math.MaxInt64) {
				// Only the filled gap of a merged hypothesis overlaps.
				first = lo
				for _, o := range h {
					if covered([]span{{bound(o.Start), bound(o.End)}}, x) > 0 {
						first = max(o.raised(), lo)
						break
					}
				}
			}
			res.Delay = first - e.Start
			s.Delays = append(s.Delays, res.Delay)
		}
		s.Seizures = append(s.Seizures, res)
	}
	for _, e := range h {
		x := span{bound(e.Start), bound(e.End)}
		if covered(tp, x) < x.b-x.a {
			s.FalseAlarms++
		}
	}
	s.Sensitivity, s.Precision, s.F1, s.FalseAlarmsPerDay = Rates(len(r), s.Detected, s.FalseAlarms, duration)
	s.MedianDelay = Median(s.Delays)
	return s
}

// Rates computes scores from counts as timescoring does: the sensitivity
// (tp of refTrue reference events detected), the precision (tp of tp+fp
// hypotheses), their F1, each NaN where undefined, and the false
// positives per 24 h of duration (0 over no time).
func Rates(refTrue, tp, fp int, duration time.Duration) (sens, prec, f1, perDay float64) {
	sens, prec, f1 = math.NaN(), math.NaN(), math.NaN()
	if refTrue > 0 {
		sens = float64(tp) / float64(refTrue)
	}
	if tp+fp > 0 {
		prec = float64(tp) / float64(tp+fp)
	}
	switch {
	case math.IsNaN(sens) || math.IsNaN(prec):
	case sens+prec == 0:
		f1 = 0
	default:
		f1 = 2 * sens * prec / (sens + prec)
	}
	if duration > 0 {
		perDay = float64(fp) / (duration.Hours() / 24)
	}
	return sens, prec, f1, perDay
}

// Median returns the median of d (the mean of the middle two of an even
// count), zero when empty; d is left as it is.
func Median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	c := slices.Clone(d)
	slices.Sort(c)
	if n := len(c); n%2 == 1 {
		return c[n/2]
	} else {
		return (c[n/2-1] + c[n/2]) / 2
	}
}

// clip sorts a copy of events by start and clips them to [0, duration],
// dropping those entirely outside and those with End < Start.
func clip(events []Event, duration time.Duration) []Event {
	out := make([]Event, 0, len(events))
	for _, e := range events {
		if e.End < e.Start || e.End < 0 || e.Start > duration {
			continue
		}
		e.Start, e.End = max(e.Start, 0), min(e.End, duration)
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b Event) int { return cmp.Compare(a.Start, b.Start) })
	return out
}

// merge joins sorted events separated by less than gap (overlapping ones
// included); the merged event keeps the earliest detection time.
func merge(events []Event, gap time.Duration) []Event {
	var out []Event
	for _, e := range events {
		if k := len(out) - 1; k >= 0 && e.Start-out[k].End < gap {
			out[k].End = max(out[k].End, e.End)
			if e.raised() < out[k].raised() {
				out[k].Detected = e.raised()
			}
			continue
		}
		out = append(out, e)
	}
	return out
}

// split cuts events longer than maxDur into pieces of maxDur (the last
// one shorter); a later piece is raised at its own start.
func split(events []Event, maxDur time.Duration) []Event {
	if maxDur <= 0 {
		return events
	}
	var out []Event
	for _, e := range events {
		for e.End-e.Start > maxDur {
			out = append(out, Event{Start: e.Start, End: e.Start + maxDur, Detected: e.Detected, Kind: e.Kind})
			e = Event{Start: e.Start + maxDur, End: e.End, Kind: e.Kind}
		}
		out = append(out, e)
	}
	return out
}

// addSpan adds x to a sorted list of disjoint spans, keeping it sorted and
// disjoint; adding spans in order of start costs O(1) each.
func addSpan(s []span, x span) []span {
	if x.b <= x.a {
		return s
	}
	if k := len(s) - 1; k < 0 || x.a > s[k].b {
		return append(s, x)
	} else if x.a >= s[k].a {
		s[k].b = max(s[k].b, x.b)
		return s
	}
	return addSpanAnywhere(s, x)
}

// addSpanAnywhere is addSpan for an x that starts before the last span.
func addSpanAnywhere(s []span, x span) []span {
	var out []span
	for _, y := range s {
		if y.b < x.a || y.a > x.b {
			out = append(out, y)
		} else {
			x = span{min(x.a, y.a), max(x.b, y.b)}
		}
	}
	out = append(out, x)
	slices.SortFunc(out, func(p, q span) int { return cmp.Compare(p.a, q.a) })
	return out
}

// covered is the number of samples of x covered by the sorted disjoint
// spans s.
func covered(s []span, x span) int64 {
	i, _ := slices.BinarySearchFunc(s, x.a, func(y span, t int64) int { return cmp.Compare(y.b, t+1) })
	var n int64
	for ; i < len(s) && s[i].a < x.b; i++ {
		if a, b := max(x.a, s[i].a), min(x.b, s[i].b); b > a {
			n += b - a
		}
	}
	return n
}
