package pipeline

import (
	"math"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/features"
)

// tamper wraps a source and damages frames in given time ranges.
type tamper struct {
	acquire.Source
	faults []fault
}

type fault struct {
	from, to time.Duration
	kind     string // "flat", "leadoff", "saturated", "gap"
	channel  int
}

func (t *tamper) Intervals() []acquire.Interval { return t.Source.(acquire.Labeled).Intervals() }

func (t *tamper) ReadFrame(f *acquire.Frame) error {
	if err := t.Source.ReadFrame(f); err != nil {
		return err
	}
	for _, x := range t.faults {
		if f.Time < x.from || f.Time >= x.to {
			continue
		}
		switch x.kind {
		case "flat":
			f.Samples[x.channel] = 12.5
		case "leadoff":
			f.LeadOff |= 1 << x.channel
			f.Flags |= acquire.FlagLeadOff
		case "saturated":
			f.Saturated |= 1 << x.channel
			f.Flags |= acquire.FlagSaturated
		case "nan":
			f.Samples[x.channel] = math.NaN()
		case "gap":
			if f.Time == x.from {
				f.Flags |= acquire.FlagGap
			}
		}
	}
	return nil
}

func TestQualityGating(t *testing.T) {
	s := time.Second
	src := &tamper{Source: newPatient(t, 4, 3*time.Minute, 0, 9), faults: []fault{
		{20 * s, 40 * s, "flat", 2},
		{60 * s, 70 * s, "leadoff", 1},
		{90 * s, 95 * s, "saturated", 3},
		{120 * s, 121 * s, "gap", 0},
		{150 * s, 150*s + 100*time.Millisecond, "nan", 1},
	}}
	m := newModel(t, src, features.Config{}, "UOB")
	rec := &recorder{Model: m}
	sink := &collect{}
	p := newPipeline(t, src, features.Config{}, rec, Config{Learning: Learning{Mode: LearnAnnotations}, Artifact: noArtifacts}, []alert.Sink{sink}, Hooks{})
	runAll(t, p)
	// Expected states in order, with reasons naming the channel.
	want := []struct {
		state  alert.State
		reason string
		since  time.Duration
	}{
		{alert.StateOnline, "signal good", 2 * s},
		{alert.StateElectrodeOff, "flat line on channel 2", 22 * s}, // flat for a whole 2 s window
		{alert.StateOnline, "signal good", 41 * s},
		{alert.StateElectrodeOff, "lead-off on channel 1", 61 * s},
		{alert.StateOnline, "signal good", 72 * s},
		{alert.StateElectrodeOff, "saturation on channel 3", 91 * s},
		{alert.StateOnline, "signal good", 97 * s},
		{alert.StateSignalLost, "frames lost", 122 * s},
		{alert.StateOnline, "signal good", 124 * s},
		{alert.StateElectrodeOff, "invalid samples", 151 * s},
		{alert.StateOnline, "signal good", 153 * s},
	}
	info := src.Info()
	if len(sink.states) != len(want) {
		for _, st := range sink.states {
			t.Logf("%s %q at %v", st.State, st.Reason, st.Since.Sub(info.Start))
		}
		t.Fatalf("%d state changes, want %d", len(sink.states), len(want))
	}
	for i, w := range want {
		got := sink.states[i]
		at := got.Since.Sub(info.Start)
		if got.State != w.state || len(got.Reason) < len(w.reason) || got.Reason[:len(w.reason)] != w.reason || at < w.since-1500*time.Millisecond || at > w.since+1500*time.Millisecond {
			t.Errorf("state %d: %s %q at %v; want %s %q at about %v", i, got.State, got.Reason, at, w.state, w.reason, w.since)
		}
	}
	// Unusable windows are neither scored as seizures nor learned.
	st := p.Stats()
	if st.Usable >= st.Windows {
		t.Fatalf("all %d windows usable", st.Windows)
	}
	if got := int64(len(rec.learned)); got != st.Usable-st.Unlabelled {
		t.Errorf("learned %d windows, usable %d", got, st.Usable)
	}
	for _, sc := range sink.scores {
		if !sc.Usable && sc.Score != 0 {
			t.Errorf("gated window at %v scored %v", sc.Offset, sc.Score)
		}
	}
	if st.Gaps != 1 {
		t.Errorf("%d gaps", st.Gaps)
	}
}
