//go:build !amd64 || purego

package pipeline

// flatTest is the flatness test of frame i (quality_amd64.go has the
// vector loop).
func flatTest(samples []float64, ref []uint64, moved []int64, flat float64, i int64) {
	flatTestGo(samples, ref, moved, flat, i)
}
