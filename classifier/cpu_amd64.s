//go:build !purego

#include "textflag.h"

// func cpuAVX() bool
//
// Whether the processor has AVX and the operating system saves the YMM
// registers: CPUID leaf 1 reports AVX (ECX bit 28) and OSXSAVE (bit 27),
// and XCR0, read with XGETBV, has the SSE and AVX state bits (1 and 2)
// set.
TEXT ·cpuAVX(SB), NOSPLIT, $0-1
	MOVL  $1, AX
	XORL  CX, CX
	CPUID
	ANDL  $0x18000000, CX
	CMPL  CX, $0x18000000
	JNE   noavx
	XORL  CX, CX
	XGETBV
	ANDL  $6, AX
	CMPL  AX, $6
	JNE   noavx
	MOVB  $1, ret+0(FP)
	RET

noavx:
	MOVB $0, ret+0(FP)
	RET
