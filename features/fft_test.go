package features

import (
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
