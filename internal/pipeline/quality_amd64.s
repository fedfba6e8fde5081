//go:build !purego

#include "textflag.h"

DATA absmask<>+0(SB)/8, $0x7fffffffffffffff
GLOBL absmask<>(SB), RODATA|NOPTR, $8

// func flatAVX(samples *float64, ref *uint64, moved *int64, n int, flat float64, i int64)
//
// SI, DI and DX walk samples, ref and moved; CX counts the groups of
// four channels, BX the channels left after them (done one at a time in
// the low lanes, the same operations). Y6
// holds the mask clearing the sign bit, Y7 flat and Y8 the frame index i
// (as bits) in every lane; per group Y0 the samples, Y1 ref, Y2 |v − ref|
// then the lanes that moved (30 is GT_OQ: false for a NaN), Y3 moved.
// VBLENDVPD picks by the mask's sign bits, on 64-bit lanes of any
// content, so it blends moved's integers as well as ref's bits.
TEXT ·flatAVX(SB), NOSPLIT, $0-48
	MOVQ         samples+0(FP), SI
	MOVQ         ref+8(FP), DI
	MOVQ         moved+16(FP), DX
	MOVQ         n+24(FP), CX
	MOVQ         CX, BX
	ANDQ         $3, BX
	SHRQ         $2, CX
	VBROADCASTSD absmask<>(SB), Y6
	VBROADCASTSD flat+32(FP), Y7
	VBROADCASTSD i+40(FP), Y8

	TESTQ CX, CX
	JZ    tail

group:
	VMOVUPD   (SI), Y0
	VMOVUPD   (DI), Y1
	VSUBPD    Y1, Y0, Y2
	VANDPD    Y6, Y2, Y2
	VCMPPD    $30, Y7, Y2, Y2
	VBLENDVPD Y2, Y0, Y1, Y1 // moved: the sample, else ref
	VMOVUPD   Y1, (DI)
	VMOVUPD   (DX), Y3
	VBLENDVPD Y2, Y8, Y3, Y3 // moved: i, else moved
	VMOVUPD   Y3, (DX)
	ADDQ      $32, SI
	ADDQ      $32, DI
	ADDQ      $32, DX
	DECQ      CX
	JNZ       group

tail:
	TESTQ     BX, BX
	JZ        done
	VMOVSD    (SI), X0
	VMOVSD    (DI), X1
	VSUBSD    X1, X0, X2
	VANDPD    X6, X2, X2
	VCMPSD    $30, X7, X2, X2
	VBLENDVPD X2, X0, X1, X1
	VMOVSD    X1, (DI)
	VMOVSD    (DX), X3
	VBLENDVPD X2, X8, X3, X3
	VMOVSD    X3, (DX)
	ADDQ      $8, SI
	ADDQ      $8, DI
	ADDQ      $8, DX
	DECQ      BX
	JMP       tail

done:
	VZEROUPPER
	RET
