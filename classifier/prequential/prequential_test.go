package prequential

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// reference computes the Metrics of the examples by brute force: every
// positive–negative pair compared.
func reference(scores []float64, pos []bool, threshold float64) Metrics {
	var c counts
	for i, s := range scores {
		c.add(pos[i], s > threshold, 1)
		if !pos[i] {
			continue
		}
		for j, t := range scores {
			switch {
			case pos[j]:
			case s > t:
				c.u2 += 2
			case s == t:
				c.u2++
			}
		}
	}
	return c.metrics()
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func sameMetrics(a, b Metrics) bool {
	return a.N == b.N && a.Positives == b.Positives && a.TP == b.TP && a.TN == b.TN &&
		same(a.AUC, b.AUC) && same(a.TPR, b.TPR) && same(a.TNR, b.TNR) && same(a.GMean, b.GMean)
}

func TestMatchesBruteForce(t *testing.T) {
	tests := []struct {
		name      string
		n, window int
		levels    int // distinct score values; 0 means continuous
		pPos      float64
		threshold float64
	}{
		{"continuous balanced", 300, 50, 0, 0.5, 0.5},
		{"continuous rare positives", 400, 64, 0, 0.05, 0.5},
		{"heavy ties", 300, 40, 5, 0.3, 0.5},
		{"two values", 200, 17, 2, 0.4, 0.25},
		{"one value", 100, 10, 1, 0.5, 0.5},
		{"window of one", 100, 1, 4, 0.5, 0.5},
		{"window longer than stream", 120, 1000, 7, 0.2, 0.1},
		{"no positives", 80, 20, 3, 0, 0.5},
		{"infinities", 150, 30, -1, 0.3, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 5; seed++ {
				rng := rand.New(rand.NewPCG(seed, 7))
				e, err := New(tt.window, tt.threshold)
				if err != nil {
					t.Fatal(err)
				}
				var scores []float64
				var pos []bool
				for i := 0; i < tt.n; i++ {
					p := rng.Float64() < tt.pPos
					s := score(rng, p, tt.levels)
					if err := e.Add(s, p); err != nil {
						t.Fatal(err)
					}
					scores, pos = append(scores, s), append(pos, p)
					if want, got := reference(scores, pos, tt.threshold), e.Whole(); !sameMetrics(got, want) {
						t.Fatalf("seed %d, after %d: whole %v, want %v", seed, i+1, got, want)
					}
					lo := max(0, len(scores)-tt.window)
					if want, got := reference(scores[lo:], pos[lo:], tt.threshold), e.Windowed(); !sameMetrics(got, want) {
						t.Fatalf("seed %d, after %d: window %v, want %v", seed, i+1, got, want)
					}
				}
			}
		})
	}
}

// score draws a score for a positive or negative example: positives
// score higher on average. levels > 0 rounds scores to that many values,
// levels < 0 mixes in ±Inf, −0 and +0.
func score(rng *rand.Rand, positive bool, levels int) float64 {
	s := rng.Float64()
	if positive {
		s = math.Sqrt(s)
	}
	switch {
	case levels > 0:
		return math.Floor(s*float64(levels)) / float64(levels)
	case levels < 0:
		switch rng.IntN(6) {
		case 0:
			return math.Inf(1)
		case 1:
			return math.Inf(-1)
		case 2:
			return math.Copysign(0, -1)
		case 3:
			return 0
		}
	}
	return s
}

func TestKnownValues(t *testing.T) {
	e, _ := New(3, 0.5)
	// Negatives 0.1, 0.6; positives 0.6, 0.9: pairs (0.6>0.1) 1, (0.6=0.6) ½,
	// (0.9>0.1) 1, (0.9>0.6) 1: AUC 3.5/4.
	for _, x := range []struct {
		s float64
		p bool
	}{{0.1, false}, {0.6, true}, {0.6, false}, {0.9, true}} {
		e.Add(x.s, x.p)
	}
	w := e.Whole()
	if w.AUC != 3.5/4 || w.TPR != 1 || w.TNR != 0.5 || w.GMean != math.Sqrt(0.5) {
		t.Errorf("whole = %v, want AUC 0.875, TPR 1, TNR 0.5", w)
	}
	// The window holds 0.6+, 0.6−, 0.9+: pairs ½ and 1, AUC 1.5/2.
	if got := e.Windowed(); got.N != 3 || got.AUC != 0.75 || got.TNR != 0 || got.GMean != 0 {
		t.Errorf("window = %v, want n=3, AUC 0.75, TNR 0, G-mean 0", got)
	}
}

func TestEmptyIsNaN(t *testing.T) {
	e, _ := New(5, 0.5)
	m := e.Whole()
	if m.N != 0 || !math.IsNaN(m.AUC) || !math.IsNaN(m.TPR) || !math.IsNaN(m.TNR) || !math.IsNaN(m.GMean) {
		t.Errorf("empty = %v, want NaN figures", m)
	}
	e.Add(0.7, true)
	m = e.Whole()
	if m.TPR != 1 || !math.IsNaN(m.TNR) || !math.IsNaN(m.AUC) || !math.IsNaN(m.GMean) {
		t.Errorf("one positive = %v, want TPR 1 and the rest NaN", m)
	}
}

func TestRejects(t *testing.T) {
	for _, w := range []int{0, -1, MaxWindow + 1} {
		if _, err := New(w, 0.5); err == nil {
			t.Errorf("New(%d, 0.5) succeeded", w)
		}
	}
	if _, err := New(1, math.NaN()); err == nil {
		t.Error("New with a NaN threshold succeeded")
	}
	e, _ := New(4, 0.5)
	e.Add(0.2, false)
	before := e.Whole()
	if err := e.Add(math.NaN(), true); !errors.Is(err, ErrScore) {
		t.Errorf("Add(NaN) = %v, want ErrScore", err)
	}
	if got := e.Whole(); !sameMetrics(got, before) {
		t.Errorf("Add(NaN) changed the figures: %v, was %v", got, before)
	}
}

func TestAddAllocatesNothing(t *testing.T) {
	e, _ := New(256, 0.5)
	e.Reserve(10000)
	rng := rand.New(rand.NewPCG(1, 2))
	allocs := testing.AllocsPerRun(5000, func() {
		p := rng.IntN(10) == 0
		e.Add(score(rng, p, 0), p)
		_ = e.Whole()
		_ = e.Windowed()
	})
	if allocs != 0 {
		t.Errorf("Add allocates %v times per call, want 0", allocs)
	}
}

// TestRepeatedScoresShareNodes checks that a stream of few distinct scores
// keeps a tree of that many nodes, however long.
func TestRepeatedScoresShareNodes(t *testing.T) {
	e, _ := New(8, 0.5)
	for i := range 10000 {
		e.Add(float64(i%11)/10, i%3 == 0)
	}
	if n := len(e.tree.nodes) - 1; n != 11 {
		t.Errorf("tree has %d nodes, want 11", n)
	}
}

// TestSortedStreamStaysShallow checks the tree's balance on scores that
// arrive in increasing order, which would make an unbalanced search tree a
// list.
func TestSortedStreamStaysShallow(t *testing.T) {
	e, _ := New(16, 0.5)
	const n = 1 << 16
	for i := range n {
		e.Add(float64(i), i%2 == 0)
	}
	var depth func(i int32) int
	depth = func(i int32) int {
		if i == 0 {
			return 0
		}
		return 1 + max(depth(e.tree.nodes[i].l), depth(e.tree.nodes[i].r))
	}
	// A treap's expected depth is about 2·ln n ≈ 22 here, 3 log₂ n = 48.
	if d := depth(e.tree.root); d > 48 {
		t.Errorf("depth %d after %d increasing scores, want at most 48", d, n)
	}
}
