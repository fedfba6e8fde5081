//go:build amd64 && !purego

#include "textflag.h"

// AVX kernels of the real FFT (fft.go), the same bits as the Go passes
// (issue 18).
//
// Result. Callgrind, BenchmarkRealFFT/ictal (N = 512, all 257 bins),
// instructions per call: 32.9 k in Go (radix4 18.7 k, untangle 11.0 k,
// radix4Last 3.1 k) against 8.6 k here (radix4AVX 3.45 k, untangleAVX
// 3.35 k plus 0.16 k of Go for the bins past a multiple of four,
// lastPassAVX 1.16 k, dispatch, transform and power 0.45 k). Per window of
// 23 channels at 256 Hz (BenchmarkWindow/ch=23/n=512, band bins only) the
// FFT falls from 643 k to 161 k instructions. Wall clock, run alternately
// with the Go build on a shared 2-core machine: 1.8–2.8 µs → 0.64–0.87 µs
// per transform, 72–91 µs → 58–73 µs per window. Every pass gains, so none
// is left in Go; the Go passes stay the reference (fft_test.go compares
// the bits, N = 8 … 16384, ordinary, wide-exponent, huge, subnormal and
// special values) and run under purego and on other architectures. The
// cost is memory: the plan holds the radix-4 twiddles a second time, laid
// out per pair of k (pairTwiddles, 12l floats a pass: 7.9 KiB at N = 512).
//
// A YMM register holds two consecutive complex values as [re, im, re′,
// im′]. Only VADDPD, VSUBPD, VMULPD, VADDSUBPD, VHADDPD, sign-bit XORs and
// shuffles are used, never a fused multiply-add, so every operation is the
// one the Go code does, rounded once, in the same lane:
//   - a complex product (ur + i·ui)(c + i·s) is VMULPD [ur, ui]·[c, c] and
//     [ui, ur]·[s, s], then VADDSUBPD: [ur·c − ui·s, ui·c + ur·s], where
//     Go writes ur·s + ui·c (IEEE addition commutes);
//   - x − y is written x + (−y), −y a flip of the sign bit (IEEE defines
//     subtraction so: the same bits, NaN payloads aside);
//   - the ends of a butterfly are broadcast to both halves and the half
//     that subtracts has its sign flipped.

// negOdd flips the sign of the imaginary lanes: [+, −, +, −].
DATA negOdd<>+0(SB)/8, $0
DATA negOdd<>+8(SB)/8, $0x8000000000000000
DATA negOdd<>+16(SB)/8, $0
DATA negOdd<>+24(SB)/8, $0x8000000000000000
GLOBL negOdd<>(SB), RODATA|NOPTR, $32

// negHigh flips the sign of the upper complex value: [+, +, −, −].
DATA negHigh<>+0(SB)/8, $0
DATA negHigh<>+8(SB)/8, $0
DATA negHigh<>+16(SB)/8, $0x8000000000000000
DATA negHigh<>+24(SB)/8, $0x8000000000000000
GLOBL negHigh<>(SB), RODATA|NOPTR, $32

// negMid flips the sign of the middle lanes: [+, −, −, +].
DATA negMid<>+0(SB)/8, $0
DATA negMid<>+8(SB)/8, $0x8000000000000000
DATA negMid<>+16(SB)/8, $0x8000000000000000
DATA negMid<>+24(SB)/8, $0
GLOBL negMid<>(SB), RODATA|NOPTR, $32

// func radix4AVX(z, vt []float64, l int)
//
// Each block of 4l complex values is four quarters q0 … q3 of 16l bytes;
// the inner loop takes k and k+1 from each (a, b, c, d) and the twiddles
// of the pair from vt (192 bytes: [c,c,c′,c′] then [s,s,s′,s′] of w^k,
// w^{2k}, w^{3k}); the same vt serves every block.
TEXT ·radix4AVX(SB), NOSPLIT, $0-56
	MOVQ z_base+0(FP), DI    // DI: q0[k] of the current block
	MOVQ z_len+8(FP), R9
	LEAQ (DI)(R9*8), R9      // R9: end of z
	MOVQ vt_base+24(FP), SI  // SI: twiddles of pair 0
	MOVQ l+48(FP), DX
	SHLQ $4, DX              // DX: a quarter, 16l bytes
	LEAQ (DX)(DX*2), R8      // R8: three quarters
	VMOVUPD negOdd<>(SB), Y15

block:
	LEAQ (DI)(DX*4), R10     // R10: end of the block
	CMPQ R10, R9
	JHI  done
	MOVQ SI, BX              // BX: twiddles of the pair
	LEAQ (DI)(DX*1), R11     // R11: end of q0

pair:
	VMOVUPD (DI), Y0         // Y0: a
	VMOVUPD (DI)(DX*1), Y1   // Y1: b
	VMOVUPD (DI)(DX*2), Y2   // Y2: c
	VMOVUPD (DI)(R8*1), Y3   // Y3: d
	VADDPD  Y2, Y0, Y4       // Y4: s0 = a + c
	VSUBPD  Y2, Y0, Y5       // Y5: d0 = a − c
	VADDPD  Y3, Y1, Y6       // Y6: s1 = b + d
	VSUBPD  Y3, Y1, Y7       // Y7: d1 = b − d

	// q0 = s0 + s1; q1 = (s0 − s1)·w^{2k}.
	VADDPD    Y6, Y4, Y0     // Y0: s0 + s1
	VMOVUPD   Y0, (DI)
	VSUBPD    Y6, Y4, Y1     // Y1: u = s0 − s1 = [ur, ui]
	VPERMILPD $5, Y1, Y2     // Y2: [ui, ur]
	VMULPD    64(BX), Y1, Y1 // Y1: [ur·c2, ui·c2]
	VMULPD    96(BX), Y2, Y2 // Y2: [ui·s2, ur·s2]
	VADDSUBPD Y2, Y1, Y1     // Y1: [ur·c2 − ui·s2, ui·c2 + ur·s2]
	VMOVUPD   Y1, (DI)(DX*1)

	// v = d0 − i·d1 = [d0r + d1i, d0i − d1r], x = d0 + i·d1.
	VPERMILPD $5, Y7, Y7     // Y7: [d1i, d1r]
	VXORPD    Y15, Y7, Y7    // Y7: [d1i, −d1r]
	VADDPD    Y7, Y5, Y3     // Y3: v = [d0r + d1i, d0i − d1r]
	VSUBPD    Y7, Y5, Y4     // Y4: x = [d0r − d1i, d0i + d1r]

	// q2 = v·w^k.
	VPERMILPD $5, Y3, Y5     // Y5: [vi, vr]
	VMULPD    (BX), Y3, Y3   // Y3: [vr·c1, vi·c1]
	VMULPD    32(BX), Y5, Y5 // Y5: [vi·s1, vr·s1]
	VADDSUBPD Y5, Y3, Y3     // Y3: [vr·c1 − vi·s1, vi·c1 + vr·s1]
	VMOVUPD   Y3, (DI)(DX*2)

	// q3 = x·w^{3k}.
	VPERMILPD $5, Y4, Y6      // Y6: [xi, xr]
	VMULPD    128(BX), Y4, Y4 // Y4: [xr·c3, xi·c3]
	VMULPD    160(BX), Y6, Y6 // Y6: [xi·s3, xr·s3]
	VADDSUBPD Y6, Y4, Y4      // Y4: [xr·c3 − xi·s3, xi·c3 + xr·s3]
	VMOVUPD   Y4, (DI)(R8*1)

	ADDQ $32, DI
	ADDQ $192, BX
	CMPQ DI, R11
	JB   pair

	ADDQ R8, DI              // DI: past q1 … q3, at the next block
	JMP  block

done:
	VZEROUPPER
	RET

// func lastPassAVX(z []float64, radix2 bool)
//
// The last pass, additions only: radix4Last (blocks of 8 floats a, b, c,
// d) or, with radix2, the radix-2 pass (pairs a, b). Each complex input
// is broadcast to both halves of a register, and the lanes whose output
// subtracts have the sign of the subtrahend flipped.
TEXT ·lastPassAVX(SB), NOSPLIT, $0-25
	MOVQ    z_base+0(FP), DI     // DI: the block
	MOVQ    z_len+8(FP), CX
	VMOVUPD negHigh<>(SB), Y14
	CMPB    radix2+24(FP), $0
	JNE     r2
	SHRQ    $3, CX               // CX: blocks of 8 floats left
	JZ      last_done
	VMOVUPD negMid<>(SB), Y13

r4_block:
	VBROADCASTF128 (DI), Y0   // Y0: [a, a]
	VBROADCASTF128 16(DI), Y1 // Y1: [b, b]
	VBROADCASTF128 32(DI), Y2 // Y2: [c, c]
	VBROADCASTF128 48(DI), Y3 // Y3: [d, d]
	VADDPD  Y2, Y0, Y4        // Y4: s0 = a + c (twice)
	VSUBPD  Y2, Y0, Y5        // Y5: d0 = a − c
	VADDPD  Y3, Y1, Y6        // Y6: s1 = b + d
	VSUBPD  Y3, Y1, Y7        // Y7: d1 = b − d

	VXORPD  Y14, Y6, Y6       // Y6: [s1, −s1]
	VADDPD  Y6, Y4, Y4        // Y4: [s0 + s1, s0 − s1]
	VMOVUPD Y4, (DI)

	VPERMILPD $5, Y7, Y7      // Y7: [d1i, d1r, d1i, d1r]
	VXORPD    Y13, Y7, Y7     // Y7: [d1i, −d1r, −d1i, d1r]
	VADDPD    Y7, Y5, Y5      // Y5: [d0r + d1i, d0i − d1r, d0r − d1i, d0i + d1r]
	VMOVUPD   Y5, 32(DI)

	ADDQ $64, DI
	DECQ CX
	JNZ  r4_block
	JMP  last_done

r2:
	SHRQ $2, CX               // CX: pairs left
	JZ   last_done

r2_pair:
	VBROADCASTF128 (DI), Y0   // Y0: [a, a]
	VBROADCASTF128 16(DI), Y1 // Y1: [b, b]
	VXORPD  Y14, Y1, Y1       // Y1: [b, −b]
	VADDPD  Y1, Y0, Y0        // Y0: [a + b, a − b]
	VMOVUPD Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNZ  r2_pair

last_done:
	VZEROUPPER
	RET

// func untangleAVX(dst, z []float64, bins []bin, s4 float64)
//
// Four bins at a time: bins 0 and 2 in one register, 1 and 3 in another,
// so that VHADDPD of their |2X|² parts leaves the four powers in order. A
// bin (24 bytes) is p, q (int32, float indices of Z[k] and Z[m−k]) and
// c, s at 8 and 16.
TEXT ·untangleAVX(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), DI  // DI: dst of bin 0
	MOVQ dst_len+8(FP), CX
	SHRQ $2, CX              // CX: groups of four left
	JZ   un_done
	MOVQ z_base+24(FP), SI   // SI: Z
	MOVQ bins_base+48(FP), BX // BX: bin 0
	VBROADCASTSD s4+72(FP), Y15
	VMOVUPD negOdd<>(SB), Y14

un_group:
	// Bins 0 and 2.
	MOVLQSX 0(BX), AX
	MOVLQSX 4(BX), DX
	MOVLQSX 48(BX), R8
	MOVLQSX 52(BX), R9
	VMOVUPD     (SI)(AX*8), X0
	VINSERTF128 $1, (SI)(R8*8), Y0, Y0 // Y0: Z[k] = [zr, zi]
	VMOVUPD     (SI)(DX*8), X1
	VINSERTF128 $1, (SI)(R9*8), Y1, Y1 // Y1: Z[m−k] = [yr, yi]
	VMOVUPD     8(BX), X2
	VINSERTF128 $1, 56(BX), Y2, Y2     // Y2: [c, s]
	VXORPD      Y14, Y1, Y3            // Y3: [yr, −yi]
	VADDPD      Y3, Y0, Y4             // Y4: 2E = [zr + yr, zi − yi]
	VADDSUBPD   Y1, Y0, Y5             // Y5: 2D = [zr − yr, zi + yi]
	VMOVDDUP    Y2, Y6                 // Y6: [c, c]
	VPERMILPD   $15, Y2, Y7            // Y7: [s, s]
	VPERMILPD   $5, Y5, Y8             // Y8: [di, dr]
	VMULPD      Y6, Y5, Y5             // Y5: [c·dr, c·di]
	VMULPD      Y7, Y8, Y8             // Y8: [s·di, s·dr]
	VADDSUBPD   Y8, Y5, Y5             // Y5: w·2D = [c·dr − s·di, c·di + s·dr]
	VPERMILPD   $5, Y5, Y5             // Y5: [wi, wr]
	VXORPD      Y14, Y5, Y5            // Y5: [wi, −wr]
	VADDPD      Y5, Y4, Y4             // Y4: 2X = [er + wi, ei − wr]
	VMULPD      Y4, Y4, Y10            // Y10: [xr², xi²] of bins 0, 2

	// Bins 1 and 3, the same.
	MOVLQSX 24(BX), AX
	MOVLQSX 28(BX), DX
	MOVLQSX 72(BX), R8
	MOVLQSX 76(BX), R9
	VMOVUPD     (SI)(AX*8), X0
	VINSERTF128 $1, (SI)(R8*8), Y0, Y0
	VMOVUPD     (SI)(DX*8), X1
	VINSERTF128 $1, (SI)(R9*8), Y1, Y1
	VMOVUPD     32(BX), X2
	VINSERTF128 $1, 80(BX), Y2, Y2
	VXORPD      Y14, Y1, Y3
	VADDPD      Y3, Y0, Y4
	VADDSUBPD   Y1, Y0, Y5
	VMOVDDUP    Y2, Y6
	VPERMILPD   $15, Y2, Y7
	VPERMILPD   $5, Y5, Y8
	VMULPD      Y6, Y5, Y5
	VMULPD      Y7, Y8, Y8
	VADDSUBPD   Y8, Y5, Y5
	VPERMILPD   $5, Y5, Y5
	VXORPD      Y14, Y5, Y5
	VADDPD      Y5, Y4, Y4
	VMULPD      Y4, Y4, Y11            // Y11: [xr², xi²] of bins 1, 3

	VHADDPD Y11, Y10, Y10              // Y10: xr² + xi² of bins 0, 1, 2, 3
	VMULPD  Y15, Y10, Y10              // Y10: ·s4
	VMOVUPD Y10, (DI)

	ADDQ $32, DI
	ADDQ $96, BX
	DECQ CX
	JNZ  un_group
	VZEROUPPER

un_done:
	RET
