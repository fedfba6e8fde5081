//go:build !amd64 || purego

package features

// radix4Pass runs the radix-4 pass of span l (radix4); vt is unused.
func radix4Pass(z, t, vt []float64, l int) { radix4(z, t, l) }

// radix4LastPass runs the radix-4 pass of span 1 (radix4Last).
func radix4LastPass(z []float64) { radix4Last(z) }

// radix2Pass runs the last radix-2 pass (radix2).
func radix2Pass(z []float64) { radix2(z) }

// untanglePass writes the power of bins [lo, lo+len(dst)) (untangle).
func (f *realFFT) untanglePass(dst []float64, lo int, scale float64) {
	f.untangle(dst, lo, scale)
}
