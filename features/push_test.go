package features

import (
	"math"
	"slices"
	"testing"
)

// TestLoadFrameMatchesGo: loadFrame (on amd64 the AVX loop) copies every
// sample and judges a frame bad exactly when loadFrameGo does, for every
// length from 0 to 40 with each kind of sample at every position: in
// range, exactly ±MaxSample, just beyond, ±Inf and NaN.
func TestLoadFrameMatchesGo(t *testing.T) {
	special := []float64{
		MaxSample, -MaxSample, math.Nextafter(MaxSample, math.Inf(1)), -math.Nextafter(MaxSample, math.Inf(1)),
		math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), 5e-324,
	}
	for n := 0; n <= 40; n++ {
		base := make([]float64, n)
		for i := range base {
			base[i] = float64(i*37%19-9) * 1e7 // within ±MaxSample
		}
		cases := [][]float64{base}
		for at := 0; at < n; at++ {
			for _, v := range special {
				c := slices.Clone(base)
				c[at] = v
				cases = append(cases, c)
			}
		}
		for _, samples := range cases {
			got, want := make([]float64, n), make([]float64, n)
			gb, wb := loadFrame(got, samples), loadFrameGo(want, samples)
			if gb != wb {
				t.Fatalf("n %d, samples %v: bad %v, the Go loop says %v", n, samples, gb, wb)
			}
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(samples[i]) {
					t.Fatalf("n %d: sample %d copied as %v, want %v", n, i, got[i], samples[i])
				}
			}
		}
	}
}

// TestStoreFrameMatchesGo: storeFrame writes exactly the slots
// storeFrameGo writes, and no other, for every channel count from 0 to
// 40 and several strides and starting slots.
func TestStoreFrameMatchesGo(t *testing.T) {
	for n := 0; n <= 40; n++ {
		in := make([]float64, n)
		for i := range in {
			in[i] = float64(i) + 0.5
		}
		for _, stride := range []int{1, 3, 8, 520} {
			for _, at := range []int{0, 1, stride - 1} {
				size := at + n*stride + 1
				got, want := make([]float64, size), make([]float64, size)
				for i := range got {
					got[i], want[i] = -1, -1
				}
				storeFrame(got, at, stride, in)
				storeFrameGo(want, at, stride, in)
				if !slices.Equal(got, want) {
					t.Fatalf("%d channels, stride %d, slot %d: ring %v, want %v", n, stride, at, got, want)
				}
			}
		}
	}
}
