package features

import (
	"math"
	"math/bits"

	"github.com/ictal/ictal/internal/detmath"
)

// realFFT is the discrete Fourier transform of a real sequence whose
// length N is a power of two (N ≥ 4), X[k] = Σ x[j]·e^{−2πijk/N}, built
// once and reused; it is not safe for concurrent use.
//
// The N reals are packed into N/2 complex values z[j] = x[2j] + i·x[2j+1]
// (loaded in bit-reversed order by the caller through slot), transformed
// in place by an iterative decimation-in-time FFT of radix 4 (one radix-2
// pass first when log2(N/2) is odd), and untangled bin by bin (bin):
//
//	X[k] = (Z[k] + Z*[N/2−k])/2 − i·e^{−2πik/N}·(Z[k] − Z*[N/2−k])/2.
//
// Only the bins asked for are untangled. Real and imaginary parts are kept
// in separate slices, and every product is rounded on its own
// (float64(a*b)) so that no platform fuses a multiply-add: the result is
// the same bits on amd64, arm64 and arm (cross/golden_test.go). The
// twiddle factors come from detmath.SinCos for the same reason.
type realFFT struct {
	n      int   // real length N
	m      int   // complex length N/2
	rev    []int // rev[j]: bit-reversed position of z[j] among m
	re, im []float64
	// stages holds the twiddles of each radix-4 pass after the first:
	// for span L (the length of the sub-transforms combined), for k in
	// [0, L), w^k, w^{2k}, w^{3k} with w = e^{−2πi/(4L)}, as 6 floats.
	stages [][]float64
	radix2 bool      // log2(m) is odd: a radix-2 pass comes first
	half   []float64 // e^{−2πik/N} for k in [0, N/2], as cos, sin pairs (sin ≤ 0)
}

// isPow2 reports whether n is a power of two.
func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// newRealFFT plans the transform of n reals, n a power of two ≥ 8.
func newRealFFT(n int) *realFFT {
	m := n / 2
	f := &realFFT{n: n, m: m, rev: make([]int, m), re: make([]float64, m), im: make([]float64, m)}
	lg := bits.TrailingZeros(uint(m))
	for j := range f.rev {
		f.rev[j] = int(bits.Reverse(uint(j)) >> (bits.UintSize - lg))
	}
	f.radix2 = lg%2 == 1
	l := 1
	if f.radix2 {
		l = 2
	}
	for l *= 4; l < m; l *= 4 {
		// Passes with span l ≥ 4 (or 2 after a radix-2 pass); the pass of
		// span 1 has trivial twiddles.
		f.stages = append(f.stages, twiddles(l))
	}
	if f.radix2 && m >= 8 {
		f.stages = append([][]float64{twiddles(2)}, f.stages...)
	}
	f.half = make([]float64, 2*(m+1))
	for k := 0; k <= m; k++ {
		c, s := unitRoot(k, n)
		f.half[2*k], f.half[2*k+1] = c, s
	}
	return f
}

// twiddles returns the radix-4 twiddles of span l (see realFFT.stages).
func twiddles(l int) []float64 {
	t := make([]float64, 6*l)
	for k := 0; k < l; k++ {
		for r := 1; r <= 3; r++ {
			c, s := unitRoot(r*k, 4*l)
			t[6*k+2*(r-1)], t[6*k+2*(r-1)+1] = c, s
		}
	}
	return t
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

// transform runs the complex FFT of re, im in place; the caller has
// stored z[j] at rev[j].
func (f *realFFT) transform() {
	re, im := f.re[:f.m], f.im[:f.m]
	stages := f.stages
	if f.radix2 {
		for j := 0; j+1 < len(re); j += 2 {
			ar, ai, br, bi := re[j], im[j], re[j+1], im[j+1]
			re[j], im[j] = ar+br, ai+bi
			re[j+1], im[j+1] = ar-br, ai-bi
		}
	} else {
		radix4First(re, im)
	}
	l := 4
	if f.radix2 {
		l = 2
	}
	for _, t := range stages {
		radix4(re, im, t, l)
		l *= 4
	}
}

// radix4First is the radix-4 pass of span 1: every twiddle is 1.
func radix4First(re, im []float64) {
	for j := 0; j+3 < len(re); j += 4 {
		// Bit-reversed input: positions 0, 1, 2, 3 hold the sub-transforms
		// of the residues 0, 2, 1, 3 (mod 4).
		ar, ai := re[j], im[j]
		br, bi := re[j+1], im[j+1] // residue 2
		cr, ci := re[j+2], im[j+2] // residue 1
		dr, di := re[j+3], im[j+3] // residue 3
		s0r, s0i := ar+br, ai+bi
		d0r, d0i := ar-br, ai-bi
		s1r, s1i := cr+dr, ci+di
		d1r, d1i := cr-dr, ci-di
		re[j], im[j] = s0r+s1r, s0i+s1i
		re[j+2], im[j+2] = s0r-s1r, s0i-s1i
		// X[1] = d0 − i·d1, X[3] = d0 + i·d1.
		re[j+1], im[j+1] = d0r+d1i, d0i-d1r
		re[j+3], im[j+3] = d0r-d1i, d0i+d1r
	}
}

// radix4 combines, in every block of 4l, the four sub-transforms of span
// l at offsets 0, l, 2l, 3l (residues 0, 2, 1, 3) with the twiddles t.
func radix4(re, im, t []float64, l int) {
	for b := 0; b+4*l <= len(re); b += 4 * l {
		r0, i0 := re[b:b+l], im[b:b+l]
		r1, i1 := re[b+l:b+2*l], im[b+l:b+2*l]
		r2, i2 := re[b+2*l:b+3*l], im[b+2*l:b+3*l]
		r3, i3 := re[b+3*l:b+4*l], im[b+3*l:b+4*l]
		t := t[:6*l]
		for k := range r0 {
			w := t[6*k : 6*k+6 : 6*k+6]
			ar, ai := r0[k], i0[k]
			// c·w^k (residue 1, at offset 2l), b·w^{2k} (residue 2, at
			// offset l), d·w^{3k}; products rounded on their own.
			cr := float64(r2[k]*w[0]) - float64(i2[k]*w[1])
			ci := float64(r2[k]*w[1]) + float64(i2[k]*w[0])
			br := float64(r1[k]*w[2]) - float64(i1[k]*w[3])
			bi := float64(r1[k]*w[3]) + float64(i1[k]*w[2])
			dr := float64(r3[k]*w[4]) - float64(i3[k]*w[5])
			di := float64(r3[k]*w[5]) + float64(i3[k]*w[4])
			s0r, s0i := ar+br, ai+bi
			d0r, d0i := ar-br, ai-bi
			s1r, s1i := cr+dr, ci+di
			d1r, d1i := cr-dr, ci-di
			r0[k], i0[k] = s0r+s1r, s0i+s1i
			r2[k], i2[k] = s0r-s1r, s0i-s1i
			r1[k], i1[k] = d0r+d1i, d0i-d1r
			r3[k], i3[k] = d0r-d1i, d0i+d1r
		}
	}
}

// bin returns the real and imaginary parts of X[k], 0 ≤ k ≤ N/2, after
// transform.
func (f *realFFT) bin(k int) (xr, xi float64) {
	m := f.m
	j := m - k
	if k == 0 || k == m {
		// Z[0] = Σ even + i·Σ odd: X[0] = even + odd, X[N/2] = even − odd.
		if k == 0 {
			return f.re[0] + f.im[0], 0
		}
		return f.re[0] - f.im[0], 0
	}
	zr, zi := f.re[k], f.im[k]
	yr, yi := f.re[j], -f.im[j] // Z*[m−k]
	// E = (Z[k] + Z*[m−k])/2 is the transform of the even samples, D =
	// (Z[k] − Z*[m−k])/2 = i·O that of the odd ones times i, and X[k] =
	// E + w·O = E − i·w·D with w = e^{−2πik/N}. Halving is exact.
	er, ei := float64(0.5*(zr+yr)), float64(0.5*(zi+yi))
	dr, di := float64(0.5*(zr-yr)), float64(0.5*(zi-yi))
	c, s := f.half[2*k], f.half[2*k+1]
	// w·D = (c·dr − s·di) + i(c·di + s·dr); −i·(a + ib) = b − ia.
	wr := float64(c*dr) - float64(s*di)
	wi := float64(c*di) + float64(s*dr)
	return er + wi, ei - wr
}
