package classifier

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// Naive Bayes tests; the properties every learner shares are in
// learner_test.go, the helpers in learner_helpers_test.go.

// nbVar is the variance nb uses for feature j of class c (floored).
func nbVar(n *nb, c, j int) float64 {
	if n.dirty[c] {
		n.refresh(c)
	}
	return 0.5 / n.half[c][j]
}

func TestNBMatchesBatch(t *testing.T) {
	tests := []struct {
		name string
		beta float64
	}{
		{"no forgetting", 1},
		{"forgetting 0.99", 0.99},
		{"forgetting 0.9", 0.9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const d = 5
			rng := rand.New(rand.NewPCG(1, 2))
			ex := lrnGaussians(rng, 400, d, 0.3, 2, 1, 1.5, true)
			n := newNB(d, tt.beta)
			lrnTrain(n, ex)
			for c, positive := range []bool{false, true} {
				b := lrnBatchStats(ex, d, tt.beta, positive)
				if e := lrnRelErr(n.pw[c], b.w, b.w); e > 1e-15 {
					t.Errorf("class %d: prior weight W = %v, batch %v (rel err %g)", c, n.pw[c], b.w, e)
				}
				if e := lrnRelErr(n.t[c], b.t, b.t); e > 1e-12 {
					t.Errorf("class %d: T = %v, batch %v (rel err %g)", c, n.t[c], b.t, e)
				}
				for j := range d {
					v := b.s.At(j, j) / b.t
					if e := lrnRelErr(n.mu[c][j], b.mu[j], math.Sqrt(v)); e > 1e-12 {
						t.Errorf("class %d feature %d: mean %v, batch %v (err %g σ)", c, j, n.mu[c][j], b.mu[j], e)
					}
					if e := lrnRelErr(n.v[c][j], v, v); e > 1e-11 {
						t.Errorf("class %d feature %d: variance %v, batch %v (rel err %g)", c, j, n.v[c][j], v, e)
					}
					// The variance used is the ML variance: the floor does
					// not bind on well-conditioned data.
					u := n.v[c][j]
					if got := nbVar(n, c, j); lrnRelErr(got, u, u) > 4e-16 {
						t.Errorf("class %d feature %d: variance used %v, want %v", c, j, got, u)
					}
				}
			}
		})
	}
}

func TestNBLogOddsMatchesReference(t *testing.T) {
	const d = 6
	rng := rand.New(rand.NewPCG(3, 4))
	ex := lrnGaussians(rng, 500, d, 0.4, 1.5, 0.8, 1.3, true)
	n := newNB(d, 1)
	lrnTrain(n, ex)
	bp, bn := lrnBatchStats(ex, d, 1, true), lrnBatchStats(ex, d, 1, false)
	for _, x := range lrnProbes(rng, 50, d, 1) {
		want := math.Log(bp.w) - math.Log(bn.w)
		for j := range d {
			want += distuv.Normal{Mu: bp.mu[j], Sigma: math.Sqrt(bp.s.At(j, j) / bp.t)}.LogProb(x[j])
			want -= distuv.Normal{Mu: bn.mu[j], Sigma: math.Sqrt(bn.s.At(j, j) / bn.t)}.LogProb(x[j])
		}
		if got := n.logOdds(x); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-10 {
			t.Errorf("logOdds(%v) = %v, reference %v", x, got, want)
		}
	}
}

// TestNBFloor shows what the variance floor does to a feature that is
// constant within a class, to a feature that is 0 throughout, and to a
// class seen once.
func TestNBFloor(t *testing.T) {
	n := newNB(3, 1)
	for i := range 10 {
		n.learn([]float64{1e3, 0, float64(i)}, true, 1)
		n.learn([]float64{100 * float64(i), 5 * float64(i), float64(i)}, false, 1)
	}
	once := newNB(3, 1)
	once.learn([]float64{7, 0, -7}, false, 1)
	tests := []struct {
		name string
		n    *nb
		c, j int
		want float64
	}{
		{"constant feature: 1e-9 of its square", n, clsPos, 0, 1e-9*1e6 + 1e-18*1e6 + 1e-100},
		{"zero feature: 1e-18 of the class's largest second moment", n, clsPos, 1, 1e-18*1e6 + 1e-100},
		{"varying feature: its variance", n, clsPos, 2, 8.25},
		{"class seen once: relative to each value", once, clsNeg, 0, 1e-9*49 + 1e-18*49 + 1e-100},
		{"class seen once: zero value", once, clsNeg, 1, 1e-18*49 + 1e-100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nbVar(tt.n, tt.c, tt.j); lrnRelErr(got, tt.want, tt.want) > 1e-12 {
				t.Errorf("variance = %g, want %g", got, tt.want)
			}
		})
	}
	// Leaving the positives' constant by 1 (1/√1e-3 ≈ 32 of its floored
	// standard deviations) is decisive but finite: ½·1/1e-3 = 500 nats.
	if lo := n.logOdds([]float64{1e3 + 1, 0, 5}); math.IsInf(lo, 0) || math.IsNaN(lo) || lo > -400 || lo < -600 {
		t.Errorf("logOdds off the constant = %v, want about -500", lo)
	}
}

func TestNBCachedLogDeterminant(t *testing.T) {
	// The cached ½Σ log var_j (one detmath.Log, see logSum) equals the plain
	// sum of logarithms it replaces, over variances spanning 14 decades.
	rng := rand.New(rand.NewPCG(5, 6))
	n := newNB(36, 1)
	lrnTrain(n, lrnGaussians(rng, 100, 36, 0.5, 1, 1e-3, 1e4, true))
	var half float64
	for j := range 36 {
		half += 0.5*math.Log(nbVar(n, clsNeg, j)) - 0.5*math.Log(nbVar(n, clsPos, j))
	}
	want := math.Log(n.pw[clsPos]) - math.Log(n.pw[clsNeg]) + half
	if got := n.constant(); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-14 {
		t.Errorf("constant = %v, want %v", got, want)
	}
	// A subnormal prior weight (the ensemble's cost weights can be tiny)
	// is split exactly too.
	n.pw[clsPos] = 1e-310
	want = lrnLog(1e-310) - math.Log(n.pw[clsNeg]) + half
	if got := n.constant(); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-14 {
		t.Errorf("constant with a subnormal weight = %v, want %v", got, want)
	}
}

// TestNBIncrementalCacheMatchesRebuild checks that the cache of the class
// that learned, prepared from the second moments learn computed in its
// pass, is bit for bit the cache rebuilt from the statistics alone (as
// after a checkpoint is loaded), with and without forgetting.
func TestNBIncrementalCacheMatchesRebuild(t *testing.T) {
	for _, beta := range []float64{1, 0.9} {
		rng := rand.New(rand.NewPCG(7, 8))
		n := newNB(5, beta)
		x := make([]float64, 5)
		for i := 0; i < 200; i++ {
			for j := range x {
				x[j] = rng.NormFloat64() * float64(j+1) * 1e3
			}
			if i%7 == 3 {
				x[2] = 0
			}
			c := i % 3 / 2
			n.learn(x, c == clsPos, float64(1+i%3))
			if !n.sready[c] {
				t.Fatalf("β=%g example %d: learn left no second moments for class %d", beta, i, c)
			}
			n.refresh(c)
			inc := append([]float64(nil), n.half[c]...)
			pm, pe, px := n.pm[c], n.pe[c], n.px[c]
			n.refresh(c) // sready is now false: a full rebuild
			for j := range inc {
				if math.Float64bits(inc[j]) != math.Float64bits(n.half[c][j]) {
					t.Fatalf("β=%g example %d feature %d: incremental ½/u = %v, rebuilt %v", beta, i, j, inc[j], n.half[c][j])
				}
			}
			if pm != n.pm[c] || pe != n.pe[c] || px != n.px[c] {
				t.Fatalf("β=%g example %d: product parts differ", beta, i)
			}
		}
	}
}

// TestNBFusedRefreshMatches checks that logOdds right after a learn, which
// refreshes the stale class in the same pass as the log-odds
// (refreshOdds), gives the bits and the caches of prepare followed by
// logOddsShared, for odd and even dimensions.
func TestNBFusedRefreshMatches(t *testing.T) {
	for _, d := range []int{1, 4, 7} {
		rng := rand.New(rand.NewPCG(9, uint64(d)))
		a, b := newNB(d, 0.95), newNB(d, 0.95)
		x := make([]float64, d)
		for i := 0; i < 300; i++ {
			for j := range x {
				x[j] = rng.NormFloat64() * float64(j+1)
			}
			pos := i%4 == 1
			a.learn(x, pos, 2)
			b.learn(x, pos, 2)
			if i < 2 {
				continue // one class unseen
			}
			got := a.logOdds(x)
			b.prepare()
			want := b.logOddsShared(x, nil)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("d=%d example %d: fused %v, prepare then pass %v", d, i, got, want)
			}
			for c := range 2 {
				for j := range a.half[c] {
					if math.Float64bits(a.half[c][j]) != math.Float64bits(b.half[c][j]) {
						t.Fatalf("d=%d example %d: caches differ", d, i)
					}
				}
			}
		}
	}
}

func TestFrexpMatchesMath(t *testing.T) {
	for _, x := range []float64{1, -1, 0.75, 3e-300, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022, 0, math.Inf(1), math.NaN(), -2.5e-310} {
		fm, fe := frexp(x)
		wm, we := math.Frexp(x)
		if math.Float64bits(fm) != math.Float64bits(wm) && !(math.IsNaN(fm) && math.IsNaN(wm)) || fe != we {
			t.Errorf("frexp(%g) = %v, %d; math.Frexp %v, %d", x, fm, fe, wm, we)
		}
	}
}

// TestNBPredictWithoutLog checks that predict, which decides most signs
// without computing the log-odds' constant, always agrees with
// logOdds(x) > 0: after every update of a stream, at random points and at
// points within a few ulps of the decision boundary (found by bisection
// along a line), where it must fall back to the exact constant. It also
// checks that the shortcut is taken (the constant left uncomputed) for a
// point far from the boundary.
func TestNBPredictWithoutLog(t *testing.T) {
	const d = 5
	rng := rand.New(rand.NewPCG(21, 22))
	fast := newNB(d, 0.95)
	exact := newNB(d, 0.95)
	ex := lrnGaussians(rng, 400, d, 0.3, 1, 0.7, 1.3, true)
	x := make([]float64, d)
	far := make([]float64, d)
	boundary := 0
	for i, e := range ex {
		fast.learn(e.x, e.positive, e.w)
		exact.learn(e.x, e.positive, e.w)
		if i < 20 {
			continue
		}
		// Random points, then bisection on the segment between μ− and μ+.
		for k := 0; k < 4; k++ {
			for j := range x {
				x[j] = rng.NormFloat64() * 2
			}
			if p, q := fast.predict(x), exact.logOdds(x) > 0; p != q {
				t.Fatalf("example %d: predict %v, logOdds %v", i, p, exact.logOdds(x))
			}
		}
		lo, hi := 0.0, 1.0
		point := func(s float64) []float64 {
			for j := range x {
				x[j] = exact.mu[clsNeg][j] + s*(exact.mu[clsPos][j]-exact.mu[clsNeg][j])
			}
			return x
		}
		if (exact.logOdds(point(lo)) > 0) == (exact.logOdds(point(hi)) > 0) {
			continue
		}
		for k := 0; k < 60; k++ {
			mid := (lo + hi) / 2
			if (exact.logOdds(point(mid)) > 0) == (exact.logOdds(point(lo)) > 0) {
				lo = mid
			} else {
				hi = mid
			}
		}
		for _, s := range []float64{lo, hi, math.Nextafter(lo, -1), math.Nextafter(hi, 2)} {
			fast.c0ok = false // as after a change: predict starts without the constant
			if p, q := fast.predict(point(s)), exact.logOdds(point(s)) > 0; p != q {
				t.Fatalf("example %d at the boundary (s = %v): predict %v, logOdds %v", i, s, p, exact.logOdds(x))
			}
			boundary++
		}
	}
	if boundary == 0 {
		t.Fatal("no boundary point was tested")
	}
	for j := range far {
		far[j] = fast.mu[clsPos][j] + 20
	}
	fast.learn(far, true, 1)
	if !fast.predict(far) || fast.c0ok {
		t.Errorf("far positive: predict %v, constant computed %v; want true without the constant", fast.predict(far), fast.c0ok)
	}
}
