package features

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func testPopulation(feats []Feature) Population {
	p := Population{}
	for _, f := range feats {
		p.Features = append(p.Features, f.String())
		p.Location = append(p.Location, 0)
		p.Scale = append(p.Scale, 1)
	}
	return p
}

// TestBaselineFollowsTheBackground: starting from the population, the
// location and scale move to a channel's own background (a Gaussian of
// mean 5 and standard deviation 2 in the log features), the Huber step
// keeps a burst of outliers from dragging it, and the normalised
// background ends near zero mean and unit spread.
func TestBaselineFollowsTheBackground(t *testing.T) {
	feats := []Feature{LineLength, RMS}
	b, err := NewBaseline(2, feats, testPopulation(feats))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	v := make([]float64, 4)
	for i := 0; i < 3000; i++ {
		for k := range v {
			v[k] = 5 + 2*rng.NormFloat64()
		}
		if i%500 == 0 { // a burst of spikes
			for k := range v {
				v[k] = 1e4
			}
		}
		b.Update(0, v)
	}
	if l := b.Location(0, 0); math.Abs(l-5) > 0.5 {
		t.Errorf("location %v, want about 5", l)
	}
	if s := b.scale[0]; math.Abs(s-2) > 0.4 {
		t.Errorf("scale %v, want about 2", s)
	}
	if b.Location(1, 0) != 0 || b.Windows(1) != 0 {
		t.Errorf("channel 1 moved without updates: %v, %d", b.Location(1, 0), b.Windows(1))
	}
	z := b.Normalise(make([]float64, 4), []float64{7, 7, 7, 7})
	if math.Abs(z[0]-1) > 0.3 || z[2] != 7 {
		t.Errorf("z = %v: want about 1 on channel 0, 7 (the population's) on channel 1", z)
	}
	if a := testing.AllocsPerRun(100, func() { b.Update(0, v); b.Normalise(z, v) }); a != 0 {
		t.Errorf("Update and Normalise allocate %v times", a)
	}
}

// TestBaselineStartsFromThePopulation: the population weighs as
// BaselinePrior windows, so after that many the location is halfway.
func TestBaselineStartsFromThePopulation(t *testing.T) {
	feats := []Feature{RMS}
	b, _ := NewBaseline(1, feats, testPopulation(feats))
	v := []float64{0.5} // within the Huber clip of the start: plain means
	for i := 0; i < BaselinePrior; i++ {
		b.Update(0, v)
	}
	if l := b.Location(0, 0); math.Abs(l-0.25) > 0.02 {
		t.Errorf("after %d windows of 0.5 from a population at 0: location %v, want about 0.25", BaselinePrior, l)
	}
}

func TestTransform(t *testing.T) {
	for _, c := range []struct {
		f    Feature
		v, w float64
	}{
		{DeltaRel, 0.5, 0}, {DeltaRel, 0, math.Log(1e-4 / (1 - 1e-4))}, {DeltaRel, 2, math.Log((1 - 1e-4) / 1e-4)},
		{HjorthMobility, 1 - 1e-3, 0}, {ZeroCrossings, -1, math.Log(1e-3)}, {RMS, -3.5, -3.5},
	} {
		if got := Transform(c.f, c.v); math.Abs(got-c.w) > 1e-12 {
			t.Errorf("Transform(%s, %v) = %v, want %v", c.f, c.v, got, c.w)
		}
	}
}

// TestBaselineStateRoundTrip: State and Restore carry the statistics, and
// a state that does not fit or holds bad numbers is refused, leaving the
// baseline unchanged.
func TestBaselineStateRoundTrip(t *testing.T) {
	feats := []Feature{LineLength, DeltaRel}
	b, _ := NewBaseline(2, feats, testPopulation(feats))
	b.Update(1, []float64{0, 0, 3, 0.2})
	s := b.State()
	c, _ := NewBaseline(2, feats, testPopulation(feats))
	if err := c.Restore(s); err != nil {
		t.Fatal(err)
	}
	if c.Location(1, 0) != b.Location(1, 0) || c.Windows(1) != 1 {
		t.Errorf("restored %v, %d; saved %v, 1", c.Location(1, 0), c.Windows(1), b.Location(1, 0))
	}
	for name, bad := range map[string]func(*BaselineState){
		"channels": func(s *BaselineState) { s.Channels = 3 },
		"feature":  func(s *BaselineState) { s.Features[1] = "rms" },
		"nan":      func(s *BaselineState) { s.Location[2] = math.NaN() },
		"scale":    func(s *BaselineState) { s.Scale[0] = 0 },
		"count":    func(s *BaselineState) { s.Windows[0] = -1 },
		"short":    func(s *BaselineState) { s.Scale = s.Scale[:1] },
	} {
		s := b.State()
		bad(&s)
		d, _ := NewBaseline(2, feats, testPopulation(feats))
		if err := d.Restore(s); err == nil {
			t.Errorf("%s: a bad state was restored", name)
		} else if d.Windows(1) != 0 || d.Location(1, 0) != 0 {
			t.Errorf("%s: a refused state changed the baseline", name)
		}
	}
}

func TestPopulationChecked(t *testing.T) {
	feats := []Feature{LineLength, RMS}
	p := testPopulation(feats)
	p.Scale[1] = math.Inf(1)
	if _, err := NewBaseline(1, feats, p); err == nil || !strings.Contains(err.Error(), "rms") {
		t.Errorf("an infinite scale: %v", err)
	}
	if _, err := NewBaseline(1, []Feature{RMS, LineLength}, testPopulation(feats)); err == nil {
		t.Error("a population of other features was accepted")
	}
	if _, err := Standard(feats, 1, nil); err == nil {
		t.Error("a population of no windows")
	}
	pop, err := Standard(feats, 2, [][]float64{{1, 2, 3, 4}, {5, 6, 7, 8}})
	if err != nil || pop.Location[0] != 4 || pop.Location[1] != 5 {
		t.Errorf("Standard = %+v, %v: want the medians 4 and 5", pop, err)
	}
}
