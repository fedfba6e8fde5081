package classifier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// lrnDense returns s·L·Lᵀ for a packed factor.
func lrnDense(l []float64, d int, s float64) *mat.SymDense {
	lt := mat.NewTriDense(d, mat.Lower, nil)
	for k := range d {
		for i := k; i < d; i++ {
			lt.SetTri(i, k, l[colStart(d, k)+i-k])
		}
	}
	a := mat.NewSymDense(d, nil)
	a.SymOuterK(s, lt)
	return a
}

// lrnScatter returns the data scatter held by a factor: s·L·Lᵀ − diag(p).
func lrnScatter(f *covFactor) *mat.SymDense {
	a := lrnDense(f.l, f.d, f.s)
	for j := range f.d {
		a.SetSym(j, j, a.At(j, j)-f.p[j])
	}
	return a
}

// lrnUpper lists the upper triangle of a, row by row.
func lrnUpper(a *mat.SymDense) []float64 {
	n := a.SymmetricDim()
	var out []float64
	for i := range n {
		for j := i; j < n; j++ {
			out = append(out, a.At(i, j))
		}
	}
	return out
}

// lrnPacked packs the lower factor of a gonum Cholesky decomposition.
func lrnPacked(c *mat.Cholesky, d int) []float64 {
	var lt mat.TriDense
	c.LTo(&lt)
	l := make([]float64, packedLen(d))
	for k := range d {
		for i := k; i < d; i++ {
			l[colStart(d, k)+i-k] = lt.At(i, k)
		}
	}
	return l
}

// lrnSPD returns a random symmetric positive definite matrix with
// condition number about cond.
func lrnSPD(rng *rand.Rand, d int, cond float64) *mat.SymDense {
	q := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			q.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(q)
	var o mat.Dense
	qr.QTo(&o)
	a := mat.NewSymDense(d, nil)
	for k := range d {
		ev := math.Pow(cond, -float64(k)/float64(max(d-1, 1)))
		a.SymRankOne(a, ev, o.ColView(k))
	}
	return a
}

func TestPackedLayout(t *testing.T) {
	tests := []struct{ d, k, want int }{
		{1, 0, 0}, {3, 0, 0}, {3, 1, 3}, {3, 2, 5}, {4, 3, 9}, {36, 35, 665},
	}
	for _, tt := range tests {
		if got := colStart(tt.d, tt.k); got != tt.want {
			t.Errorf("colStart(%d, %d) = %d, want %d", tt.d, tt.k, got, tt.want)
		}
	}
	if got := packedLen(36); got != 666 {
		t.Errorf("packedLen(36) = %d, want 666", got)
	}
}

func TestCholUpdateMatchesGonum(t *testing.T) {
	tests := []struct {
		name string
		d    int
		cond float64
		from int     // first nonzero entry of the update vector
		size float64 // magnitude of the update vector
	}{
		{"1x1", 1, 1, 0, 1},
		{"small dense", 3, 10, 0, 1},
		{"d=36 dense", 36, 1e3, 0, 2},
		{"d=36 along e_20", 36, 1e3, 20, 1},
		{"d=36 along e_35", 36, 1e3, 35, 1},
		{"ill-conditioned", 8, 1e10, 0, 1},
		{"tiny update", 8, 10, 0, 1e-9},
		{"large update", 8, 10, 0, 1e4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.d), 1))
			a := lrnSPD(rng, tt.d, tt.cond)
			var c mat.Cholesky
			if !c.Factorize(a) {
				t.Fatal("gonum cannot factorize the test matrix")
			}
			l := lrnPacked(&c, tt.d)
			x := make([]float64, tt.d)
			for i := tt.from; i < tt.d; i++ {
				x[i] = tt.size * rng.NormFloat64()
			}
			if tt.from > 0 {
				for i := tt.from + 1; i < tt.d; i++ {
					x[i] = 0 // a coordinate vector, as refill uses
				}
			}
			want := mat.NewSymDense(tt.d, nil)
			want.SymRankOne(a, 1, mat.NewVecDense(tt.d, append([]float64(nil), x...)))
			var cw mat.Cholesky
			if !cw.Factorize(want) {
				t.Fatal("gonum cannot factorize the updated matrix")
			}
			wl := lrnPacked(&cw, tt.d)
			cholUpdate(l, tt.d, x, tt.from)
			// The update is backward stable: the entries of L agree to a
			// small multiple of d·u relative to the size of the factor.
			scale := lrnMaxAbs(wl)
			for i := range l {
				if e := lrnRelErr(l[i], wl[i], scale); e > 1e-12*float64(tt.d) {
					t.Fatalf("L[%d] = %v, gonum %v (err %g)", i, l[i], wl[i], e)
				}
			}
			if !cholValid(l, tt.d) {
				t.Error("updated factor invalid")
			}
		})
	}
}

func TestCholUpdateHugeEntries(t *testing.T) {
	// Beyond 1e150 the squares overflow, below 1e-150 they underflow (0
	// there would make the rotation 0/0): the update falls back to the
	// scaled hypot.
	tests := []struct {
		name   string
		l, x   []float64
		wantLD float64 // L_00 after the update
	}{
		{"huge diagonal", []float64{1e200}, []float64{1e200}, math.Sqrt2 * 1e200},
		{"huge update", []float64{1}, []float64{3e160}, 3e160},
		{"tiny diagonal and update", []float64{3e-200}, []float64{4e-200}, 5e-200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cholUpdate(tt.l, 1, tt.x, 0)
			if lrnRelErr(tt.l[0], tt.wantLD, tt.wantLD) > 1e-15 {
				t.Errorf("L_00 = %v, want %v", tt.l[0], tt.wantLD)
			}
		})
	}
}

func TestHypot(t *testing.T) {
	tests := []struct {
		name string
		a, b float64
	}{
		{"3-4-5", 3, 4},
		{"negative", -5, 12},
		{"zero", 0, 0},
		{"one zero", 0, -7},
		{"huge", 1e300, 2e300},
		{"tiny", 3e-300, 4e-300},
		{"subnormal", 5e-324, 1e-310},
		{"far apart", 1e200, 1e-200},
		{"infinite", math.Inf(-1), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := hypot(tt.a, tt.b), math.Hypot(tt.a, tt.b)
			if got != want && lrnRelErr(got, want, want) > 2e-16 {
				t.Errorf("hypot(%g, %g) = %v, want %v", tt.a, tt.b, got, want)
			}
		})
	}
}

func TestLogRatio(t *testing.T) {
	tests := []struct {
		name string
		a, b float64
	}{
		{"equal", 3, 3},
		{"ratio 10", 10, 1},
		{"ratio 0.1", 0.5, 5},
		{"ratio overflows", 1e300, 1e-300},
		{"ratio underflows", 1e-300, 1e300},
		{"subnormal", 1e-310, 2},
		{"both subnormal", 5e-324, 1e-320},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The reference's error is a few ulps of log a and log b.
			la, lb := lrnLog(tt.a), lrnLog(tt.b)
			got, want := logRatio(tt.a, tt.b), la-lb
			if math.Abs(got-want) > 4e-16*(1+math.Abs(la)+math.Abs(lb)) {
				t.Errorf("logRatio(%g, %g) = %v, want %v", tt.a, tt.b, got, want)
			}
		})
	}
}

func TestCholUpdateSequenceMatchesMatrix(t *testing.T) {
	// Many updates from a diagonal start reproduce the accumulated matrix.
	const d = 10
	rng := rand.New(rand.NewPCG(2, 3))
	diag := make([]float64, d)
	for j := range diag {
		diag[j] = 1e-3
	}
	l := make([]float64, packedLen(d))
	setDiag(l, d, diag)
	want := mat.NewSymDense(d, nil)
	for j := range d {
		want.SetSym(j, j, 1e-3)
	}
	x := make([]float64, d)
	for range 500 {
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		want.SymRankOne(want, 1, mat.NewVecDense(d, append([]float64(nil), x...)))
		cholUpdate(l, d, x, 0)
	}
	got := lrnDense(l, d, 1)
	for i := range d {
		for j := range d {
			if e := lrnRelErr(got.At(i, j), want.At(i, j), 500); e > 1e-13 {
				t.Fatalf("A[%d,%d] = %v, want %v", i, j, got.At(i, j), want.At(i, j))
			}
		}
	}
}

func TestSolvesMatchGonum(t *testing.T) {
	for _, d := range []int{1, 2, 7, 36} {
		t.Run(fmt.Sprint("d=", d), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(d), 4))
			a := lrnSPD(rng, d, 100)
			var c mat.Cholesky
			c.Factorize(a)
			l := lrnPacked(&c, d)
			b := make([]float64, d)
			for j := range b {
				b[j] = rng.NormFloat64()
			}
			// ‖L⁻¹b‖² = bᵀA⁻¹b, and L⁻ᵀL⁻¹b = A⁻¹b.
			var want mat.VecDense
			if err := c.SolveVecTo(&want, mat.NewVecDense(d, b)); err != nil {
				t.Fatal(err)
			}
			quad := mat.Dot(mat.NewVecDense(d, b), &want)
			inv := make([]float64, d)
			diagRecip(inv, l, d)
			zr := append([]float64(nil), b...)
			if got := forwardSolveRecip(l, inv, d, zr); lrnRelErr(got, quad, quad) > 1e-12 {
				t.Errorf("‖L⁻¹b‖² with reciprocals = %v, want %v", got, quad)
			}
			z := append([]float64(nil), b...)
			if got := forwardSolve(l, d, z); lrnRelErr(got, quad, quad) > 1e-12 {
				t.Errorf("‖L⁻¹b‖² = %v, want %v", got, quad)
			}
			for j := range z {
				if e := lrnRelErr(zr[j], z[j], lrnMaxAbs(z)); e > 1e-13 {
					t.Errorf("L⁻¹b[%d] with reciprocals = %v, by division %v", j, zr[j], z[j])
				}
			}
			backSolveT(l, d, z)
			for j := range z {
				if e := lrnRelErr(z[j], want.AtVec(j), lrnMaxAbs(want.RawVector().Data)); e > 1e-12 {
					t.Errorf("A⁻¹b[%d] = %v, want %v", j, z[j], want.AtVec(j))
				}
			}
			if got, want := 2*logDiag(l, d), c.LogDet(); lrnRelErr(got, want, 1+math.Abs(want)) > 1e-13 {
				t.Errorf("2Σ log L_kk = %v, log det %v", got, want)
			}
		})
	}
}

// lrnLog is the reference natural logarithm: math.Log, with a subnormal
// argument first scaled exactly by 2^64 (amd64's math.Log is wrong on
// subnormals: it gives log(1e-310) ≈ −709.1 instead of −713.8).
func lrnLog(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p64) - 64*math.Ln2
	}
	return math.Log(x)
}

func TestLogSum(t *testing.T) {
	many := make([]float64, 2000)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range many {
		many[i] = math.Exp(40 * rng.NormFloat64())
	}
	tests := []struct {
		name string
		v    []float64
	}{
		{"empty", nil},
		{"one", []float64{1}},
		{"powers of two", []float64{0.5, 2, 1024, 1.0 / 1024}},
		{"mixed", []float64{3.7, 1e-300, 1e300, 0.1, 42}},
		{"subnormal", []float64{5e-324, 1e-310, 2}},
		{"odd count", []float64{3, 5, 7}},
		{"infinite term", []float64{2, math.Inf(1), 3}},
		{"2000 wide-ranging terms (exponent folds)", many},
		{"3000 terms near 2", func() []float64 {
			v := make([]float64, 3000)
			for i := range v {
				v[i] = 1.9999999
			}
			return v
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Reference: Neumaier-compensated Σ math.Log, accurate to a few
			// ulps of the result. logSum rounds once per product, so its
			// error is at most about n·u in the logarithm, plus u·|result|
			// from the exponent's Ln2 (u = 2^-53): the tolerance is 4u·(n +
			// |result|).
			ls := newLogSum()
			var want, comp float64
			for _, x := range tt.v {
				ls.add(x)
				l := lrnLog(x)
				s := want + l
				if math.Abs(want) >= math.Abs(l) {
					comp += (want - s) + l
				} else {
					comp += (l - s) + want
				}
				want = s
			}
			if !math.IsInf(want, 0) {
				want += comp
			}
			tol := 4 * 0x1p-53 * (float64(len(tt.v)) + math.Abs(want))
			near := func(got float64) bool { return got == want || math.Abs(got-want) <= tol }
			if got := ls.value(); !near(got) {
				t.Errorf("logSum: Σ log = %v, want %v (err %g > %g)", got, want, got-want, tol)
			}
			m, e, extra := logProd(tt.v)
			if m < 1 || m >= 2 {
				t.Errorf("logProd mantissa %v outside [1, 2)", m)
			}
			if got := math.Log(m) + float64(e)*math.Ln2 + extra; !near(got) {
				t.Errorf("logProd: Σ log = %v, want %v (err %g > %g)", got, want, got-want, tol)
			}
		})
	}
	ls := newLogSum()
	ls.add(0)
	if v := ls.value(); !math.IsInf(v, -1) {
		t.Errorf("log 0 = %v, want -Inf", v)
	}
}

// TestCholUpdatePairsSameBits checks that cholUpdate, which applies two
// rotations per pass over x, gives the bits of one rotation per pass
// (cholUpdateRef), including where x has zeros that skip a rotation.
func TestCholUpdatePairsSameBits(t *testing.T) {
	for _, d := range []int{1, 2, 3, 8, 37} {
		rng := rand.New(rand.NewPCG(uint64(d), 21))
		a := lrnSPD(rng, d, 50)
		var c mat.Cholesky
		c.Factorize(a)
		l1 := lrnPacked(&c, d)
		l2 := append([]float64(nil), l1...)
		for trial := 0; trial < 20; trial++ {
			x := make([]float64, d)
			for j := range x {
				if rng.IntN(4) != 0 {
					x[j] = rng.NormFloat64()
				}
			}
			from := 0
			if trial%5 == 4 {
				from = rng.IntN(d)
				clear(x[:from])
			}
			y := append([]float64(nil), x...)
			cholUpdate(l1, d, x, from)
			cholUpdateRef(l2, d, y, from)
			for i := range l1 {
				if math.Float64bits(l1[i]) != math.Float64bits(l2[i]) {
					t.Fatalf("d=%d trial %d: entry %d = %v, one rotation per pass %v", d, trial, i, l1[i], l2[i])
				}
			}
		}
	}
}

// cholUpdateRef is cholUpdate with one rotation per pass over x.
func cholUpdateRef(l []float64, d int, x []float64, from int) {
	for k := from; k < d; k++ {
		xk := x[k]
		if xk == 0 {
			continue
		}
		c0 := colStart(d, k)
		s, c, ic := rotation(l, c0, xk)
		n := d - k - 1
		col := l[c0+1 : c0+1+n]
		xs := x[k+1 : k+1+n]
		for i := range col {
			li := (col[i] + float64(s*xs[i])) * ic
			col[i] = li
			xs[i] = float64(c*xs[i]) - float64(s*li)
		}
	}
}
