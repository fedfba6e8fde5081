//go:build !purego

package edf

import "golang.org/x/sys/cpu"

// Design. The samples of a signal are converted four at a time in AVX
// (decode_amd64.s): VPMOVSXWD widens four 16-bit samples to 32 bits (for
// BDF, VPSHUFB puts each sample's three bytes at the top of a 32-bit lane
// and an arithmetic shift by 8 brings them down with their sign), and
// VCVTDQ2PD turns them into four float64 — both exact. Then VSUBPD,
// VMULPD, VADDPD and VMULPD do conversion's four operations in its order,
// each rounded on its own as the Go loop rounds them (never a fused
// multiply-add), so every lane has the bits of decode16Go or decode24Go.
// The four results are stored side by side (stride 1, Reader.ReadRecord)
// or one per frame (Replay: stride = the number of served signals). The
// samples after the last multiple of four go through the Go loop.

// decodeAVX says whether samples are decoded in the AVX loops
// (decode_amd64.s). The Go loops are used on processors without AVX and
// in builds tagged purego.
var decodeAVX = cpu.X86.HasAVX

// decode16 converts the 16-bit samples in b into dst[0], dst[stride] …,
// in the AVX loop where the processor has one.
func decode16(dst []float64, stride int, b []byte, c *conversion) {
	n := len(b) / 2
	if decodeAVX && n >= 4 {
		m := n &^ 3
		_ = dst[(m-1)*stride] // the last element the loop writes
		decode16AVX(&dst[0], &b[0], m/4, stride, c)
		if m == n {
			return
		}
		dst, b = dst[m*stride:], b[2*m:]
	}
	decode16Go(dst, stride, b, c)
}

// decode24 is decode16 for BDF's 24-bit samples.
func decode24(dst []float64, stride int, b []byte, c *conversion) {
	n := len(b) / 3
	if decodeAVX && n >= 4 {
		m := n &^ 3
		_ = dst[(m-1)*stride]
		decode24AVX(&dst[0], &b[0], m/4, stride, c)
		if m == n {
			return
		}
		dst, b = dst[m*stride:], b[3*m:]
	}
	decode24Go(dst, stride, b, c)
}

// decode16AVX converts groups × 4 16-bit little-endian samples at src
// into dst[0], dst[stride] … (stride in float64s, ≥ 1), each by c in
// packed double precision with every operation rounded on its own: the
// bits of decode16Go.
//
//go:noescape
func decode16AVX(dst *float64, src *byte, groups, stride int, c *conversion)

// decode24AVX is decode16AVX for groups × 4 24-bit samples (12 bytes per
// group, none read beyond them): the bits of decode24Go.
//
//go:noescape
func decode24AVX(dst *float64, src *byte, groups, stride int, c *conversion)
