package classifier

import (
	"errors"
	"fmt"
)

// Model is an online binary classifier: it scores a feature vector, learns
// from a labelled one, and serialises its complete state.
//
// A Model is not safe for concurrent use, with two exceptions: Config may
// be called from any goroutine at any time (the configuration never
// changes), and MarshalBinary calls may overlap one another (and Config),
// as they only read the state. Score is not a reader: it refreshes the
// base learners' cached constants, works in their scratch vectors and
// records the predictions that Learn then reuses, so a Score must not
// overlap another Score, a Learn or a MarshalBinary, and neither may a
// Learn. Distinct Models share no mutable state, so each may have a
// goroutine of its own; to score one model from several goroutines, give
// each a copy (Ensemble.Clone) or serialise the calls.
type Model interface {
	// Learn trains the model on x with its label. A wrong dimension, NaN
	// or Inf is an error and leaves the model unchanged. It allocates
	// nothing.
	Learn(x []float64, positive bool) error
	// Score returns the positive-class score of x in [0, 1]: the
	// normalised weighted vote H of the paper. Scores above 0.5 are the
	// ensemble's positive decisions. Errors as for Learn; it allocates
	// nothing and does not change the model.
	Score(x []float64) (float64, error)
	// MarshalBinary returns a versioned, checksummed checkpoint of the
	// whole state, random generators included; Load restores it.
	MarshalBinary() ([]byte, error)
	// Config returns the configuration with defaults filled in.
	Config() Config
}

// ErrInput is wrapped by the errors Learn and Score return for a vector
// of the wrong dimension or with a NaN or infinite element.
var ErrInput = errors.New("classifier: invalid input")

// New returns an untrained model for cfg.
func New(cfg Config) (Model, error) {
	c, a, ns, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return newEnsemble(c, a, ns, func(int) learner { return newLearner(c.Learner, c.Features, c.Beta) }), nil
}

// checkInput reports whether x has dimension d and only finite elements.
func checkInput(x []float64, d int) error {
	if len(x) != d {
		return fmt.Errorf("%w: %d features, want %d", ErrInput, len(x), d)
	}
	if allFinite(x) {
		return nil
	}
	for i, v := range x {
		if v-v != 0 {
			return fmt.Errorf("%w: feature %d is %g", ErrInput, i, v)
		}
	}
	return fmt.Errorf("%w: a feature is not finite", ErrInput) // not reached: allFinite saw one
}

// allFinite reports whether every element of x is finite. v − v is +0 for
// every finite v and NaN for ±Inf and NaN, and a sum of such terms is NaN
// as soon as one is: one subtraction and one addition per element, into
// four independent sums, with no branch until the end.
func allFinite(x []float64) bool {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		s0 += v[0] - v[0]
		s1 += v[1] - v[1]
		s2 += v[2] - v[2]
		s3 += v[3] - v[3]
	}
	for _, v := range x[i:] {
		s0 += v - v
	}
	return (s0+s1)+(s2+s3) == 0
}

// Grader is implemented by every Model this package builds (type-assert a
// Model to it). Margin grades x where Score votes: the ensemble's weighted
// mean of its members' log-odds, in (−MaxMargin, MaxMargin), positive
// where the members lean to the positive class. Score's vote is 0 or 1
// whenever the members agree, which is most of the time on a stream the
// ensemble has learned; Margin still ranks those examples, so it is what
// an ROC curve, a calibrated probability (a logistic function of it
// fitted on training data) or a threshold other than the vote's 0.5
// should be built on. The same concurrency rules as Score apply.
type Grader interface {
	Margin(x []float64) (float64, error)
}

// Ensemble is everything a model this package builds offers: New's and
// Load's Models are Ensembles (type-assert: m.(classifier.Ensemble)), and
// NewWithLearner and LoadWithLearner return one.
type Ensemble interface {
	Model
	Grader
	// LearnWeighted is Learn of an example that counts w times, w a
	// finite weight in (0, MaxWeight]: the class counts grow by w and the
	// first Poisson mean of the update (bagging's λ of each member,
	// boosting's initial λ, the SMOTE rates) is w times Learn's, so an
	// integer w trains each member of OzaBag and UOB as w Learns of x
	// would, in distribution (without forgetting), and a boosting
	// ensemble as the weighted sample D₁ ∝ w of the batch algorithm. A
	// positive enters the SMOTE memory once, whatever w. LearnWeighted(x, y, 1) is Learn(x, y), bit
	// for bit. It allocates nothing.
	LearnWeighted(x []float64, positive bool, w float64) error
	// AppendMembers appends the state of each member, in order, to dst
	// and returns the extended slice: what the paper's Section 7 plots
	// (error ε_m, λ sums, vote weight α_m). It allocates nothing when dst
	// has the capacity.
	AppendMembers(dst []MemberStats) []MemberStats
	// Reset returns the ensemble to its untrained state, as New (or
	// NewWithLearner) made it: the same Config, random streams restarted
	// from the seed.
	Reset() error
	// Clone returns an independent copy, which continues exactly as the
	// original would (through MarshalBinary and Load, or LoadWithLearner
	// with the same factory).
	Clone() (Ensemble, error)
}

// MaxWeight bounds LearnWeighted's weight, as MaxCost bounds the costs
// that scale the same Poisson means.
const MaxWeight = MaxCost
