//go:build !purego

package classifier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The SSE2 loops (cholesky_amd64.s) against the Go loops they replace, bit
// for bit, for d = 0 … 70: on valid factors built as the learners build
// them (a diagonal start, then rank-one updates) with the rotations that
// cholUpdate would apply to them, and on adversarial values: huge and tiny
// magnitudes, subnormals, signed zeros, infinities and the processor's NaN
// (nbEdgeState).

// cholRealFactor returns a valid packed factor of d columns, from a
// diagonal with entries spread over orders of magnitude and rank-one
// updates along vectors with zeros, some starting below the top.
func cholRealFactor(rng *rand.Rand, d int) []float64 {
	l := make([]float64, packedLen(d))
	a := make([]float64, d)
	scale := make([]float64, d)
	for j := range a {
		scale[j] = math.Exp(rng.NormFloat64() * 3)
		a[j] = scale[j] * scale[j] * (0.01 + rng.Float64())
	}
	setDiag(l, d, a)
	x := make([]float64, d)
	for range d/2 + 3 {
		from := 0
		if d > 0 && rng.IntN(4) == 0 {
			from = rng.IntN(d)
		}
		for j := range x {
			x[j] = 0
			if j >= from && rng.IntN(5) != 0 {
				x[j] = rng.NormFloat64() * scale[j]
			}
		}
		cholUpdate(l, d, x, from)
	}
	if !cholValid(l, d) {
		panic(fmt.Sprintf("d=%d: the factor built is not valid", d))
	}
	return l
}

// cholEdgeSlice returns n adversarial values (nbEdgeState).
func cholEdgeSlice(rng *rand.Rand, n int) []float64 {
	return nbEdgeSlices(1, n, func() float64 { return nbEdgeState(rng, false) })[0]
}

// cholRealX returns d ordinary entries of x, with zeros now and then.
func cholRealX(rng *rand.Rand, d int) []float64 {
	x := make([]float64, d)
	for j := range x {
		if rng.IntN(6) != 0 {
			x[j] = rng.NormFloat64() * math.Exp(rng.NormFloat64()*3)
		}
	}
	return x
}

// cholRotateCase is one call of cholRotate2 (or, with colB nil, of
// cholRotate): its slices and its rotations.
type cholRotateCase struct {
	name           string
	colA, colB, xr []float64
	s, c, ic       float64
	s1, c1, ic1    float64
}

// cholRealRotations returns the calls that cholUpdate makes on a real
// factor of d columns for each column k: rotation k alone on the rows
// below it and, for k < d − 1, rotations k and k+1 on the rows below k+1,
// rotation k+1 made from the x_k+1 that rotation k leaves.
func cholRealRotations(rng *rand.Rand, d int) []cholRotateCase {
	l := cholRealFactor(rng, d)
	x := cholRealX(rng, d)
	var cases []cholRotateCase
	for k := range d {
		if x[k] == 0 {
			continue
		}
		lc, xc := slices.Clone(l), slices.Clone(x)
		c0 := colStart(d, k)
		s, c, ic := rotation(lc, c0, xc[k])
		col, xs := lc[c0+1:c0+d-k], xc[k+1:]
		cases = append(cases, cholRotateCase{name: fmt.Sprintf("column %d", k), colA: col, xr: xs, s: s, c: c, ic: ic})
		if k+1 == d {
			continue
		}
		col, xs = slices.Clone(col), slices.Clone(xs)
		cholRotateGo(col[:1], xs[:1], s, c, ic) // the first row, in Go in cholUpdate
		if xs[0] == 0 {
			continue
		}
		c1 := c0 + d - k
		s1, cc1, ic1 := rotation(lc, c1, xs[0])
		cases = append(cases, cholRotateCase{name: fmt.Sprintf("columns %d, %d", k, k+1),
			colA: col[1:], colB: lc[c1+1 : c1+d-k-1], xr: xs[1:], s: s, c: c, ic: ic, s1: s1, c1: cc1, ic1: ic1})
	}
	return cases
}

// cholEdgeRotations returns a call of cholRotate and one of cholRotate2 on
// n rows of adversarial values.
func cholEdgeRotations(rng *rand.Rand, n int) []cholRotateCase {
	r := cholEdgeSlice(rng, 6)
	return []cholRotateCase{
		{name: "edge", colA: cholEdgeSlice(rng, n), xr: cholEdgeSlice(rng, n), s: r[0], c: r[1], ic: r[2]},
		{name: "edge pair", colA: cholEdgeSlice(rng, n), colB: cholEdgeSlice(rng, n), xr: cholEdgeSlice(rng, n),
			s: r[0], c: r[1], ic: r[2], s1: r[3], c1: r[4], ic1: r[5]},
	}
}

func TestCholRotateSSE2MatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 3))
	calls := [2]int{} // cases of cholRotate, cholRotate2
	for d := 0; d <= 70; d++ {
		var cases []cholRotateCase
		for range 4 {
			cases = append(cases, cholRealRotations(rng, d)...)
		}
		for range 100 {
			cases = append(cases, cholEdgeRotations(rng, d)...)
		}
		for _, tc := range cases {
			colA, colB, xr := slices.Clone(tc.colA), slices.Clone(tc.colB), slices.Clone(tc.xr)
			if tc.colB == nil {
				calls[0]++
				cholRotate(tc.colA, tc.xr, tc.s, tc.c, tc.ic)
				cholRotateGo(colA, xr, tc.s, tc.c, tc.ic)
			} else {
				calls[1]++
				cholRotate2(tc.colA, tc.colB, tc.xr, tc.s, tc.c, tc.ic, tc.s1, tc.c1, tc.ic1)
				cholRotate2Go(colA, colB, xr, tc.s, tc.c, tc.ic, tc.s1, tc.c1, tc.ic1)
			}
			for i, p := range [][2][]float64{{tc.colA, colA}, {tc.colB, colB}, {tc.xr, xr}} {
				if j := nbSameBits(p[0], p[1]); j >= 0 {
					t.Fatalf("d=%d %s: slice %d (colA, colB, x) [%d] = %v (%#x), Go %v (%#x)",
						d, tc.name, i, j, p[0][j], math.Float64bits(p[0][j]), p[1][j], math.Float64bits(p[1][j]))
				}
			}
		}
	}
	if calls[0] == 0 || calls[1] == 0 {
		t.Errorf("calls of cholRotate %d, of cholRotate2 %d; want both", calls[0], calls[1])
	}
}

func TestForwardSolveRecipSSE2MatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 4))
	for d := 0; d <= 70; d++ {
		for trial := range 60 {
			var l, inv, z []float64
			mode := "real"
			if trial%2 == 0 {
				l = cholRealFactor(rng, d)
				inv = make([]float64, d)
				diagRecip(inv, l, d)
				z = cholRealX(rng, d)
			} else {
				mode = "edge"
				l, inv, z = cholEdgeSlice(rng, packedLen(d)), cholEdgeSlice(rng, d), cholEdgeSlice(rng, d)
			}
			zGo := slices.Clone(z)
			got := forwardSolveRecip(l, inv, d, z)
			want := forwardSolveRecipGo(l, inv, d, zGo)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("d=%d %s trial %d: ‖L⁻¹z‖² %v (%#x), Go %v (%#x)",
					d, mode, trial, got, math.Float64bits(got), want, math.Float64bits(want))
			}
			if j := nbSameBits(z, zGo); j >= 0 {
				t.Fatalf("d=%d %s trial %d: z[%d] = %v (%#x), Go %v (%#x)",
					d, mode, trial, j, z[j], math.Float64bits(z[j]), zGo[j], math.Float64bits(zGo[j]))
			}
		}
	}
}
