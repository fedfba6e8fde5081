package classifier

import (
	"fmt"
	"testing"
)

// BenchmarkOnline measures one Score and one Learn of an example from an
// imbalanced stream (10 % positives) per op, for every algorithm × learner
// at M = 10 and d ∈ {8, 36, 128}, after a warm-up of 2000 examples.
func BenchmarkOnline(b *testing.B) {
	for _, name := range append(append([]Algorithm{}, Algorithms...), "nsAC2") {
		for _, l := range Learners {
			for _, d := range []int{8, 36, 128} {
				b.Run(fmt.Sprintf("%s/%s/d=%d", name, l, d), func(b *testing.B) {
					m, err := New(Config{Algorithm: name, Learner: l, Features: d, Seed: 1})
					if err != nil {
						b.Fatal(err)
					}
					s := newTestStream(1, d, 0.1, 1)
					const pool = 4096
					xs := make([][]float64, pool)
					ys := make([]bool, pool)
					for i := range xs {
						xs[i] = make([]float64, d)
						ys[i] = s.next(xs[i])
					}
					for i := 0; i < 2000; i++ {
						m.Learn(xs[i%pool], ys[i%pool])
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						x, y := xs[i%pool], ys[i%pool]
						if _, err := m.Score(x); err != nil {
							b.Fatal(err)
						}
						if err := m.Learn(x, y); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
