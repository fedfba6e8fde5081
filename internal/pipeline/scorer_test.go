package pipeline

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
)

// unitPopulation starts every feature's baseline at location 0, scale 1:
// the baseline then finds each channel's own within a minute.
func unitPopulation() *features.Population {
	p := &features.Population{}
	for _, f := range features.AllFeatures() {
		p.Features = append(p.Features, f.String())
		p.Location = append(p.Location, 0)
		p.Scale = append(p.Scale, 1)
	}
	return p
}

func channelModel(t testing.TB) classifier.Model {
	t.Helper()
	m, err := classifier.New(classifier.Config{Algorithm: classifier.UOB, Features: len(features.AllFeatures()), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// learnerModel is channelModel with another base learner.
func learnerModel(t testing.TB, l classifier.LearnerName) classifier.Model {
	t.Helper()
	m, err := classifier.New(classifier.Config{Algorithm: classifier.UOB, Learner: l, Features: len(features.AllFeatures()), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// grading records which of the margins a scorer asks a model for.
type grading struct {
	classifier.Model
	plain, censored int
	bound           float64
}

func (g *grading) Margin(x []float64) (float64, error) {
	g.plain++
	return g.Model.(classifier.Grader).Margin(x)
}

func (g *grading) CensoredMargin(x []float64, c float64) (float64, error) {
	g.censored++
	g.bound = c
	return g.Model.(classifier.CensoredGrader).CensoredMargin(x, c)
}

// TestCensoredScoring: with Scoring.Censor every channel of every window
// is graded by the censored margin at that bound, and without it by the
// plain one; the scores then differ.
func TestCensoredScoring(t *testing.T) {
	trained := channelModel(t)
	train := newPatient(t, 4, 10*time.Minute, 3, 3)
	runAll(t, newPipeline(t, train, defaultFeatures, trained, Config{Learning: Learning{Mode: LearnAnnotations},
		Scoring: Scoring{PerChannel: true, Population: unitPopulation()}}, nil, Hooks{}))
	var scores [2][]float64
	for i, censor := range []float64{0, 0.5} {
		m, err := trained.(classifier.Ensemble).Clone()
		if err != nil {
			t.Fatal(err)
		}
		g := &grading{Model: m}
		c := &collect{}
		src := newPatient(t, 4, 5*time.Minute, 2, 9)
		p := newPipeline(t, src, defaultFeatures, g, Config{Learning: Learning{Mode: LearnOff},
			Scoring: Scoring{PerChannel: true, Population: unitPopulation(), Censor: censor}}, []alertSink{c}, Hooks{})
		runAll(t, p)
		usable := 0
		for _, s := range c.scores {
			if s.Usable {
				usable++
				scores[i] = append(scores[i], s.Score)
			}
		}
		graded := 4*usable - leftOut(c, 4)
		want := [2]int{graded, 0}
		if censor > 0 {
			want = [2]int{0, graded + 1} // and New's check that the model censors
		}
		if usable == 0 || g.plain != want[0] || g.censored != want[1] || censor > 0 && g.bound != censor {
			t.Errorf("censor %v: %d plain and %d censored margins (bound %v) for %d usable windows of 4 channels, want %v",
				censor, g.plain, g.censored, g.bound, usable, want)
		}
	}
	if slices.Equal(scores[0], scores[1]) {
		t.Error("the censored scores are the plain ones")
	}
}

// leftOut counts the channels left out of usable windows of a recording
// of channels: those the state in effect at each usable score says are not
// scored (Status.Scored).
func leftOut(c *collect, channels int) int {
	n, j := 0, -1
	for _, sc := range c.scores {
		for j+1 < len(c.states) && !c.states[j+1].Since.After(sc.T) {
			j++
		}
		if sc.Usable && j >= 0 && c.states[j].Scored > 0 {
			n += channels - c.states[j].Scored
		}
	}
	return n
}

// counting counts what a model learns, by class and dimension.
type counting struct {
	classifier.Model
	pos, neg, wrongDim, nan int
}

func (c *counting) Learn(x []float64, pos bool) error {
	if len(x) != c.Config().Features {
		c.wrongDim++
	}
	if slices.ContainsFunc(x, math.IsNaN) {
		c.nan++ // a channel left out of its window
	}
	if pos {
		c.pos++
	} else {
		c.neg++
	}
	return c.Model.Learn(x, pos)
}

func (c *counting) Margin(x []float64) (float64, error) { return c.Model.(classifier.Grader).Margin(x) }

// TestPerChannelAnyMontage: one model of a channel's 17 features learns
// seizures on a 4-channel simulated patient and then, without learning,
// detects another patient's seizures on 8 channels; its alerts name at
// most TopK channels; its scores are graded; a seizure window teaches it
// TopK channels and a background window every channel.
func TestPerChannelAnyMontage(t *testing.T) {
	sc := Scoring{PerChannel: true, Population: unitPopulation()}
	m := &counting{Model: channelModel(t)}
	train := newPatient(t, 4, 20*time.Minute, 6, 3)
	tc := &collect{}
	p, err := New(train, defaultFeatures, m, Config{Learning: Learning{Mode: LearnAnnotations}, Scoring: sc}, []alertSink{tc}, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, p)
	st := p.Stats()
	// A background window teaches the channels it was scored on: 4 but
	// for those a blink left out.
	left := leftOut(tc, 4)
	if m.wrongDim != 0 || m.nan != 0 || st.LearnedPos == 0 || m.pos != int(st.LearnedPos)*DefaultTopK || m.neg > int(st.LearnedNeg)*4 || m.neg < int(st.LearnedNeg)*4-left {
		t.Errorf("learned %d seizure and %d background examples (%d of another dimension, %d with a channel left out) from %d and %d windows (%d channels left out): want %d per seizure window, 4 per background one less those left out",
			m.pos, m.neg, m.wrongDim, m.nan, st.LearnedPos, st.LearnedNeg, left, DefaultTopK)
	}
	if b := p.Baseline(); b == nil || b.Channels != 4 || b.Windows[0] < 600 {
		t.Errorf("baseline after 20 min: %+v", b)
	}

	test := newPatient(t, 8, 20*time.Minute, 5, 11)
	c := &collect{}
	p, err = New(test, defaultFeatures, m.Model, Config{Learning: Learning{Mode: LearnOff}, Scoring: sc}, []alertSink{c}, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, p)
	hit, seizures := 0, 0
	for _, iv := range test.Intervals() {
		if !iv.Seizure {
			continue
		}
		seizures++
		for _, a := range c.alerts {
			if a.OnsetOffset < iv.End+60*time.Second && a.DetectedOffset > iv.Start-30*time.Second {
				hit++
				break
			}
		}
	}
	if seizures < 4 || hit < seizures-1 || len(c.alerts) > seizures+2 {
		t.Errorf("%d of %d seizures of an 8-channel patient detected by a model trained on 4 channels, %d alerts", hit, seizures, len(c.alerts))
	}
	for _, a := range c.alerts {
		if len(a.Channels) == 0 || len(a.Channels) > DefaultTopK {
			t.Errorf("alert names %v: want 1 to %d channels", a.Channels, DefaultTopK)
		}
	}
	levels := map[float64]bool{}
	for _, s := range c.scores {
		if s.Usable {
			levels[s.Score] = true
		}
	}
	if len(levels) < len(c.scores)/2 {
		t.Errorf("%d distinct scores in %d windows: not graded", len(levels), len(c.scores))
	}
}

// TestScoringConfigErrors: a per-channel scoring that cannot work is
// refused by New, naming what is wrong.
func TestScoringConfigErrors(t *testing.T) {
	src := newPatient(t, 4, time.Minute, 0, 1)
	var labels []string
	for _, ch := range src.Info().Channels {
		labels = append(labels, strings.TrimPrefix(ch.Label, "EEG "))
	}
	bad := *unitPopulation()
	bad.Scale = bad.Scale[:3]
	for name, c := range map[string]struct {
		sc    Scoring
		fcfg  features.Config
		model classifier.Model
	}{
		"no population":   {Scoring{PerChannel: true}, defaultFeatures, channelModel(t)},
		"bad population":  {Scoring{PerChannel: true, Population: &bad}, defaultFeatures, channelModel(t)},
		"whole-vector":    {Scoring{PerChannel: true, Population: unitPopulation()}, defaultFeatures, newModel(t, src, defaultFeatures, "UOB")},
		"summaries":       {Scoring{PerChannel: true, Population: unitPopulation()}, features.Config{Summaries: true}, channelModel(t)},
		"negative slope":  {Scoring{PerChannel: true, Population: unitPopulation(), Slope: -1}, defaultFeatures, channelModel(t)},
		"smooth too long": {Scoring{PerChannel: true, Population: unitPopulation(), Smooth: 1000}, defaultFeatures, channelModel(t)},
		"bad baseline": {Scoring{PerChannel: true, Population: unitPopulation(),
			Baseline: &features.BaselineState{Channels: 4, Labels: labels}}, defaultFeatures, channelModel(t)},
		"negative censor":   {Scoring{PerChannel: true, Population: unitPopulation(), Censor: -1}, defaultFeatures, channelModel(t)},
		"NaN censor":        {Scoring{PerChannel: true, Population: unitPopulation(), Censor: math.NaN()}, defaultFeatures, channelModel(t)},
		"infinite censor":   {Scoring{PerChannel: true, Population: unitPopulation(), Censor: math.Inf(1)}, defaultFeatures, channelModel(t)},
		"censored LDA":      {Scoring{PerChannel: true, Population: unitPopulation(), Censor: 1}, defaultFeatures, learnerModel(t, classifier.LearnerLDA)},
		"grades, no censor": {Scoring{PerChannel: true, Population: unitPopulation(), Censor: 1}, defaultFeatures, &counting{Model: channelModel(t)}},
	} {
		if _, err := New(src, c.fcfg, c.model, Config{Learning: Learning{Mode: LearnOff}, Scoring: c.sc}, nil, Hooks{}, nil); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want an ErrConfig", name, err)
		}
	}
}

// TestBaselineOfOtherChannels: a saved baseline is restored for the same
// channels and set aside (the population's is used) for another montage.
func TestBaselineOfOtherChannels(t *testing.T) {
	src := newPatient(t, 4, 3*time.Minute, 0, 1)
	sc := Scoring{PerChannel: true, Population: unitPopulation()}
	p, err := New(src, defaultFeatures, channelModel(t), Config{Learning: Learning{Mode: LearnOff}, Scoring: sc}, nil, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, p)
	saved := p.Baseline()
	sc.Baseline = saved
	again, err := New(newPatient(t, 4, time.Minute, 0, 1), defaultFeatures, channelModel(t), Config{Learning: Learning{Mode: LearnOff}, Scoring: sc}, nil, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := again.Baseline(); b.Windows[0] != saved.Windows[0] || b.Location[0] != saved.Location[0] {
		t.Errorf("the same channels: baseline not restored (%v windows, want %v)", b.Windows[0], saved.Windows[0])
	}
	other, err := New(newPatient(t, 8, time.Minute, 0, 1), defaultFeatures, channelModel(t), Config{Learning: Learning{Mode: LearnOff}, Scoring: sc}, nil, Hooks{}, nil)
	if err != nil {
		t.Fatalf("another montage: %v", err)
	}
	if b := other.Baseline(); b.Channels != 8 || b.Windows[0] != 0 {
		t.Errorf("another montage: baseline %d channels, %v windows: want the population's", b.Channels, b.Windows[0])
	}
}

// TestLeaveOut: channels are left out of a per-channel score only while
// at least TopK others remain to be scored; never in the whole-vector
// mode (one vector of every channel); include restores them.
func TestLeaveOut(t *testing.T) {
	perChannel := func(ch, topK int) *scorer {
		return &scorer{base: &features.Baseline{}, ch: ch, cfg: Scoring{TopK: topK}, skip: make([]bool, ch)}
	}
	for _, tt := range []struct {
		name     string
		s        *scorer
		channels []int
		want     bool
	}{
		{"two of eight, top 2", perChannel(8, 2), []int{0, 1}, true},
		{"one of two, top 2", perChannel(2, 2), []int{0}, false},
		{"one of two, top 1", perChannel(2, 1), []int{1}, true},
		{"all of three", perChannel(3, 1), []int{0, 1, 2}, false},
		{"none", perChannel(8, 2), nil, false},
		{"whole-vector mode", &scorer{ch: 8}, []int{0}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.leaveOut(tt.channels); got != tt.want {
				t.Fatalf("leaveOut(%v) = %v, want %v", tt.channels, got, tt.want)
			}
			left := 0
			for _, c := range tt.s.skip {
				if c {
					left++
				}
			}
			if tt.want && left != len(tt.channels) || !tt.want && left != 0 {
				t.Fatalf("%d channels left out after leaveOut(%v) = %v", left, tt.channels, tt.want)
			}
			tt.s.include()
			if slices.Contains(tt.s.skip, true) {
				t.Fatal("include left channels out")
			}
		})
	}
}

// TestNonFiniteFeaturesAreAnError: a NaN or infinite feature on a
// channel the window is scored on is an error naming the channel (the
// pipeline counts it, logs it and does not score the window), never a
// channel silently left out with a margin of −∞, as it was when the
// conditioning made every feature NaN below 120 Hz and every score was
// 0; on a channel left out it is no error.
func TestNonFiniteFeaturesAreAnError(t *testing.T) {
	for _, tt := range []struct {
		name    string
		v       float64
		skipped bool
		wantErr bool
	}{
		{"NaN", math.NaN(), false, true},
		{"+Inf", math.Inf(1), false, true},
		{"-Inf", math.Inf(-1), false, true},
		{"NaN on a channel left out", math.NaN(), true, false},
		{"finite", 1.5, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &scorer{ch: 3, f: 2, z: make([]float64, 6), skip: make([]bool, 3), labels: []string{"Fp1", "C3", "O1"}}
			s.z[3] = tt.v // channel 1, feature 1
			s.skip[1] = tt.skipped
			err := s.finite()
			if (err != nil) != tt.wantErr || err != nil && !strings.Contains(err.Error(), "channel 1 C3: feature 1") {
				t.Errorf("finite() = %v, want an error %v naming channel 1 C3", err, tt.wantErr)
			}
		})
	}
}
