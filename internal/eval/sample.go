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
// split.
func Samples(ref, hyp []Event, duration time.Duration) SampleSummary {
	n := int(math.Round(duration.Seconds()))
	rm, hm := mask(ref, n), mask(hyp, n)
	s := SampleSummary{Samples: n}
	for k := range n {
		switch {
		case rm[k] && hm[k]:
			s.TruePos++
		case hm[k]:
			s.FalsePos++
		}
		if rm[k] {
			s.Reference++
		}
	}
	s.Sensitivity, s.Precision, s.F1, s.FalsePosPerDay = rates(s.Reference, s.TruePos, s.FalsePos, time.Duration(n)*time.Second)
	return s
}

// mask is the 1 Hz mask of events over n seconds.
func mask(events []Event, n int) []bool {
	m := make([]bool, n)
	for _, e := range events {
		a := max(0, int(math.Round(e.Start.Seconds())))
		b := min(n, int(math.Round(e.End.Seconds())))
		for k := a; k < b; k++ {
			m[k] = true
		}
	}
	return m
}
