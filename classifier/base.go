package classifier

import "fmt"

// BaseLearner is one of the weighted incremental base learners (Gaussian
// naive Bayes, LDA, QDA) on its own, for code that builds ensembles
// outside this package, such as the batch counterparts in
// classifier/batch. It is lossless: Learn(x, y, k) equals k calls of
// Learn(x, y, 1) when Beta is 1.
type BaseLearner struct {
	h learner
	d int
}

// NewBaseLearner returns an untrained base learner of the named kind ("nb",
// "lda" or "qda") for d features with forgetting factor beta in (0, 1]
// (0 means 1).
func NewBaseLearner(kind string, d int, beta float64) (*BaseLearner, error) {
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
	return nil
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
