package classifier

import (
	"bytes"
	"sync"
	"testing"
)

// TestModelConcurrentUse checks the concurrent uses Model's doc allows, for
// every algorithm and learner (run it with -race: CGO_ENABLED=1 go test
// -race): overlapping MarshalBinary and Config calls on one trained model
// return what a lone caller gets, and distinct models trained by their
// own goroutines at once end in the state a sequential run gives (no
// package-level mutable state is shared between models).
func TestModelConcurrentUse(t *testing.T) {
	const goroutines = 4
	train := func(name Algorithm, l LearnerName, m Model) {
		s := newTestStream(3, 3, 0.2, 1.5)
		x := make([]float64, 3)
		for i := 0; i < 200; i++ {
			y := s.next(x)
			if _, err := m.Score(x); err != nil {
				t.Error(err)
				return
			}
			if err := m.Learn(x, y); err != nil {
				t.Error(err)
				return
			}
		}
	}
	for _, name := range []Algorithm{UOB, SB, AC2, CSB2, RUS2, SBO1, "nsAC2"} {
		for _, l := range Learners {
			cfg := Config{Algorithm: name, Learner: l, Features: 3, Members: 3, Memory: 32, Seed: 9}
			ref, _ := New(cfg)
			train(name, l, ref)
			want, _ := ref.MarshalBinary()

			models := make([]Model, goroutines)
			for g := range models {
				models[g], _ = New(cfg)
			}
			var wg sync.WaitGroup
			for g := range models {
				wg.Add(2)
				go func() { defer wg.Done(); train(name, l, models[g]) }()
				go func() { // readers of ref alone
					defer wg.Done()
					for range 5 {
						if b, _ := ref.MarshalBinary(); !bytes.Equal(b, want) {
							t.Errorf("%s/%s: concurrent MarshalBinary differs", name, l)
						}
						if ref.Config() != ref.Config() || ref.Config().Algorithm != name {
							t.Errorf("%s/%s: Config %+v", name, l, ref.Config())
						}
					}
				}()
			}
			wg.Wait()
			for g, m := range models {
				if b, _ := m.MarshalBinary(); !bytes.Equal(b, want) {
					t.Errorf("%s/%s: model %d trained concurrently ends in another state", name, l, g)
				}
			}
		}
	}
}
