//go:build !purego

package classifier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The SSE2 loops (nb_amd64.s) against the Go loops they replace, bit for
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
		mu, v, sm := slices.Clone(st[0]), slices.Clone(st[1]), st[2]
		smGo := slices.Clone(sm)
		want := nbLearnStepGo(x, st[0], st[1], smGo, a, r)
		got := nbLearnStep(x, mu, v, sm, a, r)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%v: m2max %v (%#x), Go %v (%#x)", c, got, math.Float64bits(got), want, math.Float64bits(want))
		}
		for i, p := range [][2][]float64{{mu, st[0]}, {v, st[1]}, {sm, smGo}} {
			if j := nbSameBits(p[0], p[1]); j >= 0 {
				t.Fatalf("%v: slice %d [%d] = %v, Go %v", c, i, j, p[0][j], p[1][j])
			}
		}
	})
}

func TestNBQuadSSE2MatchesGo(t *testing.T) {
	nbEachEdgeCase(1, func(c nbEdgeCase) {
		mu, h := c.state(2, false), c.state(2, true)
		got := nbQuad(c.x, mu[0], mu[1], h[0], h[1])
		want := nbQuadGo(c.x, mu[0], mu[1], h[0], h[1])
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%v: quad %v (%#x), Go %v (%#x)", c, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	})
}

func TestNBRefreshOddsSSE2MatchesGo(t *testing.T) {
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
		goSt := make([][]float64, len(st))
		for i := range st {
			goSt[i] = slices.Clone(st[i])
		}
		q, m, eb, bad := nbRefreshOddsStep(c.x, st[0], st[1], st[2], st[3], st[4], st[k], base)
		wq, wm, web, wbad := nbRefreshOddsStepGo(c.x, goSt[0], goSt[1], goSt[2], goSt[3], goSt[4], goSt[k], base)
		if math.Float64bits(q) != math.Float64bits(wq) || math.Float64bits(m) != math.Float64bits(wm) || eb != web || bad != wbad {
			t.Fatalf("%v half %d: (q, m, eb, bad) = (%v, %v, %d, %v), Go (%v, %v, %d, %v)",
				c, k, q, m, eb, bad, wq, wm, web, wbad)
		}
		if j := nbSameBits(st[k], goSt[k]); j >= 0 {
			t.Fatalf("%v half %d: [%d] = %v, Go %v", c, k, j, st[k][j], goSt[k][j])
		}
		if c.d > 0 && bad {
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := len(tt.x)
			mu := make([]float64, d)
			if tt.mu != nil {
				copy(mu, tt.mu)
			}
			v, sm := make([]float64, d), make([]float64, d)
			muGo, vGo, smGo := slices.Clone(mu), slices.Clone(v), slices.Clone(sm)
			got := nbLearnStep(tt.x, mu, v, sm, 1, 0)
			want := nbLearnStepGo(tt.x, muGo, vGo, smGo, 1, 0)
			if math.Float64bits(want) != math.Float64bits(tt.want) {
				t.Fatalf("Go loop: m2max %v, want %v", want, tt.want)
			}
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("m2max %v (%#x), Go %v (%#x)", got, math.Float64bits(got), want, math.Float64bits(want))
			}
			if j := nbSameBits(sm, smGo); j >= 0 {
				t.Errorf("second moment [%d] = %v, Go %v", j, sm[j], smGo[j])
			}
		})
	}
}
