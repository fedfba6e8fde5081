package pipeline

import (
	"fmt"
	"math"
	"slices"
	"strings"
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

// TestPerChannelScoresAroundABadChannel: with a per-channel score, a flat
// line, lead-off or saturation on one channel leaves that channel out and
// the window is scored on the others (the state says electrode-off, names
// the channel and says how many channels are scored), learned and taken
// into the baselines on the others only; a gap and invalid samples still
// gate the window, and so does a bad channel when fewer than TopK
// channels would remain. Before, one electrode off in a montage of 23
// stopped all scoring.
func TestPerChannelScoresAroundABadChannel(t *testing.T) {
	s := time.Second
	faults := []fault{
		{20 * s, 40 * s, "flat", 2},
		{60 * s, 70 * s, "leadoff", 1},
		{90 * s, 95 * s, "saturated", 3},
		{120 * s, 121 * s, "gap", 0},
		{150 * s, 150*s + 100*time.Millisecond, "nan", 1},
	}
	// Windows (by their end) well inside each fault's effect.
	inside := []struct {
		from, to     time.Duration
		channelLocal bool
	}{{23 * s, 39 * s, true}, {61 * s, 70 * s, true}, {91 * s, 95 * s, true}, {121 * s, 122 * s, false}, {151 * s, 152 * s, false}}
	for _, channels := range []int{4, 2} {
		fs := slices.Clone(faults)
		for i := range fs {
			fs[i].channel %= channels
		}
		src := &tamper{Source: newPatient(t, channels, 3*time.Minute, 0, 9), faults: fs}
		sink := &collect{}
		m := &counting{Model: channelModel(t)}
		p := newPipeline(t, src, defaultFeatures, m, Config{Learning: Learning{Mode: LearnAnnotations}, Artifact: noArtifacts,
			Scoring: Scoring{PerChannel: true, Population: unitPopulation()}}, []alert.Sink{sink}, Hooks{})
		runAll(t, p)
		for _, sc := range sink.scores {
			for _, in := range inside {
				if sc.Offset < in.from || sc.Offset > in.to {
					continue
				}
				if want := in.channelLocal && channels == 4; sc.Usable != want {
					t.Errorf("%d channels: window ending at %v scored %v, want %v", channels, sc.Offset, sc.Usable, want)
				}
			}
		}
		// Windows scored in state electrode-off: scored around a channel.
		partial := 0
		states := sink.states
		var cur alert.Status
		for _, sc := range sink.scores {
			for len(states) > 0 && !states[0].Since.After(sc.T) {
				cur, states = states[0], states[1:]
			}
			if sc.Usable && cur.State == alert.StateElectrodeOff {
				partial++
			}
		}
		var reasons []string
		for _, st := range sink.states {
			reasons = append(reasons, string(st.State)+": "+st.Reason)
		}
		want := []string{fmt.Sprintf("electrode-off: flat line on channel %d", fs[0].channel),
			fmt.Sprintf("electrode-off: lead-off on channel %d", fs[1].channel),
			fmt.Sprintf("electrode-off: saturation on channel %d", fs[2].channel),
			"signal-lost: frames lost", "electrode-off: invalid samples"}
		for _, w := range want {
			if !slices.ContainsFunc(reasons, func(r string) bool { return strings.HasPrefix(r, w) }) {
				t.Errorf("%d channels: no state %q among %q", channels, w, reasons)
			}
		}
		scoredAround := slices.ContainsFunc(reasons, func(r string) bool { return strings.HasSuffix(r, "; the other 3 channels are scored") })
		// The payload names the bad channel and, when scoring goes on, how
		// many channels it is scored on.
		for _, st := range sink.states {
			if st.State == alert.StateElectrodeOff && strings.HasPrefix(st.Reason, "flat line") {
				if want := []string{src.Info().Channels[fs[0].channel].Label}; !slices.Equal(st.Channels, want) || st.Scored != map[int]int{4: 3, 2: 0}[channels] {
					t.Errorf("%d channels: flat line state names %q, scored on %d; want %q, %d", channels, st.Channels, st.Scored, want, map[int]int{4: 3, 2: 0}[channels])
				}
			}
			if st.Scored != 0 && !strings.HasSuffix(st.Reason, fmt.Sprintf("; the other %d channels are scored", st.Scored)) {
				t.Errorf("state %q scored on %d", st.Reason, st.Scored)
			}
		}
		if channels == 2 {
			if partial > 0 || slices.ContainsFunc(reasons, func(r string) bool { return strings.Contains(r, "scored") }) {
				t.Errorf("2 channels, top 2: %d windows scored around a channel; states %q", partial, reasons)
			}
			continue
		}
		if partial < 30 || !scoredAround {
			t.Errorf("%d windows scored around a bad channel, want those of the faults (about 40); states %q", partial, reasons)
		}
		st := p.Stats()
		if st.Partial != int64(partial) {
			t.Errorf("Stats.Partial %d, want the %d windows scored around a channel", st.Partial, partial)
		}
		if got, want := st.LearnedNeg+st.LearnedPos+st.Unlabelled, st.Usable; got != want || m.nan != 0 || m.neg+m.pos > 4*int(st.LearnedNeg+st.LearnedPos)-partial {
			t.Errorf("learned %d windows and %d unlabelled, want the %d usable windows; %d examples (%d with a channel left out), want at most 3 of a window scored around a channel",
				st.LearnedNeg+st.LearnedPos, st.Unlabelled, want, m.neg+m.pos, m.nan)
		}
		w := p.Baseline().Windows
		for c := 1; c <= 3; c++ {
			if w[c] >= w[0] {
				t.Errorf("baseline windows per channel %v: bad channel %d took in as many as channel 0", w, c)
			}
		}
	}
}

// TestSteadyStateAllocsAroundABadChannel: a channel flat for the whole
// recording costs no allocation per window, whether a per-channel score
// goes on around it (scoring and learning, in both learning modes) or the
// whole-vector mode gates every window. Before, every gated window built
// the state's reason again (3 allocations) only to find the state
// unchanged.
func TestSteadyStateAllocsAroundABadChannel(t *testing.T) {
	for _, perChannel := range []bool{true, false} {
		for _, mode := range []string{LearnAnnotations, LearnFeedback} {
			src := &tamper{Source: newPatient(t, 8, 30*time.Minute, 0, 5), faults: []fault{{0, time.Hour, "flat", 3}}}
			cfg := Config{Learning: Learning{Mode: mode, Buffer: 2 * time.Minute, NegativeHorizon: time.Minute}, Artifact: noArtifacts}
			model := newModel(t, src, defaultFeatures, "UOB")
			if perChannel {
				cfg.Scoring = Scoring{PerChannel: true, Population: unitPopulation(), Censor: 1}
				model = channelModel(t)
			}
			p := newPipeline(t, src, defaultFeatures, model, cfg, []alertSink{&countingSink{}}, Hooks{})
			p.wall0 = time.Unix(0, 0)
			p.lastCkpt = p.now()
			if allocs := allocsPerWindow(t, p); allocs != 0 {
				t.Errorf("per channel %v, %s: %v allocations per window of 256 frames with a flat channel", perChannel, mode, allocs)
			}
			if st := p.Stats(); perChannel && (st.Usable == 0 || st.ElectrodeOff != 0) || !perChannel && st.ElectrodeOff < 200 {
				t.Fatalf("per channel %v, %s: %d usable and %d electrode-off windows", perChannel, mode, st.Usable, st.ElectrodeOff)
			}
		}
	}
}
