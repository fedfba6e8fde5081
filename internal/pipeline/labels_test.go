package pipeline

import (
	"github.com/ictal/ictal/alert"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

func TestIntervalSetOverlap(t *testing.T) {
	s := time.Second
	set := newIntervalSet([]acquire.Interval{
		{Start: 50 * s, End: 60 * s, Seizure: true},
		{Start: 10 * s, End: 20 * s, Seizure: true},
		{Start: 15 * s, End: 25 * s, Seizure: true}, // overlaps the previous: merged
		{Start: 30 * s, End: 40 * s, Seizure: false, Text: "artifact: blink"},
		{Start: 70 * s, End: 70 * s, Seizure: true}, // empty: ignored
	})
	if len(set.start) != 2 || set.start[0] != 10*s || set.end[0] != 25*s {
		t.Fatalf("merged set %v %v", set.start, set.end)
	}
	tests := []struct {
		a, b, want time.Duration
	}{
		{0, 2 * s, 0},
		{9 * s, 11 * s, s},
		{12 * s, 14 * s, 2 * s},
		{24 * s, 26 * s, s},
		{30 * s, 32 * s, 0}, // not a seizure
		{49 * s, 51 * s, s},
		{59 * s, 61 * s, s},
		{80 * s, 82 * s, 0},
	}
	for _, tt := range tests {
		if got := set.overlap(tt.a, tt.b); got != tt.want {
			t.Errorf("overlap [%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestLabelOf(t *testing.T) {
	s := time.Second
	tests := []struct {
		overlap   time.Duration
		pos, ok   bool
		minOverlp float64
	}{
		{0, false, true, 0.5},
		{s, true, true, 0.5},
		{999 * time.Millisecond, false, false, 0.5},
		{2 * s, true, true, 1},
		{1999 * time.Millisecond, false, false, 1},
	}
	for _, tt := range tests {
		if pos, ok := labelOf(tt.overlap, 2*s, tt.minOverlp); pos != tt.pos || ok != tt.ok {
			t.Errorf("labelOf(%v, 2s, %v) = %v, %v", tt.overlap, tt.minOverlp, pos, ok)
		}
	}
}

// TestAnnotationLabels checks, window by window, that prequential learning
// uses the overlap rule against the simulated patient's seizures.
func TestAnnotationLabels(t *testing.T) {
	src := newPatient(t, 4, 10*time.Minute, 2, 21)
	m := newModel(t, src, defaultFeatures, "UOB")
	var starts []time.Duration
	rec := &recorder{Model: m}
	sink := &collect{}
	p := newPipeline(t, src, defaultFeatures, rec, Config{Learning: Learning{Mode: LearnAnnotations}, Artifact: noArtifacts}, []alert.Sink{sink}, Hooks{})
	runAll(t, p)
	for _, sc := range sink.scores {
		starts = append(starts, sc.Offset-2*time.Second)
	}
	sz := src.Seizures()
	i := 0
	for _, a := range starts {
		b := a + 2*time.Second
		var o time.Duration
		for _, s := range sz {
			o += max(0, min(b, s.End)-max(a, s.Start))
		}
		switch {
		case o == 0 || o >= time.Second:
			if i >= len(rec.learned) {
				t.Fatalf("window at %v not learned", a)
			}
			if want := o >= time.Second; rec.learned[i].pos != want {
				t.Errorf("window [%v, %v) overlapping seizures by %v learned as %v", a, b, o, rec.learned[i].pos)
			}
			i++
		}
	}
	if i != len(rec.learned) {
		t.Errorf("%d windows learned, expected %d", len(rec.learned), i)
	}
	if p.Stats().Unlabelled == 0 {
		t.Error("no window at a seizure boundary was left unlabelled")
	}
}
