package features

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// load stores x (len N) into f's input, bit-reversed, as the callers do.
func (f *realFFT) load(x []float64) {
	for j := 0; j < f.m; j++ {
		f.re[f.rev[j]], f.im[f.rev[j]] = x[2*j], x[2*j+1]
	}
}

// TestRealFFTMatchesGonum compares every bin with gonum's real FFT and
// with a direct DFT, for every power of two the extractor can use.
func TestRealFFTMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096} {
		x := make([]float64, n)
		for i := range x {
			x[i] = 100*rng.NormFloat64() + 30
		}
		f := newRealFFT(n)
		f.load(x)
		f.transform()
		want := fourier.NewFFT(n).Coefficients(nil, x)
		var worst, norm float64
		for k := 0; k <= n/2; k++ {
			re, im := f.bin(k)
			worst = max(worst, math.Hypot(re-real(want[k]), im-imag(want[k])))
			norm = max(norm, math.Hypot(real(want[k]), imag(want[k])))
		}
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
			re, im := f.bin(k)
			if d := math.Hypot(re-sr, im-si); d > 1e-12*norm {
				t.Errorf("N=%d bin %d: %v%+vi, direct DFT %v%+vi", n, k, re, im, sr, si)
			}
		}
	}
}

// BenchmarkRealFFT compares one 512-point real transform (all bins
// untangled) with gonum's.
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
		var sink float64
		b.ReportAllocs()
		for b.Loop() {
			f.load(x)
			f.transform()
			for k := 0; k <= n/2; k++ {
				re, im := f.bin(k)
				sink += re + im
			}
		}
		_ = sink
	})
}
