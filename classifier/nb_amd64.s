//go:build !purego

#include "textflag.h"

// The naive Bayes loops in SSE2, then in AVX (at the end of the file):
// see nb_amd64.go for what they compute and why the bits are those of the
// Go loops. Each SSE2 loop takes features two at a time (pair), one per
// lane, then an odd last one alone in lane 0 (the scalar SD forms of the
// same instructions); each AVX loop takes them four at a time, then a
// last pair and an odd last one as the SSE2 loop does. AX is the byte
// offset of the current feature in every slice, DX counts the pairs (or
// fours) left, CX is the number of features.

// PAIRS starts the loop over the CX features at the first pair, or at
// label one if there is none.
#define PAIRS(one) \
	XORQ AX, AX; \
	MOVQ CX, DX; \
	SHRQ $1, DX; \
	JZ   one

// NEXTPAIR moves on to the next pair and back to label pair while one is
// left.
#define NEXTPAIR(pair) \
	ADDQ $16, AX; \
	DECQ DX; \
	JNZ  pair

// ODD goes on with an odd last feature, or to label done if there is none.
#define ODD(done) \
	TESTQ $1, CX; \
	JZ    done

// QUADARGS loads the pointers x, mp, mn, hp and hn (the first five
// arguments) into the registers QUAD reads them from.
#define QUADARGS \
	MOVQ x+0(FP), SI; \
	MOVQ mp+8(FP), R8; \
	MOVQ mn+16(FP), R9; \
	MOVQ hp+24(FP), R10; \
	MOVQ hn+32(FP), R11

// LEARNARGS loads the pointers x, mu, v, sm and the count n into the
// registers LEARN and LEARN4 read them from.
#define LEARNARGS \
	MOVQ x+0(FP), SI; \
	MOVQ mu+8(FP), DI; \
	MOVQ v+16(FP), R8; \
	MOVQ sm+24(FP), R9; \
	MOVQ n+32(FP), CX

// LEARN updates the mean at DI and the variance at R8 towards x at SI,
// stores the second moment at R9 and keeps the running maximum in X0.
// X14 holds a, X15 r; X1–X4 are scratch. MOVE copies the maximum without
// touching the lane that is not being worked on.
#define LEARN(LOAD, STORE, MOVE, SUB, ADD, MUL, MAX) \
	LOAD  (SI)(AX*1), X1; \ // x
	LOAD  (DI)(AX*1), X2; \ // μ
	SUB   X2, X1; \         // δ = x − μ
	MOVAPD X14, X3; \
	MUL   X1, X3; \         // a·δ
	ADD   X3, X2; \         // μ' = μ + a·δ
	STORE X2, (DI)(AX*1); \
	MUL   X1, X3; \         // a·δ·δ
	LOAD  (R8)(AX*1), X4; \ // v
	ADD   X3, X4; \         // v + a·δ²
	MUL   X15, X4; \        // v' = r·(v + a·δ²)
	STORE X4, (R8)(AX*1); \
	MUL   X2, X2; \         // μ'²
	ADD   X4, X2; \         // s = μ'² + v'
	STORE X2, (R9)(AX*1); \
	MAX   X0, X2; \         // s > max ? s : max
	MOVE  X2, X0

// REFRESHEND combines the lanes and returns (q, m, eb, bad); ret is a
// label of its own in each function.
#define REFRESHEND(ret) \
	SUMLANES; \
	MOVSD      X0, q+72(FP); \
	MOVAPD     X1, X4; \
	UNPCKHPD   X4, X4; \
	MULSD      X4, X1; \         // m0·m1
	MOVSD      X1, m+80(FP); \
	MOVQ       X2, AX; \
	PUNPCKHQDQ X2, X2; \
	MOVQ       X2, BX; \
	ADDQ       BX, AX; \
	ADDQ       R13, AX; \
	MOVQ       AX, eb+88(FP); \
	MOVAPD     X3, X4; \
	PUNPCKHQDQ X4, X4; \
	PMINSW     X4, X3; \
	MOVQ       X3, AX; \         // the smallest exponent (words 1–3 are 0; all 0x7fff if n = 0)
	MOVAPD     X8, X4; \
	PUNPCKHQDQ X4, X4; \
	PMAXSW     X4, X8; \
	MOVQ       X8, BX; \         // the largest
	CMPQ       BX, $0x7ff; \
	SETCC      bad+96(FP); \     // the largest ≥ 0x7ff (unsigned)
	TESTQ      AX, AX; \
	JNZ        ret; \
	MOVB       $1, bad+96(FP); \ // the smallest is 0
ret: \
	RET

// REFRESHARGS loads the arguments and constants of refreshOdds and
// clears its sums (see nbRefreshOddsSSE2).
#define REFRESHARGS \
	QUADARGS; \
	MOVQ     v+40(FP), R12; \
	MOVQ     half+48(FP), DI; \
	MOVQ     n+56(FP), CX; \
	MOVSD    base+64(FP), X14; \
	UNPCKLPD X14, X14; \
	BCAST($0x3e112e0be826d695, X15); \ // nbFloorRel = 1e-9
	BCAST($0x3fe0000000000000, X13); \ // 0.5
	BCAST($0x000fffffffffffff, X12); \ // f64MantMask
	BCAST($0x3ff0000000000000, X11); \ // 1.0
	BCAST($0x7fff7fff7fff7fff, X3); \  // the largest signed words
	XORPD    X0, X0; \
	MOVAPD   X11, X1; \
	PXOR     X2, X2; \
	PXOR     X8, X8; \
	XORQ     R13, R13

// QUADTAIL ends a quad loop: at label one, an odd last feature in lane
// 0, then at label done the lanes summed and returned (labels of the
// function's own).
#define QUADTAIL(one, done) \
one: \
	ODD(done); \
	QUAD(MOVSD, SUBSD, MULSD, ADDSD); \
done: \
	SUMLANES; \
	MOVSD X0, ret+48(FP); \
	RET

// LEARNEND returns the larger of X0's lanes as m2max.
#define LEARNEND \
	MOVAPD   X0, X1; \
	UNPCKHPD X1, X1; \          // the odd lane
	MAXSD    X0, X1; \          // odd > even ? odd : even
	MOVSD    X1, m2max+56(FP); \
	RET

// func nbLearnSSE2(x, mu, v, sm *float64, n int, a, r float64) (m2max float64)
TEXT ·nbLearnSSE2(SB), NOSPLIT, $0-64
	LEARNARGS
	MOVSD    a+40(FP), X14
	UNPCKLPD X14, X14
	MOVSD    r+48(FP), X15
	UNPCKLPD X15, X15
	XORPD    X0, X0           // the maximum of even and odd j, from +0
	PAIRS(learnone)

learnpair:
	LEARN(MOVUPD, MOVUPD, MOVAPD, SUBPD, ADDPD, MULPD, MAXPD)
	NEXTPAIR(learnpair)

learnone:
	ODD(learndone)
	LEARN(MOVSD, MOVSD, MOVSD, SUBSD, ADDSD, MULSD, MAXSD)

learndone:
	LEARNEND

// LEARN4 is LEARN for the four features from AX on, with VEX
// instructions on YMM registers: a in Y14, r in Y15, the maxima of the
// four lanes in Y0; Y1–Y4 are scratch.
#define LEARN4 \
	VMOVUPD (SI)(AX*1), Y1; \
	VMOVUPD (DI)(AX*1), Y2; \
	VSUBPD  Y2, Y1, Y1; \         // δ = x − μ
	VMULPD  Y1, Y14, Y3; \        // a·δ
	VADDPD  Y3, Y2, Y2; \         // μ' = μ + a·δ
	VMOVUPD Y2, (DI)(AX*1); \
	VMULPD  Y1, Y3, Y3; \         // a·δ·δ
	VADDPD  (R8)(AX*1), Y3, Y4; \ // v + a·δ²
	VMULPD  Y15, Y4, Y4; \        // v' = r·(v + a·δ²)
	VMOVUPD Y4, (R8)(AX*1); \
	VMULPD  Y2, Y2, Y2; \         // μ'²
	VADDPD  Y4, Y2, Y2; \         // s = μ'² + v'
	VMOVUPD Y2, (R9)(AX*1); \
	VMAXPD  Y0, Y2, Y0             // s > max ? s : max

// func nbLearnAVX(x, mu, v, sm *float64, n int, a, r float64) (m2max float64)
//
// nbLearnSSE2 four features at a time: the running maximum is kept in
// four lanes, then folded into two before the last pair and the odd last
// feature, which go as in nbLearnSSE2.
TEXT ·nbLearnAVX(SB), NOSPLIT, $0-64
	LEARNARGS
	VBROADCASTSD a+40(FP), Y14
	VBROADCASTSD r+48(FP), Y15
	VXORPD       Y0, Y0, Y0        // the maxima of the lanes, from +0
	XORQ         AX, AX
	MOVQ         CX, DX
	SHRQ         $2, DX
	JZ           avxlearnpair

avxlearnfour:
	LEARN4
	ADDQ         $32, AX
	DECQ         DX
	JNZ          avxlearnfour
	VEXTRACTF128 $1, Y0, X1
	VMAXPD       X1, X0, X0        // never NaN: the order does not matter

avxlearnpair:
	VZEROUPPER
	TESTQ $2, CX
	JZ    avxlearnone
	LEARN(MOVUPD, MOVUPD, MOVAPD, SUBPD, ADDPD, MULPD, MAXPD)
	ADDQ  $16, AX

avxlearnone:
	ODD(avxlearndone)
	LEARN(MOVSD, MOVSD, MOVSD, SUBSD, ADDSD, MULSD, MAXSD)

avxlearndone:
	LEARNEND

// QUAD adds half−·(x − μ−)² − half+·(x − μ+)² to X0, with x at SI, μ+ at
// R8, μ− at R9, half+ at R10 and half− at R11; X4–X7 are scratch.
#define QUAD(LOAD, SUB, MUL, ADD) \
	LOAD   (SI)(AX*1), X4; \  // x
	MOVAPD X4, X5; \
	LOAD   (R8)(AX*1), X6; \
	SUB    X6, X4; \          // δ+ = x − μ+
	LOAD   (R9)(AX*1), X7; \
	SUB    X7, X5; \          // δ− = x − μ−
	MUL    X5, X5; \          // δ−·δ−
	LOAD   (R11)(AX*1), X7; \
	MUL    X7, X5; \          // δ−·δ−·half−
	MUL    X4, X4; \          // δ+·δ+
	LOAD   (R10)(AX*1), X6; \
	MUL    X6, X4; \          // δ+·δ+·half+
	SUB    X4, X5; \
	ADD    X5, X0

// SUMLANES puts the sum of X0's lanes, even + odd, in its lane 0 (X4 is
// scratch).
#define SUMLANES \
	MOVAPD   X0, X4; \
	UNPCKHPD X4, X4; \
	ADDSD    X4, X0

// func nbQuadSSE2(x, mp, mn, hp, hn *float64, n int) float64
TEXT ·nbQuadSSE2(SB), NOSPLIT, $0-56
	QUADARGS
	MOVQ  n+40(FP), CX
	XORPD X0, X0              // q0, q1
	PAIRS(quadone)

quadpair:
	QUAD(MOVUPD, SUBPD, MULPD, ADDPD)
	NEXTPAIR(quadpair)

	QUADTAIL(quadone, quaddone)

// FLOOR floors the variance at R12 by the floor of the second moment at
// DI (1e-9·s + base, with 1e-9 in X15 and base in X14), divides 0.5 (X13)
// by it and stores the result h at DI and in X5; X4 is scratch.
#define FLOOR(LOAD, STORE, MUL, ADD, MAX, DIV) \
	LOAD   (DI)(AX*1), X4; \  // s
	MUL    X15, X4; \         // 1e-9·s
	ADD    X14, X4; \         // f = 1e-9·s + base
	LOAD   (R12)(AX*1), X5; \ // v
	MAX    X5, X4; \          // f > v ? f : v, that is v < f ? f : v
	MOVAPD X13, X5; \
	DIV    X4, X5; \          // h = 0.5/u
	STORE  X5, (DI)(AX*1)

// BCAST puts the float64 with the bits imm in both lanes of X (BX is
// scratch).
#define BCAST(imm, X) \
	MOVQ     imm, BX; \
	MOVQ     BX, X; \
	UNPCKLPD X, X

// EXPONENTS keeps in X3 and X8 the smallest and largest of the biased
// exponents b>>52 of the terms, which X6 holds in its lanes: in 16-bit
// word 0 of each lane (0 … 0xfff, positive as a signed word; the other
// words are 0).
#define EXPONENTS \
	PMINSW X6, X3; \
	PMAXSW X6, X8

// REFRESH2 is the step of refreshOdds for the pair of features at AX:
// FLOOR, the exponents and mantissas of the two new h, then QUAD.
#define REFRESH2 \
	FLOOR(MOVUPD, MOVUPD, MULPD, ADDPD, MAXPD, DIVPD); \
	MOVAPD X5, X6; \
	PSRLQ  $52, X6; \            // b>>52
	PADDQ  X6, X2; \             // eb += b>>52
	EXPONENTS; \
	ANDPD  X12, X5; \
	ORPD   X11, X5; \            // h's mantissa in [1, 2)
	MULPD  X5, X1; \
	QUAD(MOVUPD, SUBPD, MULPD, ADDPD)

// REFRESH1 is REFRESH2 for an odd last feature, in lane 0; its exponent
// goes to R13, added to eb at the end.
#define REFRESH1 \
	FLOOR(MOVSD, MOVSD, MULSD, ADDSD, MAXSD, DIVSD); \
	MOVQ       X5, R13; \
	SHRQ       $52, R13; \       // b>>52 of the last feature
	MOVQ       R13, X6; \
	PUNPCKLQDQ X6, X6; \         // in both lanes
	EXPONENTS; \
	ANDPD      X12, X5; \
	ORPD       X11, X5; \
	MULSD      X5, X1; \
	QUAD(MOVSD, SUBSD, MULSD, ADDSD)

// func nbRefreshOddsSSE2(x, mp, mn, hp, hn, v, half *float64, n int, base float64) (q, m float64, eb uint64, bad bool)
//
// Besides the quad sum in X0: X1 the mantissa products m0, m1, X2 the
// exponent sums (the last odd feature's in R13), X3 and X8 the smallest
// and largest exponent (EXPONENTS). "b>>52 − 1 ≥ 0x7fe" (unsigned) for
// some term is the smallest exponent being 0 or the largest ≥ 0x7ff. X11
// holds 1.0, X12 the mantissa mask.
TEXT ·nbRefreshOddsSSE2(SB), NOSPLIT, $0-97
	REFRESHARGS
	PAIRS(refreshone)

refreshpair:
	REFRESH2
	NEXTPAIR(refreshpair)

refreshone:
	ODD(refreshdone)
	REFRESH1

refreshdone:
	REFRESHEND(refreshret)

// QUAD4 adds the terms of the four features from AX on to X0 as two
// pairs, first features j, j+1 (lanes 0, 1), then j+2, j+3: the order in
// which the Go loop adds them to q0 and q1. The terms are computed four at
// a time with the same operations as QUAD; Y5 and Y6 are scratch.
#define QUAD4 \
	VMOVUPD      (SI)(AX*1), Y5; \
	VSUBPD       (R9)(AX*1), Y5, Y6; \  // δ− = x − μ−
	VSUBPD       (R8)(AX*1), Y5, Y5; \  // δ+ = x − μ+
	VMULPD       Y6, Y6, Y6; \          // δ−·δ−
	VMULPD       (R11)(AX*1), Y6, Y6; \ // δ−·δ−·half−
	VMULPD       Y5, Y5, Y5; \          // δ+·δ+
	VMULPD       (R10)(AX*1), Y5, Y5; \ // δ+·δ+·half+
	VSUBPD       Y5, Y6, Y6; \
	VADDPD       X6, X0, X0; \          // q0 += t_j, q1 += t_j+1
	VEXTRACTF128 $1, Y6, X6; \
	VADDPD       X6, X0, X0             // q0 += t_j+2, q1 += t_j+3

// func nbQuadAVX(x, mp, mn, hp, hn *float64, n int) float64
//
// nbQuadSSE2 with the terms of four features per YMM register; the sums
// stay the two lanes of X0, added to in the Go loop's order.
TEXT ·nbQuadAVX(SB), NOSPLIT, $0-56
	QUADARGS
	MOVQ   n+40(FP), CX
	VXORPD X0, X0, X0
	XORQ   AX, AX
	MOVQ   CX, DX
	SHRQ   $2, DX
	JZ     avxquadpair

avxquadfour:
	QUAD4
	ADDQ $32, AX
	DECQ DX
	JNZ  avxquadfour

avxquadpair:
	VZEROUPPER
	TESTQ $2, CX
	JZ    avxquadone
	QUAD(MOVUPD, SUBPD, MULPD, ADDPD)
	ADDQ  $16, AX

	QUADTAIL(avxquadone, avxquaddone)

// EXPONENTS4 adds the biased exponents of the four h in Y5 to X2 and
// keeps their smallest and largest in X3 and X8, as REFRESH2 does, two
// lanes at a time (features j, j+1, then j+2, j+3); X6 and X7 are
// scratch.
#define EXPONENTS4 \
	VEXTRACTF128 $1, Y5, X7; \
	VPSRLQ       $52, X5, X6; \ // b>>52 of j, j+1
	VPADDQ       X6, X2, X2; \
	VPMINSW      X6, X3, X3; \
	VPMAXSW      X6, X8, X8; \
	VPSRLQ       $52, X7, X6; \ // of j+2, j+3
	VPADDQ       X6, X2, X2; \
	VPMINSW      X6, X3, X3; \
	VPMAXSW      X6, X8, X8

// REFRESH4 is REFRESH2 for the four features from AX on: the floors, the
// divisions and the mantissas four at a time, the exponents two at a
// time, and the products and sums in the Go loop's order (the pair j,
// j+1 first, then j+2, j+3). Y11–Y15 hold the constants of FLOOR and
// the mantissa in every lane.
#define REFRESH4 \
	VMOVUPD      (DI)(AX*1), Y4; \
	VMULPD       Y15, Y4, Y4; \         // 1e-9·s
	VADDPD       Y14, Y4, Y4; \         // f = 1e-9·s + base
	VMAXPD       (R12)(AX*1), Y4, Y4; \ // f > v ? f : v
	VDIVPD       Y4, Y13, Y5; \         // h = 0.5/u
	VMOVUPD      Y5, (DI)(AX*1); \
	EXPONENTS4; \
	VANDPD       Y12, Y5, Y5; \
	VORPD        Y11, Y5, Y5; \         // the mantissas in [1, 2)
	VMULPD       X5, X1, X1; \          // m0 ·= j's, m1 ·= j+1's
	VEXTRACTF128 $1, Y5, X5; \
	VMULPD       X5, X1, X1; \          // then j+2's, j+3's
	QUAD4

// WIDEN copies the low lane pair of register X into its high half.
#define WIDEN(X, Y) \
	VINSERTF128 $1, X, Y, Y

// func nbRefreshOddsAVX(x, mp, mn, hp, hn, v, half *float64, n int, base float64) (q, m float64, eb uint64, bad bool)
//
// nbRefreshOddsSSE2 four features at a time (REFRESH4), then a last pair
// and an odd last feature as there.
TEXT ·nbRefreshOddsAVX(SB), NOSPLIT, $0-97
	REFRESHARGS
	WIDEN(X11, Y11)
	WIDEN(X12, Y12)
	WIDEN(X13, Y13)
	WIDEN(X14, Y14)
	WIDEN(X15, Y15)
	XORQ AX, AX
	MOVQ CX, DX
	SHRQ $2, DX
	JZ   avxrefreshpair

avxrefreshfour:
	REFRESH4
	ADDQ $32, AX
	DECQ DX
	JNZ  avxrefreshfour

avxrefreshpair:
	VZEROUPPER
	TESTQ $2, CX
	JZ    avxrefreshone
	REFRESH2
	ADDQ  $16, AX

avxrefreshone:
	ODD(avxrefreshdone)
	REFRESH1

avxrefreshdone:
	REFRESHEND(avxrefreshret)
