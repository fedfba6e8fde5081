package classifier

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Properties shared by all learners, run for every kind in lrnKinds.

// lrnState flattens what a learner has estimated for a comparison: T, W,
// μ and the covariance (NB: variances) per class, negative class first
// (LDA: then the pooled weight and scatter).
func lrnState(h learner) []float64 {
	var out []float64
	switch h := h.(type) {
	case *nb:
		for c := range 2 {
			out = append(out, h.t[c], h.pw[c])
			out = append(out, h.mu[c]...)
			out = append(out, h.v[c]...)
		}
	case *lda:
		for c := range 2 {
			out = append(out, h.t[c], h.pw[c])
			out = append(out, h.mu[c]...)
		}
		out = append(out, h.tp)
		out = append(out, lrnUpper(lrnScatter(&h.f))...)
	case *qda:
		for c := range 2 {
			out = append(out, h.t[c], h.pw[c])
			out = append(out, h.mu[c]...)
			out = append(out, lrnUpper(lrnScatter(&h.f[c]))...)
		}
	}
	return out
}

func TestLearnerLossless(t *testing.T) {
	// One update of weight k must equal k unit updates. Each unit update
	// rounds every entry a few times with factors of magnitude ≤ 1, so
	// after k of them the difference is at most a few·k ulps of the
	// state's scale: for k = 40, ~40·8·1.1e-16 ≈ 4e-14. The tolerance,
	// 1e-12 of the largest magnitude, leaves a margin of 25 and still
	// catches any error in the update formulas, which are of order 1/T.
	for _, kind := range lrnKinds {
		for _, k := range []int{1, 2, 3, 7, 40} {
			t.Run(fmt.Sprintf("%s/k=%d", kind, k), func(t *testing.T) {
				const d = 4
				rng := rand.New(rand.NewPCG(uint64(k), 7))
				pre := lrnGaussians(rng, 30, d, 0.5, 2, 1, 1.5, true)
				post := lrnGaussians(rng, 5, d, 0.5, 2, 1, 1.5, false)
				one, many := newLearner(kind, d, 1), newLearner(kind, d, 1)
				lrnTrain(one, pre)
				lrnTrain(many, pre)
				for _, e := range post {
					one.learn(e.x, e.positive, float64(k))
					for range k {
						many.learn(e.x, e.positive, 1)
					}
				}
				a, b := lrnState(one), lrnState(many)
				scale := lrnMaxAbs(a)
				for i := range a {
					if e := lrnRelErr(a[i], b[i], scale); e > 1e-12 {
						t.Errorf("state[%d]: weight %d gives %v, %d unit updates %v (err %g)", i, k, a[i], k, b[i], e)
					}
				}
				// LDA's and QDA's prior follows the variance at the calls'
				// visits (covFactor.refill), so k unit calls may correct
				// it where one call of weight k does not: a ridge of 1e-6
				// of the variance, shrinking by 1/T, moves the log-odds by
				// less than 1e-6 and an error in the update formulas
				// by far more.
				tol := 1e-10
				if kind != "nb" {
					tol = 1e-6
				}
				for _, x := range lrnProbes(rng, 20, d, 1) {
					lo1, lok := one.logOdds(x), many.logOdds(x)
					if lrnRelErr(lo1, lok, 1+math.Abs(lo1)) > tol {
						t.Errorf("logOdds(%v): weight %d gives %v, unit updates %v", x, k, lo1, lok)
					}
				}
			})
		}
	}
}

// lrnWeights returns a learner's class weights T_c and prior weights W_c.
func lrnWeights(h learner) (t, w [2]float64) {
	switch h := h.(type) {
	case *nb:
		return h.t, h.pw
	case *lda:
		return h.t, h.pw
	case *qda:
		return h.t, h.pw
	}
	panic("unknown learner")
}

func TestLearnerForgettingIsPerClassAndCall(t *testing.T) {
	// With β < 1 a class's clock is its own calls: a weight-2 call forgets
	// once, two unit calls forget twice; the other class's weight does not
	// move however many calls it misses; the prior weights never forget.
	x := []float64{1, 2}
	tests := []struct {
		name   string
		calls  []lrnExample
		wantT  [2]float64 // negative, positive
		wantW  [2]float64
		wantTP float64 // LDA's pooled weight
	}{
		{"one weight-2 call", []lrnExample{{x, false, 1}, {x, true, 1}, {x, true, 2}}, [2]float64{1, 0.5 + 2}, [2]float64{1, 3}, 0.25 + 0.5 + 2},
		{"two unit calls", []lrnExample{{x, false, 1}, {x, true, 1}, {x, true, 1}, {x, true, 1}}, [2]float64{1, 0.25 + 0.5 + 1}, [2]float64{1, 3}, 0.125 + 0.25 + 0.5 + 1},
		{"other class untouched by 20 calls", append([]lrnExample{{x, true, 3}}, lrnRepeat(lrnExample{x, false, 1}, 20)...),
			[2]float64{2 - 0x1p-19, 3}, [2]float64{20, 3}, 2 - 0x1p-19 + 3*0x1p-20},
	}
	for _, kind := range lrnKinds {
		for _, tt := range tests {
			t.Run(string(kind)+"/"+tt.name, func(t *testing.T) {
				h := newLearner(kind, 2, 0.5)
				lrnTrain(h, tt.calls)
				gt, gw := lrnWeights(h)
				if gt != tt.wantT || gw != tt.wantW {
					t.Errorf("class weights %v, prior weights %v; want %v, %v", gt, gw, tt.wantT, tt.wantW)
				}
				if l, ok := h.(*lda); ok && l.tp != tt.wantTP {
					t.Errorf("pooled weight %v, want %v", l.tp, tt.wantTP)
				}
			})
		}
	}
}

// lrnRepeat returns n copies of e.
func lrnRepeat(e lrnExample, n int) []lrnExample {
	ex := make([]lrnExample, n)
	for i := range ex {
		ex[i] = e
	}
	return ex
}

func TestLearnerForgettingRarePositives(t *testing.T) {
	// One positive in ten, β = 0.9: forgetting per class, each class keeps
	// its last ~10 examples. Prequential (test-then-train) AUC over the
	// second half of a stream whose classes are 2.5σ apart on each of 4
	// axes. The thresholds sit below the measured values (NB 0.9997, LDA
	// 0.9978, QDA 0.9995; with the former global decay and shrinkage
	// towards the recent spread 0.9998, 0.9985, 0.9992; with β = 1 0.9998,
	// 0.9998, 0.9997).
	tests := []struct {
		kind LearnerName
		min  float64
	}{
		{LearnerNB, 0.98},
		{LearnerLDA, 0.98},
		{LearnerQDA, 0.98},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 7))
			h := newLearner(tt.kind, 4, 0.9)
			x := make([]float64, 4)
			var pos, neg []float64
			for i := range 2000 {
				y := rng.Float64() < 0.1
				for j := range x {
					x[j] = rng.NormFloat64()
					if y {
						x[j] += 2.5
					}
				}
				if lo := h.logOdds(x); i >= 1000 {
					if y {
						pos = append(pos, lo)
					} else {
						neg = append(neg, lo)
					}
				}
				h.learn(x, y, 1)
			}
			if auc := testAUC(pos, neg); auc < tt.min {
				t.Errorf("prequential AUC %.3f, want ≥ %.2f", auc, tt.min)
			}
		})
	}
}

func TestLearnerUntrainedAndOneClass(t *testing.T) {
	x := []float64{1, 2, 3}
	lrnEach(t, func(t *testing.T, kind LearnerName) {
		h := newLearner(kind, 3, 1)
		if lo := h.logOdds(x); !math.IsInf(lo, -1) || h.predict(x) {
			t.Errorf("untrained: logOdds %v predict %v, want -Inf false", lo, h.predict(x))
		}
		h.learn(x, true, 1)
		if lo := h.logOdds(x); !math.IsInf(lo, 1) || !h.predict(x) {
			t.Errorf("positives only: logOdds %v, want +Inf", lo)
		}
		g := newLearner(kind, 3, 1)
		g.learn(x, false, 2)
		if lo := g.logOdds(x); !math.IsInf(lo, -1) || g.predict(x) {
			t.Errorf("negatives only: logOdds %v, want -Inf", lo)
		}
	})
}

func TestLearnerFarPointsMonotone(t *testing.T) {
	// Positives are narrower than negatives, so moving from μ+ towards and
	// past μ− lowers the log-odds strictly all the way out: the Gaussian
	// densities underflow beyond ~38σ, log-domain log-odds must not.
	lrnEach(t, func(t *testing.T, kind LearnerName) {
		const d = 4
		rng := rand.New(rand.NewPCG(8, 9))
		h := newLearner(kind, d, 1)
		lrnTrain(h, lrnGaussians(rng, 3000, d, 0.5, 3, 0.5, 2, false))
		x := make([]float64, d)
		prev := math.Inf(1)
		for k := 0; k <= 48; k++ {
			dist := math.Pow(10, float64(k)/8) // 1 … 1e6 σ−
			for j := range x {
				x[j] = 1.5 - dist/math.Sqrt(d)
			}
			lo := h.logOdds(x)
			if math.IsNaN(lo) || math.IsInf(lo, 0) {
				t.Fatalf("distance %g: logOdds %v", dist, lo)
			}
			if !(lo < prev) {
				t.Fatalf("distance %g: logOdds %v not below %v", dist, lo, prev)
			}
			prev = lo
		}
	})
}

func TestLearnerSeparatesClasses(t *testing.T) {
	lrnEachBeta(t, []float64{1, 0.99}, func(t *testing.T, kind LearnerName, beta float64) {
		const d = 8
		rng := rand.New(rand.NewPCG(10, 11))
		h := newLearner(kind, d, beta)
		lrnTrain(h, lrnGaussians(rng, 2000, d, 0.3, 3, 1, 1, true))
		test := lrnGaussians(rng, 2000, d, 0.3, 3, 1, 1, false)
		right := 0
		for _, e := range test {
			if h.predict(e.x) == e.positive {
				right++
			}
		}
		// The noise is x_j = n_j + 0.3·x_{j−1}, so the squared
		// Mahalanobis distance of the means is 3²·(1 + 7·0.7²) ≈
		// 40: Δ ≈ 6.3, Bayes error Φ(−Δ/2) ≈ 0.1%.
		if acc := float64(right) / float64(len(test)); acc < 0.99 {
			t.Errorf("accuracy %.3f, want ≥ 0.99", acc)
		}
	})
}

func TestLearnerScaleInvariant(t *testing.T) {
	// The floor (NB) and the ridge (LDA, QDA) are relative to the data, so
	// scaling every feature by a leaves the log-odds unchanged.
	for _, kind := range lrnKinds {
		for _, a := range []float64{1e-8, 1e8} {
			t.Run(fmt.Sprintf("%s/scale=%g", kind, a), func(t *testing.T) {
				const d = 5
				rng := rand.New(rand.NewPCG(12, 13))
				ex := lrnGaussians(rng, 300, d, 0.5, 1, 1, 2, true)
				unit, scaled := newLearner(kind, d, 1), newLearner(kind, d, 1)
				for _, e := range ex {
					unit.learn(e.x, e.positive, e.w)
					xs := make([]float64, d)
					for j := range xs {
						xs[j] = a * e.x[j]
					}
					scaled.learn(xs, e.positive, e.w)
				}
				xs := make([]float64, d)
				for _, x := range lrnProbes(rng, 20, d, 1) {
					for j := range xs {
						xs[j] = a * x[j]
					}
					lo, los := unit.logOdds(x), scaled.logOdds(xs)
					if lrnRelErr(lo, los, 1+math.Abs(lo)) > 1e-8 {
						t.Errorf("logOdds(%v) = %v at scale 1, %v at scale %g", x, lo, los, a)
					}
				}
			})
		}
	}
}

// lrnFinite fails unless logOdds is a number (Inf allowed only when
// allowInf) for every probe.
func lrnFinite(t *testing.T, h learner, probes [][]float64) {
	t.Helper()
	for _, x := range probes {
		lo := h.logOdds(x)
		if math.IsNaN(lo) || math.IsInf(lo, 0) {
			t.Fatalf("logOdds(%v) = %v, want finite", x, lo)
		}
		if h.predict(x) != (lo > 0) {
			t.Fatalf("predict(%v) = %v with logOdds %v", x, h.predict(x), lo)
		}
	}
}

func TestLearnerDegenerateInputsFinite(t *testing.T) {
	const d = 6
	gen := func(seed uint64, n int, mod func(x []float64)) []lrnExample {
		rng := rand.New(rand.NewPCG(seed, 14))
		ex := lrnGaussians(rng, n, d, 0.5, 2, 1, 1.5, false)
		for _, e := range ex {
			mod(e.x)
		}
		return ex
	}
	same := func(n int) []lrnExample {
		ex := make([]lrnExample, n)
		for i := range ex {
			ex[i] = lrnExample{[]float64{1, 2, 3, 4, 5, 6}, i%2 == 0, 1}
		}
		return ex
	}
	tests := []struct {
		name string
		beta float64
		ex   []lrnExample
	}{
		{"constant feature", 1, gen(1, 200, func(x []float64) { x[2] = 5 })},
		{"constant zero feature", 1, gen(2, 200, func(x []float64) { x[2] = 0 })},
		{"duplicated features", 1, gen(3, 200, func(x []float64) { x[1], x[4] = x[0], x[0] })},
		{"d above number of examples", 1, gen(4, 4, func([]float64) {})},
		{"each class seen once", 1, []lrnExample{{[]float64{1, 0, 3, 0, 5, 0}, true, 1}, {[]float64{0, 2, 0, 4, 0, 6}, false, 1}}},
		{"tiny scale", 1, gen(6, 200, func(x []float64) {
			for j := range x {
				x[j] *= 1e-8
			}
		})},
		{"huge scale", 1, gen(7, 200, func(x []float64) {
			for j := range x {
				x[j] *= 1e8
			}
		})},
		{"mixed scales", 1, gen(8, 200, func(x []float64) {
			for j := range x {
				x[j] *= math.Pow(1e4, float64(j-2))
			}
		})},
		{"identical points", 1, same(1000)},
		{"identical points forgetting 0.5", 0.5, same(5000)},
		{"duplicated features forgetting 0.5", 0.5, gen(9, 3000, func(x []float64) { x[1], x[4] = x[0], x[0] })},
	}
	probes := lrnProbes(rand.New(rand.NewPCG(15, 16)), 30, d, 1)
	probes = append(probes, []float64{1, 2, 3, 4, 5, 6}, make([]float64, d), []float64{1e6, -1e6, 1e6, -1e6, 1e6, -1e6})
	for _, kind := range lrnKinds {
		for _, tt := range tests {
			t.Run(string(kind)+"/"+tt.name, func(t *testing.T) {
				h := newLearner(kind, d, tt.beta)
				lrnTrain(h, tt.ex)
				lrnFinite(t, h, probes)
				lrnFactorsValid(t, h)
			})
		}
	}
}

// lrnFactorsValid fails unless every Cholesky factor of h has a positive,
// finite diagonal.
func lrnFactorsValid(t *testing.T, h learner) {
	t.Helper()
	var fs []*covFactor
	switch h := h.(type) {
	case *lda:
		fs = append(fs, &h.f)
	case *qda:
		fs = append(fs, &h.f[0], &h.f[1])
	}
	for i, f := range fs {
		if f.started && !cholValid(f.l, f.d) {
			t.Errorf("factor %d is not a valid Cholesky factor", i)
		}
	}
}

func TestLearnerMillionIdenticalPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("1e6 updates per learner")
	}
	const d = 4
	x := []float64{3, -1, 0, 2}
	probes := [][]float64{x, {3, -1, 0, 2.0001}, {0, 0, 0, 0}, {1e6, 1e6, 1e6, 1e6}}
	lrnEachBeta(t, []float64{1, 0.5}, func(t *testing.T, kind LearnerName, beta float64) {
		h := newLearner(kind, d, beta)
		h.learn([]float64{0, 1, 2, 3}, false, 1)
		h.learn([]float64{1, 1, 1, 1}, false, 1)
		for range 1_000_000 {
			h.learn(x, true, 1)
		}
		// The negatives are kept (forgetting is per class): both
		// classes are known, and the point dominates.
		h.learn([]float64{0, 1, 2, 3}, false, 1)
		lrnFinite(t, h, probes)
		if !h.predict(x) {
			t.Errorf("the million-times point is not predicted positive")
		}
		lrnFactorsValid(t, h)
	})
}

// lrnClassBytes returns the part of a learner's encoding that belongs to
// class c: W_c, T_c, μ_c and the variances (NB) or the factor (QDA); for
// LDA only W_c, T_c and μ_c (the pooled factor is shared).
func lrnClassBytes(h learner, c int) []byte {
	var b []byte
	switch h := h.(type) {
	case *nb:
		b = appendF64(b, h.pw[c])
		b = appendF64(b, h.t[c])
		b = appendF64s(b, h.mu[c])
		b = appendF64s(b, h.v[c])
	case *lda:
		b = appendF64(b, h.pw[c])
		b = appendF64(b, h.t[c])
		b = appendF64s(b, h.mu[c])
	case *qda:
		b = appendF64(b, h.pw[c])
		b = appendF64(b, h.t[c])
		b = appendF64s(b, h.mu[c])
		b = h.f[c].appendBinary(b)
	}
	return b
}

func TestLearnerStaleClassKept(t *testing.T) {
	// At β = 0.5, 1500 negatives in a row would have decayed a globally
	// forgotten positive class below the smallest float64 (0.5^1500). Per
	// class, the positives' statistics stay bit for bit what they were,
	// and with a feature constant over all data the log-odds stay finite.
	lrnEach(t, func(t *testing.T, kind LearnerName) {
		const d = 3
		rng := rand.New(rand.NewPCG(17, 18))
		h := newLearner(kind, d, 0.5)
		ex := lrnGaussians(rng, 100, d, 0.5, 2, 1, 1, false)
		for _, e := range ex {
			e.x[2] = 7
		}
		lrnTrain(h, ex)
		pos := lrnClassBytes(h, clsPos)
		neg := lrnGaussians(rng, 1500, d, 0, 2, 1, 1, false)
		for i, e := range neg {
			e.x[2] = 7
			h.learn(e.x, false, 1)
			for _, p := range [][]float64{e.x, {0, 0, 7}, {1, 1, 8}, {1, 1, 7}} {
				if lo := h.logOdds(p); math.IsNaN(lo) || math.IsInf(lo, 0) {
					t.Fatalf("call %d: logOdds(%v) = %v", i, p, lo)
				}
			}
		}
		if !bytes.Equal(lrnClassBytes(h, clsPos), pos) {
			t.Error("the positive class changed while only negatives arrived")
		}
		if !h.predict([]float64{1, 1, 7}) || h.predict([]float64{-1, -1, 7}) {
			t.Error("the kept positives no longer separate the classes")
		}
		lrnFactorsValid(t, h)
	})
}

func TestLearnerStrongForgettingNeverNaN(t *testing.T) {
	// With β^d far below the float range a single refill per call let the
	// factor's dynamic range overflow (found by a randomised stress run at
	// d = 39, β = 1e-6); refillsPerCall bounds it.
	lrnEachBeta(t, []float64{0.01, 1e-6}, func(t *testing.T, kind LearnerName, beta float64) {
		const d = 39
		rng := rand.New(rand.NewPCG(4, 99))
		h := newLearner(kind, d, beta)
		x := make([]float64, d)
		for i := range 3000 {
			positive := rng.Float64() < 0.3 && (i < 500 || i > 1500)
			for j := range x {
				switch j % 4 {
				case 0:
					x[j] = 3
				case 1:
					x[j] = 0
				default:
					x[j] = rng.NormFloat64()
					if positive {
						x[j]++
					}
				}
			}
			h.learn(x, positive, float64(1+rng.IntN(4)))
			if lo := h.logOdds(x); math.IsNaN(lo) {
				t.Fatalf("call %d: logOdds NaN", i)
			}
		}
		lrnFactorsValid(t, h)
	})
}

func TestLearnerAllocs(t *testing.T) {
	lrnEachBeta(t, []float64{1, 0.9}, func(t *testing.T, kind LearnerName, beta float64) {
		const d = 36
		rng := rand.New(rand.NewPCG(19, 20))
		h := newLearner(kind, d, beta)
		ex := lrnGaussians(rng, 64, d, 0.5, 1, 1, 1, true)
		lrnTrain(h, ex)
		i := 0
		if a := testing.AllocsPerRun(200, func() {
			e := ex[i%len(ex)]
			i++
			h.learn(e.x, e.positive, e.w)
			_ = h.logOdds(e.x)
			_ = h.predict(e.x)
		}); a != 0 {
			t.Errorf("learn+logOdds+predict: %v allocs per run, want 0", a)
		}
	})
}

// TestLearnerTranslationInvariant checks that shifting every feature by
// 1e4 leaves the log-odds of LDA and QDA unchanged up to rounding, early
// in a stream as later: their ridge follows each feature's variance, not
// its value. (A ridge of 1e-6·x² from the first example gave a feature of
// variance 1.08 a ridge of 100, and a variance of 11.08 after ten
// examples.)
func TestLearnerTranslationInvariant(t *testing.T) {
	const d, offset = 5, 1e4
	for _, kind := range []LearnerName{LearnerLDA, LearnerQDA} {
		for _, beta := range []float64{1, 0.9} {
			t.Run(fmt.Sprintf("%s/beta=%g", kind, beta), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(61, 62))
				ex := lrnGaussians(rng, 400, d, 0.3, 2, 1, 1.5, true)
				probes := lrnProbes(rng, 30, d, 1)
				a, b := newLearner(kind, d, beta), newLearner(kind, d, beta)
				xs := make([]float64, d)
				var seen [2]int
				for i, e := range ex {
					for j, v := range e.x {
						xs[j] = v + offset
					}
					a.learn(e.x, e.positive, e.w)
					b.learn(xs, e.positive, e.w)
					seen[learnerClass(e.positive)]++
					// From 2d examples of each class on, the covariances
					// are well conditioned (before, the ridge alone holds
					// the directions a class has not varied in, and the
					// log-odds, up to 1e11, are rounding apart by 1e-5).
					if seen[0] < 2*d || seen[1] < 2*d || (i+1)%5 != 0 {
						continue
					}
					for _, p := range probes {
						for j, v := range p {
							xs[j] = v + offset
						}
						la, lb := a.logOdds(p), b.logOdds(xs)
						// The prior masses may differ by the slack of their
						// corrections (a factor ridgeSlack of 1e-6 of the
						// variance, see covFactor): far below 1e-4.
						if lrnRelErr(la, lb, 1+math.Abs(la)) > 1e-4 || (la > 0) != (lb > 0) && math.Abs(la) > 1e-4 {
							t.Fatalf("after %d examples: logOdds(%v) = %v, shifted by %g: %v", i+1, p, la, offset, lb)
						}
					}
				}
			})
		}
	}
}
