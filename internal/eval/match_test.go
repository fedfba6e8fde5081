package eval

import (
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
)

func TestMatch(t *testing.T) {
	s := time.Second
	sz := []acquire.Interval{
		{Start: 100 * s, End: 160 * s, Seizure: true},
		{Start: 400 * s, End: 430 * s, Seizure: true},
		{Start: 800 * s, End: 850 * s, Seizure: true},
		{Start: 200 * s, End: 205 * s, Text: "artifact: blink"}, // not a seizure
	}
	ev := func(id string, on, det, end time.Duration) alert.Event {
		return alert.Event{ID: id, OnsetOffset: on, DetectedOffset: det, EndOffset: end}
	}
	events := []alert.Event{
		ev("a", 104*s, 110*s, 150*s),    // seizure 1, delay 10 s
		ev("b", 112*s, 120*s, 130*s),    // also seizure 1: not a false alarm
		ev("c", 480*s, 485*s, 489*s),    // 50 s after seizure 2 ends: within the 60 s tolerance
		ev("d", 600*s, 605*s, 640*s),    // false alarm
		ev("e", 770*s, 775*s, 0),        // in progress at the end: 25 s before seizure 3, within 30 s
		ev("f", 2000*s, 2004*s, 2010*s), // false alarm
	}
	got := Match(sz, events, time.Hour)
	if got.Detected != 3 || got.FalseAlarms != 2 || got.Sensitivity != 1 {
		t.Fatalf("%+v", got)
	}
	wantDelay := []time.Duration{10 * s, 85 * s, -25 * s}
	for i, r := range got.Seizures {
		if r.Delay != wantDelay[i] {
			t.Errorf("seizure %d delay %v, want %v", i, r.Delay, wantDelay[i])
		}
	}
	if got.FalseAlarmsPer != 48 {
		t.Errorf("%v false alarms per day, want 48", got.FalseAlarmsPer)
	}
	if got.MedianDelay != 10*s {
		t.Errorf("median delay %v", got.MedianDelay)
	}
	none := Match(nil, nil, 0)
	if none.Sensitivity != 0 || none.FalseAlarmsPer != 0 {
		t.Errorf("empty: %+v", none)
	}
	late := Match(sz[:1], []alert.Event{ev("x", 221*s, 225*s, 230*s)}, time.Hour)
	if late.Detected != 0 || late.FalseAlarms != 1 {
		t.Errorf("an alert 61 s after the end matched: %+v", late)
	}
}
