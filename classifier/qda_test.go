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
				if q.pw[c] != b.w {
					t.Errorf("%s: prior weight %v, want the sum %v", name, q.pw[c], b.w)
				}
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
				want := math.Log(b[clsPos].w) - math.Log(b[clsNeg].w) +
					lrnLogProb(t, b[clsPos].mu, cov[clsPos], x) - lrnLogProb(t, b[clsNeg].mu, cov[clsNeg], x)
				if got := q.logOdds(x); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-9 {
					t.Errorf("logOdds(%v) = %v, reference %v", x, got, want)
				}
			}
		})
	}
}
