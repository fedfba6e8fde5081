//go:build !purego

#include "textflag.h"

// |x| is x AND absmask: the sign bit cleared.
DATA absmask<>+0(SB)/8, $0x7fffffffffffffff
GLOBL absmask<>(SB), RODATA|NOPTR, $8

// 1.0, one zero crossing.
DATA one<>+0(SB)/8, $0x3ff0000000000000
GLOBL one<>(SB), RODATA|NOPTR, $8

// func sumsAVX(p *float64, groups int, l *sumLanes)
//
// See timedomain_amd64.go and sumLanes.addGo. DI points at x[i−2] for the
// group's first term i, so that 0(DI), 8(DI) and 16(DI) load x[i−2],
// x[i−1] and x[i] of the group's four terms, one per lane; CX counts the
// groups left. Y0 to Y5 hold the lanes of sum, absDiff, maxStep, diffSq,
// diff2Sq and teager (sumLanes' layout, 32 bytes each); Y15 the mask.
// Per group: Y7 x[i−1], Y8 x[i], Y9 Δx[i] then its square, Y10 Δx[i−1]
// then the second difference then its square, Y11 |Δx[i]|, Y7 and Y8 the
// Teager products.
TEXT ·sumsAVX(SB), NOSPLIT, $0-24
	MOVQ         p+0(FP), DI
	MOVQ         groups+8(FP), CX
	MOVQ         l+16(FP), SI
	VMOVUPD      0(SI), Y0
	VMOVUPD      32(SI), Y1
	VMOVUPD      64(SI), Y2
	VMOVUPD      96(SI), Y3
	VMOVUPD      128(SI), Y4
	VMOVUPD      160(SI), Y5
	VBROADCASTSD absmask<>(SB), Y15

group:
	VMOVUPD 8(DI), Y7     // p = x[i−1]
	VMOVUPD 16(DI), Y8    // xi = x[i]
	VSUBPD  Y7, Y8, Y9    // d = xi − p
	VSUBPD  (DI), Y7, Y10 // p − p2
	VSUBPD  Y10, Y9, Y10  // dd = d − (p − p2)
	VADDPD  Y8, Y0, Y0    // sum += xi
	VANDPD  Y15, Y9, Y11  // ad = |d|
	VADDPD  Y11, Y1, Y1   // absDiff += ad
	VMAXPD  Y2, Y11, Y2   // maxStep = ad if ad > maxStep
	VMULPD  Y9, Y9, Y9    // d·d
	VADDPD  Y9, Y3, Y3    // diffSq += …
	VMULPD  Y10, Y10, Y10 // dd·dd
	VADDPD  Y10, Y4, Y4   // diff2Sq += …
	VMULPD  Y7, Y7, Y7    // p·p
	VMULPD  (DI), Y8, Y8  // xi·p2: p2·xi to the bit (the product commutes)
	VSUBPD  Y8, Y7, Y7    // p·p − p2·xi
	VADDPD  Y7, Y5, Y5    // teager += …
	ADDQ    $32, DI
	DECQ    CX
	JNZ     group

	VMOVUPD Y0, 0(SI)
	VMOVUPD Y1, 32(SI)
	VMOVUPD Y2, 64(SI)
	VMOVUPD Y3, 96(SI)
	VMOVUPD Y4, 128(SI)
	VMOVUPD Y5, 160(SI)
	VZEROUPPER
	RET

// func centreAVX(w, hann, out *float64, mean float64, groups int, sumSq *[4]float64) (crossings int)
//
// See timedomain_amd64.go and centreGo. AX indexes the group's first
// sample i, CX is 4·groups; Y14 holds the mean in every lane, Y0 the
// lanes of sumSq, Y1 the crossings counted per lane (as float64s, exact),
// Y13 1.0. Per group: Y2 w[i], then whether w[i] ≥ mean (all ones or
// zero), then whether it differs from w[i+1] ≥ mean (Y5), then 1.0 or 0;
// Y3 y = w[i] − mean, then y·y; Y4 y·hann[i].
TEXT ·centreAVX(SB), NOSPLIT, $0-56
	MOVQ         w+0(FP), DI
	MOVQ         hann+8(FP), SI
	MOVQ         out+16(FP), DX
	VBROADCASTSD mean+24(FP), Y14
	MOVQ         groups+32(FP), CX
	SHLQ         $2, CX
	MOVQ         sumSq+40(FP), R8
	VMOVUPD      (R8), Y0
	VXORPD       Y1, Y1, Y1
	VBROADCASTSD one<>(SB), Y13
	XORQ         AX, AX

group:
	VMOVUPD (DI)(AX*8), Y2
	VSUBPD  Y14, Y2, Y3             // y = w[i] − mean
	VMULPD  (SI)(AX*8), Y3, Y4      // y·hann[i]
	VMOVUPD Y4, (DX)(AX*8)
	VMULPD  Y3, Y3, Y3              // y·y
	VADDPD  Y3, Y0, Y0              // sumSq += …
	VCMPPD  $2, Y2, Y14, Y2         // mean ≤ w[i]
	VCMPPD  $2, 8(DI)(AX*8), Y14, Y5 // mean ≤ w[i+1]
	VXORPD  Y5, Y2, Y2
	VANDPD  Y13, Y2, Y2
	VADDPD  Y2, Y1, Y1
	ADDQ    $4, AX
	CMPQ    AX, CX
	JLT     group

	VMOVUPD      Y0, (R8)
	VEXTRACTF128 $1, Y1, X2
	VADDPD       X2, X1, X1
	VPERMILPD    $1, X1, X2
	VADDSD       X2, X1, X1
	VZEROUPPER
	CVTTSD2SQ    X1, AX
	MOVQ         AX, crossings+48(FP)
	RET
