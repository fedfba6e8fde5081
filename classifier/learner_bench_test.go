package classifier

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkLearner measures the base learners' hot paths at the ensemble's
// steady state (already trained, caches warm), without forgetting:
//
//   - learn: one weighted update (the refresh of cached predict constants
//     is lazy and not included);
//   - predict: one prediction with caches current;
//   - learn+predict: an update followed by a prediction, which pays the
//     lazy refresh — what an ensemble member costs per trained example.
func BenchmarkLearner(b *testing.B) {
	for _, kind := range lrnKinds {
		for _, d := range []int{8, 36, 128} {
			b.Run(fmt.Sprintf("%s/d=%d", kind, d), func(b *testing.B) { benchLearner(b, kind, d, 1) })
		}
	}
}

// BenchmarkLearnerForgetting is BenchmarkLearner at d = 36 with β = 0.9
// (the ns variants): every call also decays the statistics of its class
// (LDA: and the pooled scatter) and, for LDA and QDA, refills the prior.
func BenchmarkLearnerForgetting(b *testing.B) {
	for _, kind := range lrnKinds {
		b.Run(string(kind)+"/d=36", func(b *testing.B) { benchLearner(b, kind, 36, 0.9) })
	}
}

func benchLearner(b *testing.B, kind LearnerName, d int, beta float64) {
	rng := rand.New(rand.NewPCG(51, uint64(d)))
	ex := lrnGaussians(rng, 1024, d, 0.3, 1, 1, 1.5, true)
	trained := func() learner {
		h := newLearner(kind, d, beta)
		lrnTrain(h, ex)
		h.logOdds(ex[0].x)
		return h
	}
	b.Run("learn", func(b *testing.B) {
		h := trained()
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			e := &ex[i&1023]
			h.learn(e.x, e.positive, e.w)
			i++
		}
	})
	b.Run("predict", func(b *testing.B) {
		h := trained()
		b.ReportAllocs()
		i, n := 0, 0
		for b.Loop() {
			if h.predict(ex[i&1023].x) {
				n++
			}
			i++
		}
		_ = n
	})
	b.Run("learn+predict", func(b *testing.B) {
		h := trained()
		b.ReportAllocs()
		i, n := 0, 0
		for b.Loop() {
			e := &ex[i&1023]
			h.learn(e.x, e.positive, e.w)
			if h.predict(e.x) {
				n++
			}
			i++
		}
		_ = n
	})
}

// BenchmarkForwardSolve compares QDA's forward solve by division
// (forwardSolve, the path before the reciprocals) with the one by the
// diagonal's reciprocals (forwardSolveRecip), on the factor of a trained
// class at d = 36.
func BenchmarkForwardSolve(b *testing.B) {
	const d = 36
	rng := rand.New(rand.NewPCG(52, d))
	q := newQDA(d, 1)
	lrnTrain(q, lrnGaussians(rng, 1024, d, 0.3, 1, 1, 1.5, true))
	q.prepare()
	l, inv := q.f[clsNeg].l, q.inv[clsNeg]
	x := make([]float64, d)
	for j := range x {
		x[j] = rng.NormFloat64()
	}
	z := make([]float64, d)
	var sink float64
	b.Run("div", func(b *testing.B) {
		for b.Loop() {
			copy(z, x)
			sink += forwardSolve(l, d, z)
		}
	})
	b.Run("recip", func(b *testing.B) {
		for b.Loop() {
			copy(z, x)
			sink += forwardSolveRecip(l, inv, d, z)
		}
	})
	_ = sink
}
