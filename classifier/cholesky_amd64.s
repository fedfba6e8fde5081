//go:build !purego

#include "textflag.h"

// The Cholesky loops in SSE2: see cholesky_amd64.go for what they compute
// and why the bits are those of the Go loops. Each loop takes its rows two
// at a time, one per lane, then an odd last one alone in lane 0 (the
// scalar SD forms of the same instructions). AX is the byte offset of the
// current row in every column, BX counts the pairs left, DX is the number
// of rows.

// ROWS starts the loop over the DX rows at label pair, or at label one if
// there is no pair.
#define ROWS(one) \
	XORQ AX, AX; \
	MOVQ DX, BX; \
	SHRQ $1, BX; \
	JZ   one

// NEXTROWS moves on to the next two rows and back to label pair while a
// pair is left.
#define NEXTROWS(pair) \
	ADDQ $16, AX; \
	DECQ BX; \
	JNZ  pair

// LASTROW goes on with an odd last row, or to label done if there is none.
#define LASTROW(done) \
	TESTQ $1, DX; \
	JZ    done

// ROTATE applies the rotation (s, c, 1/c) in (X10, X11, X12) to the column
// at SI and to x at R8, leaving the new x_i in X1 (X2, X3 scratch):
// L_ik' = (L_ik + s·x_i)·(1/c), x_i' = c·x_i − s·L_ik'.
#define ROTATE(LOAD, STORE, ADD, SUB, MUL, col) \
	LOAD   (R8)(AX*1), X1; \  // x_i
	MOVAPD X10, X2; \
	MUL    X1, X2; \          // s·x_i
	LOAD   (col)(AX*1), X3; \
	ADD    X2, X3; \          // L_ik + s·x_i
	MUL    X12, X3; \         // L_ik'
	STORE  X3, (col)(AX*1); \
	MUL    X11, X1; \         // c·x_i
	MOVAPD X10, X2; \
	MUL    X3, X2; \          // s·L_ik'
	SUB    X2, X1             // x_i'

// ROTATE2 is ROTATE with the column at SI, then the rotation (s1, c1,
// 1/c1) in (X13, X14, X15) with the column at DI, on the x_i' in X1,
// stored at R8.
#define ROTATE2(LOAD, STORE, ADD, SUB, MUL) \
	ROTATE(LOAD, STORE, ADD, SUB, MUL, SI); \
	MOVAPD X13, X2; \
	MUL    X1, X2; \          // s1·x_i'
	LOAD   (DI)(AX*1), X3; \
	ADD    X2, X3; \
	MUL    X15, X3; \         // L_i,k+1'
	STORE  X3, (DI)(AX*1); \
	MUL    X14, X1; \         // c1·x_i'
	MOVAPD X13, X2; \
	MUL    X3, X2; \
	SUB    X2, X1; \
	STORE  X1, (R8)(AX*1)

// BROADCAST loads the float64 argument at off(FP) into both lanes of X.
#define BROADCAST(off, X) \
	MOVSD    off(FP), X; \
	UNPCKLPD X, X

// func cholRotateSSE2(col, xs *float64, n int, s, c, ic float64)
TEXT ·cholRotateSSE2(SB), NOSPLIT, $0-48
	MOVQ col+0(FP), SI
	MOVQ xs+8(FP), R8
	MOVQ n+16(FP), DX
	BROADCAST(s+24(FP), X10)
	BROADCAST(c+32(FP), X11)
	BROADCAST(ic+40(FP), X12)
	ROWS(rotone)

rotpair:
	ROTATE(MOVUPD, MOVUPD, ADDPD, SUBPD, MULPD, SI)
	MOVUPD X1, (R8)(AX*1)
	NEXTROWS(rotpair)

rotone:
	LASTROW(rotdone)
	ROTATE(MOVSD, MOVSD, ADDSD, SUBSD, MULSD, SI)
	MOVSD X1, (R8)(AX*1)

rotdone:
	RET

// func cholRotate2SSE2(colA, colB, xr *float64, n int, s, c, ic, s1, c1, ic1 float64)
TEXT ·cholRotate2SSE2(SB), NOSPLIT, $0-80
	MOVQ colA+0(FP), SI
	MOVQ colB+8(FP), DI
	MOVQ xr+16(FP), R8
	MOVQ n+24(FP), DX
	BROADCAST(s+32(FP), X10)
	BROADCAST(c+40(FP), X11)
	BROADCAST(ic+48(FP), X12)
	BROADCAST(s1+56(FP), X13)
	BROADCAST(c1+64(FP), X14)
	BROADCAST(ic1+72(FP), X15)
	ROWS(rot2one)

rot2pair:
	ROTATE2(MOVUPD, MOVUPD, ADDPD, SUBPD, MULPD)
	NEXTROWS(rot2pair)

rot2one:
	LASTROW(rot2done)
	ROTATE2(MOVSD, MOVSD, ADDSD, SUBSD, MULSD)

rot2done:
	RET

// ELIMINATE takes z_k·L_ik and then z_k+1·L_i,k+1 from z_i, with z at R8,
// column k at SI, column k+1 at R9 (each from row k+2), z_k and z_k+1 in
// X1 and X2 (X4–X6 scratch).
#define ELIMINATE(LOAD, STORE, SUB, MUL) \
	LOAD  16(R8)(AX*1), X4; \ // z_i
	LOAD  16(SI)(AX*1), X5; \
	MUL   X1, X5; \           // L_ik·z_k
	SUB   X5, X4; \
	LOAD  8(R9)(AX*1), X6; \
	MUL   X2, X6; \           // L_i,k+1·z_k+1
	SUB   X6, X4; \
	STORE X4, 16(R8)(AX*1)

// SOLVE sets z_k = z_k·(1/L_kk), X, with z_k at off(R8) and 1/L_kk at
// off(DI), and adds z_k² to the sum in X0 (X3 scratch).
#define SOLVE(off, X) \
	MULSD off(DI), X; \
	MOVSD X, off(R8); \
	MOVSD X, X3; \
	MULSD X3, X3; \
	ADDSD X3, X0

// func forwardSolveRecipSSE2(l, inv *float64, d int, z *float64) float64
//
// Columns two at a time, k and k+1, as the Go loop: SI is the top of
// column k (L_kk), DI and R8 the addresses of 1/L_kk and z_k, CX is d − k.
TEXT ·forwardSolveRecipSSE2(SB), NOSPLIT, $0-40
	MOVQ  l+0(FP), SI
	MOVQ  inv+8(FP), DI
	MOVQ  d+16(FP), CX
	MOVQ  z+24(FP), R8
	XORPD X0, X0              // the sum, from +0

fwdcolumns:
	CMPQ     CX, $2
	JLT      fwdlast
	MOVSD    (R8), X1
	SOLVE(0, X1)              // z_k
	MOVSD    8(SI), X3        // L_k+1,k
	MULSD    X1, X3
	MOVSD    8(R8), X2
	SUBSD    X3, X2           // z_k+1 − L_k+1,k·z_k
	SOLVE(8, X2)              // z_k+1
	LEAQ     (SI)(CX*8), R9   // the top of column k+1
	UNPCKLPD X1, X1
	UNPCKLPD X2, X2
	LEAQ     -2(CX), DX       // the rows below k+1
	ROWS(fwdone)

fwdpair:
	ELIMINATE(MOVUPD, MOVUPD, SUBPD, MULPD)
	NEXTROWS(fwdpair)

fwdone:
	LASTROW(fwdnext)
	ELIMINATE(MOVSD, MOVSD, SUBSD, MULSD)

fwdnext:
	LEAQ -8(R9)(CX*8), SI     // the top of column k+2
	ADDQ $16, DI
	ADDQ $16, R8
	SUBQ $2, CX
	JMP  fwdcolumns

fwdlast:
	TESTQ CX, CX
	JZ    fwdret
	MOVSD (R8), X1
	SOLVE(0, X1)              // the last z_k of an odd d

fwdret:
	MOVSD X0, ret+32(FP)
	RET
