package classifier

import "math"

// This file holds the numerical kernels shared by LDA and QDA: a lower
// triangular Cholesky factor L stored packed by columns, its positive
// rank-one update, triangular solves against it, and a sum of logarithms
// that needs one call to math.Log instead of one per term.
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

// hypotLimit bounds the magnitudes for which a*a + b*b cannot overflow.
const hypotLimit = 1e150

// cholUpdate overwrites the factor l of A = L·Lᵀ with the factor of
// A + x·xᵀ (the classic positive rank-one update by Givens-like rotations,
// O(d²) and never failing: every new diagonal is sqrt(L_kk² + x_k²) ≥ L_kk).
// x is used as scratch and destroyed. Entries of x before index from must
// be zero; the rotations they would apply are identities and are skipped,
// so an update along e_j costs O((d-j)²).
func cholUpdate(l []float64, d int, x []float64, from int) {
	for k := from; k < d; k++ {
		xk := x[k]
		if xk == 0 {
			continue // identity rotation
		}
		c0 := colStart(d, k)
		lkk := l[c0]
		var r float64
		if math.Abs(lkk) < hypotLimit && math.Abs(xk) < hypotLimit {
			r = math.Sqrt(lkk*lkk + xk*xk)
		} else {
			r = math.Hypot(lkk, xk)
		}
		// Rotation (c, s) with c = r/L_kk, s = x_k/L_kk.
		ic := lkk / r
		s := xk / lkk
		c := r / lkk
		l[c0] = r
		n := d - k - 1
		col := l[c0+1 : c0+1+n]
		xs := x[k+1 : k+1+n]
		for i := range col {
			li := (col[i] + s*xs[i]) * ic
			col[i] = li
			xs[i] = c*xs[i] - s*li
		}
	}
}

// cholScale multiplies every entry of the factor by f (the factor of f²·A).
func cholScale(l []float64, f float64) {
	for i := range l {
		l[i] *= f
	}
}

// forwardSolve overwrites z with L⁻¹·z and returns ‖L⁻¹·z‖².
func forwardSolve(l []float64, d int, z []float64) float64 {
	z = z[:d]
	var sum float64
	c0 := 0
	for k := 0; k < d; k++ {
		zk := z[k] / l[c0]
		z[k] = zk
		sum += zk * zk
		n := d - k - 1
		col := l[c0+1 : c0+1+n]
		zs := z[k+1 : k+1+n]
		for i, lik := range col {
			zs[i] -= lik * zk
		}
		c0 += d - k
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
		v := z[k]
		for i, lik := range col {
			v -= lik * zs[i]
		}
		z[k] = v / l[c0]
	}
}

// logDiag returns Σ_k log L_kk.
func logDiag(l []float64, d int) float64 {
	var ls logSum
	c0 := 0
	for k := 0; k < d; k++ {
		ls.add(l[c0])
		c0 += d - k
	}
	return ls.value()
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

// logSum accumulates Σ log v_i for positive v_i with a single math.Log at
// the end: it multiplies the mantissas (each in [1, 2)) and adds the binary
// exponents, folding the running product's own exponent back every 512
// terms, long before it could overflow (2^512 < MaxFloat64). Terms that are
// not positive normal numbers (subnormals, zero, Inf, NaN) go through
// math.Log directly, so the result is exact up to rounding for any input.
// The zero value is an empty sum.
type logSum struct {
	m     float64 // product of mantissas since the last fold; 0 means 1
	e     int64   // sum of binary exponents
	n     int     // terms in m since the last fold
	extra float64 // Σ log of the irregular terms
}

const (
	f64MantMask = 1<<52 - 1
	f64ExpBias  = 1023
	f64One      = f64ExpBias << 52 // bits of 1.0
)

func (a *logSum) add(v float64) {
	b := math.Float64bits(v)
	ex := int64(b >> 52) // sign bit included: any negative value is irregular
	if ex == 0 || ex >= 0x7ff {
		a.extra += math.Log(v)
		return
	}
	if a.n == 0 {
		a.m = 1
	}
	a.e += ex - f64ExpBias
	a.m *= math.Float64frombits(b&f64MantMask | f64One)
	a.n++
	if a.n == 512 {
		a.fold()
	}
}

// fold moves the exponent of the running mantissa product into e.
func (a *logSum) fold() {
	b := math.Float64bits(a.m)
	a.e += int64(b>>52) - f64ExpBias
	a.m = math.Float64frombits(b&f64MantMask | f64One)
	a.n = 1
}

func (a *logSum) value() float64 {
	v := float64(a.e)*math.Ln2 + a.extra
	if a.n > 0 {
		v += math.Log(a.m)
	}
	return v
}
