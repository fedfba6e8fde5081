package classifier

import (
	"math/rand/v2"
)

// testStream is an imbalanced two-class Gaussian stream: a positive with
// probability pos, drawn from N(shift·1, I); a negative from N(0, I).
type testStream struct {
	rng   *rand.Rand
	d     int
	pos   float64
	shift float64
}

func newTestStream(seed uint64, d int, pos, shift float64) *testStream {
	return &testStream{rng: rand.New(rand.NewPCG(seed, 7)), d: d, pos: pos, shift: shift}
}

// next fills x and returns its label.
func (s *testStream) next(x []float64) bool {
	y := s.rng.Float64() < s.pos
	for j := range x {
		x[j] = s.rng.NormFloat64()
		if y {
			x[j] += s.shift
		}
	}
	return y
}

// allNames returns every algorithm name, plain and ns.
func allNames() []Algorithm {
	var names []Algorithm
	for _, a := range Algorithms {
		names = append(names, a)
	}
	for _, a := range Algorithms {
		names = append(names, "ns"+a)
	}
	return names
}
