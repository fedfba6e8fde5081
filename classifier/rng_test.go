package classifier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ictal/ictal/internal/detmath"

	"gonum.org/v1/gonum/stat/distuv"
)

// poissonPMF is P(K = k) for K ~ Poisson(lambda), computed in the log
// domain so it stays accurate far into the tails.
func poissonPMF(lambda float64, k int) float64 {
	lg, _ := math.Lgamma(float64(k) + 1)
	return math.Exp(-lambda + float64(k)*math.Log(lambda) - lg)
}

// chiSquareLimit is the 0.9999-quantile of the chi-square law with nu
// degrees of freedom: a correct sampler exceeds it once in 10⁴ seeds.
func chiSquareLimit(nu float64) float64 {
	return distuv.ChiSquared{K: nu}.Quantile(0.9999)
}

// TestPoissonMeanAndVariance draws n variates for each mean and checks the
// sample mean and the sample variance against λ (both equal λ for a
// Poisson law) within 5 standard errors of each estimator:
//
//	SE(mean) = sqrt(λ/n),  SE(variance) ≈ sqrt((μ₄ − σ⁴)/n) = sqrt((λ + 2λ²)/n)
//
// using the Poisson central moments σ² = λ, μ₄ = λ + 3λ². The means cover
// both of the sampler's methods: inversion below 10 and PTRS above.
func TestPoissonMeanAndVariance(t *testing.T) {
	tests := []struct {
		name   string
		lambda float64
		n      int
	}{
		{"tiny mean, inversion", 0.1, 400000},
		{"unit mean, inversion", 1, 400000},
		{"mean near the switch, inversion", 7.3, 200000},
		{"exactly at the switch, rejection", 10, 200000},
		{"moderate mean, rejection", 40, 200000},
		{"large mean, rejection", 1e4, 200000},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStream(20260101, uint64(i))
			var sum, sum2 float64
			for j := 0; j < tt.n; j++ {
				k := s.poisson(tt.lambda)
				if k < 0 {
					t.Fatalf("poisson(%g) = %d < 0", tt.lambda, k)
				}
				// Shift by λ before squaring so the variance does not
				// cancel catastrophically at λ = 1e4.
				d := float64(k) - tt.lambda
				sum += d
				sum2 += d * d
			}
			n := float64(tt.n)
			mean := tt.lambda + sum/n
			variance := (sum2 - sum*sum/n) / (n - 1)
			seMean := math.Sqrt(tt.lambda / n)
			seVar := math.Sqrt((tt.lambda + 2*tt.lambda*tt.lambda) / n)
			t.Logf("λ = %g, n = %d: mean %.6g (SE %.2g), variance %.6g (SE %.2g)", tt.lambda, tt.n, mean, seMean, variance, seVar)
			if math.Abs(mean-tt.lambda) > 5*seMean {
				t.Errorf("mean %.6g, want %g ± %.3g (5 SE)", mean, tt.lambda, 5*seMean)
			}
			if math.Abs(variance-tt.lambda) > 5*seVar {
				t.Errorf("variance %.6g, want %g ± %.3g (5 SE)", variance, tt.lambda, 5*seVar)
			}
		})
	}
}

// TestPoissonGoodnessOfFit compares the histogram of n draws with the
// Poisson pmf by Pearson's chi-square test. Cells run over k = 0, 1, ...
// and are merged so that each expects at least 20 draws; the two tails
// (below the first and above the last cell) are lumped into the end cells.
// The statistic must stay under the 0.9999 quantile of its chi-square law,
// which a sampler with the right mean and variance but the wrong shape
// (for example a rounded normal at λ = 40) far exceeds.
func TestPoissonGoodnessOfFit(t *testing.T) {
	tests := []struct {
		name   string
		lambda float64
		n      int
	}{
		{"unit mean, inversion", 1, 200000},
		{"mean 40, rejection", 40, 200000},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kmax := int(tt.lambda + 20*math.Sqrt(tt.lambda) + 20)
			counts := make([]float64, kmax+1)
			s := newStream(77, uint64(i))
			for j := 0; j < tt.n; j++ {
				k := s.poisson(tt.lambda)
				if k > kmax {
					k = kmax
				}
				counts[k]++
			}
			n := float64(tt.n)
			// Expected counts, with P(K ≥ kmax) in the last slot.
			expect := make([]float64, kmax+1)
			var cum float64
			for k := 0; k < kmax; k++ {
				expect[k] = n * poissonPMF(tt.lambda, k)
				cum += expect[k]
			}
			expect[kmax] = n - cum
			// Merge into cells expecting at least 20 each.
			var cellsObs, cellsExp []float64
			var o, e float64
			for k := 0; k <= kmax; k++ {
				o += counts[k]
				e += expect[k]
				if e >= 20 {
					cellsObs = append(cellsObs, o)
					cellsExp = append(cellsExp, e)
					o, e = 0, 0
				}
			}
			last := len(cellsObs) - 1
			cellsObs[last] += o
			cellsExp[last] += e
			var chi2 float64
			for c := range cellsObs {
				d := cellsObs[c] - cellsExp[c]
				chi2 += d * d / cellsExp[c]
			}
			nu := float64(len(cellsObs) - 1)
			limit := chiSquareLimit(nu)
			t.Logf("λ = %g, n = %d: chi-square %.2f over %d cells, 0.9999 limit %.2f", tt.lambda, tt.n, chi2, len(cellsObs), limit)
			if chi2 > limit {
				t.Errorf("chi-square %.2f over %d cells exceeds the 0.9999 quantile %.2f", chi2, len(cellsObs), limit)
			}
			if len(cellsObs) < 5 {
				t.Errorf("only %d cells: the test has no power", len(cellsObs))
			}
		})
	}
}

// TestPoissonDegenerateMeans pins the draws that need no randomness: a
// zero, negative or NaN mean gives 0 and consumes nothing from the stream.
func TestPoissonDegenerateMeans(t *testing.T) {
	for _, lambda := range []float64{0, -1, math.Inf(-1), math.NaN()} {
		s := newStream(5, 1)
		ref := newStream(5, 1)
		for i := 0; i < 100; i++ {
			if k := s.poisson(lambda); k != 0 {
				t.Fatalf("poisson(%g) = %d, want 0", lambda, k)
			}
		}
		if s.uint64() != ref.uint64() {
			t.Errorf("poisson(%g) consumed random numbers", lambda)
		}
	}
}

// TestPoissonHugeMeanFitsInt checks the clamp of a pathological mean: the
// draw for maxLambda (and for +Inf, clamped to it) must be a valid count
// near 10¹⁵, which needs a 64-bit int. On a 32-bit int (GOARCH=arm, 386)
// int(k) of a float near 10¹⁵ is out of range and the conversion gives a
// meaningless value: this test documents that maxLambda assumes 64-bit int.
func TestPoissonHugeMeanFitsInt(t *testing.T) {
	s := newStream(9, 9)
	for _, lambda := range []float64{maxLambda, math.Inf(1)} {
		k := s.poisson(lambda)
		if d := float64(k) - maxLambda; math.Abs(d) > 10*math.Sqrt(maxLambda) {
			t.Errorf("poisson(%g) = %d, want within 10 SD of %g", lambda, k, maxLambda)
		}
	}
}

// TestPoissonAllocatesNothing: the draw sits on the Learn hot path.
func TestPoissonAllocatesNothing(t *testing.T) {
	s := newStream(1, 1)
	var sink int
	allocs := testing.AllocsPerRun(1000, func() {
		sink += s.poisson(0.5) + s.poisson(3) + s.poisson(40) + s.poisson(1e4)
	})
	if allocs != 0 {
		t.Errorf("poisson allocates %v times per call set, want 0", allocs)
	}
	_ = sink
}

// TestStreamsAreReproducibleAndDistinct: a stream is a function of (seed,
// id) only, and different ids give different sequences.
func TestStreamsAreReproducibleAndDistinct(t *testing.T) {
	a, b, c := newStream(42, 1), newStream(42, 1), newStream(42, 2)
	same, differ := true, false
	for i := 0; i < 64; i++ {
		x, y, z := a.uint64(), b.uint64(), c.uint64()
		same = same && x == y
		differ = differ || x != z
	}
	if !same {
		t.Error("two streams with the same seed and id differ")
	}
	if !differ {
		t.Error("streams 1 and 2 of one seed are identical")
	}
}

// TestFloat64AndIntnRanges checks the uniform variates the SMOTE step uses:
// float64 in [0, 1) and intn(n) in [0, n), each value of intn(5) about as
// frequent as the others (chi-square, 4 degrees of freedom).
func TestFloat64AndIntnRanges(t *testing.T) {
	s := newStream(3, 3)
	for i := 0; i < 100000; i++ {
		if u := s.float64(); !(u >= 0 && u < 1) {
			t.Fatalf("float64() = %g outside [0, 1)", u)
		}
	}
	const n, draws = 5, 100000
	var counts [n]float64
	for i := 0; i < draws; i++ {
		k := s.intn(n)
		if k < 0 || k >= n {
			t.Fatalf("intn(%d) = %d", n, k)
		}
		counts[k]++
	}
	var chi2 float64
	for _, c := range counts {
		d := c - draws/n
		chi2 += d * d / (draws / n)
	}
	if limit := chiSquareLimit(n - 1); chi2 > limit {
		t.Errorf("intn(%d) counts %v: chi-square %.2f > %.2f", n, counts, chi2, limit)
	}
}

// BenchmarkPoisson measures one draw on each side of the switch from
// inversion (cost grows with λ) to PTRS (constant cost).
func BenchmarkPoisson(b *testing.B) {
	for _, lambda := range []float64{0.5, 1, 3, 9.9, 10, 40, 1e4} {
		b.Run(fmt.Sprintf("lambda=%g", lambda), func(b *testing.B) {
			s := newStream(1, 1)
			var sink int
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sink += s.poisson(lambda)
			}
			if sink < 0 {
				b.Fatal("negative draw")
			}
		})
	}
}

// TestPoissonApproxAgreesWithExact checks that the inversion started from
// fastExpNeg decides exactly as the one from detmath.Exp whenever it
// decides at all: over random means and uniforms, and over uniforms
// placed on and around the partial sums of the CDF, where it must decline.
func TestPoissonApproxAgreesWithExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	declined := 0
	check := func(u, lambda float64) {
		want := invertPoisson(u, detmath.Exp(-lambda), lambda)
		got, ok := invertPoissonApprox(u, fastExpNeg(lambda), lambda)
		if !ok {
			declined++
			return
		}
		if got != want {
			t.Fatalf("λ = %v, u = %v: approximate search %d, exact %d", lambda, u, got, want)
		}
	}
	for i := 0; i < 200000; i++ {
		lambda := 10 * rng.Float64()
		if i%3 == 0 {
			lambda = math.Ldexp(rng.Float64(), -rng.IntN(60)) // tiny means
		}
		check(rng.Float64(), lambda)
		// On and next to a partial sum of the exact CDF.
		p := detmath.Exp(-lambda)
		f := p
		for k := 1; k <= rng.IntN(12); k++ {
			p = float64(p * (lambda / float64(k)))
			f += p
		}
		for _, u := range []float64{f, math.Nextafter(f, 0), math.Nextafter(f, 2), f - 1e-11, f + 1e-11} {
			if u >= 0 && u < 1 {
				check(u, lambda)
			}
		}
	}
	if declined == 0 {
		t.Error("the approximate search never declined, even on the partial sums")
	}
	t.Logf("declined %d times", declined)
}

// TestZeroBelowAgreesWithExact checks that the shortcut to a draw of 0
// is only taken where the exact search draws 0: over random means and
// uniforms, and on and next to its bound 1 − λ − poissonMargin and the
// first partial sum e^{-λ}; and that it is taken for most draws of 0 at
// small means.
func TestZeroBelowAgreesWithExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	taken, zeros := 0, 0
	check := func(u, lambda float64) {
		if !zeroBelow(u, lambda) {
			return
		}
		if k := invertPoisson(u, detmath.Exp(-lambda), lambda); k != 0 {
			t.Fatalf("λ = %v, u = %v: the shortcut draws 0, the exact search %d", lambda, u, k)
		}
	}
	for i := 0; i < 200000; i++ {
		lambda := 10 * rng.Float64()
		if i%3 == 0 {
			lambda = math.Ldexp(rng.Float64(), -rng.IntN(60)) // tiny means
		}
		u := rng.Float64()
		check(u, lambda)
		if lambda < 0.5 && invertPoisson(u, detmath.Exp(-lambda), lambda) == 0 {
			zeros++
			if zeroBelow(u, lambda) {
				taken++
			}
		}
		b := (1 - lambda) - poissonMargin
		f := detmath.Exp(-lambda)
		for _, u := range []float64{b, math.Nextafter(b, 0), math.Nextafter(b, 2), f, math.Nextafter(f, 0), math.Nextafter(f, 2)} {
			if u >= 0 && u < 1 {
				check(u, lambda)
			}
		}
	}
	if taken < zeros*8/10 {
		t.Errorf("the shortcut was taken for %d of %d draws of 0 at means below 0.5, want most", taken, zeros)
	}
}

// TestFastExpNeg checks fastExpNeg's relative error over its whole range,
// densely and at the ends, against detmath.Exp.
func TestFastExpNeg(t *testing.T) {
	worst := 0.0
	check := func(l float64) {
		want := detmath.Exp(-l)
		if e := math.Abs(fastExpNeg(l)-want) / want; !(e < 1e-11) {
			t.Fatalf("fastExpNeg(%v) = %v, want %v (relative error %v)", l, fastExpNeg(l), want, e)
		} else if e > worst {
			worst = e
		}
	}
	for _, l := range []float64{0, minLambda, 1e-200, 1e-9, math.Ln2 / 2, math.Ln2, 1, math.Nextafter(poissonSmall, 0)} {
		check(l)
	}
	for l := 1e-12; l < poissonSmall; l *= 1.00001 {
		check(l)
	}
	t.Logf("worst relative error %.2g", worst)
}
