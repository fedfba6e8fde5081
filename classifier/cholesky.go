package classifier

import (
	"math"

	"github.com/ictal/ictal/internal/detmath"
)

// This file holds the numerical kernels shared by the learners: a lower
// triangular Cholesky factor L stored packed by columns, its positive
// rank-one update, triangular solves against it, and sums of logarithms
// that need one call to detmath.Log instead of one per term.
//
// Same bits on every architecture: logarithms come from detmath (the
// assembly of math.Log differs in its last bits between amd64 and arm64),
// and every product that feeds an addition or subtraction is rounded
// explicitly, float64(a*b) + c, which the Go specification guarantees is
// never fused into one multiply-add (arm64 fuses a*b + c otherwise, and
// amd64 with GOAMD64=v3). TestLearnersGoldenBits checks the result.
//
// Packed layout: column k of the d×d lower triangle (rows k..d-1) occupies
// l[colStart(d,k) : colStart(d,k)+d-k], so its first element is the
// diagonal L_kk. The update and both solves walk columns, so every inner
// loop runs over contiguous memory.

// packedLen is the number of stored entries of a d×d lower triangle.
func packedLen(d int) int { return d * (d + 1) / 2 }

// colStart is the offset of L_kk, the top of column k, in the packed layout.
func colStart(d, k int) int { return k*d - k*(k-1)/2 }

// setDiag makes l the diagonal factor diag(sqrt(a_j)).
func setDiag(l []float64, d int, a []float64) {
	clear(l)
	for k := 0; k < d; k++ {
		l[colStart(d, k)] = math.Sqrt(a[k])
	}
}

// hypotLimit bounds the magnitudes for which a*a + b*b can neither
// overflow nor lose everything to underflow (above 1/hypotLimit).
const hypotLimit = 1e150

// hypot returns √(a² + b²) without overflow or underflow, by scaling both
// by the power of two that brings the larger to [½, 1) (exact), in place of
// math.Hypot, whose amd64 assembly and portable Go differ in the last bit.
func hypot(a, b float64) float64 {
	a, b = math.Abs(a), math.Abs(b)
	m := max(a, b)
	if m == 0 || math.IsInf(m, 0) || m != m {
		return m // 0, +Inf or NaN
	}
	_, e := math.Frexp(m)
	a, b = math.Ldexp(a, -e), math.Ldexp(b, -e)
	return math.Ldexp(math.Sqrt(float64(a*a)+float64(b*b)), e)
}

// cholUpdateGo overwrites the factor l of A = L·Lᵀ with the factor of
// A + x·xᵀ (the classic positive rank-one update by Givens-like rotations,
// O(d²) and never failing: every new diagonal is sqrt(L_kk² + x_k²) ≥ L_kk).
// x is used as scratch and destroyed. Entries of x before index from must
// be zero; the rotations they would apply are identities and are skipped,
// so an update along e_j costs O((d-j)²). cholUpdate is this loop, in
// assembly where there is one.
func cholUpdateGo(l []float64, d int, x []float64, from int) {
	for k := from; k < d; {
		k = cholStep(l, d, x, k)
	}
}

// cholStep applies cholUpdateGo's rotation k, or rotations k and k+1, and
// returns the next column to rotate.
func cholStep(l []float64, d int, x []float64, k int) int {
	xk := x[k]
	if xk == 0 {
		return k + 1 // identity rotation
	}
	c0 := colStart(d, k)
	s, c, ic := rotation(l, c0, xk)
	n := d - k - 1
	col := l[c0+1 : c0+1+n]
	xs := x[k+1 : k+1+n]
	xs = xs[:len(col)] // bounds-check elimination hint
	if n < 2 || xs[0] == 0 {
		cholRotateGo(col, xs, s, c, ic)
		return k + 1
	}
	// Two rotations per pass: apply k's to the top of column k+1 and to
	// x_{k+1}, which gives rotation k+1, then both to the rest of the two
	// columns, each element in the order of one rotation after the other
	// (the same bits), loading and storing x once.
	li := (col[0] + float64(s*xs[0])) * ic
	col[0] = li
	xk1 := float64(c*xs[0]) - float64(s*li)
	xs[0] = xk1
	if xk1 == 0 { // rotation k+1 is the identity, skipped
		cholRotateGo(col[1:], xs[1:], s, c, ic)
		return k + 1
	}
	c1 := c0 + d - k // top of column k+1
	s1, cc1, ic1 := rotation(l, c1, xk1)
	m := n - 1
	cholRotate2Go(col[1:1+m], l[c1+1:c1+1+m], xs[1:1+m], s, c, ic, s1, cc1, ic1)
	return k + 2
}

// cholRotateGo applies a rotation of cholUpdate, (s, c, 1/c = ic), to the
// rest of its column, col, and to the entries of x below it, xs (as long
// as col).
func cholRotateGo(col, xs []float64, s, c, ic float64) {
	xs = xs[:len(col)]
	for i := range col {
		li := (col[i] + float64(s*xs[i])) * ic
		col[i] = li
		xs[i] = float64(c*xs[i]) - float64(s*li)
	}
}

// cholRotate2Go applies two successive rotations of cholUpdate, (s, c, ic)
// to colA and xr and then (s1, c1, ic1) to colB and xr, loading and
// storing each x_i once; each element gets the bits of cholRotateGo's two
// passes.
func cholRotate2Go(colA, colB, xr []float64, s, c, ic, s1, c1, ic1 float64) {
	colB = colB[:len(colA)]
	xr = xr[:len(colA)]
	for i := range colA {
		xi := xr[i]
		a := (colA[i] + float64(s*xi)) * ic
		colA[i] = a
		xi = float64(c*xi) - float64(s*a)
		b := (colB[i] + float64(s1*xi)) * ic1
		colB[i] = b
		xr[i] = float64(c1*xi) - float64(s1*b)
	}
}

// rotation sets the new diagonal l[c0] = √(L_kk² + x_k²) of the rotation
// that takes x_k into column k and returns its s = x_k/L_kk, c = r/L_kk
// and 1/c = L_kk/r.
func rotation(l []float64, c0 int, xk float64) (s, c, ic float64) {
	lkk := l[c0]
	var r float64
	if m := max(math.Abs(lkk), math.Abs(xk)); m < hypotLimit && m > 1/hypotLimit {
		r = math.Sqrt(float64(lkk*lkk) + float64(xk*xk))
	} else {
		r = hypot(lkk, xk)
	}
	// Rotation (c, s) with c = r/L_kk, s = x_k/L_kk. 1/L_kk runs in
	// parallel with the square root; only 1/c waits for it.
	inv := 1 / lkk
	s = xk * inv
	c = r * inv
	ic = lkk / r
	l[c0] = r
	return s, c, ic
}

// cholScale multiplies every entry of the factor by f (the factor of f²·A).
func cholScale(l []float64, f float64) {
	for i := range l {
		l[i] *= f
	}
}

// forwardSolve overwrites z with L⁻¹·z and returns ‖L⁻¹·z‖².
func forwardSolve(l []float64, d int, z []float64) float64 {
	return forwardSolveFrom(l, d, z, 0)
}

// forwardSolveFrom is forwardSolve for a z whose entries before index from
// are zero (so are those of L⁻¹·z): it starts at column from, in
// O((d−from)²), with the bits of the whole solve.
func forwardSolveFrom(l []float64, d int, z []float64, from int) float64 {
	z = z[:d]
	var sum float64
	c0 := colStart(d, from)
	for k := from; k < d; k++ {
		zk := z[k] / l[c0]
		z[k] = zk
		sum += float64(zk * zk)
		n := d - k - 1
		col := l[c0+1 : c0+1+n]
		zs := z[k+1 : k+1+n]
		zs = zs[:len(col)]
		for i, lik := range col {
			zs[i] -= float64(lik * zk)
		}
		c0 += d - k
	}
	return sum
}

// diagRecip fills inv with 1/L_kk, for forwardSolveRecip.
func diagRecip(inv, l []float64, d int) {
	inv = inv[:d]
	c0 := 0
	for k := range inv {
		inv[k] = 1 / l[c0]
		c0 += d - k
	}
}

// forwardSolveRecipGo is forwardSolve with the diagonal's reciprocals inv
// (diagRecip) precomputed: each step multiplies by 1/L_kk instead of
// dividing by L_kk, taking the division's latency off the chain from one
// column to the next. The results may differ from forwardSolve's in the
// last bits.
func forwardSolveRecipGo(l, inv []float64, d int, z []float64) float64 {
	z = z[:d]
	inv = inv[:d]
	var sum float64
	c0 := 0
	k := 0
	// Two columns at a time: each z_i is loaded and stored once per pair,
	// and loses the two products in the same order as one column at a
	// time (the same bits).
	for ; k+1 < d; k += 2 {
		c1 := c0 + d - k // top of column k+1
		zk := z[k] * inv[k]
		z[k] = zk
		sum += float64(zk * zk)
		zk1 := (z[k+1] - float64(l[c0+1]*zk)) * inv[k+1]
		z[k+1] = zk1
		sum += float64(zk1 * zk1)
		n := d - k - 2
		col0 := l[c0+2 : c0+2+n]
		col1 := l[c1+1 : c1+1+n]
		zs := z[k+2 : k+2+n]
		col0 = col0[:len(zs)]
		col1 = col1[:len(zs)]
		for i := range zs {
			zs[i] = zs[i] - float64(col0[i]*zk) - float64(col1[i]*zk1)
		}
		c0 = c1 + d - k - 1
	}
	if k < d {
		zk := z[k] * inv[k]
		z[k] = zk
		sum += float64(zk * zk)
	}
	return sum
}

// backSolveT overwrites z with L⁻ᵀ·z.
func backSolveT(l []float64, d int, z []float64) {
	z = z[:d]
	for k := d - 1; k >= 0; k-- {
		c0 := colStart(d, k)
		n := d - k - 1
		col := l[c0+1 : c0+1+n]
		zs := z[k+1 : k+1+n]
		zs = zs[:len(col)]
		// Four partial dot products shorten the addition latency chain.
		var a0, a1, a2, a3 float64
		i := 0
		for ; i+3 < len(col); i += 4 {
			a0 += float64(col[i] * zs[i])
			a1 += float64(col[i+1] * zs[i+1])
			a2 += float64(col[i+2] * zs[i+2])
			a3 += float64(col[i+3] * zs[i+3])
		}
		for ; i < len(col); i++ {
			a0 += float64(col[i] * zs[i])
		}
		z[k] = (z[k] - ((a0 + a1) + (a2 + a3))) / l[c0]
	}
}

// logDiag returns Σ_k log L_kk.
func logDiag(l []float64, d int) float64 {
	ls := logDiagSum(l, d)
	return ls.value()
}

// logDiagSum returns the logSum of the diagonal of L, for callers that
// combine it with other logarithms before the one detmath.Log (logSum.parts).
func logDiagSum(l []float64, d int) logSum {
	ls := newLogSum()
	c0 := 0
	for k := 0; k < d; k++ {
		ls.add(l[c0])
		c0 += d - k
	}
	return ls
}

// cholValid reports whether every entry of the factor is finite and every
// diagonal entry is positive.
func cholValid(l []float64, d int) bool {
	for _, v := range l {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	c0 := 0
	for k := 0; k < d; k++ {
		if !(l[c0] > 0) {
			return false
		}
		c0 += d - k
	}
	return true
}

// logSum accumulates Σ log v_i for positive v_i with a single detmath.Log at
// the end: it multiplies the mantissas (each in [1, 2)) and adds the binary
// exponents, folding the running product's own exponent back every 512
// terms, long before it could overflow (2^512 < MaxFloat64). Terms that are
// not positive normal numbers (subnormals, zero, Inf, NaN) go through
// detmath.Log directly, so the result is exact up to rounding for any input.
// Start from newLogSum.
type logSum struct {
	m     float64 // product of mantissas since the last fold
	e     int64   // sum of binary exponents
	n     int     // regular terms added
	extra float64 // Σ log of the irregular terms
}

const (
	f64MantMask = 1<<52 - 1
	f64ExpBias  = 1023
	f64One      = f64ExpBias << 52 // bits of 1.0
)

// newLogSum returns an empty sum.
func newLogSum() logSum { return logSum{m: 1} }

// add adds log v. It is small enough to be inlined into the callers' loops.
func (a *logSum) add(v float64) {
	b := math.Float64bits(v)
	if ex := b >> 52; ex-1 < 0x7fe { // positive normal: biased exponent in [1, 0x7fe]
		a.e += int64(ex) - f64ExpBias
		a.m *= math.Float64frombits(b&f64MantMask | f64One)
		a.n++
		if a.n&511 == 0 {
			a.fold()
		}
		return
	}
	a.addIrregular(v)
}

func (a *logSum) addIrregular(v float64) { a.extra += detmath.Log(v) }

// fold moves the exponent of the running mantissa product into e.
func (a *logSum) fold() {
	b := math.Float64bits(a.m)
	a.e += int64(b>>52) - f64ExpBias
	a.m = math.Float64frombits(b&f64MantMask | f64One)
}

// parts returns the sum as log(m) + e·ln 2 + extra with m in [1, 2), so
// that several sums can be combined with a single detmath.Log.
func (a *logSum) parts() (m float64, e int64, extra float64) {
	a.fold()
	return a.m, a.e, a.extra
}

// logProdBlock is the number of terms logProd multiplies between folds.
const logProdBlock = 512

// logProd returns Σ log v_i as log(m) + e·ln 2 + extra with m in [1, 2),
// like logSum but faster on a slice: two independent mantissa products
// halve the multiply latency chain, and the exponents of a block of up to
// 512 terms are summed as integers before one fold. A block holding a term
// that is not a positive normal number goes through logSum.
func logProd(v []float64) (m float64, e int64, extra float64) {
	m = 1
	for len(v) > 0 {
		blk := v[:min(len(v), logProdBlock)]
		v = v[len(blk):]
		m0, m1 := 1.0, 1.0
		var eb uint64
		bad := false
		i := 0
		for ; i+1 < len(blk); i += 2 {
			b0, b1 := math.Float64bits(blk[i]), math.Float64bits(blk[i+1])
			e0, e1 := b0>>52, b1>>52
			eb += e0 + e1
			bad = bad || e0-1 >= 0x7fe || e1-1 >= 0x7fe
			m0 *= math.Float64frombits(b0&f64MantMask | f64One)
			m1 *= math.Float64frombits(b1&f64MantMask | f64One)
		}
		if i < len(blk) {
			b0 := math.Float64bits(blk[i])
			eb += b0 >> 52
			bad = bad || b0>>52-1 >= 0x7fe
			m0 *= math.Float64frombits(b0&f64MantMask | f64One)
		}
		if bad {
			ls := newLogSum()
			for _, x := range blk {
				ls.add(x)
			}
			bm, be, bx := ls.parts()
			m0, m1, eb = bm, 1, uint64(be+int64(len(blk))*f64ExpBias)
			extra += bx
		}
		e += int64(eb) - int64(len(blk))*f64ExpBias
		// m0·m1 < 2^512 and m < 2: no overflow.
		pb := math.Float64bits(m * (m0 * m1))
		e += int64(pb>>52) - f64ExpBias
		m = math.Float64frombits(pb&f64MantMask | f64One)
	}
	return m, e, extra
}

func (a *logSum) value() float64 {
	return detmath.Log(a.m) + float64(float64(a.e)*math.Ln2) + a.extra
}

// logRatio returns log(a/b) for positive finite a and b with one
// detmath.Log and no overflow or underflow of the ratio: both are split
// exactly into mantissas in [½, 1) and binary exponents (math.Frexp, exact
// for subnormals too), so log(a/b) = log(m_a/m_b) + (e_a − e_b)·ln 2.
func logRatio(a, b float64) float64 {
	ma, ea := math.Frexp(a)
	mb, eb := math.Frexp(b)
	return detmath.Log(ma/mb) + float64(float64(ea-eb)*math.Ln2)
}
