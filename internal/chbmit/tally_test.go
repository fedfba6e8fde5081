package chbmit

import (
	"math"
	"testing"
	"time"
)

func TestTally(t *testing.T) {
	var all Tally
	if !math.IsNaN(all.Sensitivity()) || !math.IsNaN(all.FalseAlarmsPerDay()) {
		t.Error("an empty tally has rates")
	}
	if _, ok := all.MedianDelay(); ok {
		t.Error("an empty tally has a median delay")
	}
	all.Add(Tally{Records: 1, Seizures: 2, Detected: 1, FalseAlarms: 1, Duration: 6 * time.Hour, Delays: []time.Duration{9 * time.Second}})
	all.Add(Tally{Records: 1, Duration: 6 * time.Hour})
	all.Add(Tally{Records: 1, Seizures: 2, Detected: 2, FalseAlarms: 3, Duration: 12 * time.Hour, Delays: []time.Duration{3 * time.Second, 5 * time.Second}})
	if all.Records != 3 || all.Sensitivity() != 0.75 || all.FalseAlarmsPerDay() != 4 {
		t.Errorf("%+v: sensitivity %v, false alarms per day %v", all, all.Sensitivity(), all.FalseAlarmsPerDay())
	}
	if d, ok := all.MedianDelay(); !ok || d != 5*time.Second {
		t.Errorf("median of 9 s, 3 s, 5 s: %v", d)
	}
	all.Delays = append(all.Delays, 8*time.Second)
	if d, _ := all.MedianDelay(); d != 6500*time.Millisecond {
		t.Errorf("median of 9 s, 3 s, 5 s, 8 s: %v", d)
	}
}
