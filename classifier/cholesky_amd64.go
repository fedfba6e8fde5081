//go:build !purego

package classifier

import "unsafe"

// QDA's hot loops run in SSE2 on amd64, which every amd64 processor has,
// so nothing is detected at run time: cholUpdate's rank-one update (the
// loop of cholUpdateGo, rotations included) and forwardSolveRecip. In
// both, the rows of a column are independent of each other (no sum runs
// along them), so the assembly takes two rows at a time, one per lane of
// an XMM register, and gives the same bits as the Go loops (cholUpdateGo
// with cholStep, forwardSolveRecipGo), which stay for other processors and
// builds tagged purego. Why the bits agree:
//
//   - Every operation of the Go loops is one IEEE operation rounded on its
//     own: every product that meets an addition or subtraction is
//     converted with float64(…), so no compiler fuses it into a
//     multiply-add. The assembly does, per lane, the same operations on the
//     same operands in the same order, with MULPD, ADDPD, SUBPD, DIVSD and
//     SQRTSD (never a fused multiply-add), rounded to nearest even like the
//     Go code: (L_ik + s·x_i)·(1/c) adds then multiplies, c·x_i − s·L_ik'
//     and (z_i − L_ik·z_k) − L_i,k+1·z_k+1 subtract in the Go order, and
//     math.Sqrt is SQRTSD, correctly rounded. Addition and multiplication
//     are commutative bit for bit, except for which of two NaNs of
//     different payloads comes out (see cholSameBits in the tests).
//   - An odd last row goes alone to lane 0 with the scalar (SD) forms.
//   - forwardSolveRecip takes four columns at a time where the Go loop
//     takes two: each z_i still loses its products one column after the
//     other, in the Go order, and the sum Σ z_k² runs along the columns as
//     in Go, one scalar addition after another.
//   - A rotation whose L_kk or x_k is out of the range where rotation
//     computes √(L_kk² + x_k²) directly (hypotLimit) needs hypot: the
//     assembly stops before it and returns the column, Go takes that step
//     (cholStep) and hands back to the assembly. If that is rotation k+1
//     of a pair, the assembly first applies rotation k alone to the rest
//     of column k: two rotations per pass give the bits of one per pass
//     (TestCholUpdatePairsSameBits), so where the pairs start changes no
//     bit.
//
// backSolveT (whose four partial sums run along the rows) and
// forwardSolveFrom (LDA's) stay in Go.
//
// Measured with BenchmarkOnline at d = 36 (M = 10) on a shared 2-core AMD
// EPYC, against the Go loops (callgrind, instructions per Score + Learn;
// medians of 7 alternated runs, noisy): UOB 190 800 → 101 300
// instructions, 14.9 → 10.7 µs; AC2 156 000 → 72 900, 12.6 → 7.0 µs. In
// UOB the forward solve goes from 101 700 to 36 200 instructions per op
// (wrapper included), the update with its rotations from 51 300 to
// 27 300; in AC2 from 117 000 to 41 600 and from 16 800 to 8 900.

// The wrappers check that every slice holds the values the loops read and
// write; the loops take n = 0 and d = 0 too.

// cholUpdate is cholUpdateGo: the assembly takes the steps (cholStep)
// whose rotations need no hypot, Go the others.
func cholUpdate(l []float64, d int, x []float64, from int) {
	_, _ = l[:packedLen(d)], x[:d]
	if from < 0 {
		panic("classifier: cholUpdate from a negative column")
	}
	for k := from; k < d; k = cholStep(l, d, x, k) {
		if k = cholUpdateSSE2(unsafe.SliceData(l), d, unsafe.SliceData(x), k); k >= d {
			return
		}
	}
}

// forwardSolveRecip is forwardSolveRecipGo.
func forwardSolveRecip(l, inv []float64, d int, z []float64) float64 {
	_, _, _ = l[:packedLen(d)], inv[:d], z[:d]
	return forwardSolveRecipSSE2(unsafe.SliceData(l), unsafe.SliceData(inv), d, unsafe.SliceData(z))
}

// cholUpdateSSE2 is cholUpdateGo's loop from column k, up to the first
// rotation that needs hypot: it returns that column, or d.
//
//go:noescape
func cholUpdateSSE2(l *float64, d int, x *float64, k int) int

// forwardSolveRecipSSE2 is forwardSolveRecipGo with d ≥ 0 columns.
//
//go:noescape
func forwardSolveRecipSSE2(l, inv *float64, d int, z *float64) float64
