package chbmit

import (
	"math"
	"time"

	"github.com/ictal/ictal/internal/eval"
)

// Tally adds up the event scores of held-out recordings (internal/eval's
// Summary of each): its rates are those of the pooled counts, as Shoeb
// and Guttag report a patient's sensitivity and false alarm rate, not a
// mean of per-recording rates.
type Tally struct {
	Records     int
	Seizures    int // reference events, after eval's merging
	Detected    int
	FalseAlarms int
	Duration    time.Duration   // recorded time the false alarms are counted over
	Delays      []time.Duration // of the detected seizures
}

// Add adds u's counts, duration and delays to t.
func (t *Tally) Add(u Tally) {
	t.Records += u.Records
	t.Seizures += u.Seizures
	t.Detected += u.Detected
	t.FalseAlarms += u.FalseAlarms
	t.Duration += u.Duration
	t.Delays = append(t.Delays, u.Delays...)
}

// Sensitivity is the fraction of seizures detected, NaN without seizures
// (eval.Rates of the pooled counts).
func (t Tally) Sensitivity() float64 {
	sens, _, _, _ := eval.Rates(t.Seizures, t.Detected, t.FalseAlarms, t.Duration)
	return sens
}

// FalseAlarmsPerDay is the number of false alarms per 24 h recorded
// (eval.Rates of the pooled counts), NaN over no time.
func (t Tally) FalseAlarmsPerDay() float64 {
	if t.Duration <= 0 {
		return math.NaN()
	}
	_, _, _, perDay := eval.Rates(t.Seizures, t.Detected, t.FalseAlarms, t.Duration)
	return perDay
}

// MedianDelay is the median detection delay (eval.Median), and false when
// no seizure was detected.
func (t Tally) MedianDelay() (time.Duration, bool) {
	return eval.Median(t.Delays), len(t.Delays) > 0
}
