package classifier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestQDAMatchesBatch(t *testing.T) {
	for _, beta := range []float64{1, 0.99, 0.9} {
		t.Run(fmt.Sprint("beta=", beta), func(t *testing.T) {
			const d = 5
			rng := rand.New(rand.NewPCG(41, 42))
			ex := lrnGaussians(rng, 3000, d, 0.3, 2, 1, 1.5, true)
			q := newQDA(d, beta)
			lrnTrain(q, ex)
			for c, name := range []string{"negatives", "positives"} {
				b := lrnBatchStats(ex, d, beta, c == clsPos)
				lrnCheckMean(t, name, q.t[c], q.mu[c], b)
				lrnCheckSym(t, name+" scatter", lrnScatter(&q.f[c]), b.s, 1e-12)
			}
		})
	}
}

func TestQDALogOddsMatchesReference(t *testing.T) {
	for _, beta := range []float64{1, 0.95} {
		t.Run(fmt.Sprint("beta=", beta), func(t *testing.T) {
			const d = 6
			rng := rand.New(rand.NewPCG(43, 44))
			ex := lrnGaussians(rng, 800, d, 0.4, 1.5, 0.8, 1.3, true)
			q := newQDA(d, beta)
			lrnTrain(q, ex)
			var cov [2]*mat.SymDense
			var b [2]lrnBatch
			for c := range 2 {
				b[c] = lrnBatchStats(ex, d, beta, c == clsPos)
				cov[c] = lrnCov(b[c].s, q.f[c].p, b[c].t)
			}
			for _, x := range lrnProbes(rng, 50, d, 1) {
				want := math.Log(b[clsPos].t) - math.Log(b[clsNeg].t) +
					lrnLogProb(t, b[clsPos].mu, cov[clsPos], x) - lrnLogProb(t, b[clsNeg].mu, cov[clsNeg], x)
				if got := q.logOdds(x); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-9 {
					t.Errorf("logOdds(%v) = %v, reference %v", x, got, want)
				}
			}
		})
	}
}

func TestQDAStaleClassWidens(t *testing.T) {
	// While only negatives arrive, the positives' data fade and their prior
	// is refilled towards the recent spread: log|Σ+| grows call after call
	// (their covariance widens), and everything stays finite.
	const d = 4
	rng := rand.New(rand.NewPCG(45, 46))
	q := newQDA(d, 0.9)
	lrnTrain(q, lrnGaussians(rng, 300, d, 0.5, 2, 1, 1.5, true))
	q.logOdds(make([]float64, d))
	prev := q.hld[clsPos]
	for i, e := range lrnGaussians(rng, 2500, d, 0, 2, 1, 1.5, true) { // crosses a renormalisation
		q.learn(e.x, false, e.w)
		lrnFinite(t, q, [][]float64{e.x})
		if i%d == d-1 { // a full round of refills
			if !(q.hld[clsPos] > prev) {
				t.Fatalf("call %d: ½log|Σ+| = %v, not above %v", i, q.hld[clsPos], prev)
			}
			prev = q.hld[clsPos]
		}
	}
}
