package batch

import (
	"fmt"
	"math/rand/v2"

	"github.com/ictal/ictal/classifier"
)

// trainer holds the training set of one Train call.
type trainer struct {
	cfg           classifier.Config
	x             [][]float64
	y             []bool
	pos, neg, all []int
	sm            *smote // SB and SBO1–3
}

// resample is one member's training multiset: copies of original examples
// and the bases of its synthetic positives.
type resample struct {
	counts []float64
	bases  []int
}

// fit trains a fresh base learner on r, records the member's sizes in st
// and returns the learner.
func (t *trainer) fit(rng *rand.Rand, r resample, st *memberStats) (*classifier.BaseLearner, error) {
	h, err := classifier.NewBaseLearner(t.cfg.Learner, t.cfg.Features, 1)
	if err != nil {
		return nil, err
	}
	for i, c := range r.counts {
		if c == 0 {
			continue
		}
		if t.y[i] {
			st.pos += int(c)
		} else {
			st.neg += int(c)
		}
		if err := h.Learn(t.x[i], t.y[i], c); err != nil {
			return nil, fmt.Errorf("batch: training on row %d: %w", i, err)
		}
	}
	if len(r.bases) > 0 {
		xs := make([]float64, t.cfg.Features)
		for _, b := range r.bases {
			if !t.sm.synthesize(rng, b, xs) {
				continue
			}
			if err := h.Learn(xs, true, 1); err != nil {
				return nil, fmt.Errorf("batch: training on a synthetic positive of row %d: %w", b, err)
			}
			st.synthetic++
		}
	}
	return h, nil
}

// bagging trains OzaBag's, UOB's and SB's members independently.
func (t *trainer) bagging(m *Model) error {
	M := len(m.members)
	np, nn := float64(len(t.pos)), float64(len(t.neg))
	C := t.cfg.C
	for k := range m.members {
		rng := memberRand(t.cfg.Seed, k)
		r := resample{counts: make([]float64, len(t.x))}
		a := float64(k+1) / float64(M)
		switch t.cfg.Algorithm {
		case classifier.OzaBag:
			drawUniform(rng, t.all, len(t.all), r.counts, nil)
		case classifier.UOB:
			drawUniform(rng, t.neg, max(1, roundCount(a*nn)), r.counts, nil)
			drawUniform(rng, t.pos, max(1, roundCount(a*C*np)), r.counts, nil)
		case classifier.SB:
			drawUniform(rng, t.neg, len(t.neg), r.counts, nil)
			drawUniform(rng, t.pos, max(1, roundCount(a*C*np)), r.counts, nil)
			r.bases = cyclicBases(rng, t.pos, roundCount((1-a)*C*np))
		}
		h, err := t.fit(rng, r, &m.stats[k])
		if err != nil {
			return err
		}
		m.members[k] = h
	}
	return nil
}

// boosting trains the members of OzaBoost, AC2, CSB2, RUS1–3 and SBO1–3
// in sequence, each on a resample of the current distribution D.
func (t *trainer) boosting(m *Model) error {
	N := len(t.x)
	D := make([]float64, N)
	for i := range D {
		D[i] = 1 / float64(N)
	}
	wrong := make([]bool, N)
	cost := make([]float64, N) // C_n of AC2 and CSB2
	for i := range cost {
		cost[i] = t.cfg.CN
		if t.y[i] {
			cost[i] = t.cfg.CP
		}
	}
	for k := range m.members {
		rng := memberRand(t.cfg.Seed, k)
		r := t.boostResample(rng, D)
		h, err := t.fit(rng, r, &m.stats[k])
		if err != nil {
			return err
		}
		m.members[k] = h
		for i, row := range t.x {
			p, err := h.Predict(row)
			if err != nil {
				return fmt.Errorf("batch: predicting row %d: %w", i, err)
			}
			wrong[i] = p != t.y[i]
		}
		var eps float64
		switch t.cfg.Algorithm {
		case classifier.AC2:
			eps = updateAC2(D, wrong, cost)
		case classifier.CSB2:
			eps = updateCSB2(D, wrong, cost)
		default:
			eps = updateAdaBoost(D, wrong)
		}
		m.stats[k].eps = eps
		m.alpha[k] = voteWeight(eps, t.cfg.LiteralVote)
	}
	return nil
}

// boostResample draws a member's training multiset from D as the
// algorithm's box prescribes (see the package comment).
func (t *trainer) boostResample(rng *rand.Rand, D []float64) resample {
	N := len(t.x)
	np, nn := float64(len(t.pos)), float64(len(t.neg))
	C := t.cfg.C
	r := resample{counts: make([]float64, N)}
	switch t.cfg.Algorithm {
	case classifier.RUS1:
		keep := append(append([]int(nil), t.pos...), choose(rng, t.neg, roundCount(C*np))...)
		drawWeighted(rng, keep, D, len(keep), r.counts, nil)
	case classifier.RUS2:
		drawWeighted(rng, t.neg, D, roundCount(C*np), r.counts, nil)
		drawWeighted(rng, t.pos, D, len(t.pos), r.counts, nil)
	case classifier.RUS3:
		drawn := drawWeighted(rng, t.all, D, N, make([]float64, N), nil)
		var negs []int
		for _, j := range drawn {
			if t.y[j] {
				r.counts[j]++
			} else {
				negs = append(negs, j)
			}
		}
		for _, j := range choose(rng, negs, roundCount(float64(len(negs))/C)) {
			r.counts[j]++
		}
	case classifier.SBO1:
		drawWeighted(rng, t.all, D, N, r.counts, nil)
		for i, n := 0, roundCount(nn/C-np); i < n; i++ {
			r.bases = append(r.bases, t.pos[rng.IntN(len(t.pos))])
		}
	case classifier.SBO2:
		drawWeighted(rng, t.neg, D, len(t.neg), r.counts, nil)
		drawn := drawWeighted(rng, t.pos, D, len(t.pos), r.counts, nil)
		for i, n := 0, roundCount(nn/C-np); i < n; i++ {
			r.bases = append(r.bases, drawn[rng.IntN(len(drawn))])
		}
	case classifier.SBO3:
		drawn := drawWeighted(rng, t.all, D, N, r.counts, nil)
		var dpos []int
		for _, j := range drawn {
			if t.y[j] {
				dpos = append(dpos, j)
			}
		}
		r.bases = cyclicBases(rng, dpos, roundCount((C-1)*float64(len(dpos))))
	default: // OzaBoost, AC2, CSB2
		drawWeighted(rng, t.all, D, N, r.counts, nil)
	}
	return r
}
