package eval

import (
	"math"
	"time"
)

// SampleSummary is the result of sample-based scoring: counts of 1 s
// samples.
type SampleSummary struct {
	Samples     int // seconds in the recording
	Reference   int // seconds inside a reference event
	TruePos     int // seconds inside both
	FalsePos    int // seconds inside a hypothesis only
	Sensitivity float64
	Precision   float64
	F1          float64
	// FalsePosPerDay is false-positive seconds per 24 h.
	FalsePosPerDay float64
}

// Samples scores hypothesis against reference events second by second, as
// timescoring's SampleScoring at 1 Hz: second k is positive in a list when
// an event [s, e) has round(s) ≤ k < round(e). Events are not merged or
// split. It works on intervals, so a long recording costs no memory.
func Samples(ref, hyp []Event, duration time.Duration) SampleSummary {
	n := int64(math.Round(duration.Seconds()))
	rs, hs := seconds(ref, n), seconds(hyp, n)
	s := SampleSummary{Samples: int(n)}
	var hypTotal int64
	for _, x := range hs {
		hypTotal += x.b - x.a
		s.TruePos += int(covered(rs, x))
	}
	for _, x := range rs {
		s.Reference += int(x.b - x.a)
	}
	s.FalsePos = int(hypTotal) - s.TruePos
	s.Sensitivity, s.Precision, s.F1, s.FalsePosPerDay = Rates(s.Reference, s.TruePos, s.FalsePos, time.Duration(n)*time.Second)
	return s
}

// seconds is the union of events as sorted disjoint spans of whole
// seconds within [0, n).
func seconds(events []Event, n int64) []span {
	var out []span
	for _, e := range clip(events, time.Duration(n)*time.Second) {
		a := max(0, int64(math.Round(e.Start.Seconds())))
		b := min(n, int64(math.Round(e.End.Seconds())))
		out = addSpan(out, span{a, b})
	}
	return out
}
