//go:build amd64 && !purego

package features

// radix4AVX is radix4 of span l (even, ≥ 2) on z, whose length is a
// multiple of 8l, with the twiddles laid out by pairTwiddles (12l floats).
//
//go:noescape
func radix4AVX(z, vt []float64, l int)

// lastPassAVX is radix4Last on z, whose length is a multiple of 8, or
// with radix2, radix2 on z, whose length is a multiple of 4.
//
//go:noescape
func lastPassAVX(z []float64, radix2 bool)

// untangleAVX writes the power of bins[i] into dst[i] for i < len(dst),
// a multiple of 4, len(bins) ≥ len(dst), as untangle does with s4 =
// scale/4; z is the transform, bit-reversed.
//
//go:noescape
func untangleAVX(dst, z []float64, bins []bin, s4 float64)

// radix4Pass runs the radix-4 pass of span l: radix4 on twiddles t, or
// its AVX kernel on the same twiddles laid out as vt.
func radix4Pass(z, t, vt []float64, l int) {
	if useAVX && len(z)%(8*l) == 0 && len(vt) >= 12*l {
		radix4AVX(z, vt, l)
		return
	}
	radix4(z, t, l)
}

// radix4LastPass runs the radix-4 pass of span 1 (radix4Last).
func radix4LastPass(z []float64) {
	if useAVX && len(z)%8 == 0 {
		lastPassAVX(z, false)
		return
	}
	radix4Last(z)
}

// radix2Pass runs the last radix-2 pass (radix2).
func radix2Pass(z []float64) {
	if useAVX && len(z)%4 == 0 {
		lastPassAVX(z, true)
		return
	}
	radix2(z)
}

// untanglePass writes the power of bins [lo, lo+len(dst)) as untangle
// does: four bins at a time by the AVX kernel, the rest in Go.
func (f *realFFT) untanglePass(dst []float64, lo int, scale float64) {
	n := 0
	if useAVX {
		n = len(dst) &^ 3
		untangleAVX(dst[:n], f.z, f.bins[lo:lo+n], scale/4)
	}
	f.untangle(dst[n:], lo+n, scale)
}
