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
// them (a diagonal start, then rank-one updates), and on adversarial
// values: huge and tiny magnitudes, subnormals, signed zeros, infinities
// and the processor's NaN (nbEdgeState).

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

// cholUpdateCase is one update of cholUpdateTest: a factor of d columns,
// x, and the column from which x is not zero.
type cholUpdateCase struct {
	mode    string
	d, from int
	l, x    []float64
}

// cholUpdateCases returns the updates of cholUpdate's test for d columns:
// real factors and vectors, some scaled out of hypotLimit's range so that
// some rotations need hypot, and adversarial values.
func cholUpdateCases(rng *rand.Rand, d int) []cholUpdateCase {
	var cases []cholUpdateCase
	for trial := range 24 {
		c := cholUpdateCase{mode: "real", d: d, l: cholRealFactor(rng, d), x: cholRealX(rng, d)}
		switch trial % 4 {
		case 1: // huge or tiny entries of x here and there: hypot
			c.mode = "real, out of range"
			for j := range c.x {
				if rng.IntN(4) == 0 {
					c.x[j] *= []float64{1e160, 1e-160, 1e300, 1e-300}[rng.IntN(4)]
				}
			}
		case 2:
			c.mode = "edge"
			c.l, c.x = cholEdgeSlice(rng, packedLen(d)), cholEdgeSlice(rng, d)
		}
		if d > 0 && trial%3 == 0 {
			c.from = rng.IntN(d + 1)
			clear(c.x[:c.from])
		}
		cases = append(cases, c)
	}
	return cases
}

// cholSameBits is nbSameBits with any NaN equal to any other if the Go
// results want hold a NaN. A NaN (from Inf − Inf after an overflow, or
// in the state) makes cholUpdate take hypot, whose max (Go's) gives it a
// payload of its own; two NaNs of different payloads meeting in one
// operation give one of them, which one depending on the order of the
// operands that the compiler chose (arm64's rule differs too). Results
// without NaN must have all the same bits.
func cholSameBits(got, want []float64) int {
	anyNaN := slices.ContainsFunc(want, math.IsNaN)
	for j := range got {
		a, b := got[j], want[j]
		if math.Float64bits(a) != math.Float64bits(b) && !(anyNaN && a != a && b != b) {
			return j
		}
	}
	return -1
}

func TestCholUpdateSSE2MatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 3))
	for d := 0; d <= 70; d++ {
		for i, c := range cholUpdateCases(rng, d) {
			l, x := slices.Clone(c.l), slices.Clone(c.x)
			cholUpdate(c.l, d, c.x, c.from)
			cholUpdateGo(l, d, x, c.from)
			for s, p := range [][2][]float64{{c.l, l}, {c.x, x}} {
				if j := cholSameBits(p[0], p[1]); j >= 0 {
					t.Fatalf("d=%d %s case %d from %d: %s[%d] = %v (%#x), Go %v (%#x)", d, c.mode, i, c.from,
						[]string{"l", "x"}[s], j, p[0][j], math.Float64bits(p[0][j]), p[1][j], math.Float64bits(p[1][j]))
				}
			}
		}
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
