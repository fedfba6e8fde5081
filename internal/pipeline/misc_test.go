package pipeline

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/features/artifact"
)

var defaultFeatures = features.Config{}

// noArtifacts turns artifact rejection off, for tests of other parts that
// count windows on a simulated patient who blinks.
var noArtifacts = artifact.Config{Off: true}

func TestConfigValidation(t *testing.T) {
	bad := []struct {
		name string
		cfg  Config
		want string
	}{
		{"mode", Config{Learning: Learning{Mode: "always"}}, "learning.mode"},
		{"buffer", Config{Learning: Learning{Buffer: -time.Second}}, "learning.buffer"},
		// A week of 34-feature windows is 148 MiB: refused, saying what fits.
		{"buffer beyond memory", Config{Learning: Learning{Mode: LearnFeedback, Buffer: 7 * 24 * time.Hour}}, "learning.buffer 168h0m0s: keeps 604801 windows of 34 features, 147.7 MiB (256 bytes a window: its 120-byte record and its vector): more than 16 MiB; at most 18h12m15s"},
		{"horizon beyond buffer", Config{Learning: Learning{Mode: LearnFeedback, Buffer: time.Minute, NegativeHorizon: time.Hour}}, "learning.negative_horizon"},
		{"overlap", Config{Learning: Learning{MinOverlap: 1.5}}, "learning.min_overlap"},
		{"max interval negative", Config{Learning: Learning{MaxInterval: -time.Second}}, "learning.max_interval"},
		{"max interval beyond buffer", Config{Learning: Learning{Buffer: time.Minute, MaxInterval: time.Hour}}, "learning.max_interval"},
		{"grace negative", Config{Learning: Learning{Grace: -time.Second}}, "learning.grace"},
		{"grace too long", Config{Learning: Learning{Grace: time.Hour}}, "learning.grace"},
		{"grace beyond buffer", Config{Learning: Learning{Buffer: time.Minute, Grace: 2 * time.Minute}}, "learning.grace"},
		{"flat", Config{Quality: Quality{FlatMicrovolts: -1}}, "quality.flat_microvolts"},
		{"flat infinite", Config{Quality: Quality{FlatMicrovolts: math.Inf(1)}}, "quality.flat_microvolts"},
		{"checkpoint", Config{CheckpointEvery: time.Millisecond}, "checkpoint.every"},
		{"detector", Config{Detector: alertK(9)}, "k 9"},
	}
	for _, b := range bad {
		src := newPatient(t, 2, time.Minute, 0, 1)
		_, err := New(src, defaultFeatures, newModel(t, src, defaultFeatures, "UOB"), b.cfg, nil, Hooks{}, nil)
		if err == nil || !contains(err.Error(), b.want) {
			t.Errorf("%s: error %v, want one naming %s", b.name, err, b.want)
		}
	}
	// A model of the wrong dimension.
	src := newPatient(t, 2, time.Minute, 0, 1)
	m, _ := classifier.New(classifier.Config{Algorithm: "UOB", Features: 5})
	if _, err := New(src, defaultFeatures, m, Config{}, nil, Hooks{}, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("wrong model dimension: %v", err)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestCheckpointHook(t *testing.T) {
	src := newPatient(t, 2, 5*time.Minute, 0, 1)
	calls := 0
	var fail error
	p := newPipeline(t, src, defaultFeatures, newModel(t, src, defaultFeatures, "UOB"), Config{CheckpointEvery: time.Minute},
		nil, Hooks{Checkpoint: func(classifier.Model) error { calls++; return fail }})
	clock := time.Unix(0, 0)
	p.now = func() time.Time { clock = clock.Add(time.Second); return clock } // one second per window
	runAll(t, p)
	// 299 windows of one second of wall clock: a checkpoint every 60,
	// plus the final one.
	if st := p.Stats(); calls != 5 || st.Checkpoints != 5 {
		t.Errorf("%d checkpoints (%d counted), want 5", calls, st.Checkpoints)
	}
	src = newPatient(t, 2, 2*time.Minute, 0, 1)
	fail = errors.New("disk full")
	calls = 0
	p, _ = New(src, defaultFeatures, newModel(t, src, defaultFeatures, "UOB"), Config{CheckpointEvery: time.Minute},
		nil, Hooks{Checkpoint: func(classifier.Model) error { calls++; return fail }}, nil)
	p.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	runAll(t, p)
	if st := p.Stats(); st.CheckpointErrs != int64(calls) || calls == 0 {
		t.Errorf("failed checkpoints: %d calls, %d errors counted", calls, st.CheckpointErrs)
	}
}

// TestSteadyStateAllocs checks the hot path — read a frame, quality, push,
// and every step extract, score, decide, learn, emit — allocates nothing,
// with a model of the whole vector and with one model grading every
// channel against its baseline (normalise, grade, smooth, calibrate,
// update the baseline, learn per channel), its evidence censored or not.
func TestSteadyStateAllocs(t *testing.T) {
	for _, censor := range []float64{-1, 0, 1} { // -1: the whole vector
		perChannel := censor >= 0
		for _, mode := range []string{LearnAnnotations, LearnFeedback} {
			src := newPatient(t, 8, 30*time.Minute, 0, 5)
			sink := &countingSink{}
			var last Stats // the counters reach their owner (metrics) without allocating
			cfg := Config{Learning: Learning{Mode: mode, Buffer: 2 * time.Minute, NegativeHorizon: time.Minute}}
			model := newModel(t, src, defaultFeatures, "UOB")
			if perChannel {
				cfg.Scoring = Scoring{PerChannel: true, Population: unitPopulation(), Censor: censor}
				model = channelModel(t)
			}
			p := newPipeline(t, src, defaultFeatures, model, cfg, []alertSink{sink}, Hooks{Window: func(s Stats) { last = s }})
			p.wall0 = time.Unix(0, 0)
			p.lastCkpt = p.now()
			if allocs := allocsPerWindow(t, p); allocs != 0 {
				t.Errorf("per channel %v (censor %v), %s: %v allocations per window of 256 frames", perChannel, censor, mode, allocs)
			}
			if sink.scores == 0 || last.Windows == 0 {
				t.Fatal("no window processed")
			}
		}
	}
}

// countingSink counts without keeping (no allocation).
type countingSink struct{ scores int }

func (c *countingSink) Alert(*alertEvent) error { return nil }
func (c *countingSink) Score(alertScore) error  { c.scores++; return nil }

// Evidence makes the pipeline keep the evidence ring, so that the
// allocation test covers it.
func (c *countingSink) Evidence(*alertEvid) error { return nil }

func TestReconfigure(t *testing.T) {
	src := newPatient(t, 4, 3*time.Minute, 0, 1)
	rules := make(chan alertRule, 2)
	p := newPipeline(t, src, defaultFeatures, newModel(t, src, defaultFeatures, "UOB"), Config{Rules: rules}, nil, Hooks{})
	rules <- alertK(7) // invalid: 7 of 4
	p.ev.reconfigure()
	if c := p.ev.det.Config(); c.K == 7 {
		t.Error("an invalid rule was applied")
	}
	rules <- alertK(2)
	runAll(t, p)
	if c := p.ev.det.Config(); c.K != 2 || c.N != 4 {
		t.Errorf("rule after reload %+v", c)
	}
}
