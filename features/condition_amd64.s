//go:build !purego

#include "textflag.h"

// func biquadsAVX(x, s1, s2, coef *float64, groups, sections, stride int)
//
// See condition_amd64.go. Groups of four channels are taken two at a
// time (pair), then the one left over (single); the two groups' chains
// are independent, so their arithmetic overlaps. Registers: DI the
// group's (or pair's) samples, SI and DX its state in section 0, CX the
// groups left; per section R11 and R12 walk the state, R13 the
// coefficients, BX counts the sections, R10 is the stride in bytes. Per
// group: Y0 holds v, then y (the section's output, the next one's input);
// Y1 p = b0·v, then the new s2; Y3 b1·v, then the new s1; Y4 a product.
// The second group of a pair uses Y5, Y6, Y8 and Y9 the same way.
TEXT ·biquadsAVX(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), DI
	MOVQ s1+8(FP), SI
	MOVQ s2+16(FP), DX
	MOVQ coef+24(FP), R8
	MOVQ groups+32(FP), CX
	MOVQ sections+40(FP), R9
	MOVQ stride+48(FP), R10
	SHLQ $3, R10

pair:
	CMPQ    CX, $2
	JLT     single
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y5
	MOVQ    SI, R11
	MOVQ    DX, R12
	MOVQ    R8, R13
	MOVQ    R9, BX

pairsection:
	VMULPD  (R13), Y0, Y1     // p = b0·v
	VMULPD  (R13), Y5, Y6
	VMULPD  32(R13), Y0, Y3   // b1·v
	VMULPD  32(R13), Y5, Y8
	VADDPD  (R11), Y1, Y0     // y = p + s1
	VADDPD  32(R11), Y6, Y5
	VMULPD  64(R13), Y0, Y4   // a1·y
	VMULPD  64(R13), Y5, Y9
	VSUBPD  Y4, Y3, Y3        // b1·v − a1·y
	VSUBPD  Y9, Y8, Y8
	VADDPD  (R12), Y3, Y3     // … + s2
	VADDPD  32(R12), Y8, Y8
	VMOVUPD Y3, (R11)         // s1 = …
	VMOVUPD Y8, 32(R11)
	VMULPD  96(R13), Y0, Y4   // a2·y
	VMULPD  96(R13), Y5, Y9
	VSUBPD  Y4, Y1, Y1        // p − a2·y
	VSUBPD  Y9, Y6, Y6
	VMOVUPD Y1, (R12)         // s2 = …
	VMOVUPD Y6, 32(R12)
	ADDQ    R10, R11
	ADDQ    R10, R12
	ADDQ    $128, R13
	DECQ    BX
	JNZ     pairsection

	VMOVUPD Y0, (DI)
	VMOVUPD Y5, 32(DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, DX
	SUBQ    $2, CX
	JMP     pair

single:
	TESTQ   CX, CX
	JZ      done
	VMOVUPD (DI), Y0
	MOVQ    SI, R11
	MOVQ    DX, R12
	MOVQ    R8, R13
	MOVQ    R9, BX

section:
	VMULPD  (R13), Y0, Y1
	VMULPD  32(R13), Y0, Y3
	VADDPD  (R11), Y1, Y0
	VMULPD  64(R13), Y0, Y4
	VSUBPD  Y4, Y3, Y3
	VADDPD  (R12), Y3, Y3
	VMOVUPD Y3, (R11)
	VMULPD  96(R13), Y0, Y4
	VSUBPD  Y4, Y1, Y1
	VMOVUPD Y1, (R12)
	ADDQ    R10, R11
	ADDQ    R10, R12
	ADDQ    $128, R13
	DECQ    BX
	JNZ     section
	VMOVUPD Y0, (DI)

done:
	VZEROUPPER
	RET
