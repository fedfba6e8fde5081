package classifier

import (
	"errors"
	"fmt"
)

// BaseLearner is one of the weighted incremental base learners (Gaussian
// naive Bayes, LDA, QDA) on its own: the built-in Learner, for
// NewWithLearner's factories and for code that builds ensembles outside
// this package, such as the batch counterparts in classifier/batch. It is
// lossless: Learn(x, y, k) equals k calls of Learn(x, y, 1) when Beta is
// 1. An ensemble built on it uses it directly (as New's members), and
// owns it: the caller must not use it afterwards.
//
// Predict and LogOdds are not read-only: the first call after a Learn
// refreshes the learner's caches, and qda works in a scratch vector of
// its own. A BaseLearner shared between goroutines is therefore scored
// with PredictShared, after Prepare; no method may run concurrently with
// Learn or Prepare.
type BaseLearner struct {
	h        learner
	d        int
	prepared bool // Prepare was called after the last Learn
}

// NewBaseLearner returns an untrained base learner of the named kind ("nb",
// "lda" or "qda") for d features with forgetting factor beta in (0, 1]
// (0 means 1).
func NewBaseLearner(kind LearnerName, d int, beta float64) (*BaseLearner, error) {
	if beta == 0 {
		beta = 1
	}
	if learnerEncodedLen(kind, 1) < 0 {
		return nil, fmt.Errorf("classifier: learner %q: unknown (want nb, lda or qda)", kind)
	}
	if d < 1 || d > MaxFeatures {
		return nil, fmt.Errorf("classifier: learner dimension %d: want 1..%d", d, MaxFeatures)
	}
	if !(beta > 0 && beta <= 1) {
		return nil, fmt.Errorf("classifier: learner forgetting factor %g: want (0, 1]", beta)
	}
	return &BaseLearner{h: newLearner(kind, d, beta), d: d}, nil
}

// Dim returns the number of features the learner takes. Through it an
// ensemble checks a factory's learner against Config.Features (see
// Dimensioned), a learner wrapping a BaseLearner included.
func (b *BaseLearner) Dim() int { return b.d }

// Learn adds x with its label and weight w > 0. A wrong dimension, a NaN or
// infinite element or a weight that is not a finite positive number is an
// error and changes nothing.
func (b *BaseLearner) Learn(x []float64, positive bool, w float64) error {
	if err := checkInput(x, b.d); err != nil {
		return err
	}
	if !(w > 0) || w > maxLambda {
		return fmt.Errorf("%w: weight %g", ErrInput, w)
	}
	b.h.learn(x, positive, w)
	b.prepared = false
	return nil
}

// Prepare brings the learner's caches up to date, so that PredictShared
// may then be called from any number of goroutines at once, until the
// next Learn.
func (b *BaseLearner) Prepare() {
	b.h.prepare()
	b.prepared = true
}

// ErrNotPrepared is returned by PredictShared when Learn was called after
// the last Prepare (or Prepare never was).
var ErrNotPrepared = errors.New("classifier: PredictShared on a base learner not prepared since its last Learn")

// PredictShared is Predict for a learner shared between goroutines: after
// Prepare and until the next Learn it only reads the learner, working in
// scratch, which the caller owns (one per goroutine, at least the
// learner's dimension long). It returns the same prediction as Predict.
func (b *BaseLearner) PredictShared(x, scratch []float64) (bool, error) {
	if err := checkInput(x, b.d); err != nil {
		return false, err
	}
	if !b.prepared {
		return false, ErrNotPrepared
	}
	if len(scratch) < b.d {
		return false, fmt.Errorf("classifier: PredictShared scratch of %d numbers, want at least %d", len(scratch), b.d)
	}
	return b.h.logOddsShared(x, scratch) > 0, nil
}

// Predict returns the learner's class for x: true when the log-odds are
// positive. An untrained learner predicts negative.
func (b *BaseLearner) Predict(x []float64) (bool, error) {
	if err := checkInput(x, b.d); err != nil {
		return false, err
	}
	return b.h.predict(x), nil
}

// LogOdds returns log p(+|x) − log p(−|x): −Inf before any positive has
// been learned, +Inf when only positives have; never NaN.
func (b *BaseLearner) LogOdds(x []float64) (float64, error) {
	if err := checkInput(x, b.d); err != nil {
		return 0, err
	}
	return b.h.logOdds(x), nil
}
