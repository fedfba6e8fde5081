//go:build !purego

package classifier

import "unsafe"

// QDA's hot loops run in SSE2 on amd64, which every amd64 processor has,
// so nothing is detected at run time: the rotations of cholUpdate's
// rank-one update (cholRotate, and cholRotate2 for two successive
// rotations) and the whole of forwardSolveRecip. Every row of these loops
// is independent of the others (no sum runs along the rows), so they take
// two rows at a time, one per lane of an XMM register, and give the same
// bits as their Go loops (cholRotateGo, cholRotate2Go,
// forwardSolveRecipGo), which stay for other processors and builds tagged
// purego. Why the bits agree:
//
//   - Every operation of the Go loops is one IEEE operation rounded on its
//     own: every product that meets an addition or subtraction is
//     converted with float64(…), so no compiler fuses it into a
//     multiply-add. The assembly does, per lane, the same operations on the
//     same operands in the same order, with MULPD, ADDPD, SUBPD (never a
//     fused multiply-add), rounded to nearest even like the Go code:
//     (L_ik + s·x_i)·(1/c) adds then multiplies, c·x_i − s·L_ik' and
//     (z_i − L_ik·z_k) − L_i,k+1·z_k+1 subtract in the Go order. Addition
//     and multiplication are commutative bit for bit, NaN included, since
//     every NaN here is the one the processor makes.
//   - An odd last row goes alone to lane 0 with the scalar (SD) forms.
//   - forwardSolveRecip's one sum, Σ z_k², runs along the columns as in
//     Go, one scalar addition after another in the same order.
//
// rotation (a square root, and hypot out of range) and the first row of
// each pair of rotations stay in Go: they are once per column, not per
// element. backSolveT and forwardSolveFrom (LDA's) and the other loops
// of this file stay in Go.
//
// Measured with BenchmarkOnline at d = 36 (M = 10) on a shared 2-core AMD
// EPYC, against the Go loops: see the commit that added this file.

// The wrappers check that every slice holds the values the loops read and
// write; the loops take n = 0 and d = 0 too.

// cholRotate is cholRotateGo.
func cholRotate(col, xs []float64, s, c, ic float64) {
	n := len(col)
	_ = xs[:n]
	cholRotateSSE2(unsafe.SliceData(col), unsafe.SliceData(xs), n, s, c, ic)
}

// cholRotate2 is cholRotate2Go.
func cholRotate2(colA, colB, xr []float64, s, c, ic, s1, c1, ic1 float64) {
	n := len(colA)
	_, _ = colB[:n], xr[:n]
	cholRotate2SSE2(unsafe.SliceData(colA), unsafe.SliceData(colB), unsafe.SliceData(xr), n, s, c, ic, s1, c1, ic1)
}

// forwardSolveRecip is forwardSolveRecipGo.
func forwardSolveRecip(l, inv []float64, d int, z []float64) float64 {
	_, _, _ = l[:packedLen(d)], inv[:d], z[:d]
	return forwardSolveRecipSSE2(unsafe.SliceData(l), unsafe.SliceData(inv), d, unsafe.SliceData(z))
}

// cholRotateSSE2 is cholRotateGo over n rows.
//
//go:noescape
func cholRotateSSE2(col, xs *float64, n int, s, c, ic float64)

// cholRotate2SSE2 is cholRotate2Go over n rows.
//
//go:noescape
func cholRotate2SSE2(colA, colB, xr *float64, n int, s, c, ic, s1, c1, ic1 float64)

// forwardSolveRecipSSE2 is forwardSolveRecipGo with d ≥ 0 columns.
//
//go:noescape
func forwardSolveRecipSSE2(l, inv *float64, d int, z *float64) float64
