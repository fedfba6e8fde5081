package batch

import (
	"testing"

	"github.com/ictal/ictal/classifier"
)

func BenchmarkTrain(b *testing.B) {
	X, y := blobs(60, 540, 8, 1)
	for _, alg := range []classifier.Algorithm{classifier.UOB, classifier.AC2, classifier.SBO1} {
		b.Run(string(alg), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Train(classifier.Config{Algorithm: alg, Learner: "nb", Seed: 1}, X, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkScore(b *testing.B) {
	X, y := blobs(60, 540, 36, 1)
	m, err := Train(classifier.Config{Algorithm: classifier.AC2, Learner: "nb", Seed: 1}, X, y)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		m.Score(X[0])
	}
}
