//go:build !purego

#include "textflag.h"

// func loadAVX(dst, src *float64, n int, hi, lo float64) (ok bool)
//
// CX counts the groups of four samples, BX the samples left after them
// (done one at a time in the low lanes). Y0 four samples; Y2 hi and Y3
// lo in every lane; Y5 the lanes in range so far (all ones at the
// start), X9 the same for the samples after the groups, Y1 a comparison. The predicates are
// ordered (a NaN compares false): 18 is LE_OQ, 29 GE_OQ.
TEXT ·loadAVX(SB), NOSPLIT, $0-41
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVQ         CX, BX
	ANDQ         $3, BX
	SHRQ         $2, CX
	VBROADCASTSD hi+24(FP), Y2
	VBROADCASTSD lo+32(FP), Y3
	VCMPPD       $0, Y2, Y2, Y5 // hi == hi: all ones
	VMOVAPD      X5, X9
	TESTQ        CX, CX
	JZ           loadtail

load:
	VMOVUPD (SI), Y0
	VMOVUPD Y0, (DI)
	VCMPPD  $18, Y2, Y0, Y1 // v ≤ hi
	VANDPD  Y1, Y5, Y5
	VCMPPD  $29, Y3, Y0, Y1 // v ≥ lo
	VANDPD  Y1, Y5, Y5
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     load

loadtail:
	TESTQ   BX, BX
	JZ      loaddone
	VMOVSD  (SI), X0
	VMOVSD  X0, (DI)
	VCMPSD  $18, X2, X0, X1
	VANDPD  X1, X9, X9
	VCMPSD  $29, X3, X0, X1
	VANDPD  X1, X9, X9
	ADDQ    $8, SI
	ADDQ    $8, DI
	DECQ    BX
	JMP     loadtail

loaddone:
	VMOVMSKPD Y5, AX
	VMOVMSKPD X9, DX
	ANDQ      $1, DX
	SHLQ      $4, DX
	ORQ       DX, AX
	CMPQ      AX, $31
	SETEQ     ok+40(FP)
	VZEROUPPER
	RET

// func scatterAVX(ring, in *float64, n, stride int)
//
// DI the ring slot of the group's first channel, SI its samples, CX the
// groups of four, BX the samples left after them, DX the stride in bytes
// and R8 three strides; Y0 (X0) four samples, X1 the upper two.
TEXT ·scatterAVX(SB), NOSPLIT, $0-32
	MOVQ ring+0(FP), DI
	MOVQ in+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ CX, BX
	ANDQ $3, BX
	SHRQ $2, CX
	MOVQ stride+24(FP), DX
	SHLQ $3, DX
	LEAQ (DX)(DX*2), R8
	TESTQ CX, CX
	JZ    scattertail

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

scattertail:
	TESTQ  BX, BX
	JZ     scatterdone
	VMOVSD (SI), X0
	VMOVSD X0, (DI)
	ADDQ   DX, DI
	ADDQ   $8, SI
	DECQ   BX
	JMP    scattertail

scatterdone:
	VZEROUPPER
	RET
