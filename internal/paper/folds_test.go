package paper

import (
	"slices"
	"testing"
)

func TestStratifiedFoldsPartitionWithClassProportions(t *testing.T) {
	for _, c := range []struct{ n, pos, k int }{{214, 13, 5}, {208, 97, 5}, {1484, 35, 5}, {20, 5, 3}, {11, 2, 2}} {
		y := make([]bool, c.n)
		for i := 0; i < c.pos; i++ {
			y[(i*7919)%c.n] = true
		}
		var np int
		for _, v := range y {
			if v {
				np++
			}
		}
		folds := StratifiedFolds(y, c.k, 42)
		seen := make([]int, c.n)
		for f, idx := range folds {
			var p int
			for _, i := range idx {
				seen[i]++
				if y[i] {
					p++
				}
			}
			wantP := float64(np) / float64(c.k)
			wantN := float64(c.n-np) / float64(c.k)
			if d := float64(p) - wantP; d <= -1 || d >= 1 {
				t.Errorf("n=%d pos=%d fold %d: %d positives, want %.1f ± 1", c.n, np, f, p, wantP)
			}
			if d := float64(len(idx)-p) - wantN; d <= -1 || d >= 1 {
				t.Errorf("n=%d pos=%d fold %d: %d negatives, want %.1f ± 1", c.n, np, f, len(idx)-p, wantN)
			}
			if !slices.IsSorted(idx) {
				t.Errorf("fold %d not sorted", f)
			}
		}
		for i, s := range seen {
			if s != 1 {
				t.Fatalf("n=%d: index %d in %d folds", c.n, i, s)
			}
		}
	}
}

func TestStratifiedFoldsSeeded(t *testing.T) {
	y := make([]bool, 100)
	for i := 0; i < 100; i += 4 {
		y[i] = true
	}
	a, b, c := StratifiedFolds(y, 5, 1), StratifiedFolds(y, 5, 1), StratifiedFolds(y, 5, 2)
	same := func(x, y [][]int) bool {
		for i := range x {
			if !slices.Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	if !same(a, b) || same(a, c) {
		t.Error("folds not a function of the seed")
	}
}

func TestStratifiedSplitFraction(t *testing.T) {
	y := make([]bool, 1000)
	for i := 0; i < 1000; i += 10 {
		y[i] = true
	}
	train, test := StratifiedSplit(y, 0.05, 3)
	var p int
	for _, i := range train {
		if y[i] {
			p++
		}
	}
	if len(train) != 50 || p != 5 || len(train)+len(test) != 1000 {
		t.Errorf("train %d (%d positives), test %d", len(train), p, len(test))
	}
}
