package prequential_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/classifier/prequential"
)

// next draws an example of a stream with one positive in about 20 into
// x: two features, shifted by 1.5 for a positive.
func next(rng *rand.Rand, x []float64) (positive bool) {
	positive = rng.IntN(20) == 0
	shift := 0.0
	if positive {
		shift = 1.5
	}
	x[0], x[1] = rng.NormFloat64()+shift, rng.NormFloat64()+shift
	return positive
}

// Score each example before learning it, and give the score and the label
// to the Evaluator: its figures are those of a model that never saw the
// example it was judged on.
func Example() {
	model, err := classifier.New(classifier.Config{
		Algorithm: classifier.UOB,
		Features:  2,
		// One positive in about 20 examples: C near the class ratio.
		C:    20,
		Seed: 1,
	})
	if err != nil {
		panic(err)
	}
	eval, err := prequential.New(500, 0.5)
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 2)
	for range 5000 {
		positive := next(rng, x)
		s, err := model.Score(x)
		if err != nil {
			panic(err)
		}
		if err := eval.Add(s, positive); err != nil {
			panic(err)
		}
		if err := model.Learn(x, positive); err != nil {
			panic(err)
		}
	}
	w := eval.Whole()
	fmt.Printf("prequential AUC %.2f over %d examples, %d positive\n", w.AUC, w.N, w.Positives)
	fmt.Printf("G-mean %.2f (positive recall %.2f, negative recall %.2f)\n", w.GMean, w.TPR, w.TNR)
	fmt.Printf("last %d examples: AUC %.2f\n", eval.Windowed().N, eval.Windowed().AUC)
	// Output:
	// prequential AUC 0.86 over 5000 examples, 257 positive
	// G-mean 0.85 (positive recall 0.85, negative recall 0.85)
	// last 500 examples: AUC 0.88
}

// The figures of a short stream, whole and over a window of the last 4.
func ExampleEvaluator() {
	eval, _ := prequential.New(4, 0.5)
	stream := []struct {
		score    float64
		positive bool
	}{
		{0.2, false}, {0.9, true}, {0.4, false}, {0.6, false},
		{0.7, true}, {0.3, false}, {0.4, true},
	}
	for _, ex := range stream {
		eval.Add(ex.score, ex.positive)
	}
	fmt.Println("whole: ", eval.Whole())
	fmt.Println("window:", eval.Windowed())
	// Output:
	// whole:  n=7 pos=3 AUC=0.8750 G-mean=0.7071 TPR=0.6667 TNR=0.7500
	// window: n=4 pos=2 AUC=0.7500 G-mean=0.5000 TPR=0.5000 TNR=0.5000
}

// An ensemble's Score is its members' vote, which takes few values (0 or
// 1 whenever the members agree), so its AUC ranks examples coarsely; the
// graded score Margin (classifier.Grader), the members' weighted mean
// log-odds, ranks them all. Both are measured on one stream here, each
// at its own decision threshold (0.5 for the vote, 0 for the margin), for
// online AdaC2 with unit costs on a stream of one positive in 20.
func Example_margin() {
	model, _ := classifier.New(classifier.Config{Algorithm: classifier.AC2, Features: 2, CN: 1, Seed: 1})
	grader := model.(classifier.Grader)
	vote, _ := prequential.New(1000, 0.5)
	margin, _ := prequential.New(1000, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 2)
	for range 5000 {
		positive := next(rng, x)
		s, _ := model.Score(x)
		g, _ := grader.Margin(x)
		vote.Add(s, positive)
		margin.Add(g, positive)
		model.Learn(x, positive)
	}
	fmt.Println("Score: ", vote.Whole())
	fmt.Println("Margin:", margin.Whole())
	// Output:
	// Score:  n=5000 pos=257 AUC=0.8428 G-mean=0.5578 TPR=0.3152 TNR=0.9871
	// Margin: n=5000 pos=257 AUC=0.9004 G-mean=0.6358 TPR=0.4086 TNR=0.9895
}
