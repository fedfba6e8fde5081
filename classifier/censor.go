package classifier

import (
	"errors"
	"fmt"
	"math"

	"github.com/ictal/ictal/internal/detmath"
)

// CensoredGrader is implemented by every Model this package builds
// (type-assert a Model to it). CensoredMargin is Margin with each
// feature's evidence censored: a naive-Bayes member's log-odds are the
// sum over features of log N(x_j; μ+j, u+j) − log N(x_j; μ−j, u−j) plus
// the prior's log W+ − log W−, and here every feature's term is clipped
// to [−c, c] before the sum. This is Huber's censored likelihood ratio
// (P. J. Huber, "A robust version of the probability ratio test", Ann.
// Math. Statist. 36, 1965), the test that stays good when a fraction of
// the data does not follow the model: one feature far out in a tail the
// Gaussian was never fitted to (an amplitude of a kind the training data
// did not hold) can then move the log-odds by at most c, where the plain
// Gaussian term grows with its square, and evidence that eight amplitude
// features share is not counted eight times without bound.
//
// c must be a finite positive number, in nats. Only ensembles of the
// package's naive-Bayes members can censor (their log-odds are a sum over
// features, and a BaseLearner of kind nb from NewWithLearner's factory is
// one); for LDA, QDA and any other Learner of the caller's,
// CensoredMargin returns an error wrapping ErrNotCensorable. The result is in [−MaxMargin,
// MaxMargin]; the members' terms are weighted as Margin weights them. It
// allocates nothing and does not change the model (beyond the caches
// Score also refreshes), and the same concurrency rules as Score apply.
type CensoredGrader interface {
	CensoredMargin(x []float64, c float64) (float64, error)
}

// ErrNotCensorable is wrapped by CensoredMargin's error for a model whose
// members are not naive Bayes.
var ErrNotCensorable = errors.New("classifier: only naive-Bayes members' evidence can be censored")

// CensoredMargin implements CensoredGrader.
func (e *ensemble) CensoredMargin(x []float64, c float64) (float64, error) {
	if !(c > 0) || math.IsInf(c, 1) {
		return 0, fmt.Errorf("classifier: censoring bound %v: want a finite positive number", c)
	}
	if _, ok := e.members[0].h.(*nb); !ok {
		return 0, fmt.Errorf("%w (learner %s)", ErrNotCensorable, e.cfg.Learner)
	}
	return e.margin(x, c)
}

// censoredLogOdds is logOdds with every feature's term clipped to [−c, c]
// (c > 0; see CensoredGrader): ±Inf while a class has seen nothing, as
// logOdds. The terms are those of logOdds, regrouped per feature:
// ½ log(u−j/u+j) + half−j·(x_j − μ−j)² − half+j·(x_j − μ+j)², each
// product rounded on its own (see cholesky.go), so the result is the
// same bits on every architecture.
func (n *nb) censoredLogOdds(x []float64, c float64) float64 {
	if !(n.pw[clsPos] > 0) {
		return math.Inf(-1)
	}
	if !(n.pw[clsNeg] > 0) {
		return math.Inf(1)
	}
	n.prepare()
	if !n.censorOK {
		n.censorTerms()
	}
	mp, mn := n.mu[clsPos][:len(x)], n.mu[clsNeg][:len(x)]
	hp, hn := n.half[clsPos][:len(x)], n.half[clsNeg][:len(x)]
	ls := n.logScale[:len(x)]
	s := n.logPrior
	for j, v := range x {
		dp, dn := v-mp[j], v-mn[j]
		t := ls[j] + float64(dn*dn*hn[j]) - float64(dp*dp*hp[j])
		// min(max(t, −c), c), without the builtins' handling of ±0
		// and NaN, which costs twice the rest of the loop: the result
		// is the same for every t (a NaN stays NaN).
		if t > c {
			t = c
		} else if t < -c {
			t = -c
		}
		s += t
	}
	return s
}

// censorTerms fills censoredLogOdds' cache from current half caches:
// ½ log(u−j/u+j) = ½ (log half+j − log half−j), with detmath.Log so that
// the bits do not depend on the platform.
func (n *nb) censorTerms() {
	n.logPrior = detmath.Log(n.pw[clsPos]) - detmath.Log(n.pw[clsNeg])
	hp, hn := n.half[clsPos], n.half[clsNeg][:len(n.half[clsPos])]
	for j := range hp {
		n.logScale[j] = 0.5 * (detmath.Log(hp[j]) - detmath.Log(hn[j]))
	}
	n.censorOK = true
}
