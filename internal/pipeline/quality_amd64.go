//go:build !purego

package pipeline

import "golang.org/x/sys/cpu"

// qualityAVX says whether the flatness test runs in the AVX loop
// (quality_amd64.s); processors without AVX and builds tagged purego run
// flatTestGo.
var qualityAVX = cpu.X86.HasAVX

// flatTest is flatTestGo, four channels at a time with AVX.
func flatTest(samples []float64, ref []uint64, moved []int64, flat float64, i int64) {
	if !qualityAVX || len(samples) == 0 {
		flatTestGo(samples, ref, moved, flat, i)
		return
	}
	ref, moved = ref[:len(samples)], moved[:len(samples)]
	flatAVX(&samples[0], &ref[0], &moved[0], len(samples), flat, i)
}

// flatAVX runs flatTestGo's test on n ≥ 1 channels, four at a time:
// where |sample − ref| > flat (false for a NaN), ref takes the sample's
// bits and moved the frame i.
//
//go:noescape
func flatAVX(samples *float64, ref *uint64, moved *int64, n int, flat float64, i int64)
