package classifier

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// This file holds the naive Bayes tests and the helpers that the LDA and
// QDA tests share: a stream of weighted examples, two-pass (batch)
// statistics to compare the online estimates with, and property checks
// run for every learner kind.

// lrnKinds lists the learner kinds under test.
var lrnKinds = []string{LearnerNB, LearnerLDA, LearnerQDA}

// lrnExample is one weighted, labelled example.
type lrnExample struct {
	x        []float64
	positive bool
	w        float64
}

// lrnGaussians draws n examples from two Gaussian classes in d
// dimensions: positives (probability pPos) around +sep/2 on every axis with
// standard deviation sdPos, negatives around −sep/2 with sdNeg. Weights are
// drawn from {1, 2, 3} when weighted, else 1.
func lrnGaussians(rng *rand.Rand, n, d int, pPos, sep, sdPos, sdNeg float64, weighted bool) []lrnExample {
	ex := make([]lrnExample, n)
	for i := range ex {
		p := rng.Float64() < pPos
		c, sd := -sep/2, sdNeg
		if p {
			c, sd = sep/2, sdPos
		}
		x := make([]float64, d)
		for j := range x {
			// A little correlation between neighbouring features makes the
			// full-covariance learners differ from naive Bayes.
			x[j] = c + sd*rng.NormFloat64()
			if j > 0 {
				x[j] += 0.3 * (x[j-1] - c)
			}
		}
		w := 1.0
		if weighted {
			w = float64(1 + rng.IntN(3))
		}
		ex[i] = lrnExample{x, p, w}
	}
	return ex
}

// lrnTrain feeds examples to a learner.
func lrnTrain(h learner, ex []lrnExample) {
	for _, e := range ex {
		h.learn(e.x, e.positive, e.w)
	}
}

// lrnBatch is the two-pass weighted statistics of one class under the
// paper's per-class forgetting: the i-th of the class's n_c examples has
// weight w_i·β^(n_c−1−i) (only the class's own later examples age it), so
// T = Σ w_i β^(n_c−1−i), μ = Σ w_i β^(n_c−1−i) x_i / T,
// S = Σ w_i β^(n_c−1−i) (x_i − μ)(x_i − μ)ᵀ, and the prior weight is
// W = Σ w_i, which never forgets.
type lrnBatch struct {
	w  float64
	t  float64
	mu []float64
	s  *mat.SymDense
}

func lrnBatchStats(ex []lrnExample, d int, beta float64, positive bool) lrnBatch {
	var own []lrnExample
	for _, e := range ex {
		if e.positive == positive {
			own = append(own, e)
		}
	}
	n := len(own)
	b := lrnBatch{mu: make([]float64, d), s: mat.NewSymDense(d, nil)}
	wt := make([]float64, n)
	for i, e := range own {
		b.w += e.w
		wt[i] = e.w * math.Pow(beta, float64(n-1-i))
		b.t += wt[i]
	}
	if b.t == 0 {
		return b
	}
	for i, e := range own {
		for j := range b.mu {
			b.mu[j] += wt[i] * e.x[j]
		}
	}
	for j := range b.mu {
		b.mu[j] /= b.t
	}
	dl := make([]float64, d)
	for i, e := range own {
		for j := range dl {
			dl[j] = e.x[j] - b.mu[j]
		}
		b.s.SymRankOne(b.s, wt[i], mat.NewVecDense(d, dl))
	}
	return b
}

// lrnRelErr is |a − b| / scale.
func lrnRelErr(a, b, scale float64) float64 { return math.Abs(a-b) / scale }

// lrnMaxAbs is the largest magnitude in v.
func lrnMaxAbs(v ...[]float64) float64 {
	var m float64
	for _, s := range v {
		for _, x := range s {
			m = max(m, math.Abs(x))
		}
	}
	return m
}

// lrnProbes returns n points scattered around both classes.
func lrnProbes(rng *rand.Rand, n, d int, scale float64) [][]float64 {
	p := make([][]float64, n)
	for i := range p {
		p[i] = make([]float64, d)
		for j := range p[i] {
			p[i][j] = scale * 3 * rng.NormFloat64()
		}
	}
	return p
}

// nbVar is the variance nb uses for feature j of class c (floored).
func nbVar(n *nb, c, j int) float64 {
	if n.dirty[c] {
		n.refresh(c)
	}
	return 0.5 / n.half[c][j]
}

func TestNBMatchesBatch(t *testing.T) {
	tests := []struct {
		name string
		beta float64
	}{
		{"no forgetting", 1},
		{"forgetting 0.99", 0.99},
		{"forgetting 0.9", 0.9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const d = 5
			rng := rand.New(rand.NewPCG(1, 2))
			ex := lrnGaussians(rng, 400, d, 0.3, 2, 1, 1.5, true)
			n := newNB(d, tt.beta)
			lrnTrain(n, ex)
			for c, positive := range []bool{false, true} {
				b := lrnBatchStats(ex, d, tt.beta, positive)
				if e := lrnRelErr(n.pw[c], b.w, b.w); e > 1e-15 {
					t.Errorf("class %d: prior weight W = %v, batch %v (rel err %g)", c, n.pw[c], b.w, e)
				}
				if e := lrnRelErr(n.t[c], b.t, b.t); e > 1e-12 {
					t.Errorf("class %d: T = %v, batch %v (rel err %g)", c, n.t[c], b.t, e)
				}
				for j := range d {
					v := b.s.At(j, j) / b.t
					if e := lrnRelErr(n.mu[c][j], b.mu[j], math.Sqrt(v)); e > 1e-12 {
						t.Errorf("class %d feature %d: mean %v, batch %v (err %g σ)", c, j, n.mu[c][j], b.mu[j], e)
					}
					if e := lrnRelErr(n.v[c][j], v, v); e > 1e-11 {
						t.Errorf("class %d feature %d: variance %v, batch %v (rel err %g)", c, j, n.v[c][j], v, e)
					}
					// The variance used is the ML variance: the floor does
					// not bind on well-conditioned data.
					u := n.v[c][j]
					if got := nbVar(n, c, j); lrnRelErr(got, u, u) > 4e-16 {
						t.Errorf("class %d feature %d: variance used %v, want %v", c, j, got, u)
					}
				}
			}
		})
	}
}

func TestNBLogOddsMatchesReference(t *testing.T) {
	const d = 6
	rng := rand.New(rand.NewPCG(3, 4))
	ex := lrnGaussians(rng, 500, d, 0.4, 1.5, 0.8, 1.3, true)
	n := newNB(d, 1)
	lrnTrain(n, ex)
	bp, bn := lrnBatchStats(ex, d, 1, true), lrnBatchStats(ex, d, 1, false)
	for _, x := range lrnProbes(rng, 50, d, 1) {
		want := math.Log(bp.t) - math.Log(bn.t)
		for j := range d {
			want += distuv.Normal{Mu: bp.mu[j], Sigma: math.Sqrt(bp.s.At(j, j) / bp.t)}.LogProb(x[j])
			want -= distuv.Normal{Mu: bn.mu[j], Sigma: math.Sqrt(bn.s.At(j, j) / bn.t)}.LogProb(x[j])
		}
		if got := n.logOdds(x); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-10 {
			t.Errorf("logOdds(%v) = %v, reference %v", x, got, want)
		}
	}
}

// TestNBFloor shows what the variance floor does to a feature that is
// constant within a class, to a feature that is 0 throughout, and to a
// class seen once.
func TestNBFloor(t *testing.T) {
	n := newNB(3, 1)
	for i := range 10 {
		n.learn([]float64{1e3, 0, float64(i)}, true, 1)
		n.learn([]float64{100 * float64(i), 5 * float64(i), float64(i)}, false, 1)
	}
	once := newNB(3, 1)
	once.learn([]float64{7, 0, -7}, false, 1)
	tests := []struct {
		name string
		n    *nb
		c, j int
		want float64
	}{
		{"constant feature: 1e-9 of its square", n, clsPos, 0, 1e-9*1e6 + 1e-18*1e6 + 1e-100},
		{"zero feature: 1e-18 of the class's largest second moment", n, clsPos, 1, 1e-18*1e6 + 1e-100},
		{"varying feature: its variance", n, clsPos, 2, 8.25},
		{"class seen once: relative to each value", once, clsNeg, 0, 1e-9*49 + 1e-18*49 + 1e-100},
		{"class seen once: zero value", once, clsNeg, 1, 1e-18*49 + 1e-100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nbVar(tt.n, tt.c, tt.j); lrnRelErr(got, tt.want, tt.want) > 1e-12 {
				t.Errorf("variance = %g, want %g", got, tt.want)
			}
		})
	}
	// Leaving the positives' constant by 1 (1/√1e-3 ≈ 32 of its floored
	// standard deviations) is decisive but finite: ½·1/1e-3 = 500 nats.
	if lo := n.logOdds([]float64{1e3 + 1, 0, 5}); math.IsInf(lo, 0) || math.IsNaN(lo) || lo > -400 || lo < -600 {
		t.Errorf("logOdds off the constant = %v, want about -500", lo)
	}
}

func TestNBCachedLogDeterminant(t *testing.T) {
	// The cached ½Σ log var_j (one detmath.Log, see logSum) equals the plain
	// sum of logarithms it replaces, over variances spanning 14 decades.
	rng := rand.New(rand.NewPCG(5, 6))
	n := newNB(36, 1)
	lrnTrain(n, lrnGaussians(rng, 100, 36, 0.5, 1, 1e-3, 1e4, true))
	var half float64
	for j := range 36 {
		half += 0.5*math.Log(nbVar(n, clsNeg, j)) - 0.5*math.Log(nbVar(n, clsPos, j))
	}
	want := math.Log(n.pw[clsPos]) - math.Log(n.pw[clsNeg]) + half
	if got := n.constant(); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-14 {
		t.Errorf("constant = %v, want %v", got, want)
	}
	// A subnormal prior weight (the ensemble's cost weights can be tiny)
	// is split exactly too.
	n.pw[clsPos] = 1e-310
	want = lrnLog(1e-310) - math.Log(n.pw[clsNeg]) + half
	if got := n.constant(); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-14 {
		t.Errorf("constant with a subnormal weight = %v, want %v", got, want)
	}
}

// --- Properties shared by all learners (also run from lda_test.go and
// qda_test.go through lrnKinds). ---

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
				for _, x := range lrnProbes(rng, 20, d, 1) {
					lo1, lok := one.logOdds(x), many.logOdds(x)
					if lrnRelErr(lo1, lok, 1+math.Abs(lo1)) > 1e-10 {
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
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
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
	// axes; with β = 1 all three reach 1.000. The thresholds sit below the
	// measured values (NB 0.9997, LDA 0.9978, QDA 0.9995; with the former
	// global decay and shrinkage towards the recent spread: 0.9998, 0.9985,
	// 0.9992).
	tests := []struct {
		kind string
		min  float64
	}{
		{LearnerNB, 0.98},
		{LearnerLDA, 0.98},
		{LearnerQDA, 0.98},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
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
			if auc := lrnAUC(pos, neg); auc < tt.min {
				t.Errorf("prequential AUC %.3f, want ≥ %.2f", auc, tt.min)
			}
		})
	}
}

// lrnAUC is the Mann–Whitney AUC, ties counted ½.
func lrnAUC(pos, neg []float64) float64 {
	var s float64
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				s++
			case p == n:
				s += 0.5
			}
		}
	}
	return s / float64(len(pos)*len(neg))
}

func TestLearnerUntrainedAndOneClass(t *testing.T) {
	x := []float64{1, 2, 3}
	for _, kind := range lrnKinds {
		t.Run(kind, func(t *testing.T) {
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
}

func TestLearnerFarPointsMonotone(t *testing.T) {
	// Positives are narrower than negatives, so moving from μ+ towards and
	// past μ− lowers the log-odds strictly all the way out: the Gaussian
	// densities underflow beyond ~38σ, log-domain log-odds must not.
	for _, kind := range lrnKinds {
		t.Run(kind, func(t *testing.T) {
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
}

func TestLearnerSeparatesClasses(t *testing.T) {
	for _, kind := range lrnKinds {
		for _, beta := range []float64{1, 0.99} {
			t.Run(fmt.Sprintf("%s/beta=%v", kind, beta), func(t *testing.T) {
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
	}
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
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
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
	for _, kind := range lrnKinds {
		for _, beta := range []float64{1, 0.5} {
			t.Run(fmt.Sprintf("%s/beta=%v", kind, beta), func(t *testing.T) {
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
	}
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
	for _, kind := range lrnKinds {
		t.Run(kind, func(t *testing.T) {
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
}

func TestLearnerStrongForgettingNeverNaN(t *testing.T) {
	// With β^d far below the float range a single refill per call let the
	// factor's dynamic range overflow (found by a randomised stress run at
	// d = 39, β = 1e-6); refillsPerCall bounds it.
	for _, kind := range lrnKinds {
		for _, beta := range []float64{0.01, 1e-6} {
			t.Run(fmt.Sprintf("%s/beta=%g", kind, beta), func(t *testing.T) {
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
	}
}

func TestLearnerAllocs(t *testing.T) {
	for _, kind := range lrnKinds {
		for _, beta := range []float64{1, 0.9} {
			t.Run(fmt.Sprintf("%s/beta=%v", kind, beta), func(t *testing.T) {
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
	}
}

func TestLearnerEncodeDecodeContinues(t *testing.T) {
	for _, kind := range lrnKinds {
		for _, beta := range []float64{1, 0.9} {
			t.Run(fmt.Sprintf("%s/beta=%v", kind, beta), func(t *testing.T) {
				const d = 5
				rng := rand.New(rand.NewPCG(21, 22))
				a := newLearner(kind, d, beta)
				// 3000 calls at β = 0.9 cross a renormalisation of the
				// lazy scale (0.9^2186 < 1e-100).
				lrnTrain(a, lrnGaussians(rng, 3000, d, 0.3, 1, 1, 2, true))
				enc := a.appendBinary([]byte("prefix"))
				if got, want := len(enc)-6, a.encodedLen(); got != want {
					t.Fatalf("appendBinary wrote %d bytes, encodedLen says %d", got, want)
				}
				if got, want := a.encodedLen(), learnerEncodedLen(kind, d); got != want {
					t.Fatalf("encodedLen %d, learnerEncodedLen %d", got, want)
				}
				b := newLearner(kind, d, beta)
				dec := &decoder{buf: enc, off: 6}
				if err := b.decode(dec); err != nil {
					t.Fatal(err)
				}
				if dec.off != len(enc) {
					t.Fatalf("decode consumed %d of %d bytes", dec.off-6, len(enc)-6)
				}
				for _, e := range lrnGaussians(rng, 3000, d, 0.3, 1, 1, 2, true) {
					a.learn(e.x, e.positive, e.w)
					b.learn(e.x, e.positive, e.w)
					if la, lb := a.logOdds(e.x), b.logOdds(e.x); math.Float64bits(la) != math.Float64bits(lb) {
						t.Fatalf("logOdds %v (original) and %v (restored) differ", la, lb)
					}
				}
				if !bytes.Equal(a.appendBinary(nil), b.appendBinary(nil)) {
					t.Error("states differ after continued training")
				}
			})
		}
	}
}

// lrnEncoded returns the encoding of a trained learner of the kind.
func lrnEncoded(kind string, d int, beta float64, n int) []byte {
	h := newLearner(kind, d, beta)
	lrnTrain(h, lrnGaussians(rand.New(rand.NewPCG(23, 24)), n, d, 0.5, 1, 1, 2, true))
	return h.appendBinary(nil)
}

// lrnOffsets gives the byte offset of named fields of an encoded learner of
// dimension d (the negative class's, for per-class fields).
func lrnOffsets(kind string, d int) map[string]int {
	const hdr = 16
	cls := map[string]int{"prior weight": hdr, "weight": hdr + 8, "mean": hdr + 16}
	f := 0
	switch kind {
	case LearnerNB:
		cls["variance"] = hdr + 16 + 8*d
		return cls
	case LearnerLDA:
		cls["pooled weight"] = hdr + 16*(2+d)
		f = hdr + 16*(2+d) + 8
	default:
		f = hdr + 8*(2+d)
	}
	for k, v := range map[string]int{"started": f, "scale": f + 1, "refill index": f + 9,
		"prior target": f + 17, "prior mass": f + 17 + 8*d, "factor": f + 17 + 16*d} {
		cls[k] = v
	}
	return cls
}

func TestLearnerDecodeRejects(t *testing.T) {
	put := func(b []byte, off int, v float64) {
		copy(b[off:], appendF64(nil, v))
	}
	tests := []struct {
		name      string
		kinds     []string
		untrained bool   // mutate the encoding of an untrained learner
		field     string // lrnOffsets key, or "" for the header
		mutate    func(b []byte, off, d int) []byte
		want      string
	}{
		{"truncated", lrnKinds, false, "", func(b []byte, _, _ int) []byte { return b[:len(b)-3] }, "truncated"},
		{"empty", lrnKinds, false, "", func(b []byte, _, _ int) []byte { return b[:0] }, "dimension: truncated"},
		{"wrong dimension", lrnKinds, false, "", func(b []byte, _, _ int) []byte { b[0] = 9; return b }, "dimension 9, want 3"},
		{"wrong forgetting factor", lrnKinds, false, "", func(b []byte, _, _ int) []byte { put(b, 8, 0.5); return b }, "forgetting factor 0.5, want 0.9"},
		{"negative weight", lrnKinds, false, "weight", func(b []byte, off, _ int) []byte { put(b, off, -1); return b }, "weight: negative value -1"},
		{"negative prior weight", lrnKinds, false, "prior weight", func(b []byte, off, _ int) []byte { put(b, off, -1); return b }, "prior weight: negative value -1"},
		{"weight above prior weight", lrnKinds, false, "weight", func(b []byte, off, _ int) []byte { put(b, off, 1e6); return b }, "want 0 < weight ≤ prior weight or both 0"},
		{"prior weight without weight", lrnKinds, true, "prior weight", func(b []byte, off, _ int) []byte { put(b, off, 1); return b }, "weight 0 with prior weight 1"},
		{"NaN mean", lrnKinds, false, "mean", func(b []byte, off, _ int) []byte { put(b, off+8, math.NaN()); return b }, "mean: not a finite number"},
		{"negative variance", []string{LearnerNB}, false, "variance", func(b []byte, off, _ int) []byte { put(b, off, -2); return b }, "variance: negative value"},
		{"bad boolean", []string{LearnerLDA, LearnerQDA}, false, "started", func(b []byte, off, _ int) []byte { b[off] = 7; return b }, "invalid boolean 7"},
		{"scale above 1", []string{LearnerLDA, LearnerQDA}, false, "scale", func(b []byte, off, _ int) []byte { put(b, off, 2); return b }, "scale 2 outside"},
		{"refill index out of range", []string{LearnerLDA, LearnerQDA}, false, "refill index", func(b []byte, off, _ int) []byte { b[off] = 3; return b }, "refill index 3, want < 3"},
		{"zero prior target", []string{LearnerLDA, LearnerQDA}, false, "prior target", func(b []byte, off, _ int) []byte { put(b, off, 0); return b }, "prior target of coordinate 0: 0, want > 0"},
		{"negative prior mass", []string{LearnerLDA, LearnerQDA}, false, "prior mass", func(b []byte, off, _ int) []byte { put(b, off+16, -3); return b }, "prior mass: negative value -3"},
		{"zero factor diagonal", []string{LearnerLDA, LearnerQDA}, false, "factor", func(b []byte, off, _ int) []byte { put(b, off, 0); return b }, "diagonal not positive"},
		{"negative factor diagonal", []string{LearnerLDA, LearnerQDA}, false, "factor", func(b []byte, off, _ int) []byte { put(b, off, -1); return b }, "diagonal not positive"},
		{"unstarted factor with a scale", []string{LearnerLDA, LearnerQDA}, true, "scale", func(b []byte, off, _ int) []byte { put(b, off, 0.5); return b }, "state of an unstarted factor is not zero"},
		{"LDA class weights without a prior", []string{LearnerLDA}, true, "weight", func(b []byte, off, _ int) []byte { put(b, off-8, 2); put(b, off, 1); return b }, "prior set false with class weights 1 and 0"},
		{"LDA pooled weight without a prior", []string{LearnerLDA}, true, "pooled weight", func(b []byte, off, _ int) []byte { put(b, off, 1); return b }, "pooled weight 1 with prior set false"},
		{"LDA prior without pooled weight", []string{LearnerLDA}, false, "pooled weight", func(b []byte, off, _ int) []byte { put(b, off, 0); return b }, "pooled weight 0 with prior set true"},
		{"QDA weight without a prior", []string{LearnerQDA}, true, "weight", func(b []byte, off, _ int) []byte { put(b, off-8, 2); put(b, off, 1); return b }, "prior set false with class weight 1, want a prior exactly when the weight is positive"},
		{"Inf in factor", []string{LearnerLDA, LearnerQDA}, false, "factor", func(b []byte, off, _ int) []byte { put(b, off+8, math.Inf(1)); return b }, "factor: not a finite number"},
	}
	for _, tt := range tests {
		for _, kind := range tt.kinds {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				const d = 3
				n := 50
				if tt.untrained {
					n = 0
				}
				b := lrnEncoded(kind, d, 0.9, n)
				b = tt.mutate(b, lrnOffsets(kind, d)[tt.field], d)
				h := newLearner(kind, d, 0.9)
				err := h.decode(&decoder{buf: b})
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("decode error %v, want ErrCorrupt", err)
				}
				if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), kind) {
					t.Errorf("error %q does not say %q", err, tt.want)
				}
				if lo := h.logOdds([]float64{1, 2, 3}); !math.IsInf(lo, -1) {
					t.Errorf("after a failed decode logOdds = %v, want -Inf (untrained)", lo)
				}
			})
		}
	}
}

func FuzzLearnerDecode(f *testing.F) {
	const d = 3
	for i, kind := range lrnKinds {
		for _, n := range []int{0, 1, 2, 50} {
			f.Add(append([]byte{byte(i)}, lrnEncoded(kind, d, 0.9, n)...))
		}
	}
	probe := []float64{0.5, -1, 2}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		kind := lrnKinds[int(data[0])%len(lrnKinds)]
		h := newLearner(kind, d, 0.9)
		dec := &decoder{buf: data[1:]}
		if err := h.decode(dec); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if got := h.appendBinary(nil); !bytes.Equal(got, data[1:1+dec.off]) {
			t.Fatalf("re-encoding differs from the decoded bytes")
		}
		_ = h.logOdds(probe)
		h.learn(probe, true, 1)
		_ = h.predict(probe)
	})
}
