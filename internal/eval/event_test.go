package eval

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
)

const s = time.Second

func ev(a, b float64) Event {
	return Event{Start: time.Duration(a * float64(s)), End: time.Duration(b * float64(s))}
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func TestEventScoringRules(t *testing.T) {
	nan := math.NaN()
	hour := time.Hour
	tests := []struct {
		name       string
		ref, hyp   []Event
		dur        time.Duration
		refs       int // reference events after merging and splitting
		tp, fp     int
		sens, prec float64
	}{
		{"hypothesis inside a seizure", []Event{ev(1000, 1060)}, []Event{ev(1010, 1020)}, hour, 1, 1, 0, 1, 1},
		{"ends exactly where the 30 s pre-tolerance begins: missed", []Event{ev(1000, 1060)}, []Event{ev(960, 970)}, hour, 1, 0, 1, 0, 0},
		{"ends 0.1 s inside the pre-tolerance: detected, starts outside: also a false alarm", []Event{ev(1000, 1060)}, []Event{ev(960, 970.1)}, hour, 1, 1, 1, 1, 0.5},
		{"starts exactly at the pre-tolerance: detected, no false alarm", []Event{ev(1000, 1060)}, []Event{ev(970, 970.1)}, hour, 1, 1, 0, 1, 1},
		{"starts exactly where the 60 s post-tolerance ends: missed", []Event{ev(1000, 1060)}, []Event{ev(1120, 1130)}, hour, 1, 0, 1, 0, 0},
		{"starts 0.1 s before the post-tolerance ends: detected, spills out: also a false alarm", []Event{ev(1000, 1060)}, []Event{ev(1119.9, 1130)}, hour, 1, 1, 1, 1, 0.5},
		{"inside the post-tolerance: no false alarm", []Event{ev(1000, 1060)}, []Event{ev(1100, 1119.9)}, hour, 1, 1, 0, 1, 1},
		{"starts 40 s early: detects and counts a false alarm", []Event{ev(1000, 1060)}, []Event{ev(960, 1010)}, hour, 1, 1, 1, 1, 0.5},
		{"starts 30 s early: no false alarm", []Event{ev(1000, 1060)}, []Event{ev(970, 1010)}, hour, 1, 1, 0, 1, 1},
		{"seizures 89.9 s apart merge", []Event{ev(1000, 1010), ev(1099.9, 1110)}, nil, hour, 1, 0, 0, 0, nan},
		{"seizures 90 s apart stay two", []Event{ev(1000, 1010), ev(1100, 1110)}, nil, hour, 2, 0, 0, 0, nan},
		{"a 300 s seizure is not split", []Event{ev(1000, 1300)}, []Event{ev(1250, 1260)}, hour, 1, 1, 0, 1, 1},
		{"a 700 s seizure is split in three; one detected", []Event{ev(1000, 1700)}, []Event{ev(1680, 1690)}, hour, 3, 1, 0, 1.0 / 3, 1},
		{"one hypothesis overlapping two seizures detects both", []Event{ev(1000, 1060), ev(1150, 1210)}, []Event{ev(1050, 1160)}, hour, 2, 2, 0, 1, 1},
		{"one hypothesis bridging two tolerance windows: the gap makes a false alarm", []Event{ev(1000, 1060), ev(1200, 1260)}, []Event{ev(1050, 1210)}, hour, 2, 2, 1, 1, 2.0 / 3},
		{"hypotheses 50 s apart merge into one false alarm", []Event{ev(1000, 1060)}, []Event{ev(2000, 2010), ev(2060, 2070)}, hour, 1, 0, 1, 0, 0},
		{"merged hypotheses: precision counts one event", []Event{ev(1000, 1060)}, []Event{ev(1000, 1010), ev(1050, 1060), ev(3000, 3010)}, hour, 1, 1, 1, 1, 0.5},
		{"overlapping hypotheses merge", []Event{ev(1000, 1060)}, []Event{ev(1000, 1040), ev(1010, 1020)}, hour, 1, 1, 0, 1, 1},
		{"tolerance clipped at the recording start", []Event{ev(10, 40)}, []Event{ev(0, 5)}, hour, 1, 1, 0, 1, 1},
		{"events beyond the recording are clipped away", []Event{ev(100, 130)}, []Event{ev(4000, 4010)}, hour, 1, 0, 0, 0, nan},
		{"no events at all", nil, nil, hour, 0, 0, 0, nan, nan},
		{"no seizure, one false alarm", nil, []Event{ev(100, 110)}, hour, 0, 0, 1, nan, 0},
		{"seizures, no hypothesis", []Event{ev(100, 110)}, nil, hour, 1, 0, 0, 0, nan},
		{"unsorted input", []Event{ev(2000, 2010), ev(100, 110)}, []Event{ev(2005, 2006), ev(105, 106)}, hour, 2, 2, 0, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Events(tt.ref, tt.hyp, tt.dur, DefaultParams())
			if len(got.Seizures) != tt.refs || got.Detected != tt.tp || got.FalseAlarms != tt.fp {
				t.Fatalf("refs %d tp %d fp %d, want %d %d %d", len(got.Seizures), got.Detected, got.FalseAlarms, tt.refs, tt.tp, tt.fp)
			}
			if !same(got.Sensitivity, tt.sens) || !same(got.Precision, tt.prec) {
				t.Errorf("sensitivity %v precision %v, want %v %v", got.Sensitivity, got.Precision, tt.sens, tt.prec)
			}
			if want := float64(tt.fp) * 24; got.FalseAlarmsPerDay != want {
				t.Errorf("%v false alarms per day, want %v", got.FalseAlarmsPerDay, want)
			}
		})
	}
}

func TestF1(t *testing.T) {
	got := Events([]Event{ev(1000, 1060), ev(2000, 2060)}, []Event{ev(1010, 1020), ev(3000, 3010)}, time.Hour, DefaultParams())
	// sensitivity 1/2, precision 1/2
	if got.F1 != 0.5 {
		t.Errorf("F1 %v, want 0.5", got.F1)
	}
	none := Events([]Event{ev(1000, 1060)}, []Event{ev(3000, 3010)}, time.Hour, DefaultParams())
	if none.F1 != 0 {
		t.Errorf("F1 without overlap %v, want 0", none.F1)
	}
}

func TestSplitPieces(t *testing.T) {
	got := split([]Event{ev(0, 700)}, 300*s)
	want := []Event{ev(0, 300), ev(300, 600), ev(600, 700)}
	if !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

func TestDelays(t *testing.T) {
	tests := []struct {
		name  string
		hyp   Event
		delay time.Duration
	}{
		{"raised 12 s after onset", Event{Start: 1005 * s, End: 1030 * s, Detected: 1012 * s}, 12 * s},
		{"detection time unknown: its start", ev(1004, 1030), 4 * s},
		{"raised 20 s before onset", Event{Start: 975 * s, End: 990 * s, Detected: 980 * s}, -20 * s},
		{"raised long before: the tolerance window's start", Event{Start: 500 * s, End: 1010 * s, Detected: 505 * s}, -30 * s},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Events([]Event{ev(1000, 1060)}, []Event{tt.hyp}, time.Hour, DefaultParams())
			if len(got.Delays) != 1 || got.Delays[0] != tt.delay || got.Seizures[0].Delay != tt.delay {
				t.Errorf("delays %v, want [%v]", got.Delays, tt.delay)
			}
		})
	}
	got := Events([]Event{ev(1000, 1060), ev(2000, 2060), ev(3000, 3060)},
		[]Event{ev(1010, 1020), ev(2030, 2040), ev(3002, 3004)}, time.Hour, DefaultParams())
	if got.MedianDelay != 10*s || !slices.Equal(got.Delays, []time.Duration{10 * s, 30 * s, 2 * s}) {
		t.Errorf("delays %v median %v", got.Delays, got.MedianDelay)
	}
}

func TestSampleScoring(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name                 string
		ref, hyp             []Event
		dur                  time.Duration
		refSec, tp, fp       int
		sens, prec, fpPerDay float64
	}{
		{"half overlap", []Event{ev(10, 20)}, []Event{ev(15, 25)}, 100 * s, 10, 5, 5, 0.5, 0.5, 5 * 864},
		{"rounding to the second", []Event{ev(9.6, 20.4)}, []Event{ev(10.4, 11.5)}, 100 * s, 10, 2, 0, 0.2, 1, 0},
		{"no reference", nil, []Event{ev(0, 10)}, 100 * s, 0, 0, 10, nan, 0, 10 * 864},
		{"nothing", nil, nil, 100 * s, 0, 0, 0, nan, nan, 0},
		{"hypothesis past the end is cut", []Event{ev(90, 100)}, []Event{ev(95, 200)}, 100 * s, 10, 5, 0, 0.5, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Samples(tt.ref, tt.hyp, tt.dur)
			if got.Reference != tt.refSec || got.TruePos != tt.tp || got.FalsePos != tt.fp {
				t.Fatalf("%+v", got)
			}
			if !same(got.Sensitivity, tt.sens) || !same(got.Precision, tt.prec) || math.Abs(got.FalsePosPerDay-tt.fpPerDay) > 1e-9 {
				t.Errorf("%+v", got)
			}
		})
	}
}

func TestMatchAlerts(t *testing.T) {
	sz := []acquire.Interval{
		{Start: 100 * s, End: 160 * s, Seizure: true},
		{Start: 800 * s, End: 850 * s, Seizure: true},
		{Start: 200 * s, End: 205 * s, Text: "artifact: blink"}, // not a seizure
	}
	events := []alert.Event{
		{ID: "a", OnsetOffset: 104 * s, DetectedOffset: 110 * s, EndOffset: 150 * s},
		{ID: "b", OnsetOffset: 2000 * s, DetectedOffset: 2004 * s, EndOffset: 2010 * s},
		{ID: "c", OnsetOffset: 3590 * s, DetectedOffset: 3594 * s}, // still going at the end
	}
	got := Match(sz, events, time.Hour)
	if got.Detected != 1 || got.FalseAlarms != 2 || len(got.Seizures) != 2 || got.Seizures[0].Delay != 10*s {
		t.Fatalf("%+v", got)
	}
	if h := got.Hypotheses[2]; h.End != time.Hour {
		t.Errorf("open event ends at %v, want the recording's end", h.End)
	}
}
