//go:build !purego

package classifier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// The SSE2 and AVX loops (nb_amd64.s), each called by name, and the
// dispatch between them, against the Go loops they replace, bit for
// bit, on random states and inputs that include what the learner can
// meet at its edges: variances at the floor, huge and tiny values,
// subnormals, signed zeros, infinities and NaNs in the state (the values
// overflow makes), ties of the maximum. The inputs x are finite, as
// checkInput makes them.

// nbProcNaN is the NaN the processor makes (Inf − Inf), the only one the
// state can hold: x is never NaN.
var nbProcNaN = func() float64 { inf := math.Inf(1); return inf - inf }()

// nbEdgeValue returns a finite value drawn from a mix of magnitudes, both
// signs, zeros and subnormals.
func nbEdgeValue(rng *rand.Rand) float64 {
	sign := 1.0
	if rng.IntN(2) == 0 {
		sign = -1
	}
	switch rng.IntN(12) {
	case 0:
		return math.Copysign(0, sign)
	case 1: // subnormal
		return sign * math.Float64frombits(1+rng.Uint64N(1<<52-1))
	case 2: // huge, up to MaxFloat64
		return sign * math.Ldexp(1+rng.Float64(), 960+rng.IntN(64))
	case 3: // tiny normal
		return sign * math.Ldexp(1+rng.Float64(), -1022+rng.IntN(64))
	case 4:
		return sign * []float64{math.MaxFloat64, 0x1p-1022, math.SmallestNonzeroFloat64, 1, 0.5}[rng.IntN(5)]
	case 5: // a small set, so that values repeat (ties)
		return float64(rng.IntN(3))
	default:
		return sign * rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
	}
}

// nbEdgeState returns a value for the state: nbEdgeValue, not negative
// when nonNeg (variances, second moments), now and then infinite or NaN.
func nbEdgeState(rng *rand.Rand, nonNeg bool) float64 {
	var v float64
	switch rng.IntN(60) {
	case 0:
		v = math.Inf(1)
	case 1:
		v = nbProcNaN
	default:
		v = nbEdgeValue(rng)
	}
	if nonNeg && v < 0 {
		v = -v
	}
	return v
}

// nbEdgeSlices returns k slices of d values from gen.
func nbEdgeSlices(k, d int, gen func() float64) [][]float64 {
	s := make([][]float64, k)
	for i := range s {
		s[i] = make([]float64, d)
		for j := range s[i] {
			s[i][j] = gen()
		}
	}
	return s
}

// nbSameBits reports the first index where a and b differ in their bits,
// or -1.
func nbSameBits(a, b []float64) int {
	for j := range a {
		if math.Float64bits(a[j]) != math.Float64bits(b[j]) {
			return j
		}
	}
	return -1
}

// nbEdgeModes gives the random states of the tests below: all values
// drawn at the edges, all ordinary ones, or ordinary ones with the
// variances at 0 (the floor binds).
var nbEdgeModes = []string{"edge", "ordinary", "floor"}

// nbEdgeGen returns the generators of inputs and of state values (the
// latter not negative when asked) for mode.
func nbEdgeGen(rng *rand.Rand, mode string) (x func() float64, st func(nonNeg bool) float64) {
	ordinary := func() float64 { return rng.NormFloat64() * 3 }
	switch mode {
	case "edge":
		return func() float64 { return nbEdgeValue(rng) }, func(nonNeg bool) float64 { return nbEdgeState(rng, nonNeg) }
	case "floor":
		return ordinary, func(nonNeg bool) float64 {
			if nonNeg {
				return 0
			}
			return ordinary()
		}
	}
	return ordinary, func(nonNeg bool) float64 {
		if v := ordinary(); nonNeg {
			return math.Abs(v)
		} else {
			return v
		}
	}
}

// nbEdgeCase is one random case of the tests below: d inputs x and a
// generator of state values.
type nbEdgeCase struct {
	d, trial int
	mode     string
	x        []float64
	rng      *rand.Rand
	gen      func(nonNeg bool) float64
}

func (c nbEdgeCase) String() string { return fmt.Sprintf("d=%d %s trial %d", c.d, c.mode, c.trial) }

// state returns k slices of d state values, not negative when nonNeg.
func (c nbEdgeCase) state(k int, nonNeg bool) [][]float64 {
	return nbEdgeSlices(k, c.d, func() float64 { return c.gen(nonNeg) })
}

// nbEachEdgeCase calls f with 150 cases of every mode for d = 0 … 70,
// drawn from a generator seeded with seed.
func nbEachEdgeCase(seed uint64, f func(c nbEdgeCase)) {
	rng := rand.New(rand.NewPCG(18, seed))
	for d := 0; d <= 70; d++ {
		for _, mode := range nbEdgeModes {
			gx, gs := nbEdgeGen(rng, mode)
			for trial := range 150 {
				f(nbEdgeCase{d: d, trial: trial, mode: mode, x: nbEdgeSlices(1, d, gx)[0], rng: rng, gen: gs})
			}
		}
	}
}

func TestNBLearnSSE2MatchesGo(t *testing.T) {
	nbEachEdgeCase(3, func(c nbEdgeCase) {
		x, st := c.x, c.state(3, false)
		st[1] = c.state(1, true)[0] // variances
		if c.trial%5 == 0 {
			copy(x, st[0]) // δ = 0: the moments repeat (ties)
		}
		a := c.rng.Float64()
		r := 1 - a
		if c.trial%7 == 0 {
			a, r = 1, 0
		}
		smGo := slices.Clone(st[2])
		muGo, vGo := slices.Clone(st[0]), slices.Clone(st[1])
		want := nbLearnStepGo(x, muGo, vGo, smGo, a, r)
		for _, k := range nbLearnKernels(t) {
			mu, v, sm := slices.Clone(st[0]), slices.Clone(st[1]), slices.Clone(st[2])
			got := k.run(x, mu, v, sm, a, r)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%v: %s m2max %v (%#x), Go %v (%#x)", c, k.name, got, math.Float64bits(got), want, math.Float64bits(want))
			}
			for i, p := range [][2][]float64{{mu, muGo}, {v, vGo}, {sm, smGo}} {
				if j := nbSameBits(p[0], p[1]); j >= 0 {
					t.Fatalf("%v: %s slice %d [%d] = %v, Go %v", c, k.name, i, j, p[0][j], p[1][j])
				}
			}
		}
	})
}

// nbLearnKernel is one version of learn's loop under test.
type nbLearnKernel struct {
	name string
	run  func(x, mu, v, sm []float64, a, r float64) float64
}

// nbLearnKernels returns the dispatch and each assembly version that
// runs here (AVX only where the processor has it), by name.
func nbLearnKernels(t *testing.T) []nbLearnKernel {
	asm := func(f func(x, mu, v, sm *float64, n int, a, r float64) float64) func(x, mu, v, sm []float64, a, r float64) float64 {
		return func(x, mu, v, sm []float64, a, r float64) float64 {
			return f(unsafe.SliceData(x), unsafe.SliceData(mu), unsafe.SliceData(v), unsafe.SliceData(sm), len(x), a, r)
		}
	}
	ks := []nbLearnKernel{{"dispatched", nbLearnStep}, {"SSE2", asm(nbLearnSSE2)}}
	if !useAVX {
		t.Log("no AVX here: the AVX loop is not checked")
		return ks
	}
	return append(ks, nbLearnKernel{"AVX", asm(nbLearnAVX)})
}

// TestNBQuadSSE2MatchesGo holds both assembly versions of quad, SSE2 and
// (where the processor has it) AVX, and the dispatch to the Go loop.
func TestNBQuadSSE2MatchesGo(t *testing.T) {
	kernels := []struct {
		name string
		f    func(x, mp, mn, hp, hn *float64, n int) float64
	}{{"SSE2", nbQuadSSE2}, {"AVX", nbQuadAVX}}
	if !useAVX {
		t.Log("no AVX here: only the SSE2 loop is checked")
		kernels = kernels[:1]
	}
	nbEachEdgeCase(1, func(c nbEdgeCase) {
		mu, h := c.state(2, false), c.state(2, true)
		want := nbQuadGo(c.x, mu[0], mu[1], h[0], h[1])
		check := func(name string, got float64) {
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%v: %s quad %v (%#x), Go %v (%#x)", c, name, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		}
		check("dispatched", nbQuad(c.x, mu[0], mu[1], h[0], h[1]))
		for _, k := range kernels {
			check(k.name, k.f(unsafe.SliceData(c.x), unsafe.SliceData(mu[0]), unsafe.SliceData(mu[1]),
				unsafe.SliceData(h[0]), unsafe.SliceData(h[1]), c.d))
		}
	})
}

func TestNBRefreshOddsSSE2MatchesGo(t *testing.T) {
	// Each version under test, on x and the state s (mp, mn, hp, hn, v)
	// with half = s[k].
	type kernel func(x []float64, s [][]float64, k int, base float64) (q, m float64, eb uint64, bad bool)
	asm := func(f func(x, mp, mn, hp, hn, v, half *float64, n int, base float64) (float64, float64, uint64, bool)) kernel {
		return func(x []float64, s [][]float64, k int, base float64) (float64, float64, uint64, bool) {
			p := func(i int) *float64 { return unsafe.SliceData(s[i]) }
			return f(unsafe.SliceData(x), p(0), p(1), p(2), p(3), p(4), p(k), len(x), base)
		}
	}
	kernels := []struct {
		name string
		run  kernel
	}{
		{"dispatched", func(x []float64, s [][]float64, k int, base float64) (float64, float64, uint64, bool) {
			return nbRefreshOddsStep(x, s[0], s[1], s[2], s[3], s[4], s[k], base)
		}},
		{"SSE2", asm(nbRefreshOddsSSE2)},
		{"AVX", asm(nbRefreshOddsAVX)},
	}
	if !useAVX {
		t.Log("no AVX here: the AVX loop is not checked")
		kernels = kernels[:2]
	}
	var seen [2]int // cases with bad false and true
	nbEachEdgeCase(2, func(c nbEdgeCase) {
		// mp, mn, then hp, hn (second moments or caches) and v.
		st := append(c.state(2, false), c.state(3, true)...)
		base := float64(nbFloorCls*c.gen(true)) + nbFloorAbs
		if c.trial%3 == 0 {
			// Some variances exactly at their floor.
			for j := 0; j < c.d; j += 3 {
				st[4][j] = float64(nbFloorRel*st[2][j]) + base
			}
		}
		// The class refreshed is the positive one (half is hp) or the
		// negative one (hn).
		k := 2 + c.trial%2
		clone := func() [][]float64 {
			cl := make([][]float64, len(st))
			for i := range st {
				cl[i] = slices.Clone(st[i])
			}
			return cl
		}
		goSt := clone()
		wq, wm, web, wbad := nbRefreshOddsStepGo(c.x, goSt[0], goSt[1], goSt[2], goSt[3], goSt[4], goSt[k], base)
		for _, kn := range kernels {
			s := clone()
			q, m, eb, bad := kn.run(c.x, s, k, base)
			if math.Float64bits(q) != math.Float64bits(wq) || math.Float64bits(m) != math.Float64bits(wm) || eb != web || bad != wbad {
				t.Fatalf("%v half %d: %s (q, m, eb, bad) = (%v, %v, %d, %v), Go (%v, %v, %d, %v)",
					c, k, kn.name, q, m, eb, bad, wq, wm, web, wbad)
			}
			if j := nbSameBits(s[k], goSt[k]); j >= 0 {
				t.Fatalf("%v half %d: %s [%d] = %v, Go %v", c, k, kn.name, j, s[k][j], goSt[k][j])
			}
		}
		if c.d > 0 && wbad {
			seen[1]++
		} else if c.d > 0 {
			seen[0]++
		}
	})
	if seen[0] == 0 || seen[1] == 0 {
		t.Errorf("cases with a term that is not a positive normal number: %d, without: %d; want both", seen[1], seen[0])
	}
}

// TestNBLearnSSE2Maximum checks the maximum of the second moments where
// the order of comparison could show: ties, zeros of either sign, NaN and
// infinite moments, the largest in either lane or in the odd last feature.
// With a = 1 and r = 0 the means move to x and the variances to 0, so the
// moments are x², or NaN where x − μ is Inf − Inf.
func TestNBLearnSSE2Maximum(t *testing.T) {
	inf := math.Inf(1)
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name string
		x    []float64
		mu   []float64 // nil: zeros
		want float64
	}{
		{"all zero", []float64{0, 0, 0, 0, 0}, nil, 0},
		{"negative zeros", []float64{negZero, negZero, negZero}, []float64{negZero, negZero, negZero}, 0},
		{"ties in both lanes", []float64{2, -2, 2, -2}, nil, 4},
		{"tie with the odd last", []float64{1, 3, 1, 2, -3}, nil, 9},
		{"largest in the even lane", []float64{5, 1, 1, 1}, nil, 25},
		{"largest in the odd lane", []float64{1, 5, 1, 1}, nil, 25},
		{"largest last", []float64{1, 1, 1, 1, 7}, nil, 49},
		{"overflow to Inf", []float64{1, 1e200, 1}, []float64{0, 1e200, 0}, inf},
		{"overflow of a·δ² makes a NaN variance", []float64{1e200, 1, 1}, nil, 1},
		{"NaN moments are skipped", []float64{1e308, 2, -1e308, 3, 1}, []float64{-1e308, 0, 1e308, 0, 0}, 9},
		{"only NaN moments", []float64{1e308}, []float64{-1e308}, 0},
		// Four lanes (AVX), then a pair and an odd last feature.
		{"largest in the third of four lanes", []float64{1, 1, 6, 1, 1, 1}, nil, 36},
		{"largest in the fourth lane", []float64{1, 1, 1, 8, 2, 2, 3}, nil, 64},
		{"largest in the pair after the fours", []float64{1, 1, 1, 1, 2, 9, 3}, nil, 81},
		{"NaN moments in the four lanes are skipped", []float64{1e308, 1, -1e308, 1e308, 2, 1, 1}, []float64{-1e308, 0, 1e308, -1e308, 0, 0, 0}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := len(tt.x)
			mu := make([]float64, d)
			if tt.mu != nil {
				copy(mu, tt.mu)
			}
			muGo, vGo, smGo := slices.Clone(mu), make([]float64, d), make([]float64, d)
			want := nbLearnStepGo(tt.x, muGo, vGo, smGo, 1, 0)
			if math.Float64bits(want) != math.Float64bits(tt.want) {
				t.Fatalf("Go loop: m2max %v, want %v", want, tt.want)
			}
			for _, k := range nbLearnKernels(t) {
				sm := make([]float64, d)
				got := k.run(tt.x, slices.Clone(mu), make([]float64, d), sm, 1, 0)
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("%s: m2max %v (%#x), Go %v (%#x)", k.name, got, math.Float64bits(got), want, math.Float64bits(want))
				}
				if j := nbSameBits(sm, smGo); j >= 0 {
					t.Errorf("%s: second moment [%d] = %v, Go %v", k.name, j, sm[j], smGo[j])
				}
			}
		})
	}
}
