//go:build !purego

package classifier

import "unsafe"

// The naive Bayes learner's three loops (learn's update of a class,
// refreshOdds' refresh fused with the pass over x, and quad) run in
// assembly on amd64: in SSE2, which every amd64 processor has, two
// features at a time, one per lane of an XMM register; and where the
// processor and the operating system support AVX (useAVX, decided once at
// start), four features at a time in a YMM register, with the last pair
// and an odd last feature done as in SSE2. Each gives the same bits as its
// Go loop (nbLearnStepGo, nbRefreshOddsStepGo, nbQuadGo), which stays for
// other processors and builds tagged purego. Why the bits agree:
//
//   - Every operation of the Go loop is one IEEE operation rounded on its
//     own: every product that meets an addition is converted with
//     float64(…), so no compiler fuses it into a multiply-add (arm64's
//     and GOAMD64=v3's included). The assembly does, per lane, the same
//     operations on the same operands in the same order, with MULPD,
//     ADDPD, SUBPD, DIVPD and their VEX forms (never a fused
//     multiply-add), rounded to nearest even like the Go code. Addition
//     and multiplication are commutative bit for bit, NaN included, since
//     every NaN here is the one the processor makes (x is never NaN and
//     the decoder takes no NaN state).
//   - The sums the Go loops split over even and odd j (quad's q0 and q1,
//     logProd's m0 and m1) are exactly the two lanes of an XMM register;
//     an odd last feature goes alone to lane 0 with the scalar (SD)
//     instructions, as the Go tail adds it to q0 and m0, and the lanes are
//     combined at the end as q0 + q1 and m0·m1. The AVX loops compute the
//     terms of features j … j+3 at once, then add or multiply the low
//     half (j, j+1) into the two lanes and after it the high half (j+2,
//     j+3): the Go loop's order.
//   - MAXPD's dst = dst > src ? dst : src returns src for a NaN or equal
//     operands: with dst the floor f and src the variance v it is the Go
//     code's "if v < f { v = f }" in every case; with dst the second
//     moment s and src the running maximum, "if s > m2max { m2max = s }".
//     The maximum is then taken per lane and the lanes combined: the
//     running maximum starts at +0 and only ever takes a larger value, so
//     it is never NaN or −0, and the largest of non-NaN values other than
//     −0 is one value whatever the order (two lanes or four).
//   - The biased exponents e = b>>52 (sign bit included, so 0 … 0xfff)
//     are summed as 64-bit integers (PADDQ, wrapping like uint64), in any
//     order. "e − 1 ≥ 0x7fe" (unsigned) for some term, the Go loop's bad,
//     is e = 0 or e ≥ 0x7ff for some term: the smallest e is 0 or the
//     largest ≥ 0x7ff, and the assembly keeps the smallest and largest
//     (PMINSW, PMAXSW on the 16-bit word that holds e; AVX has no 256-bit
//     integer instructions, so the AVX loops do this two lanes at a time).
//
// Measured with BenchmarkOnline at d = 36 (M = 10) on a shared 2-core AMD
// EPYC, instructions per Score + Learn counted by callgrind in Score and
// Learn only: the Go loops 19 500 (UOB); SSE2 11 800 (UOB) and 13 000
// (AC2); AVX 8 200 and 9 800, then 9 000 for AC2 with the shortcut to a
// Poisson draw of 0 (zeroBelow); detmath.Log's series without divisions
// saved 0.45 k of AC2's. Times on that machine vary by a third with its
// load; the README's Resources section has them.

// The wrappers check that every slice holds len(x) values (the loops read
// and write that many); the loops take n = 0 too (no feature: the Go
// loops' results).

// nbLearnStep is nbLearnStepGo.
func nbLearnStep(x, mu, v, sm []float64, a, r float64) float64 {
	n := len(x)
	_, _, _ = mu[:n], v[:n], sm[:n]
	if useAVX {
		return nbLearnAVX(unsafe.SliceData(x), unsafe.SliceData(mu), unsafe.SliceData(v), unsafe.SliceData(sm), n, a, r)
	}
	return nbLearnSSE2(unsafe.SliceData(x), unsafe.SliceData(mu), unsafe.SliceData(v), unsafe.SliceData(sm), n, a, r)
}

// nbRefreshOddsStep is nbRefreshOddsStepGo.
func nbRefreshOddsStep(x, mp, mn, hp, hn, v, half []float64, base float64) (q, m float64, eb uint64, bad bool) {
	n := len(x)
	_, _, _, _, _, _ = mp[:n], mn[:n], hp[:n], hn[:n], v[:n], half[:n]
	if useAVX {
		return nbRefreshOddsAVX(unsafe.SliceData(x), unsafe.SliceData(mp), unsafe.SliceData(mn),
			unsafe.SliceData(hp), unsafe.SliceData(hn), unsafe.SliceData(v), unsafe.SliceData(half), n, base)
	}
	return nbRefreshOddsSSE2(unsafe.SliceData(x), unsafe.SliceData(mp), unsafe.SliceData(mn),
		unsafe.SliceData(hp), unsafe.SliceData(hn), unsafe.SliceData(v), unsafe.SliceData(half), n, base)
}

// nbQuad is nbQuadGo.
func nbQuad(x, mp, mn, hp, hn []float64) float64 {
	n := len(x)
	_, _, _, _ = mp[:n], mn[:n], hp[:n], hn[:n]
	if useAVX {
		return nbQuadAVX(unsafe.SliceData(x), unsafe.SliceData(mp), unsafe.SliceData(mn), unsafe.SliceData(hp), unsafe.SliceData(hn), n)
	}
	return nbQuadSSE2(unsafe.SliceData(x), unsafe.SliceData(mp), unsafe.SliceData(mn), unsafe.SliceData(hp), unsafe.SliceData(hn), n)
}

// nbLearnSSE2 is nbLearnStepGo over n features.
//
//go:noescape
func nbLearnSSE2(x, mu, v, sm *float64, n int, a, r float64) (m2max float64)

// nbLearnAVX is nbLearnStepGo over n features, four at a time (AVX).
//
//go:noescape
func nbLearnAVX(x, mu, v, sm *float64, n int, a, r float64) (m2max float64)

// nbRefreshOddsSSE2 is nbRefreshOddsStepGo over n features; half is one
// of hp and hn (stored before either is read).
//
//go:noescape
func nbRefreshOddsSSE2(x, mp, mn, hp, hn, v, half *float64, n int, base float64) (q, m float64, eb uint64, bad bool)

// nbRefreshOddsAVX is nbRefreshOddsSSE2 four features at a time (AVX).
//
//go:noescape
func nbRefreshOddsAVX(x, mp, mn, hp, hn, v, half *float64, n int, base float64) (q, m float64, eb uint64, bad bool)

// nbQuadSSE2 is nbQuadGo over n features.
//
//go:noescape
func nbQuadSSE2(x, mp, mn, hp, hn *float64, n int) float64

// nbQuadAVX is nbQuadGo over n features, computing the terms of four
// features at a time (AVX) and adding them to the two sums in the Go
// loop's order.
//
//go:noescape
func nbQuadAVX(x, mp, mn, hp, hn *float64, n int) float64

// useAVX says whether the processor and the operating system support AVX
// (cpuAVX), decided once when the program starts; the loops that have an
// AVX version run it then.
var useAVX = cpuAVX()

// cpuAVX reports whether the processor has AVX and the operating system
// saves its registers (cpu_amd64.s). It is written here rather than taken
// from golang.org/x/sys/cpu so that the package depends on the standard
// library and internal/detmath alone.
func cpuAVX() bool
