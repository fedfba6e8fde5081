package classifier

import (
	"math"
	"math/rand/v2"

	"github.com/ictal/ictal/internal/detmath"
)

// stream is one member's random stream: a PCG-DXSM generator (math/rand/v2)
// with the uniform and Poisson variates built here on its raw 64-bit
// output, so the sequence depends only on the seed, never on the Go
// release's rand.Rand helpers or on the order in which members are visited.
type stream struct {
	pcg rand.PCG
	// expL and expV cache e^{-λ} of the two latest small means (UOB and SB
	// members alternate between two fixed means); missed is the latest
	// mean not in the cache (see poisson). Pure caches: not part of the
	// stream's state or its encoding.
	expL, expV [2]float64
	missed     float64
}

// splitmix64 is the SplitMix64 finaliser, used to derive well-mixed,
// independent seeds from (seed, stream id).
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// newStream returns the stream with the given id derived from seed.
func newStream(seed, id uint64) stream {
	a := splitmix64(seed ^ splitmix64(id+1))
	b := splitmix64(a ^ 0x6a09e667f3bcc909 ^ id)
	var s stream
	s.pcg.Seed(a, b)
	return s
}

func (s *stream) uint64() uint64 { return s.pcg.Uint64() }

// float64 returns a uniform variate in [0, 1) with 53 random bits.
func (s *stream) float64() float64 { return float64(s.uint64()>>11) * 0x1p-53 }

// intn returns a uniform integer in [0, n) for n > 0, by Lemire's
// multiply-shift with rejection (unbiased).
func (s *stream) intn(n int) int {
	bound := uint64(n)
	for {
		hi, lo := mul64(s.uint64(), bound)
		if lo >= bound || lo >= (-bound)%bound {
			return int(hi)
		}
	}
}

func mul64(x, y uint64) (hi, lo uint64) {
	const mask32 = 1<<32 - 1
	x0, x1 := x&mask32, x>>32
	y0, y1 := y&mask32, y>>32
	w0 := x0 * y0
	t := x1*y0 + w0>>32
	w1 := t&mask32 + x0*y1
	return x1*y1 + t>>32 + w1>>32, x * y
}

// maxLambda bounds a Poisson mean. Online boosting's λ is a ratio of
// running sums and stays far below this in practice; the bound keeps a
// pathological stream's draws (at most about 1e9 + 3e5) inside a 32-bit
// int, the int of the ARM boards ictal runs on.
const maxLambda = 1e9

// poissonSmall is the mean below which poisson uses inversion.
const poissonSmall = 10

// poisson returns an exact draw from Poisson(lambda) for any lambda >= 0:
// sequential-search inversion of the CDF for lambda < 10 (one uniform,
// about lambda+1 steps) and Hörmann's transformed rejection with squeeze
// (PTRS, "The transformed rejection method for generating Poisson random
// variables", Insurance: Mathematics and Economics 12, 1993) above, which
// is exact and takes about 1.2 pairs of uniforms whatever lambda.
// Non-positive and NaN means give 0; means above maxLambda are clamped.
func (s *stream) poisson(lambda float64) int {
	if !(lambda > 0) {
		return 0
	}
	if lambda > maxLambda {
		lambda = maxLambda
	}
	if lambda < poissonSmall {
		u := s.float64()
		if zeroBelow(u, lambda) {
			return 0
		}
		if v, ok := s.cachedExpNeg(lambda); ok {
			return invertPoisson(u, v, lambda)
		}
		// A mean seen for the first time in a row (boosting's λ varies
		// from example to example) is first tried with fastExpNeg,
		// faster than detmath.Exp but not the same bits: the draw k only
		// depends on comparisons of u with the partial sums of the CDF,
		// and when none of them is within poissonMargin of u (the sums'
		// relative error is below 1e-11 either way), it is the same k as
		// the exact search's, on every architecture. A mean met twice in
		// a row goes to the exact cache.
		if lambda != s.missed {
			s.missed = lambda
			if k, ok := invertPoissonApprox(u, fastExpNeg(lambda), lambda); ok {
				return k
			}
		}
		return invertPoisson(u, s.expNeg(lambda), lambda)
	}
	slam := math.Sqrt(lambda)
	loglam := detmath.Log(lambda)
	// Products are rounded explicitly (float64(…)) wherever they feed an
	// addition, so no architecture fuses them: draws are the same bits
	// everywhere (see internal/detmath).
	b := 0.931 + float64(2.53*slam)
	a := -0.059 + float64(0.02483*b)
	invalpha := 1.1239 + 1.1328/(b-3.4)
	vr := 0.9277 - 3.6224/(b-2)
	for {
		u := s.float64() - 0.5
		v := s.float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor(float64((2*a/us+b)*u) + lambda + 0.43)
		if us >= 0.07 && v <= vr {
			return int(k)
		}
		if k < 0 || (us < 0.013 && v > us) {
			continue
		}
		if detmath.Log(v)+detmath.Log(invalpha)-detmath.Log(a/float64(us*us)+b) <= -lambda+float64(k*loglam)-detmath.LogFactorial(k) {
			return int(k)
		}
	}
}

// invertPoisson returns the Poisson(lambda) draw of the uniform u by
// sequential search of the CDF from p = e^{-lambda}.
func invertPoisson(u, p, lambda float64) int {
	f := p
	k := 0
	for u > f {
		k++
		// float64(…): never fused with the sum below.
		p = float64(p * (lambda / float64(k)))
		if p == 0 { // the remaining tail is below float64 resolution
			break
		}
		f += p
	}
	return k
}

// poissonMargin is the distance between u and every partial sum of the
// CDF below which invertPoissonApprox declines to decide: ten times the
// error of sums (at most 1) started from fastExpNeg's value.
const poissonMargin = 1e-10

// fastExpNeg returns e^{-l} for 0 ≤ l < poissonSmall with a relative
// error below 1e-11 (TestFastExpNeg), for invertPoissonApprox: e^{-l} =
// 2^{-n}·e^r with n the nearest integer to l/ln 2 and |r| ≤ ln 2/2, e^r by
// its Taylor polynomial of degree 9 (remainder below 7e-12) evaluated by
// Estrin's scheme, whose short dependency chain is what makes it faster
// than math.Exp here. Its bits may differ between architectures (fused
// or not); the margin covers that.
func fastExpNeg(l float64) float64 {
	n := math.Floor(l*(1/math.Ln2) + 0.5)
	r := n*math.Ln2 - l
	r2 := r * r
	p01 := 1 + r
	p23 := 1.0/2 + r*(1.0/6)
	p45 := 1.0/24 + r*(1.0/120)
	p67 := 1.0/720 + r*(1.0/5040)
	p89 := 1.0/40320 + r*(1.0/362880)
	p := p01 + r2*(p23+r2*p45) + r2*r2*r2*(p67+r2*p89)
	return p * math.Float64frombits(uint64(1023-int64(n))<<52)
}

// zeroBelow reports whether the inversion draws 0 for the uniform u and
// mean lambda without computing e^{-lambda}: when u lies below 1 − λ, a
// lower bound of e^{-λ}, by more than poissonMargin (which covers the
// rounding of 1 − λ and of the exact search's e^{-λ} many times over), u
// is below the first partial sum, and the exact search returns 0 too.
// Boosting hands its later members small means, whose draws are mostly 0.
func zeroBelow(u, lambda float64) bool {
	return u < (1-lambda)-poissonMargin
}

// invertPoissonApprox is invertPoisson from an approximation p of
// e^{-lambda} (within a few ulps): it reports false, to be redone from the
// exact value, when u comes within poissonMargin of a partial sum (where
// the approximation could decide a comparison the other way) or the
// search runs into the underflowing tail.
func invertPoissonApprox(u, p, lambda float64) (int, bool) {
	f := p
	k := 0
	for {
		if d := u - f; d <= poissonMargin && d >= -poissonMargin {
			return 0, false
		}
		if u <= f {
			return k, true
		}
		k++
		p = float64(p * (lambda / float64(k)))
		if p < 1e-290 || k > 200 {
			return 0, false
		}
		f += p
	}
}

// cachedExpNeg returns e^{-lambda} when the cache holds it.
func (s *stream) cachedExpNeg(lambda float64) (float64, bool) {
	switch lambda {
	case s.expL[0]:
		return s.expV[0], true
	case s.expL[1]:
		return s.expV[1], true
	}
	return 0, false
}

// expNeg returns e^{-lambda} through the two-entry cache.
func (s *stream) expNeg(lambda float64) float64 {
	switch lambda {
	case s.expL[0]:
		return s.expV[0]
	case s.expL[1]:
		return s.expV[1]
	}
	v := detmath.Exp(-lambda)
	s.expL[1], s.expV[1] = s.expL[0], s.expV[0]
	s.expL[0], s.expV[0] = lambda, v
	return v
}

// appendBinary appends the generator state (20 bytes: PCG's own encoding).
func (s *stream) appendBinary(b []byte) []byte {
	st, _ := s.pcg.MarshalBinary() // never fails
	return append(b, st...)
}

const streamEncodedLen = 20

func (s *stream) decode(d *decoder) {
	if d.err != nil {
		return
	}
	if len(d.buf)-d.off < streamEncodedLen {
		d.fail("random stream: truncated")
		return
	}
	if err := s.pcg.UnmarshalBinary(d.buf[d.off : d.off+streamEncodedLen]); err != nil {
		d.fail("random stream: " + err.Error())
		return
	}
	d.off += streamEncodedLen
}
