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

// TestLDAQDALogOddsMatchReference checks the log-odds of LDA and QDA
// against the two-pass reference
//
//	log W+ − log W− + log N(x; μ+, Σ+) − log N(x; μ−, Σ−)
//
// where LDA's Σ+ = Σ− is the pooled covariance and QDA's each class's own,
// both with the learner's prior mass on the diagonal.
func TestLDAQDALogOddsMatchReference(t *testing.T) {
	seeds := map[LearnerName]uint64{LearnerLDA: 33, LearnerQDA: 43}
	for _, kind := range []LearnerName{LearnerLDA, LearnerQDA} {
		for _, beta := range []float64{1, 0.95} {
			t.Run(fmt.Sprintf("%s/beta=%v", kind, beta), func(t *testing.T) {
				const d = 6
				rng := rand.New(rand.NewPCG(seeds[kind], seeds[kind]+1))
				ex := lrnGaussians(rng, 800, d, 0.4, 1.5, 0.8, 1.3, true)
				h := newLearner(kind, d, beta)
				lrnTrain(h, ex)
				var b [2]lrnBatch
				var cov [2]*mat.SymDense
				for c := range 2 {
					b[c] = lrnBatchStats(ex, d, beta, c == clsPos)
				}
				switch h := h.(type) {
				case *lda:
					pooled, tp := lrnPooled(ex, d, beta)
					cov[clsNeg] = lrnCov(pooled, h.f.p, tp)
					cov[clsPos] = cov[clsNeg]
				case *qda:
					for c := range 2 {
						cov[c] = lrnCov(b[c].s, h.f[c].p, b[c].t)
					}
				}
				for _, x := range lrnProbes(rng, 50, d, 1) {
					want := math.Log(b[clsPos].w) - math.Log(b[clsNeg].w) +
						lrnLogProb(t, b[clsPos].mu, cov[clsPos], x) - lrnLogProb(t, b[clsNeg].mu, cov[clsNeg], x)
					if got := h.logOdds(x); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-9 {
						t.Errorf("logOdds(%v) = %v, reference %v", x, got, want)
					}
				}
			})
		}
	}
}
