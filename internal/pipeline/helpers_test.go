package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/synth"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
)

// collect is a Sink that keeps everything, for tests.
type collect struct {
	alerts, ends []alert.Event
	states       []alert.Status
	scores       []alert.Score
}

func (c *collect) Alert(e *alert.Event) error    { c.alerts = append(c.alerts, *e); return nil }
func (c *collect) EventEnd(e *alert.Event) error { c.ends = append(c.ends, *e); return nil }
func (c *collect) Status(s alert.Status) error   { c.states = append(c.states, s); return nil }
func (c *collect) Score(s alert.Score) error     { c.scores = append(c.scores, s); return nil }

// recorder wraps a real model and records what it learns.
type recorder struct {
	classifier.Model
	learned []learnCall
}

type learnCall struct {
	x   []float64
	pos bool
}

func (r *recorder) Learn(x []float64, pos bool) error {
	r.learned = append(r.learned, learnCall{append([]float64(nil), x...), pos})
	return r.Model.Learn(x, pos)
}

func newPatient(t testing.TB, channels int, d time.Duration, seizures int, seed uint64) *synth.Patient {
	t.Helper()
	cfg := synth.DefaultConfig()
	cfg.Channels, cfg.Duration, cfg.Seizures, cfg.Seed = channels, d, seizures, seed
	p, err := synth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// newModel returns a model sized for src's channels with the default
// features.
func newModel(t testing.TB, src acquire.Source, fcfg features.Config, alg string) classifier.Model {
	t.Helper()
	info := src.Info()
	fcfg.Channels, fcfg.Rate = len(info.Channels), info.Rate
	ext, err := features.New(fcfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := classifier.New(classifier.Config{Algorithm: classifier.Algorithm(alg), Features: ext.Dim(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// allocsPerWindow warms p up (200 windows: the label buffer fills) and
// returns the allocations of one window's worth of frames (256 at 256
// Hz), so that a single allocation per window shows (AllocsPerRun
// divides by the runs in integers).
func allocsPerWindow(t *testing.T, p *Pipeline) float64 {
	t.Helper()
	step := func(n int) {
		for i := 0; i < n; i++ {
			if _, err := p.step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	step(256 * 200)
	return testing.AllocsPerRun(60, func() { step(256) })
}

// newPipeline makes a pipeline with New (and no logger), failing the test
// on an error.
func newPipeline(t testing.TB, src acquire.Source, fcfg features.Config, m classifier.Model, cfg Config, sinks []alert.Sink, hooks Hooks) *Pipeline {
	t.Helper()
	p, err := New(src, fcfg, m, cfg, sinks, hooks, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runAll runs p to the end of its source, failing the test on an error.
func runAll(t testing.TB, p *Pipeline) {
	t.Helper()
	if err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}
