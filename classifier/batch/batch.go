package batch

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/ictal/ictal/classifier"
)

// Errors returned by Train; callers branch on them with errors.Is.
var (
	// ErrData is wrapped by errors about the training set itself: empty,
	// ragged, mismatched lengths, a NaN or infinite value.
	ErrData = errors.New("batch: invalid training data")
	// ErrOneClass means the training set lacks positives or negatives.
	ErrOneClass = errors.New("batch: training set needs both classes")
	// ErrUnsupported means the configuration has no batch counterpart
	// (a forgetting-factor ns variant, or Beta ≠ 1).
	ErrUnsupported = errors.New("batch: no batch counterpart")
)

// Model is a trained batch ensemble. Its Score has the semantics of the
// online ensembles' Score. A Model never changes after Train: any number
// of goroutines may call Score and Config at once (its members are
// prepared by Train and scored with BaseLearner.PredictShared, each call
// with its own scratch).
type Model struct {
	cfg      classifier.Config
	boosting bool
	members  []*classifier.BaseLearner
	alpha    []float64     // vote weights (boosting only)
	stats    []memberStats // what each member was trained on
	scratch  sync.Pool     // *scoreScratch, one per Score in progress
}

// scoreScratch is what one Score call writes: PredictShared's scratch of
// cfg.Features and the members' predictions.
type scoreScratch struct {
	z     []float64
	preds []bool
}

// memberStats records one member's training set and error, for tests and
// diagnostics.
type memberStats struct {
	pos, neg  int     // original examples drawn (with multiplicity)
	synthetic int     // SMOTE examples presented
	eps       float64 // error used for the vote weight (boosting)
}

// Config returns the configuration with defaults filled in (and Features
// taken from the data when it was 0).
func (m *Model) Config() classifier.Config { return m.cfg }

// Train trains the batch counterpart of cfg.Algorithm on the rows X with
// labels y (true = positive). cfg takes the online ensembles' defaults;
// cfg.Features may be 0, meaning len(X[0]).
func Train(cfg classifier.Config, X [][]float64, y []bool) (*Model, error) {
	if strings.HasPrefix(string(cfg.Algorithm), "ns") {
		return nil, fmt.Errorf("%w: %s is a forgetting-factor variant", ErrUnsupported, cfg.Algorithm)
	}
	if cfg.Beta != 0 && cfg.Beta != 1 {
		return nil, fmt.Errorf("%w: Config.Beta %g (batch learners do not forget)", ErrUnsupported, cfg.Beta)
	}
	if len(X) == 0 {
		return nil, fmt.Errorf("%w: no rows", ErrData)
	}
	if len(X) != len(y) {
		return nil, fmt.Errorf("%w: %d rows but %d labels", ErrData, len(X), len(y))
	}
	if cfg.Features == 0 {
		cfg.Features = len(X[0])
	}
	online, err := classifier.New(cfg) // validates cfg and fills its defaults
	if err != nil {
		return nil, err
	}
	cfg = online.Config()
	var pos, neg []int
	for i, row := range X {
		if len(row) != cfg.Features {
			return nil, fmt.Errorf("%w: row %d has %d features, want %d", ErrData, i, len(row), cfg.Features)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: row %d feature %d is %g", ErrData, i, j, v)
			}
		}
		if y[i] {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	if len(pos) == 0 || len(neg) == 0 {
		return nil, fmt.Errorf("%w: %d positives, %d negatives", ErrOneClass, len(pos), len(neg))
	}
	t := &trainer{cfg: cfg, x: X, y: y, pos: pos, neg: neg, all: make([]int, len(X))}
	for i := range t.all {
		t.all[i] = i
	}
	if cfg.Algorithm == classifier.SB || strings.HasPrefix(string(cfg.Algorithm), "SBO") {
		t.sm = newSMOTE(X, pos, cfg.Neighbors)
	}
	m := &Model{cfg: cfg, members: make([]*classifier.BaseLearner, cfg.Members), stats: make([]memberStats, cfg.Members)}
	switch cfg.Algorithm {
	case classifier.OzaBag, classifier.UOB, classifier.SB:
		err = t.bagging(m)
	default:
		m.boosting = true
		m.alpha = make([]float64, cfg.Members)
		err = t.boosting(m)
	}
	if err != nil {
		return nil, err
	}
	for _, h := range m.members {
		h.Prepare() // Score only reads them from here on
	}
	return m, nil
}

// Score returns the positive-class score of x in [0, 1]; a wrong dimension
// or a NaN or infinite element is an error wrapping classifier.ErrInput.
// Score > 0.5 is the ensemble's positive decision.
func (m *Model) Score(x []float64) (float64, error) {
	s, _ := m.scratch.Get().(*scoreScratch)
	if s == nil {
		s = &scoreScratch{z: make([]float64, m.cfg.Features), preds: make([]bool, len(m.members))}
	}
	defer m.scratch.Put(s)
	for i, h := range m.members {
		p, err := h.PredictShared(x, s.z)
		if err != nil {
			return 0, err
		}
		s.preds[i] = p
	}
	if m.boosting {
		return classifier.WeightedVote(m.alpha, s.preds), nil
	}
	var votes float64
	for _, p := range s.preds {
		if p {
			votes++
		}
	}
	return votes / float64(len(m.members)), nil
}
