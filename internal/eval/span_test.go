package eval

import (
	"math/rand/v2"
	"testing"
)

// TestSpansAgreeWithMask adds random spans in random order and checks the
// union and coverage against a plain mask.
func TestSpansAgreeWithMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		var s []span
		mask := make([]bool, 200)
		for range rng.IntN(8) {
			a := rng.Int64N(200)
			x := span{a, min(200, a+rng.Int64N(40))}
			if trial%2 == 0 && len(s) > 0 { // sometimes in order
				x.a = max(x.a, s[len(s)-1].a)
				x.b = max(x.b, x.a)
			}
			s = addSpan(s, x)
			for k := x.a; k < x.b; k++ {
				mask[k] = true
			}
		}
		for i := 1; i < len(s); i++ {
			if s[i].a <= s[i-1].b-1 || s[i].a < s[i-1].a {
				t.Fatalf("trial %d: spans %v not sorted and disjoint", trial, s)
			}
		}
		a := rng.Int64N(200)
		q := span{a, min(200, a+rng.Int64N(100))}
		var want int64
		for k := q.a; k < q.b; k++ {
			if mask[k] {
				want++
			}
		}
		if got := covered(s, q); got != want {
			t.Fatalf("trial %d: covered(%v, %v) = %d, want %d", trial, s, q, got, want)
		}
	}
}
