// Package detmath provides the few transcendental functions ictal's models
// need, computed so that they give the same bits on every architecture.
//
// The standard library's math.Exp and math.Log use assembly on amd64, arm64
// and s390x and pure Go elsewhere, and the Go compiler may fuse x*y+z into
// one fused multiply-add on arm64, ppc64le, s390x and riscv64 (not on
// amd64). Either makes a result differ in its last bit between the
// development machine and an ARM board, and a model whose state depends on
// such a result (a Poisson draw, a prediction near its threshold) would
// diverge. Everything here uses only +, −, ×, / and exact operations
// (math.Floor, math.Frexp, math.Ldexp), and every product that feeds an
// addition is rounded explicitly with a float64 conversion, which the Go
// specification says prevents fusion. Accuracy is within 2 ulps of the
// correctly rounded result over the whole range (tested against math).
package detmath

import "math"

const (
	ln2Hi  = 6.93147180369123816490e-01 // high bits of ln 2: k·ln2Hi is exact for |k| < 2^20
	ln2Lo  = 1.90821492927058770002e-10 // ln 2 − ln2Hi
	invLn2 = 1.44269504088896338700e+00
	// Beyond these, e^x overflows or underflows float64.
	expMax = 7.09782712893383973096e+02
	expMin = -7.45133219101941108420e+02
)

// Exp returns e^x.
func Exp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > expMax:
		return math.Inf(1)
	case x < expMin:
		return 0
	}
	// x = k·ln2 + r with |r| ≤ ln2/2.
	k := math.Floor(float64(x*invLn2) + 0.5)
	r := (x - float64(k*ln2Hi)) - float64(k*ln2Lo)
	// Taylor series of e^r to degree 14 (truncation < 1e-18 relative),
	// in Horner form.
	p := 1.0
	for n := 14; n >= 1; n-- {
		p = 1 + float64(float64(r/float64(n))*p)
	}
	return math.Ldexp(p, int(k))
}

// Log returns the natural logarithm of x: −Inf at 0, NaN below 0.
func Log(x float64) float64 {
	switch {
	case x != x || x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	}
	f, e := math.Frexp(x) // x = f·2^e, f in [0.5, 1), exact (subnormals too)
	if f < math.Sqrt2/2 {
		f *= 2
		e--
	}
	// log f = 2·atanh(z), z = (f−1)/(f+1) in [−0.172, 0.172]:
	// 2z + 2z·(w/3 + w²/5 + … + w¹⁰/21), w = z².
	z := (f - 1) / (f + 1)
	w := float64(z * z)
	// s = w·(1/3 + w·(1/5 + … + w·(1/21))) in Horner form. Each 1/n is a
	// constant rounded once to the nearest float64, the same bits as the
	// division 1.0/float64(n) (IEEE division is correctly rounded), so the
	// series costs no division.
	s := float64(w * (1.0 / 21))
	s = float64(w * (1.0/19 + s))
	s = float64(w * (1.0/17 + s))
	s = float64(w * (1.0/15 + s))
	s = float64(w * (1.0/13 + s))
	s = float64(w * (1.0/11 + s))
	s = float64(w * (1.0/9 + s))
	s = float64(w * (1.0/7 + s))
	s = float64(w * (1.0/5 + s))
	s = float64(w * (1.0/3 + s))
	lf := 2*z + float64(float64(2*z)*s)
	k := float64(e)
	return float64(k*ln2Hi) + (lf + float64(k*ln2Lo))
}

// lnFactSmall holds log k! for k < len(lnFactSmall), summed from Log.
var lnFactSmall = func() [256]float64 {
	var t [256]float64
	for k := 2; k < len(t); k++ {
		t[k] = t[k-1] + Log(float64(k))
	}
	return t
}()

// halfLog2Pi is ½·log(2π).
const halfLog2Pi = 0.918938533204672741780329736406

// LogFactorial returns log k! for k ≥ 0 (a table below 256, Stirling's
// series with four correction terms above, relative error below 1e-15).
func LogFactorial(k float64) float64 {
	if k < float64(len(lnFactSmall)) {
		if k < 0 {
			return math.NaN()
		}
		return lnFactSmall[int(k)]
	}
	n := k + 1 // log k! = log Γ(n)
	inv := 1 / n
	inv2 := float64(inv * inv)
	// 1/(12n) − 1/(360n³) + 1/(1260n⁵) − 1/(1680n⁷)
	c := float64(inv * (1.0/12 - float64(inv2*(1.0/360-float64(inv2*(1.0/1260-float64(inv2*(1.0/1680))))))))
	return float64((n-0.5)*Log(n)) - n + halfLog2Pi + c
}

// π/2 as a float64 and the remainder, so that x − k·π/2 is computed with
// one rounding.
const (
	halfPiHi = math.Pi / 2
	halfPiLo = 6.123233995736765886e-17
)

// SinCos returns sin x and cos x for |x| ≤ π (NaN outside), for the few
// angles that design filters (features' conditioning), where the same
// coefficients on every platform matter more than the last ulp. The
// argument is reduced to r = x − k·π/2 in [−π/4, π/4] (x − k·halfPiHi is
// exact by Sterbenz's lemma, so r is rounded once) and both functions are
// summed there from their Taylor series to degree 21 in Horner form
// (truncation below 1e-22 relative); the result is within 2 ulps of
// math.Sin and math.Cos (tested).
func SinCos(x float64) (sin, cos float64) {
	if !(x >= -math.Pi && x <= math.Pi) {
		return math.NaN(), math.NaN()
	}
	sgn := 1.0
	if x < 0 {
		x, sgn = -x, -1
	}
	k := 0
	switch {
	case x > 3*math.Pi/4:
		k = 2
	case x > math.Pi/4:
		k = 1
	}
	// k·halfPiHi and k·halfPiLo are exact (k ≤ 2), so rounding them on
	// their own changes nothing; it keeps arm64 from fusing them.
	r := (x - float64(float64(k)*halfPiHi)) - float64(float64(k)*halfPiLo)
	s, c := sinCos(r)
	switch k {
	case 1:
		s, c = c, -s
	case 2:
		s, c = -s, -c
	}
	return sgn * s, c
}

// sinCos sums both series for |x| ≤ π/4.
func sinCos(x float64) (sin, cos float64) {
	w := float64(x * x)
	// sin x = x·(1 − w/(2·3)·(1 − w/(4·5)·(1 − …))), cos x likewise.
	s, c := 1.0, 1.0
	for n := 20; n >= 2; n -= 2 {
		s = 1 - float64(float64(w/float64(n*(n+1)))*s)
		c = 1 - float64(float64(w/float64((n-1)*n))*c)
	}
	return float64(x * s), c
}

// Tan returns tan x for |x| < π/2 (NaN outside), as SinCos's quotient.
func Tan(x float64) float64 {
	if !(x > -math.Pi/2 && x < math.Pi/2) {
		return math.NaN()
	}
	s, c := SinCos(x)
	return s / c
}
