package classifier

import (
	"math"
	"testing"
)

// TestMargin checks the graded score: it allocates nothing, leaves Score's
// decisions unchanged, ranks a separable stream at least as well as the
// vote, grades the examples the vote cannot tell apart, and for a
// bagging ensemble is exactly the mean of the members' log-odds.
func TestMargin(t *testing.T) {
	for _, name := range allNames() {
		for _, l := range Learners {
			m, _ := New(Config{Algorithm: name, Learner: l, Features: 4, Seed: 11, Memory: 64})
			g := m.(Grader)
			s := newTestStream(3, 4, 0.1, 1.2)
			x := make([]float64, 4)
			var pos, neg, mpos, mneg []float64
			levels := map[float64]bool{}
			for i := 0; i < 2000; i++ {
				y := s.next(x)
				p, _ := m.Score(x)
				q, err := g.Margin(x)
				if err != nil || math.IsNaN(q) || math.Abs(q) > MaxMargin {
					t.Fatalf("%s/%s: Margin = %v, %v", name, l, q, err)
				}
				if p2, _ := m.Score(x); p2 != p {
					t.Fatalf("%s/%s: Margin changed Score from %v to %v", name, l, p, p2)
				}
				if i >= 1000 {
					levels[q] = true
					if y {
						pos, mpos = append(pos, p), append(mpos, q)
					} else {
						neg, mneg = append(neg, p), append(mneg, q)
					}
				}
				m.Learn(x, y)
			}
			vote, margin := testAUC(pos, neg), testAUC(mpos, mneg)
			// UOB's and OzaBag's members are trained on resamples of the
			// stream itself, and their mean log-odds ranks at least as well
			// as their vote; members trained on reweighted or synthetic
			// examples (boosting, SMOTE) carry that in their log-odds, and
			// may rank a little worse by margin (AC2+QDA, nsSB+QDA here).
			if margin < 0.8 || (name == UOB || name == OzaBag) && margin < vote-0.01 {
				t.Errorf("%s/%s: margin AUC %.3f, vote AUC %.3f", name, l, margin, vote)
			}
			if len(levels) < 900 {
				t.Errorf("%s/%s: %d distinct margins in 1000 examples: not graded", name, l, len(levels))
			}
			if a := testing.AllocsPerRun(100, func() { g.Margin(x) }); a != 0 {
				t.Errorf("%s/%s: Margin allocates %v times", name, l, a)
			}
			if e := m.(*ensemble); !e.alg.boosting() {
				var sum float64
				for k := range e.members {
					sum += min(max(e.members[k].h.logOdds(x), -MaxMargin), MaxMargin)
				}
				if q, _ := g.Margin(x); q != sum/float64(len(e.members)) {
					t.Errorf("%s/%s: Margin %v, mean member log-odds %v", name, l, q, sum/float64(len(e.members)))
				}
			}
			if _, err := g.Margin([]float64{1, math.NaN(), 0, 0}); err == nil {
				t.Errorf("%s/%s: Margin took NaN", name, l)
			}
		}
	}
}
