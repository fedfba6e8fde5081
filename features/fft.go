package features

import (
	"math"
	"math/bits"

	"github.com/ictal/ictal/internal/detmath"
)

// realFFT is the discrete Fourier transform of a real sequence whose
// length N is a power of two (N ≥ 8), X[k] = Σ x[j]·e^{−2πijk/N}, built
// once and reused; it is not safe for concurrent use.
//
// The caller writes the N reals, in order, into Input: read as N/2
// interleaved complex values z[j] = x[2j] + i·x[2j+1], they are
// transformed in place by an iterative decimation-in-frequency FFT of
// radix 4 (with one radix-2 pass last when log2(N/2) is odd), which leaves
// Z in bit-reversed order, and untangled only for the bins asked for
// (Power):
//
//	X[k] = (Z[k] + Z*[N/2−k])/2 − i·e^{−2πik/N}·(Z[k] − Z*[N/2−k])/2.
//
// Every product is rounded on its own (float64(a*b)) so that no platform
// fuses a multiply-add, and the twiddle factors come from detmath.SinCos:
// the result is the same bits on amd64, arm64 and arm
// (cross/golden_test.go).
type realFFT struct {
	n    int       // real length N
	m    int       // complex length N/2
	z    []float64 // N: the input, then Z interleaved, bit-reversed
	bins []bin     // for k in [1, N/2): what untangling X[k] needs
	// passes holds the twiddles of each radix-4 pass, largest span first:
	// for span l (a quarter of the block length), for k in [0, l), w^k,
	// w^{2k}, w^{3k} with w = e^{−2πi/(4l)}, as 6 floats. The pass of span
	// 1 (trivial twiddles) is not among them.
	passes [][]float64
	// vpasses holds the same twiddles laid out for the AVX kernel
	// (pairTwiddles), when it runs (useAVX); nil otherwise.
	vpasses [][]float64
	spans   []int
	radix2  bool // log2(N/2) is odd: a radix-2 pass comes last
}

// bin is what untangling X[k] needs: where Z[k] and Z[N/2−k] are, in
// floats (the index of the real part; Z is bit-reversed), and e^{−2πik/N}.
type bin struct {
	p, q int32
	c, s float64
}

// isPow2 reports whether n is a power of two.
func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// newRealFFT plans the transform of n reals, n a power of two ≥ 8.
func newRealFFT(n int) *realFFT {
	m := n / 2
	f := &realFFT{n: n, m: m, z: make([]float64, n), bins: make([]bin, m)}
	lg := bits.TrailingZeros(uint(m))
	rev := func(k int) int32 { return int32(bits.Reverse(uint(k)) >> (bits.UintSize - lg)) }
	for k := 1; k < m; k++ {
		c, s := unitRoot(k, n)
		f.bins[k] = bin{p: 2 * rev(k), q: 2 * rev(m-k), c: c, s: s}
	}
	f.radix2 = lg%2 == 1
	for l := m / 4; l >= 2; l /= 4 {
		t := twiddles(l)
		f.passes = append(f.passes, t)
		f.spans = append(f.spans, l)
		if useAVX {
			f.vpasses = append(f.vpasses, pairTwiddles(t, l))
		}
	}
	return f
}

// twiddles returns the radix-4 twiddles of span l (see realFFT.passes).
func twiddles(l int) []float64 {
	t := make([]float64, 6*l)
	for k := 0; k < l; k++ {
		for r := 1; r <= 3; r++ {
			t[6*k+2*(r-1)], t[6*k+2*(r-1)+1] = unitRoot(r*k, 4*l)
		}
	}
	return t
}

// pairTwiddles lays the twiddles t of span l (see realFFT.passes) out for
// the AVX kernel, which holds the complex values k and k+1 in one
// register: for each even k, six groups of four floats, the cosine and the
// sine of w^k, w^{2k} and w^{3k}, each repeated for the real and the
// imaginary lane of both, [c, c, c′, c′] and [s, s, s′, s′] (c′, s′ those
// of k+1). 12l floats in all.
func pairTwiddles(t []float64, l int) []float64 {
	v := make([]float64, 12*l)
	for k := 0; k+1 < l; k += 2 {
		g := v[12*k : 12*k+24]
		for r := range 3 {
			c, s := t[6*k+2*r], t[6*k+2*r+1]
			c1, s1 := t[6*k+6+2*r], t[6*k+6+2*r+1]
			copy(g[8*r:8*r+8], []float64{c, c, c1, c1, s, s, s1, s1})
		}
	}
	return v
}

// unitRoot returns cos and sin of −2πk/n for 0 ≤ k < n, from detmath's
// series on an angle in [−π, π] (the same bits on every platform), exact
// at multiples of a quarter turn.
func unitRoot(k, n int) (c, s float64) {
	k %= n
	switch 4 * k {
	case 0:
		return 1, 0
	case n:
		return 0, -1
	case 2 * n:
		return -1, 0
	case 3 * n:
		return 0, 1
	}
	a := -2 * math.Pi * float64(k) / float64(n)
	if a < -math.Pi {
		a += 2 * math.Pi
	}
	s, c = detmath.SinCos(a)
	return c, s
}

// Input returns the N-long slice the caller fills with the samples before
// transform.
func (f *realFFT) Input() []float64 { return f.z }

// transform runs the complex FFT of the input in place, through the AVX
// kernels where the CPU has them (fft_amd64.go), the same bits.
func (f *realFFT) transform() {
	z := f.z[:2*f.m]
	for i, t := range f.passes {
		var vt []float64
		if f.vpasses != nil {
			vt = f.vpasses[i]
		}
		radix4Pass(z, t, vt, f.spans[i])
	}
	if f.radix2 {
		radix2Pass(z)
	} else {
		radix4LastPass(z)
	}
}

// radix2 is the last pass when log2(N/2) is odd: every pair of complex
// values a, b becomes a + b, a − b.
func radix2(z []float64) {
	for j := 0; j+3 < len(z); j += 4 {
		ar, ai, br, bi := z[j], z[j+1], z[j+2], z[j+3]
		z[j], z[j+1] = ar+br, ai+bi
		z[j+2], z[j+3] = ar-br, ai-bi
	}
}

// radix4 is one decimation-in-frequency pass of span l: in every block of
// 4l complex values, a, b, c, d at k, k+l, k+2l, k+3l become
//
//	k:     a + b + c + d
//	k+l:   ((a + c) − (b + d))·w^{2k}
//	k+2l:  ((a − c) − i(b − d))·w^k
//	k+3l:  ((a − c) + i(b − d))·w^{3k}
//
// (outputs of residue 0, 2, 1, 3 mod 4: two radix-2 passes in one, so the
// final order is bit-reversed).
func radix4(z, t []float64, l int) {
	t = t[:6*l]
	for b := 0; b+8*l <= len(z); b += 8 * l {
		q0 := z[b : b+2*l]
		q1 := z[b+2*l : b+4*l][:len(q0)]
		q2 := z[b+4*l : b+6*l][:len(q0)]
		q3 := z[b+6*l : b+8*l][:len(q0)]
		for k := 0; k+1 < len(q0); k += 2 {
			w := t[3*k : 3*k+6 : 3*k+6]
			ar, ai := q0[k], q0[k+1]
			br, bi := q1[k], q1[k+1]
			cr, ci := q2[k], q2[k+1]
			dr, di := q3[k], q3[k+1]
			s0r, s0i := ar+cr, ai+ci
			d0r, d0i := ar-cr, ai-ci
			s1r, s1i := br+dr, bi+di
			d1r, d1i := br-dr, bi-di
			q0[k], q0[k+1] = s0r+s1r, s0i+s1i
			// Products rounded on their own: no multiply-add anywhere.
			ur, ui := s0r-s1r, s0i-s1i
			q1[k] = float64(ur*w[2]) - float64(ui*w[3])
			q1[k+1] = float64(ur*w[3]) + float64(ui*w[2])
			// −i(b − d) = d1i − i·d1r.
			vr, vi := d0r+d1i, d0i-d1r
			q2[k] = float64(vr*w[0]) - float64(vi*w[1])
			q2[k+1] = float64(vr*w[1]) + float64(vi*w[0])
			xr, xi := d0r-d1i, d0i+d1r
			q3[k] = float64(xr*w[4]) - float64(xi*w[5])
			q3[k+1] = float64(xr*w[5]) + float64(xi*w[4])
		}
	}
}

// radix4Last is the pass of span 1, whose twiddles are all 1.
func radix4Last(z []float64) {
	for j := 0; j+7 < len(z); j += 8 {
		q := z[j : j+8 : j+8]
		ar, ai, br, bi := q[0], q[1], q[2], q[3]
		cr, ci, dr, di := q[4], q[5], q[6], q[7]
		s0r, s0i := ar+cr, ai+ci
		d0r, d0i := ar-cr, ai-ci
		s1r, s1i := br+dr, bi+di
		d1r, d1i := br-dr, bi-di
		q[0], q[1] = s0r+s1r, s0i+s1i
		q[2], q[3] = s0r-s1r, s0i-s1i
		q[4], q[5] = d0r+d1i, d0i-d1r
		q[6], q[7] = d0r-d1i, d0i+d1r
	}
}

// power writes |X[k]|²·scale into dst[k−lo] for k in [lo, lo+len(dst)),
// 0 ≤ lo, lo+len(dst) ≤ N/2+1, after transform.
func (f *realFFT) power(dst []float64, lo int, scale float64) {
	z, m := f.z, f.m
	from, to := lo, lo+len(dst) // the bins left to untangle
	// The ends, Z[0] = Σ even + i·Σ odd: X[0] = even + odd, X[N/2] =
	// even − odd.
	if from == 0 {
		x := z[0] + z[1]
		dst[0] = float64(x*x) * scale
		from++
	}
	if to == m+1 {
		x := z[0] - z[1]
		dst[len(dst)-1] = float64(x*x) * scale
		to--
	}
	if from < to {
		f.untanglePass(dst[from-lo:to-lo], from, scale)
	}
}

// untangle writes |X[k]|²·scale into dst[k−lo] for k in [lo,
// lo+len(dst)), 0 < lo, lo+len(dst) ≤ N/2.
func (f *realFFT) untangle(dst []float64, lo int, scale float64) {
	z := f.z
	bins := f.bins[lo : lo+len(dst)]
	// 2X is untangled below (the halvings dropped: powers of two scale
	// exactly, so the result has the same bits), hence scale/4.
	s4 := scale / 4
	dst = dst[:len(bins)]
	for i, b := range bins {
		p, q := int(b.p), int(b.q)
		zk, zq := z[p:p+2:p+2], z[q:q+2:q+2] // Z[k], Z[m−k]
		zr, zi, yr, yi := zk[0], zk[1], zq[0], zq[1]
		// E = (Z[k] + Z*[m−k])/2 is the transform of the even samples, D =
		// (Z[k] − Z*[m−k])/2 that of the odd ones times i, and X[k] = E −
		// i·w·D with w = e^{−2πik/N}; er … di are 2E and 2D.
		er, ei := zr+yr, zi-yi
		dr, di := zr-yr, zi+yi
		c, s := b.c, b.s
		// w·D = (c·dr − s·di) + i(c·di + s·dr); −i·(a + ib) = b − ia.
		wr := float64(c*dr) - float64(s*di)
		wi := float64(c*di) + float64(s*dr)
		xr, xi := er+wi, ei-wr
		dst[i] = (float64(xr*xr) + float64(xi*xi)) * s4
	}
}
