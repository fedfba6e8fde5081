package synth

import (
	"math"
	"testing"
)

func TestSin2piMatchesMath(t *testing.T) {
	for i := -2000; i <= 2000; i++ {
		x := float64(i) / 997
		if got, want := sin2pi(x), math.Sin(2*math.Pi*x); math.Abs(got-want) > 1e-14 {
			t.Fatalf("sin2pi(%v) = %v, math.Sin gives %v", x, got, want)
		}
		if got, want := cos2pi(x), math.Cos(2*math.Pi*x); math.Abs(got-want) > 1e-14 {
			t.Fatalf("cos2pi(%v) = %v, math.Cos gives %v", x, got, want)
		}
	}
}

func TestExpmMatchesMath(t *testing.T) {
	for _, x := range []float64{-50, -20, -6.28, -1, -0.3, -1e-9, 0, 1e-9, 0.7, 1.386, 3, 10} {
		if got, want := expm(x), math.Exp(x); math.Abs(got-want) > 1e-12*want { // squaring back costs a few ulps per halving
			t.Errorf("expm(%v) = %v, math.Exp gives %v", x, got, want)
		}
	}
}

func TestNormalHasUnitVarianceAndBoundedTails(t *testing.T) {
	r := newStream(1, streamNoise)
	const n = 200000
	var s, ss, s4 float64
	for range n {
		v := normal(&r)
		if math.Abs(v) > 3.47 {
			t.Fatalf("normal gave %v, beyond the Irwin–Hall bound", v)
		}
		s += v
		ss += v * v
		s4 += v * v * v * v
	}
	mean, variance := s/n, ss/n
	kurtosis := s4 / n / (variance * variance)
	// Irwin–Hall with four terms: kurtosis 3 − 1.2/4 = 2.7.
	if math.Abs(mean) > 0.01 || math.Abs(variance-1) > 0.01 || math.Abs(kurtosis-2.7) > 0.05 {
		t.Errorf("mean %.4f variance %.4f kurtosis %.3f, want 0, 1, 2.7", mean, variance, kurtosis)
	}
}

func TestStreamsAreIndependentOfPurpose(t *testing.T) {
	a, b := newStream(7, streamBlink), newStream(7, streamMuscle)
	c := newStream(8, streamBlink)
	for range 100 {
		x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
		if x == y || x == z {
			t.Fatal("streams of different purposes or seeds coincide")
		}
	}
}

func TestWaveTablesAreNormalised(t *testing.T) {
	for name, tab := range map[string]*waveTable{"sine": sineWave, "spike-and-wave": spikeWave} {
		var s, ss float64
		for _, v := range tab[:tableSize] {
			s += v
			ss += v * v
		}
		if math.Abs(s/tableSize) > 1e-12 || math.Abs(ss/tableSize-0.5) > 1e-9 || tab[0] != tab[tableSize] {
			t.Errorf("%s: mean %g, mean square %g, ends %g %g", name, s/tableSize, ss/tableSize, tab[0], tab[tableSize])
		}
		// Interpolation is continuous across the wrap.
		if d := math.Abs(tab.at(0.9999999) - tab.at(0)); d > 1e-4 {
			t.Errorf("%s: jumps by %g at the wrap", name, d)
		}
	}
	// The spike is sharp: its largest sample-to-sample step is several
	// times a sine's.
	step := func(tab *waveTable) float64 {
		m := 0.0
		for i := range tableSize {
			m = max(m, math.Abs(tab[i+1]-tab[i]))
		}
		return m
	}
	if r := step(spikeWave) / step(sineWave); r < 3 {
		t.Errorf("spike-and-wave is only %.1f× steeper than a sine", r)
	}
}
