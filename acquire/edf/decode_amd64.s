//go:build !purego

#include "textflag.h"

// See decode_amd64.go. Registers: DI the next output, SI the next input
// sample, CX the groups of four left, R8 the conversion; Y8–Y11 hold
// dmin, gain, pmin and scale in every lane; R10, R11 and R12 are one,
// three and four strides in bytes; X7 holds bdfSpread (BDF only). X0
// receives four samples as int32, Y0 their physical values; X1 the upper
// two for a strided store.

// bdfSpread, for VPSHUFB: the three bytes of each 24-bit sample into the
// top three bytes of a 32-bit lane, its low byte zero.
DATA bdfSpread<>+0(SB)/8, $0x0504038002010080
DATA bdfSpread<>+8(SB)/8, $0x0b0a098008070680
GLOBL bdfSpread<>(SB), RODATA|NOPTR, $16

// SETUP loads the arguments and broadcasts the conversion's constants.
#define SETUP \
	MOVQ         dst+0(FP), DI;      \
	MOVQ         src+8(FP), SI;      \
	MOVQ         groups+16(FP), CX;  \
	MOVQ         stride+24(FP), R10; \
	MOVQ         c+32(FP), R8;       \
	VBROADCASTSD 0(R8), Y8;          \
	VBROADCASTSD 8(R8), Y9;          \
	VBROADCASTSD 16(R8), Y10;        \
	VBROADCASTSD 24(R8), Y11;        \
	SHLQ         $3, R10;            \
	LEAQ         (R10)(R10*2), R11;  \
	LEAQ         (R10*4), R12

// CONVERT: Y0 = ((X0 − dmin)·gain + pmin)·scale, lane by lane.
#define CONVERT \
	VCVTDQ2PD X0, Y0;      \
	VSUBPD    Y8, Y0, Y0;  \
	VMULPD    Y9, Y0, Y0;  \
	VADDPD    Y10, Y0, Y0; \
	VMULPD    Y11, Y0, Y0

// SCATTER stores Y0's lanes one stride apart and moves DI past them.
#define SCATTER \
	VMOVSD       X0, (DI);        \
	VMOVHPD      X0, (DI)(R10*1); \
	VEXTRACTF128 $1, Y0, X1;      \
	VMOVSD       X1, (DI)(R10*2); \
	VMOVHPD      X1, (DI)(R11*1); \
	ADDQ         R12, DI

// LOAD16 and LOAD24 read the next four samples into X0 as int32.
#define LOAD16 \
	VPMOVSXWD (SI), X0; \
	ADDQ      $8, SI

#define LOAD24 \
	VMOVQ   (SI), X0;          \
	VPINSRD $2, 8(SI), X0, X0; \
	VPSHUFB X7, X0, X0;        \
	VPSRAD  $8, X0, X0;        \
	ADDQ    $12, SI

// LOOPS converts CX groups with LOAD, the loads of 16- or 24-bit samples,
// in one of two loops: four results side by side for stride 1, else
// SCATTER.
#define LOOPS(LOAD) \
	CMPQ    R10, $8;    \
	JNE     strided;    \
contiguous:             \
	LOAD;               \
	CONVERT;            \
	VMOVUPD Y0, (DI);   \
	ADDQ    $32, DI;    \
	DECQ    CX;         \
	JNZ     contiguous; \
	VZEROUPPER;         \
	RET;                \
strided:                \
	LOAD;               \
	CONVERT;            \
	SCATTER;            \
	DECQ    CX;         \
	JNZ     strided;    \
	VZEROUPPER;         \
	RET

// func decode16AVX(dst *float64, src *byte, groups, stride int, c *conversion)
TEXT ·decode16AVX(SB), NOSPLIT, $0-40
	SETUP
	LOOPS(LOAD16)

// func decode24AVX(dst *float64, src *byte, groups, stride int, c *conversion)
TEXT ·decode24AVX(SB), NOSPLIT, $0-40
	SETUP
	VMOVDQU bdfSpread<>(SB), X7
	LOOPS(LOAD24)
