package batch_test

import (
	"fmt"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/classifier/batch"
)

func ExampleTrain() {
	// Four positives near (1, 1), eight negatives near (−1, −1).
	X := [][]float64{
		{1, 1.2}, {0.8, 1}, {1.1, 0.9}, {1.3, 1.1},
		{-1, -1}, {-1.2, -0.8}, {-0.9, -1.1}, {-1.1, -1.3},
		{-0.8, -1}, {-1, -0.7}, {-1.3, -1}, {-0.7, -0.9},
	}
	y := []bool{true, true, true, true, false, false, false, false, false, false, false, false}
	m, err := batch.Train(classifier.Config{Algorithm: classifier.UOB, Learner: classifier.LearnerNB, C: 2, Seed: 1}, X, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, _ := m.Score([]float64{1, 1})
	neg, _ := m.Score([]float64{-1, -1})
	// Member 1 (a = 1/10) trains on one example of each class and cannot
	// separate them; the other nine vote positive for (1, 1).
	fmt.Println(m.Config().Members, pos, neg)
	// Output: 10 0.9 0
}
