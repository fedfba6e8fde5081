package batch

import (
	"math"
	"sync"
	"testing"

	"github.com/ictal/ictal/classifier"
)

// TestScoreConcurrent checks what Model's doc promises: any number of
// goroutines may Score one Model at once and get the scores a lone caller
// gets. Run it with -race (CGO_ENABLED=1 go test -race): before Score
// went through BaseLearner.PredictShared, nb's lazily refreshed cache
// (written on the first Score after training) and qda's scratch vector
// (written on every Score) were shared, unguarded writes. The reference
// scores come from a second model trained alike, so the one scored
// concurrently has never been scored before.
func TestScoreConcurrent(t *testing.T) {
	const d, goroutines = 4, 4
	X, y := blobs(30, 120, d, 11)
	probe, _ := blobs(20, 20, d, 12)
	for _, alg := range classifier.Algorithms {
		for _, l := range classifier.Learners {
			t.Run(string(alg)+"/"+string(l), func(t *testing.T) {
				cfg := classifier.Config{Algorithm: alg, Learner: l, Members: 4, C: 3, Seed: 2}
				ref, shared := train(t, cfg, X, y), train(t, cfg, X, y)
				want := make([]float64, len(probe))
				for i, x := range probe {
					s, err := ref.Score(x)
					if err != nil {
						t.Fatal(err)
					}
					want[i] = s
				}
				var wg sync.WaitGroup
				got := make([][]float64, goroutines)
				for g := range got {
					got[g] = make([]float64, len(probe))
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := range probe {
							// Each goroutine visits the probes in its own
							// order, so that calls overlap on different x.
							j := (i + g*len(probe)/goroutines) % len(probe)
							s, err := shared.Score(probe[j])
							if err != nil {
								t.Error(err)
								return
							}
							got[g][j] = s
						}
					}()
				}
				wg.Wait()
				for g := range got {
					for i := range probe {
						if math.Float64bits(got[g][i]) != math.Float64bits(want[i]) {
							t.Fatalf("goroutine %d probe %d: score %v, alone %v", g, i, got[g][i], want[i])
						}
					}
				}
			})
		}
	}
}
