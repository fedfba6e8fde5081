package synth

import (
	"math"
	"testing"
)

// isolate records cfg and the same patient without what differs in
// without, and returns cfg's patient and samples and, per channel, their
// difference: what cfg adds (the kinds other than rhythmic and the
// artifacts of ArtifactKinds draw from their own random streams, so the
// background is the same in both).
func isolate(t testing.TB, cfg, without Config) (*Patient, [][]float64, [][]float64) {
	t.Helper()
	p, x := record(t, cfg)
	_, y := record(t, without)
	d := make([][]float64, len(y))
	for c := range y {
		d[c] = make([]float64, len(y[c]))
		for i := range y[c] {
			d[c][i] = x[c][i] - y[c][i]
		}
	}
	return p, x, d
}

// aboveFraction is the share of x's power at or above frac × rate (Welch,
// 1 s segments; a silent x has none).
func aboveFraction(x []float64, rate int, frac float64) float64 {
	w := welch(x, float64(rate), rate)
	total, above := 0.0, 0.0
	for i, v := range w.p {
		total += v
		if float64(i) >= frac*float64(rate) {
			above += v
		}
	}
	if total == 0 {
		return 0
	}
	return above / total
}

func finite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// envelope returns the RMS of x over consecutive bins of `bin` samples.
func envelope(x []float64, bin int) []float64 {
	out := make([]float64, len(x)/bin)
	for i := range out {
		ss := 0.0
		for _, v := range x[i*bin : (i+1)*bin] {
			ss += v * v
		}
		out[i] = math.Sqrt(ss / float64(bin))
	}
	return out
}

// bursts returns the start and end (in bins) of each run of env above
// thr.
func bursts(env []float64, thr float64) (starts, ends []int) {
	in := false
	for i, v := range env {
		switch {
		case !in && v > thr:
			in = true
			starts = append(starts, i)
		case in && v <= thr:
			in = false
			ends = append(ends, i)
		}
	}
	if in {
		ends = append(ends, len(env))
	}
	return starts, ends
}

// merge joins bursts separated by at most 3 bins and drops those of one
// bin (the bins of bursts).
func merge(starts, ends []int) (ms, me []int) {
	for i := range starts {
		if n := len(ms); n > 0 && starts[i]-me[n-1] <= 3 {
			me[n-1] = ends[i]
			continue
		}
		ms, me = append(ms, starts[i]), append(me, ends[i])
	}
	var fs, fe []int
	for i := range ms {
		if me[i]-ms[i] > 1 {
			fs, fe = append(fs, ms[i]), append(fe, me[i])
		}
	}
	return fs, fe
}

// skipShortKinds skips a test of a kind's spectral properties under
// -short (cross/test's emulated runs, where they took over a minute per
// architecture): they measure samples that TestKindsMatchGoldenDigest
// pins bit for bit on every platform, so what they check there is what
// they check natively.
func skipShortKinds(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the kind's samples are pinned across platforms by TestKindsMatchGoldenDigest; its spectra are checked in the native run")
	}
}
