package features

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// TestRealFFTMatchesGonum compares the power of every bin with gonum's
// real FFT and, for a few bins, with a direct DFT, for every power of two
// the extractor can use.
func TestRealFFTMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096} {
		x := make([]float64, n)
		for i := range x {
			x[i] = 100*rng.NormFloat64() + 30
		}
		f := newRealFFT(n)
		copy(f.Input(), x)
		f.transform()
		got := make([]float64, n/2+1)
		f.power(got, 0, 1)
		want := fourier.NewFFT(n).Coefficients(nil, x)
		var worst, norm float64
		for k := range got {
			w := real(want[k])*real(want[k]) + imag(want[k])*imag(want[k])
			worst = max(worst, math.Abs(got[k]-w))
			norm = max(norm, w)
		}
		// A sub-range (as the bands ask for) gives the same bits.
		part := make([]float64, n/4)
		f.power(part, n/8, 1)
		for i, p := range part {
			if p != got[n/8+i] {
				t.Errorf("N=%d bin %d: %v alone, %v in the full range", n, n/8+i, p, got[n/8+i])
			}
		}
		t.Logf("N=%d: largest difference in power from gonum %.2g of the largest bin's", n, worst/norm)
		if worst > 1e-13*norm {
			t.Errorf("N=%d: largest difference from gonum %.3g, %.3g of the largest bin", n, worst, worst/norm)
		}
		if n > 512 {
			continue
		}
		// A direct DFT, in extended care: sum with exact angles.
		for _, k := range []int{0, 1, n / 8, n/4 - 1, n / 4, n/2 - 1, n / 2} {
			var sr, si float64
			for j, v := range x {
				a := -2 * math.Pi * float64(j*k%n) / float64(n)
				sr += v * math.Cos(a)
				si += v * math.Sin(a)
			}
			if w := sr*sr + si*si; math.Abs(got[k]-w) > 1e-12*norm {
				t.Errorf("N=%d bin %d: power %v, direct DFT %v", n, k, got[k], w)
			}
		}
	}
}

// BenchmarkRealFFT compares one 512-point real transform (the power of
// all bins) with gonum's coefficients.
func BenchmarkRealFFT(b *testing.B) {
	const n = 512
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Sin(float64(i) * 0.3)
	}
	b.Run("gonum", func(b *testing.B) {
		g := fourier.NewFFT(n)
		c := make([]complex128, n/2+1)
		b.ReportAllocs()
		for b.Loop() {
			g.Coefficients(c, x)
		}
	})
	b.Run("ictal", func(b *testing.B) {
		f := newRealFFT(n)
		p := make([]float64, n/2+1)
		b.ReportAllocs()
		for b.Loop() {
			copy(f.Input(), x)
			f.transform()
			f.power(p, 0, 1)
		}
	})
}

// fftSizes are the transform lengths the bit-identity tests cover: every
// power of two the extractor can plan, and beyond.
var fftSizes = []int{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384}

// fftValues fills x with values of one kind, for the bit-identity tests.
func fftValues(rng *rand.Rand, x []float64, kind string) {
	for i := range x {
		sign := 1.0
		if rng.IntN(2) == 0 {
			sign = -1
		}
		var v float64
		switch kind {
		case "eeg":
			v = 100*rng.NormFloat64() + 30
		case "wide": // any exponent: sums and products overflow and underflow
			v = sign * math.Ldexp(0.5+rng.Float64()/2, rng.IntN(2098)-1074)
		case "huge":
			v = sign * math.MaxFloat64 * (0.25 + rng.Float64()/2)
		case "subnormal":
			v = sign * math.Float64frombits(rng.Uint64()&(1<<52-1))
		case "special": // zeros of both signs, ±Inf, NaN, the extremes, among ordinary values
			v = [...]float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
				math.SmallestNonzeroFloat64, -math.MaxFloat64, 1, -1, rng.NormFloat64()}[rng.IntN(10)]
		default:
			panic("fftValues: unknown kind " + kind)
		}
		x[i] = v
	}
}

// fftKinds are the kinds of fftValues.
var fftKinds = []string{"eeg", "wide", "huge", "subnormal", "special"}

// sameFloats reports the first index where got and want differ in bits
// (NaNs, whose payloads may differ, only in being NaN), or −1.
func sameFloats(got, want []float64) int {
	if len(got) != len(want) {
		return 0
	}
	for i := range got {
		g, w := got[i], want[i]
		if math.IsNaN(g) && math.IsNaN(w) {
			continue
		}
		if math.Float64bits(g) != math.Float64bits(w) {
			return i
		}
	}
	return -1
}

// goTransform is f.transform by the Go passes alone, on z.
func goTransform(f *realFFT, z []float64) {
	for i, tw := range f.passes {
		radix4(z, tw, f.spans[i])
	}
	if f.radix2 {
		radix2(z)
	} else {
		radix4Last(z)
	}
}

// requireAVX skips a test of the AVX kernels where they do not run.
func requireAVX(t *testing.T) {
	t.Helper()
	if !useAVX {
		t.Skip("no AVX kernels here (not amd64, purego, or no AVX): the Go passes are the only ones")
	}
}

// TestFFTPassesMatchGo runs every pass of the transform, then the whole
// transform, through the dispatch (the AVX kernels where they run) and
// through the Go reference by name on the same input, for every size and
// kind of values, and requires the same bits.
func TestFFTPassesMatchGo(t *testing.T) {
	requireAVX(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range fftSizes {
		f := newRealFFT(n)
		want := make([]float64, n)
		got := make([]float64, n)
		check := func(pass, kind string, run, ref func(z []float64)) {
			t.Helper()
			fftValues(rng, want, kind)
			copy(got, want)
			ref(want)
			run(got)
			if i := sameFloats(got, want); i >= 0 {
				t.Errorf("N=%d %s, %s values: float %d is %v (%#x), the Go pass gives %v (%#x)",
					n, pass, kind, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
			}
		}
		for _, kind := range fftKinds {
			for i, tw := range f.passes {
				l, vt := f.spans[i], f.vpasses[i]
				check(fmt.Sprintf("radix4 span %d", l), kind,
					func(z []float64) { radix4Pass(z, tw, vt, l) },
					func(z []float64) { radix4(z, tw, l) })
			}
			check("radix4Last", kind, radix4LastPass, radix4Last)
			check("radix2", kind, radix2Pass, radix2)
			check("transform", kind,
				func(z []float64) { copy(f.Input(), z); f.transform(); copy(z, f.z) },
				func(z []float64) { goTransform(f, z) })
		}
	}
}

// TestUntangleMatchesGo untangles ranges of bins of every length and
// start through the dispatch (four bins at a time by the AVX kernel, the
// rest in Go) and through untangle by name, and requires the same bits.
func TestUntangleMatchesGo(t *testing.T) {
	requireAVX(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range fftSizes {
		f := newRealFFT(n)
		m := n / 2
		got := make([]float64, m)
		want := make([]float64, m)
		ranges := [][2]int{{1, m}, {1, 1}, {m - 1, m}, {2, m - 1}, {3, min(m, 12)}, {m / 4, m/2 + 3}}
		for _, kind := range fftKinds {
			fftValues(rng, f.z, kind)
			scale := [...]float64{1, 0.75, 1e-300, 3e300}[rng.IntN(4)]
			for _, r := range ranges {
				lo, hi := r[0], min(r[1], m)
				f.untanglePass(got[:hi-lo], lo, scale)
				f.untangle(want[:hi-lo], lo, scale)
				if i := sameFloats(got[:hi-lo], want[:hi-lo]); i >= 0 {
					t.Errorf("N=%d bins [%d, %d), %s values, scale %g: bin %d is %v, untangle gives %v",
						n, lo, hi, kind, scale, lo+i, got[i], want[i])
				}
			}
		}
	}
}
