//go:build !purego

#include "textflag.h"

// The Cholesky loops in SSE2: see cholesky_amd64.go for what they compute
// and why the bits are those of the Go loops. Each loop takes its rows two
// at a time, one per lane, then an odd last one alone in lane 0 (the
// scalar SD forms of the same instructions). AX is the byte offset of the
// current row in every column, BX counts the pairs left.

// ROWS starts a loop over the n rows at the next label, or goes to label
// one if there is no pair of rows.
#define ROWS(n, one) \
	XORQ AX, AX; \
	MOVQ n, BX; \
	SHRQ $1, BX; \
	JZ   one

// NEXTROWS moves on to the next two rows and back to label pair while a
// pair is left.
#define NEXTROWS(pair) \
	ADDQ $16, AX; \
	DECQ BX; \
	JNZ  pair

// LASTROW goes on with an odd last row of n, or to label done if there is
// none.
#define LASTROW(n, done) \
	TESTQ $1, n; \
	JZ    done

// EACHROW applies BODY to the n rows: two at a time with the packed (PD)
// instructions at label pairs, then an odd last one with the scalar (SD)
// ones at label one; it goes on at label done. BODY takes the
// instructions that load, store, add, subtract and multiply.
#define EACHROW(n, BODY, pairs, one, done) \
	ROWS(n, one); \
pairs: \
	BODY(MOVUPD, MOVUPD, ADDPD, SUBPD, MULPD); \
	NEXTROWS(pairs); \
one: \
	LASTROW(n, done); \
	BODY(MOVSD, MOVSD, ADDSD, SUBSD, MULSD)

// ISZERO goes to label zero if X, lane 0, is ±0 (not if it is NaN); X7 is
// scratch.
#define ISZERO(X, zero) \
	XORPD   X7, X7; \
	UCOMISD X7, X; \
	JNE     3(PC); \
	JPS     2(PC); \
	JMP     zero

// ROTATION is the Go function rotation for the diagonal L_kk at R and x_k
// in X0: it stores r = √(L_kk² + x_k²) at R and leaves s = x_k/L_kk,
// c = r/L_kk, 1/c = L_kk/r in lane 0 of S, C and IC. If the magnitudes of
// L_kk and x_k are not both below hypotLimit with one above 1/hypotLimit
// (X15 holds hypotLimit, X14 the mask of the magnitude), the Go function
// takes hypot: ROTATION goes to label out and changes nothing. X4–X7 are
// scratch.
#define ROTATION(R, S, C, IC, out) \
	MOVSD   (R), X4; \            // L_kk
	MOVAPD  X4, X5; \
	ANDPD   X14, X5; \            // |L_kk|
	MOVAPD  X0, X6; \
	ANDPD   X14, X6; \            // |x_k|
	UCOMISD X5, X15; \
	JBE     out; \                // not |L_kk| < hypotLimit (or NaN)
	UCOMISD X6, X15; \
	JBE     out; \                // not |x_k| < hypotLimit (or NaN)
	MAXSD   X6, X5; \             // m = max(|L_kk|, |x_k|)
	MOVQ    $0x20ca2fe76a3f9475, BX; \
	MOVQ    BX, X7; \             // 1/hypotLimit
	UCOMISD X7, X5; \
	JBE     out; \                // not m > 1/hypotLimit
	MOVAPD  X4, X5; \
	MULSD   X5, X5; \             // L_kk²
	MOVAPD  X0, X6; \
	MULSD   X6, X6; \             // x_k²
	ADDSD   X6, X5; \
	SQRTSD  X5, X5; \             // r
	MOVQ    $0x3ff0000000000000, BX; \
	MOVQ    BX, S; \
	DIVSD   X4, S; \              // 1/L_kk
	MOVAPD  S, C; \
	MULSD   X5, C; \              // c = r·(1/L_kk)
	MULSD   X0, S; \              // s = x_k·(1/L_kk)
	MOVAPD  X4, IC; \
	DIVSD   X5, IC; \             // 1/c = L_kk/r
	MOVSD   X5, (R)

// ROTATE applies the rotation (s, c, 1/c) in (S, C, IC) to the column at
// col and to x at R13, leaving the new x_i in X1 (X2, X3 scratch):
// L_ik' = (L_ik + s·x_i)·(1/c), x_i' = c·x_i − s·L_ik'.
#define ROTATE(LOAD, STORE, ADD, SUB, MUL, col, S, C, IC) \
	LOAD   (R13)(AX*1), X1; \ // x_i
	MOVAPD S, X2; \
	MUL    X1, X2; \          // s·x_i
	LOAD   (col)(AX*1), X3; \
	ADD    X2, X3; \          // L_ik + s·x_i
	MUL    IC, X3; \          // L_ik'
	STORE  X3, (col)(AX*1); \
	MUL    C, X1; \           // c·x_i
	MOVAPD S, X2; \
	MUL    X3, X2; \          // s·L_ik'
	SUB    X2, X1             // x_i'

// ROTATE1 applies rotation k, (X8, X9, X10), to the column at R12 and x.
#define ROTATE1(LOAD, STORE, ADD, SUB, MUL) \
	ROTATE(LOAD, STORE, ADD, SUB, MUL, R12, X8, X9, X10); \
	STORE X1, (R13)(AX*1)

// ROTATE2 applies rotation k to the column at R12 and x, then rotation
// k+1, (X11, X12, X13), to the column at R14 and x.
#define ROTATE2(LOAD, STORE, ADD, SUB, MUL) \
	ROTATE(LOAD, STORE, ADD, SUB, MUL, R12, X8, X9, X10); \
	MOVAPD X11, X2; \
	MUL    X1, X2; \          // s1·x_i'
	LOAD   (R14)(AX*1), X3; \
	ADD    X2, X3; \
	MUL    X13, X3; \         // L_i,k+1'
	STORE  X3, (R14)(AX*1); \
	MUL    X12, X1; \         // c1·x_i'
	MOVAPD X11, X2; \
	MUL    X3, X2; \
	SUB    X2, X1; \
	STORE  X1, (R13)(AX*1)

// func cholUpdateSSE2(l *float64, d int, x *float64, k int) int
//
// The loop of cholUpdateGo from column k, one cholStep after another (R8
// is k, SI the factor, DX is d, DI x), up to the first rotation that needs
// hypot: it returns that column, or d. In a step, R10 is the top of column
// k, R12 and R13 the rows of column k and of x being rotated, CX their
// count, R14 the top of column k+1 and then its rows.
TEXT ·cholUpdateSSE2(SB), NOSPLIT, $0-40
	MOVQ l+0(FP), SI
	MOVQ d+8(FP), DX
	MOVQ x+16(FP), DI
	MOVQ k+24(FP), R8
	MOVQ $0x7fffffffffffffff, BX
	MOVQ BX, X14              // the mask of the magnitude (lane 0: ROTATION's values are scalars)
	MOVQ $0x5f138d352e5096af, BX
	MOVQ BX, X15              // hypotLimit = 1e150

updstep:
	CMPQ  R8, DX
	JGE   updret
	MOVSD (DI)(R8*8), X0      // x_k
	ISZERO(X0, updskip)
	MOVQ  R8, AX
	IMULQ DX, AX
	LEAQ  -1(R8), BX
	IMULQ R8, BX
	SHRQ  $1, BX
	SUBQ  BX, AX              // colStart(d, k) = k·d − k(k−1)/2
	LEAQ  (SI)(AX*8), R10
	ROTATION(R10, X8, X9, X10, updret)
	MOVQ  DX, CX
	SUBQ  R8, CX
	DECQ  CX                  // n = d − k − 1 rows below L_kk
	LEAQ  8(R10), R12
	LEAQ  8(DI)(R8*8), R13
	LEAQ  8(R10)(CX*8), R14   // the top of column k+1
	CMPQ  CX, $2
	JLT   updsingle
	// Where x_k+1 = 0 the Go step applies rotation k alone; the pair below
	// gives the same bits (its rotation k+1 is made from the new x_k+1).
	XORQ  AX, AX
	ROTATE1(MOVSD, MOVSD, ADDSD, SUBSD, MULSD) // the top of column k+1: x_k+1 in X1
	ADDQ  $8, R12
	ADDQ  $8, R13
	DECQ  CX
	ISZERO(X1, updsingle)     // rotation k+1 is the identity
	MOVAPD X1, X0
	ROTATION(R14, X11, X12, X13, updsingle) // Go makes rotation k+1: k alone here
	ADDQ  $8, R14
	UNPCKLPD X8, X8
	UNPCKLPD X9, X9
	UNPCKLPD X10, X10
	UNPCKLPD X11, X11
	UNPCKLPD X12, X12
	UNPCKLPD X13, X13
	EACHROW(CX, ROTATE2, updpairs, updpairone, updpairdone)

updpairdone:
	ADDQ $2, R8
	JMP  updstep

updsingle:                    // rotation k on the CX rows at R12, R13
	UNPCKLPD X8, X8
	UNPCKLPD X9, X9
	UNPCKLPD X10, X10
	EACHROW(CX, ROTATE1, updsingles, updsingleone, updskip)

updskip:
	INCQ R8
	JMP  updstep

updret:
	MOVQ R8, ret+32(FP)
	RET

// TAKE takes L_ij·z_j from z_i in X4, with L_ij at addr and z_j in Z (X5
// scratch).
#define TAKE(LOAD, SUB, MUL, addr, Z) \
	LOAD addr, X5; \
	MUL  Z, X5; \
	SUB  X5, X4

// ELIMINATE takes z_k·L_ik and then z_k+1·L_i,k+1 from z_i, with z at R8,
// column k at SI, column k+1 at R9 (each from row k+2), z_k and z_k+1 in
// X1 and X2 (X4, X5 scratch). It adds nothing: ADD is for EACHROW.
#define ELIMINATE(LOAD, STORE, ADD, SUB, MUL) \
	LOAD  16(R8)(AX*1), X4; \
	TAKE(LOAD, SUB, MUL, 16(SI)(AX*1), X1); \
	TAKE(LOAD, SUB, MUL, 8(R9)(AX*1), X2); \
	STORE X4, 16(R8)(AX*1)

// ELIMINATE4 takes z_k·L_ik, z_k+1·L_i,k+1, z_k+2·L_i,k+2 and then
// z_k+3·L_i,k+3 from z_i, with z at R8, columns k to k+3 at SI, R9, R10
// and R11 (each from row k+4), z_k to z_k+3 in X1, X2, X7 and X8 (X4, X5
// scratch; ADD unused, as in ELIMINATE).
#define ELIMINATE4(LOAD, STORE, ADD, SUB, MUL) \
	LOAD  32(R8)(AX*1), X4; \
	TAKE(LOAD, SUB, MUL, 32(SI)(AX*1), X1); \
	TAKE(LOAD, SUB, MUL, 24(R9)(AX*1), X2); \
	TAKE(LOAD, SUB, MUL, 16(R10)(AX*1), X7); \
	TAKE(LOAD, SUB, MUL, 8(R11)(AX*1), X8); \
	STORE X4, 32(R8)(AX*1)

// SOLVE sets z_k = z_k·(1/L_kk), X, with z_k at off(R8) and 1/L_kk at
// off(DI), and adds z_k² to the sum in X0 (X3 scratch).
#define SOLVE(off, X) \
	MULSD off(DI), X; \
	MOVSD X, off(R8); \
	MOVSD X, X3; \
	MULSD X3, X3; \
	ADDSD X3, X0

// SOLVE2 solves for z_k and z_k+1 (X1, X2), with column k at SI, and
// puts the top of column k+1 in R9.
#define SOLVE2 \
	MOVSD (R8), X1; \
	SOLVE(0, X1); \           // z_k
	MOVSD 8(SI), X3; \        // L_k+1,k
	MULSD X1, X3; \
	MOVSD 8(R8), X2; \
	SUBSD X3, X2; \           // z_k+1 − L_k+1,k·z_k
	SOLVE(8, X2); \           // z_k+1
	LEAQ  (SI)(CX*8), R9; \
	UNPCKLPD X1, X1; \
	UNPCKLPD X2, X2

// func forwardSolveRecipSSE2(l, inv *float64, d int, z *float64) float64
//
// Columns four at a time, k to k+3, while there are, then two, then one:
// each z_i loses its products in the order of the columns, as in the Go
// loop (two at a time), so the bits are the same. SI is the top of column
// k (L_kk), DI and R8 the addresses of 1/L_kk and z_k, CX is d − k.
TEXT ·forwardSolveRecipSSE2(SB), NOSPLIT, $0-40
	MOVQ  l+0(FP), SI
	MOVQ  inv+8(FP), DI
	MOVQ  d+16(FP), CX
	MOVQ  z+24(FP), R8
	XORPD X0, X0              // the sum, from +0

fwdquads:
	CMPQ  CX, $4
	JLT   fwdcolumns
	SOLVE2
	XORQ  AX, AX
	ELIMINATE(MOVUPD, MOVUPD, ADDPD, SUBPD, MULPD) // rows k+2 and k+3
	LEAQ  -8(R9)(CX*8), R10   // the top of column k+2
	LEAQ  -16(R10)(CX*8), R11 // the top of column k+3
	MOVSD 16(R8), X7
	SOLVE(16, X7)             // z_k+2
	MOVSD 8(R10), X3          // L_k+3,k+2
	MULSD X7, X3
	MOVSD 24(R8), X8
	SUBSD X3, X8
	SOLVE(24, X8)             // z_k+3
	UNPCKLPD X7, X7
	UNPCKLPD X8, X8
	LEAQ  -4(CX), DX          // the rows below k+3
	EACHROW(DX, ELIMINATE4, fwdquadpairs, fwdquadone, fwdquadnext)

fwdquadnext:
	LEAQ -24(R11)(CX*8), SI   // the top of column k+4
	ADDQ $32, DI
	ADDQ $32, R8
	SUBQ $4, CX
	JMP  fwdquads

fwdcolumns:                   // d − k < 4: columns k and k+1, then k+2
	CMPQ  CX, $2
	JLT   fwdlast
	SOLVE2
	CMPQ  CX, $3
	JLT   fwdpairdone
	XORQ  AX, AX
	ELIMINATE(MOVSD, MOVSD, ADDSD, SUBSD, MULSD) // row k+2, the last

fwdpairdone:
	LEAQ -8(R9)(CX*8), SI     // the top of column k+2
	ADDQ $16, DI
	ADDQ $16, R8
	SUBQ $2, CX

fwdlast:
	TESTQ CX, CX
	JZ    fwdret
	MOVSD (R8), X1
	SOLVE(0, X1)              // the last z_k of an odd d

fwdret:
	MOVSD X0, ret+32(FP)
	RET
