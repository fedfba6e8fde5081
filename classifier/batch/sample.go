package batch

import (
	"math"
	"math/rand/v2"
	"sort"
)

// splitmix64 mixes a seed into a well-distributed 64-bit value.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// memberRand returns member m's random stream for seed.
func memberRand(seed uint64, m int) *rand.Rand {
	a := splitmix64(seed ^ splitmix64(uint64(m)+0x62617463))
	return rand.New(rand.NewPCG(a, splitmix64(a^uint64(m))))
}

// roundCount rounds a non-negative size to the nearest integer (0 for a
// negative or NaN size).
func roundCount(v float64) int {
	if !(v > 0) {
		return 0
	}
	return int(math.Round(v))
}

// drawUniform adds n draws with replacement from idx to counts and
// appends them to drawn.
func drawUniform(rng *rand.Rand, idx []int, n int, counts []float64, drawn []int) []int {
	for i := 0; i < n; i++ {
		j := idx[rng.IntN(len(idx))]
		counts[j]++
		drawn = append(drawn, j)
	}
	return drawn
}

// drawWeighted adds n draws with replacement from idx, with probabilities
// proportional to w[idx[i]], to counts and appends them to drawn. When
// every weight is 0 it draws uniformly.
func drawWeighted(rng *rand.Rand, idx []int, w []float64, n int, counts []float64, drawn []int) []int {
	cum := make([]float64, len(idx))
	var s float64
	for i, j := range idx {
		s += w[j]
		cum[i] = s
	}
	if !(s > 0) {
		return drawUniform(rng, idx, n, counts, drawn)
	}
	for i := 0; i < n; i++ {
		u := rng.Float64() * s
		k := sort.SearchFloat64s(cum, u)
		for k < len(idx)-1 && cum[k] <= u { // u equal to a boundary: next example
			k++
		}
		j := idx[k]
		counts[j]++
		drawn = append(drawn, j)
	}
	return drawn
}

// choose returns k elements of xs chosen uniformly without replacement (all
// of them when k ≥ len(xs)), in a new slice.
func choose(rng *rand.Rand, xs []int, k int) []int {
	c := append([]int(nil), xs...)
	if k >= len(c) {
		return c
	}
	for i := 0; i < k; i++ {
		j := i + rng.IntN(len(c)-i)
		c[i], c[j] = c[j], c[i]
	}
	return c[:k]
}
