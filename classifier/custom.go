package classifier

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Learner is a weighted incremental binary base learner, the h_m of the
// paper, that any of the ensembles can be built on (NewWithLearner). The
// algorithms need nothing else of a member: they train it on weighted
// examples and read its decision, and Margin its log-odds.
//
// BaseLearner is the built-in Learner (Gaussian naive Bayes, LDA, QDA);
// ExampleNewWithLearner writes another, an online logistic regression.
//
// The ensemble validates every example before a member sees it: x has the
// ensemble's dimension and finite elements and w is a finite weight > 0
// (an integer Poisson draw, or 1 for a synthetic SMOTE example), and a
// Learner may rely on it. Learn should be lossless for the ensembles to
// follow the paper (Section 6.1): Learn(x, y, k) equal, or close, to k
// calls of Learn(x, y, 1), as the training draw k is given as one weight.
// A Learner belongs to one ensemble, which calls it from one goroutine at
// a time.
type Learner interface {
	// Learn adds x with its label and weight w. The ensemble's Learn
	// returns its error, naming the member; the members updated before
	// it in that call are not rolled back (a built-in learner never
	// fails there).
	Learn(x []float64, positive bool, w float64) error
	// LogOdds returns log p(+|x) − log p(−|x): positive means the member
	// predicts the positive class, which is all Score's vote reads;
	// Margin averages the values, so they should be log-odds (or a
	// score on their scale) for the graded score to mean anything. ±Inf
	// is allowed (Margin clamps it to ±MaxMargin); NaN is an error,
	// which Score and Margin return.
	LogOdds(x []float64) (float64, error)
	// MarshalBinary returns the learner's complete state, which
	// UnmarshalBinary restores into a learner made by the same factory.
	// It must only read the learner: the ensemble's MarshalBinary calls
	// may overlap (see Model).
	MarshalBinary() ([]byte, error)
	// UnmarshalBinary restores the state MarshalBinary wrote; an error
	// makes LoadWithLearner fail with ErrCorrupt.
	UnmarshalBinary(data []byte) error
}

// A LearnerFactory returns a new, untrained Learner for ensemble member m
// (0 ≤ m < Config.Members), of the dimension Config.Features: for
// LoadWithLearner, the dimension of the checkpoint.
type LearnerFactory func(m int) (Learner, error)

// Dimensioned is a Learner that says how many features it takes.
// NewWithLearner and LoadWithLearner refuse a factory's Dimensioned
// learner whose Dim is not Config.Features (for LoadWithLearner, the
// checkpoint's: a checkpoint of another dimension than the factory's
// learners is then an error, not a model whose every Score fails). A
// Learner without Dim is trusted to take Config.Features. BaseLearner is
// Dimensioned.
type Dimensioned interface {
	Learner
	Dim() int
}

// maxCustomState bounds the encoded state of one custom learner that Load
// accepts (maxStateSize bounds the whole checkpoint).
const maxCustomState = 1 << 30

// NewWithLearner returns an untrained ensemble of cfg.Algorithm whose
// members are made by mk. cfg.Learner names the learner in the model's
// Config and checkpoint: it must be set, at most 64 bytes long, and not
// one of the built-in names (so that Load can never mistake a checkpoint
// of it for a built-in one); LoadWithLearner restores the checkpoint.
// For the work bound (MaxLearnWork) a member counts as d+1 numbers of
// state, the size of a linear model; a learner whose Learn costs more
// per example is the caller's to bound.
//
// A factory that returns a BaseLearner gives the same model, bit for bit,
// as New with that learner's name, except for the name in Config.
func NewWithLearner(cfg Config, mk LearnerFactory) (Ensemble, error) {
	c, a, ns, err := cfg.validate(true)
	if err != nil {
		return nil, err
	}
	ls, err := makeLearners(c, mk)
	if err != nil {
		return nil, err
	}
	e := newEnsemble(c, a, ns, func(m int) learner { return ls[m] })
	e.factory = mk
	return e, nil
}

// errDimension marks a Dimensioned learner of another dimension than the
// ensemble's.
var errDimension = errors.New("dimension")

// makeLearners calls mk for every member of c and adapts what it returns.
func makeLearners(c Config, mk LearnerFactory) ([]learner, error) {
	ls := make([]learner, c.Members)
	for m := range ls {
		l, err := mk(m)
		if err != nil {
			return nil, fmt.Errorf("classifier: learner %q for member %d: %w", c.Learner, m, err)
		}
		if l == nil {
			return nil, fmt.Errorf("classifier: learner %q for member %d: factory returned nil", c.Learner, m)
		}
		if dl, ok := l.(Dimensioned); ok && dl.Dim() != c.Features {
			return nil, fmt.Errorf("classifier: learner %q for member %d: %w %d, want %d", c.Learner, m, errDimension, dl.Dim(), c.Features)
		}
		if b, ok := l.(*BaseLearner); ok {
			ls[m] = b.h // built in: no adapter on the hot path
			continue
		}
		ls[m] = &custom{l: l}
	}
	return ls, nil
}

// custom adapts a Learner to the package's learner. Learner errors, which
// the internal interface has no room for, are kept in err and collected
// by the ensemble after each call (customErr).
type custom struct {
	l   Learner
	err error
}

func (c *custom) learn(x []float64, positive bool, w float64) {
	if err := c.l.Learn(x, positive, w); err != nil && c.err == nil {
		c.err = err
	}
}

func (c *custom) logOdds(x []float64) float64 {
	v, err := c.l.LogOdds(x)
	if err == nil && math.IsNaN(v) {
		err = fmt.Errorf("log-odds are NaN")
	}
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		return 0
	}
	return v
}

func (c *custom) prepare()                             {}
func (c *custom) logOddsShared(x, _ []float64) float64 { return c.logOdds(x) }
func (c *custom) predict(x []float64) bool             { return c.logOdds(x) > 0 }

// encodedLen and appendBinary are the learner interface's; the ensemble's
// MarshalBinary does not use them, as it must report the learner's
// errors: it takes the states first (customStates) and appends each with
// appendCustomState, the same encoding.
func (c *custom) encodedLen() int {
	s, _ := c.l.MarshalBinary()
	return 8 + len(s)
}

func (c *custom) appendBinary(b []byte) []byte {
	s, _ := c.l.MarshalBinary()
	return appendCustomState(b, s)
}

// appendCustomState appends a custom learner's state, length first.
func appendCustomState(b, state []byte) []byte {
	b = appendU64(b, uint64(len(state)))
	return append(b, state...)
}

// customStates returns the state of each custom member (nil for the
// built-in ones, and for an ensemble without custom members), or the
// first error of their MarshalBinary. It only reads the ensemble, so
// MarshalBinary calls may still overlap.
func (e *ensemble) customStates() ([][]byte, error) {
	if e.factory == nil {
		return nil, nil
	}
	states := make([][]byte, len(e.members))
	for m := range e.members {
		if c, ok := e.members[m].h.(*custom); ok {
			s, err := c.l.MarshalBinary()
			if err != nil {
				return nil, fmt.Errorf("classifier: member %d learner %q: %w", m, e.cfg.Learner, err)
			}
			states[m] = s
		}
	}
	return states, nil
}

func (c *custom) decode(d *decoder) error {
	n := d.u64("custom learner state length")
	if d.err != nil {
		return d.err
	}
	if n > maxCustomState || n > uint64(len(d.buf)-d.off) {
		d.off -= 8
		d.fail(fmt.Sprintf("custom learner state of %d bytes out of range", n))
		return d.err
	}
	// A copy: the learner may keep what it is given.
	blob := slices.Clone(d.buf[d.off : d.off+int(n)])
	if err := c.l.UnmarshalBinary(blob); err != nil {
		d.fail(fmt.Sprintf("custom learner state: %v", err))
		return d.err
	}
	d.off += int(n)
	return nil
}

// customErr returns (and clears) the first error a custom member reported
// since the last call.
func (e *ensemble) customErr() error {
	if e.factory == nil { // inlined: the built-in learners' hot path pays one test
		return nil
	}
	return e.memberErr()
}

// memberErr is customErr for an ensemble of custom learners.
func (e *ensemble) memberErr() error {
	for m := range e.members {
		if c, ok := e.members[m].h.(*custom); ok && c.err != nil {
			err := c.err
			c.err = nil
			return fmt.Errorf("classifier: member %d learner %q: %w", m, e.cfg.Learner, err)
		}
	}
	return nil
}

// MarshalBinary returns the state of the built-in learner, in the
// encoding its ensemble's checkpoint holds for it.
func (b *BaseLearner) MarshalBinary() ([]byte, error) {
	return b.h.appendBinary(make([]byte, 0, b.h.encodedLen())), nil
}

// UnmarshalBinary restores a state written by MarshalBinary of a learner
// of the same kind, dimension and forgetting factor. Invalid state is an
// error wrapping ErrCorrupt, and leaves the learner untrained.
func (b *BaseLearner) UnmarshalBinary(data []byte) error {
	d := &decoder{buf: data}
	err := b.h.decode(d)
	if err == nil && d.off != len(data) {
		err = fmt.Errorf("%w: %d unexpected bytes at byte %d", ErrCorrupt, len(data)-d.off, d.off)
	}
	b.prepared = false
	return err
}
