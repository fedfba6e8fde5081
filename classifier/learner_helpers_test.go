package classifier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Helpers shared by the learner tests: a stream of weighted examples,
// two-pass (batch) statistics to compare the online estimates with, and
// probes.

// lrnKinds lists the learner kinds under test.
var lrnKinds = []LearnerName{LearnerNB, LearnerLDA, LearnerQDA}

// lrnEach runs f as one subtest per learner kind, named after the kind.
func lrnEach(t *testing.T, f func(t *testing.T, kind LearnerName)) {
	for _, kind := range lrnKinds {
		t.Run(string(kind), func(t *testing.T) { f(t, kind) })
	}
}

// lrnEachBeta runs f as one subtest per learner kind and forgetting
// factor, named "kind/beta=β".
func lrnEachBeta(t *testing.T, betas []float64, f func(t *testing.T, kind LearnerName, beta float64)) {
	for _, kind := range lrnKinds {
		for _, beta := range betas {
			t.Run(fmt.Sprintf("%s/beta=%v", kind, beta), func(t *testing.T) { f(t, kind, beta) })
		}
	}
}

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
