//go:build !purego

#include "textflag.h"

// func loadAVX(dst, src *float64, n int, hi, lo float64) (ok bool)
//
// Y0 four samples; Y2 hi and Y3 lo in every lane; Y5 the lanes in range
// so far (all ones at the start), Y1 a comparison. The predicates are
// ordered (a NaN compares false): 18 is LE_OQ, 29 GE_OQ.
TEXT ·loadAVX(SB), NOSPLIT, $0-41
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD hi+24(FP), Y2
	VBROADCASTSD lo+32(FP), Y3
	VCMPPD       $0, Y2, Y2, Y5 // hi == hi: all ones

load:
	VMOVUPD (SI), Y0
	VMOVUPD Y0, (DI)
	VCMPPD  $18, Y2, Y0, Y1 // v ≤ hi
	VANDPD  Y1, Y5, Y5
	VCMPPD  $29, Y3, Y0, Y1 // v ≥ lo
	VANDPD  Y1, Y5, Y5
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $4, CX
	JNZ     load

	VMOVMSKPD Y5, AX
	CMPQ      AX, $15
	SETEQ     ok+40(FP)
	VZEROUPPER
	RET

// func scatterAVX(ring, in *float64, groups, stride int)
//
// DI the ring slot of the group's first channel, SI its samples, DX the
// stride in bytes and R8 three strides; Y0 (X0) four samples, X1 the
// upper two.
TEXT ·scatterAVX(SB), NOSPLIT, $0-32
	MOVQ ring+0(FP), DI
	MOVQ in+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ stride+24(FP), DX
	SHLQ $3, DX
	LEAQ (DX)(DX*2), R8

scatter:
	VMOVUPD      (SI), Y0
	VEXTRACTF128 $1, Y0, X1
	VMOVSD       X0, (DI)
	VMOVHPD      X0, (DI)(DX*1)
	VMOVSD       X1, (DI)(DX*2)
	VMOVHPD      X1, (DI)(R8*1)
	LEAQ         (DI)(DX*4), DI
	ADDQ         $32, SI
	DECQ         CX
	JNZ          scatter
	VZEROUPPER
	RET
