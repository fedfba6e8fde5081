package classifier

import (
	"errors"
	"math"
	"testing"
)

// censoredReference is a naive-Bayes member's censored log-odds computed
// from its statistics in the textbook form, with math.Log.
func censoredReference(n *nb, x []float64, c float64) float64 {
	s := math.Log(n.pw[clsPos]) - math.Log(n.pw[clsNeg])
	for j, v := range x {
		var lp [2]float64
		for k := range 2 {
			u := 0.5 / n.half[k][j] // the floored variance the caches hold
			d := v - n.mu[k][j]
			lp[k] = -0.5*math.Log(2*math.Pi*u) - d*d/(2*u)
		}
		s += min(max(lp[clsPos]-lp[clsNeg], -c), c)
	}
	return s
}

// TestCensoredMargin checks CensoredMargin against the textbook per-feature
// log-likelihood ratio, that a bound no term reaches gives Margin (the same
// sum, grouped otherwise), that a learn is seen at once, that it changes
// neither Score nor the model, allocates nothing, and that it refuses what
// it cannot censor.
func TestCensoredMargin(t *testing.T) {
	for _, name := range []Algorithm{UOB, OzaBag, AC2, SBO2, "nsAC2"} {
		m, err := New(Config{Algorithm: name, Features: 5, Seed: 3, Memory: 64})
		if err != nil {
			t.Fatal(err)
		}
		e := m.(*ensemble)
		g := m.(CensoredGrader)
		s := newTestStream(5, 5, 0.2, 1.5)
		x := make([]float64, 5)
		for i := 0; i < 600; i++ {
			y := s.next(x)
			if i%7 == 0 {
				x[i%5] *= 40 // far in a tail
			}
			p, _ := m.Score(x)
			for _, c := range []float64{0.5, 2, 1e6} {
				q, err := g.CensoredMargin(x, c)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !bothClasses(e) {
					continue // a member at ±MaxMargin
				}
				if !e.alg.boosting() {
					var ref float64
					for k := range e.members {
						ref += min(max(censoredReference(e.members[k].h.(*nb), x, c), -MaxMargin), MaxMargin)
					}
					ref /= float64(len(e.members))
					if math.Abs(q-ref) > 1e-9*(1+math.Abs(ref)) {
						t.Fatalf("%s example %d, bound %v: CensoredMargin %v, reference %v", name, i, c, q, ref)
					}
				}
				if c == 1e6 {
					plain, _ := e.Margin(x)
					if math.Abs(q-plain) > 1e-9*(1+math.Abs(plain)) {
						t.Fatalf("%s example %d: censored at %v %v, Margin %v", name, i, c, q, plain)
					}
				} else if bound := float64(len(x))*c + maxLogPrior(e); math.Abs(q) > bound {
					t.Fatalf("%s example %d: |CensoredMargin| %v beyond %d features × %v and the prior (%v)", name, i, q, len(x), c, bound)
				}
			}
			if p2, _ := m.Score(x); p2 != p {
				t.Fatalf("%s: CensoredMargin changed Score from %v to %v", name, p, p2)
			}
			m.Learn(x, y)
		}
		before, _ := m.MarshalBinary()
		if a := testing.AllocsPerRun(100, func() { g.CensoredMargin(x, 2) }); a != 0 {
			t.Errorf("%s: CensoredMargin allocates %v times", name, a)
		}
		if after, _ := m.MarshalBinary(); string(after) != string(before) {
			t.Errorf("%s: CensoredMargin changed the model", name)
		}
		for _, c := range []float64{0, -1, math.NaN(), math.Inf(1)} {
			if _, err := g.CensoredMargin(x, c); err == nil {
				t.Errorf("%s: censoring bound %v accepted", name, c)
			}
		}
		if _, err := g.CensoredMargin([]float64{0, math.Inf(1), 0, 0, 0}, 1); !errors.Is(err, ErrInput) {
			t.Errorf("%s: Inf feature: %v, want ErrInput", name, err)
		}
	}
	for _, l := range []LearnerName{LearnerLDA, LearnerQDA} {
		m, _ := New(Config{Algorithm: UOB, Learner: l, Features: 3, Seed: 1})
		if _, err := m.(CensoredGrader).CensoredMargin([]float64{1, 2, 3}, 1); !errors.Is(err, ErrNotCensorable) {
			t.Errorf("%s: %v, want ErrNotCensorable", l, err)
		}
	}
	// A factory of the package's naive Bayes builds naive-Bayes members
	// (NewWithLearner unwraps a BaseLearner); a Learner of the caller's,
	// even one wrapping them, is not censorable.
	for _, c := range []struct {
		mk   LearnerFactory
		want error
	}{
		{func(int) (Learner, error) { return NewBaseLearner(LearnerNB, 2, 1) }, nil},
		{wrappedFactory(LearnerNB, 2), ErrNotCensorable},
	} {
		m, err := NewWithLearner(Config{Algorithm: UOB, Learner: "my-nb", Features: 2, Seed: 1}, c.mk)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.(CensoredGrader).CensoredMargin([]float64{1, 2}, 1); !errors.Is(err, c.want) {
			t.Errorf("NewWithLearner: %v, want %v", err, c.want)
		}
	}
}

// bothClasses reports whether every member of e has learned both classes.
func bothClasses(e *ensemble) bool {
	for k := range e.members {
		if n := e.members[k].h.(*nb); !(n.pw[clsPos] > 0 && n.pw[clsNeg] > 0) {
			return false
		}
	}
	return true
}

// maxLogPrior is the largest |log W+ − log W−| of e's members.
func maxLogPrior(e *ensemble) float64 {
	var b float64
	for k := range e.members {
		n := e.members[k].h.(*nb)
		b = max(b, math.Abs(math.Log(n.pw[clsPos]/n.pw[clsNeg])))
	}
	return b + 1e-9
}

// TestCensoredMarginUntrained: a member that has seen one class counts as
// ±MaxMargin, as in Margin.
func TestCensoredMarginUntrained(t *testing.T) {
	m, _ := New(Config{Algorithm: OzaBag, Features: 2, Seed: 1})
	g := m.(CensoredGrader)
	if q, err := g.CensoredMargin([]float64{1, 2}, 1); err != nil || q != -MaxMargin {
		t.Errorf("untrained: %v, %v; want %v", q, err, -float64(MaxMargin))
	}
	for range 50 {
		m.Learn([]float64{1, 2}, true)
	}
	if q, _ := g.CensoredMargin([]float64{1, 2}, 1); q <= 0 {
		t.Errorf("only positives seen: %v, want > 0", q)
	}
}
