package paper

import (
	"math"
	"sort"
)

// Point is one (FPR, TPR) point of an ROC.
type Point struct{ FPR, TPR float64 }

// ROCPoint returns the (FPR, TPR) of the decisions score > 0.5 against the
// labels y (true = positive). A class with no example gives rate 0.
func ROCPoint(scores []float64, y []bool) Point {
	return ROCPointAt(scores, y, 0.5)
}

// ROCPointAt is ROCPoint with decisions score > threshold.
func ROCPointAt(scores []float64, y []bool, threshold float64) Point {
	var tp, fp, p, n float64
	for i, s := range scores {
		if y[i] {
			p++
			if s > threshold {
				tp++
			}
		} else {
			n++
			if s > threshold {
				fp++
			}
		}
	}
	var pt Point
	if p > 0 {
		pt.TPR = tp / p
	}
	if n > 0 {
		pt.FPR = fp / n
	}
	return pt
}

// AUCPoints returns the area under the ROC traced by pts: the points are
// sorted by FPR (ties by TPR), (0,0) and (1,1) are added, and the area is
// the sum of trapezoids between consecutive points. The polyline goes
// through every point: a sweep that is not monotone (a setting with a
// higher FPR but a lower TPR than another) makes a dip that lowers the
// area; no convex hull is taken. pts is not modified.
func AUCPoints(pts []Point) float64 {
	all := make([]Point, 0, len(pts)+2)
	all = append(all, Point{0, 0})
	all = append(all, pts...)
	all = append(all, Point{1, 1})
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].FPR != all[j].FPR {
			return all[i].FPR < all[j].FPR
		}
		return all[i].TPR < all[j].TPR
	})
	var a float64
	for i := 1; i < len(all); i++ {
		a += (all[i].FPR - all[i-1].FPR) * (all[i].TPR + all[i-1].TPR) / 2
	}
	return a
}

// AUCScores returns the area under the ROC of continuous scores: the
// Mann–Whitney probability that a random positive scores above a random
// negative, ties counting ½. It is NaN when a class is missing or a
// score is NaN (which has no rank).
func AUCScores(scores []float64, y []bool) float64 {
	for _, s := range scores {
		if math.IsNaN(s) {
			return math.NaN()
		}
	}
	type sv struct {
		s   float64
		pos bool
	}
	v := make([]sv, len(scores))
	for i, s := range scores {
		v[i] = sv{s, y[i]}
	}
	sort.Slice(v, func(i, j int) bool { return v[i].s < v[j].s })
	var negBelow, np, nn, u float64
	for i := 0; i < len(v); {
		j := i
		var tp, tn float64
		for ; j < len(v) && v[j].s == v[i].s; j++ {
			if v[j].pos {
				tp++
			} else {
				tn++
			}
		}
		u += tp * (negBelow + tn/2)
		negBelow += tn
		np += tp
		nn += tn
		i = j
	}
	if np == 0 || nn == 0 {
		return math.NaN()
	}
	return u / (np * nn)
}

// meanStd returns the mean and the sample standard deviation (n−1; 0 for
// one value) of xs.
func meanStd(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	m := s / float64(len(xs))
	if len(xs) == 1 {
		return m, 0
	}
	var q float64
	for _, x := range xs {
		q += (x - m) * (x - m)
	}
	return m, math.Sqrt(q / float64(len(xs)-1))
}

// AUCHull returns the area under the ROC convex hull of pts with (0,0) and
// (1,1) added (Provost & Fawcett): the best ROC reachable by choosing, or
// randomly mixing, the classifiers of a cost sweep. Points below the hull,
// and so every dip of AUCPoints' polyline, add nothing; the area is at
// least ½ and at least AUCPoints(pts). pts is not modified.
func AUCHull(pts []Point) float64 {
	all := make([]Point, 0, len(pts)+2)
	all = append(all, Point{0, 0}, Point{1, 1})
	all = append(all, pts...)
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].FPR != all[j].FPR {
			return all[i].FPR < all[j].FPR
		}
		return all[i].TPR > all[j].TPR // highest TPR first at equal FPR
	})
	// Upper hull by Andrew's monotone chain: drop the last hull point
	// while it lies on or below the segment to the next point.
	hull := make([]Point, 0, len(all))
	for _, p := range all {
		if n := len(hull); n > 0 && hull[n-1].FPR == p.FPR {
			continue // a lower TPR at the same FPR
		}
		for n := len(hull); n >= 2; n = len(hull) {
			a, b := hull[n-2], hull[n-1]
			if (b.FPR-a.FPR)*(p.TPR-a.TPR)-(b.TPR-a.TPR)*(p.FPR-a.FPR) < 0 {
				break // b is strictly above the segment a–p
			}
			hull = hull[:n-1]
		}
		hull = append(hull, p)
	}
	var a float64
	for i := 1; i < len(hull); i++ {
		a += (hull[i].FPR - hull[i-1].FPR) * (hull[i].TPR + hull[i-1].TPR) / 2
	}
	return a
}
