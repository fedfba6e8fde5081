package pipeline

import (
	"math"
	"slices"
	"testing"
)

// TestFlatTestMatchesGo: flatTest (on amd64 the AVX loop) leaves ref and
// moved exactly as flatTestGo does, for every channel count from 0 to 40
// and samples that stay within flat, leave it by just more, just less,
// exactly flat, or are NaN or infinite.
func TestFlatTestMatchesGo(t *testing.T) {
	const flat = 0.5
	steps := []float64{0, 0.25, flat, math.Nextafter(flat, 1), -math.Nextafter(flat, 1), -flat, 3, math.NaN(), math.Inf(1), math.Inf(-1)}
	for n := 0; n <= 40; n++ {
		ref := make([]uint64, n)
		moved := make([]int64, n)
		for c := range ref {
			ref[c] = math.Float64bits(float64(c) * 10)
			moved[c] = int64(-c)
		}
		gotRef, gotMoved := slices.Clone(ref), slices.Clone(moved)
		samples := make([]float64, n)
		for frame := int64(1); frame <= int64(3*len(steps)); frame++ {
			for c := range samples {
				samples[c] = math.Float64frombits(ref[c]) + steps[(int(frame)+c)%len(steps)]
			}
			flatTestGo(samples, ref, moved, flat, frame)
			flatTest(samples, gotRef, gotMoved, flat, frame)
			if !slices.Equal(gotRef, ref) || !slices.Equal(gotMoved, moved) {
				t.Fatalf("%d channels, frame %d: ref %v moved %v, the Go loop gives %v %v", n, frame, gotRef, gotMoved, ref, moved)
			}
		}
	}
}
