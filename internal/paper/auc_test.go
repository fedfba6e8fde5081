package paper

import (
	"math"
	"math/rand/v2"
	"testing"
)

// aucCase is an ROC given by its points and the area wanted of it.
type aucCase struct {
	name string
	pts  []Point
	want float64
}

// checkAUC runs the cases through auc, named fn in the messages.
func checkAUC(t *testing.T, fn string, auc func([]Point) float64, cases []aucCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := auc(c.pts); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("%s(%v) = %g, want %g", fn, c.pts, got, c.want)
			}
		})
	}
}

func TestAUCPointsTrapezoids(t *testing.T) {
	checkAUC(t, "AUCPoints", AUCPoints, []aucCase{
		{"no points: the diagonal", nil, 0.5},
		{"perfect", []Point{{0, 1}}, 1},
		{"one point", []Point{{0.2, 0.6}}, 0.2*0.6/2 + 0.8*(0.6+1)/2},
		{"order does not matter", []Point{{0.5, 0.9}, {0.1, 0.5}}, 0.1*0.5/2 + 0.4*(0.5+0.9)/2 + 0.5*(0.9+1)/2},
		// A non-monotone sweep: (0.3, 0.4) lies below (0.2, 0.6); the
		// polyline goes through it and loses area (no convex hull).
		{"non-monotone dips", []Point{{0.2, 0.6}, {0.3, 0.4}}, 0.2*0.6/2 + 0.1*(0.6+0.4)/2 + 0.7*(0.4+1)/2},
		{"ties in FPR sorted by TPR", []Point{{0.5, 0.8}, {0.5, 0.2}}, 0.5*0.2/2 + 0 + 0.5*(0.8+1)/2},
	})
}

func TestAUCScoresMannWhitney(t *testing.T) {
	cases := []struct {
		name   string
		scores []float64
		y      []bool
		want   float64
	}{
		{"separated", []float64{0.9, 0.8, 0.1, 0.2}, []bool{true, true, false, false}, 1},
		{"reversed", []float64{0.1, 0.2, 0.9, 0.8}, []bool{true, true, false, false}, 0},
		{"all tied count half", []float64{0.5, 0.5, 0.5}, []bool{true, false, false}, 0.5},
		// pos {0.8, 0.5}, neg {0.5, 0.2}: pairs 0.8>0.5, 0.8>0.2, 0.5=0.5 (½), 0.5>0.2 → 3.5/4.
		{"one tie", []float64{0.8, 0.5, 0.5, 0.2}, []bool{true, true, false, false}, 3.5 / 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := AUCScores(c.scores, c.y); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("got %g, want %g", got, c.want)
			}
		})
	}
	if !math.IsNaN(AUCScores([]float64{1, 2}, []bool{true, true})) {
		t.Error("one class: want NaN")
	}
}

func TestROCPoint(t *testing.T) {
	p := ROCPoint([]float64{0.9, 0.5, 0.6, 0.1, 0.7}, []bool{true, true, false, false, false})
	// Decisions > 0.5: TP 1 of 2 (0.5 is not above), FP 2 of 3.
	if p.TPR != 0.5 || math.Abs(p.FPR-2.0/3) > 1e-15 {
		t.Errorf("got %+v", p)
	}
}

func TestMeanStd(t *testing.T) {
	m, s := meanStd([]float64{1, 2, 3, 4})
	if m != 2.5 || math.Abs(s-math.Sqrt(5.0/3)) > 1e-15 {
		t.Errorf("got %g %g", m, s)
	}
	if m, s := meanStd([]float64{7}); m != 7 || s != 0 {
		t.Errorf("one value: %g %g", m, s)
	}
}

func TestAUCHullKnownROCs(t *testing.T) {
	checkAUC(t, "AUCHull", AUCHull, []aucCase{
		{"no points: the diagonal", nil, 0.5},
		{"perfect", []Point{{0, 1}}, 1},
		{"below the diagonal adds nothing", []Point{{0.6, 0.3}}, 0.5},
		{"on the diagonal", []Point{{0.5, 0.5}}, 0.5},
		{"convex sweep equals the polyline", []Point{{0.5, 0.9}, {0.1, 0.5}}, 0.1*0.5/2 + 0.4*(0.5+0.9)/2 + 0.5*(0.9+1)/2},
		// The polyline dips to (0.3, 0.4); the hull skips it.
		{"dip skipped", []Point{{0.2, 0.6}, {0.3, 0.4}}, 0.2*0.6/2 + 0.8*(0.6+1)/2},
		// Monotone but concave at (0.1, 0.2): the hull goes from (0,0)
		// straight to (0.2, 0.8).
		{"concave corner skipped", []Point{{0.1, 0.2}, {0.2, 0.8}}, 0.2*0.8/2 + 0.8*(0.8+1)/2},
		{"ties in FPR keep the highest TPR", []Point{{0.5, 0.2}, {0.5, 0.8}}, 0.5*0.8/2 + 0.5*(0.8+1)/2},
		{"collinear points", []Point{{0.25, 0.5}, {0.5, 1}}, 0.5*1/2 + 0.5},
	})
}

func TestAUCHullBoundsPolyline(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		pts := make([]Point, 1+rng.IntN(10))
		for i := range pts {
			pts[i] = Point{rng.Float64(), rng.Float64()}
		}
		h, p := AUCHull(pts), AUCPoints(pts)
		if h < p-1e-12 || h < 0.5-1e-12 || h > 1+1e-12 {
			t.Fatalf("%v: hull %g, polyline %g: want max(½, polyline) ≤ hull ≤ 1", pts, h, p)
		}
		// Adding a hull vertex's own points again changes nothing.
		if h2 := AUCHull(append(pts, pts...)); math.Abs(h2-h) > 1e-12 {
			t.Fatalf("%v: duplicated points give %g, want %g", pts, h2, h)
		}
	}
}

// TestAUCScoresNaN: a NaN score has no rank; the AUC is NaN, and computing
// it ends (the grouping of tied scores once never advanced past a NaN).
func TestAUCScoresNaN(t *testing.T) {
	if a := AUCScores([]float64{0.1, math.NaN(), 0.9}, []bool{false, true, true}); !math.IsNaN(a) {
		t.Errorf("AUC with a NaN score = %v, want NaN", a)
	}
}
