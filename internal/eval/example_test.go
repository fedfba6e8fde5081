package eval_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/ictal/ictal/internal/eval"
)

// Score a detector's events against annotated seizures of a one-hour
// recording with SzCORE's rules.
func ExampleEvents() {
	s := time.Second
	ref := []eval.Event{{Start: 600 * s, End: 660 * s}, {Start: 2400 * s, End: 2430 * s}}
	hyp := []eval.Event{
		{Start: 596 * s, End: 640 * s, Detected: 604 * s}, // 4 s after onset
		{Start: 1800 * s, End: 1810 * s},                  // false alarm
	}
	sum := eval.Events(ref, hyp, time.Hour, eval.DefaultParams())
	fmt.Printf("detected %d of %d, %d false alarm(s), %.0f per 24 h\n", sum.Detected, len(sum.Seizures), sum.FalseAlarms, sum.FalseAlarmsPerDay)
	fmt.Printf("sensitivity %.2f precision %.2f F1 %.2f, delays %v\n", sum.Sensitivity, sum.Precision, sum.F1, sum.Delays)
	// Output:
	// detected 1 of 2, 1 false alarm(s), 24 per 24 h
	// sensitivity 0.50 precision 0.50 F1 0.50, delays [4s]
}

// Read the reference of an SzCORE events.tsv.
func ExampleReadTSV() {
	tsv := "onset\tduration\teventType\tconfidence\tchannels\tdateTime\trecordingDuration\n" +
		"296.0\t40.5\tsz\tn/a\tn/a\t2024-01-01 08:00:00\t3600.0\n"
	rec, err := eval.ReadTSV(strings.NewReader(tsv), "sub-01_events.tsv")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Events[0].Start, rec.Events[0].End, rec.Duration)
	// Output: 4m56s 5m36.5s 1h0m0s
}
