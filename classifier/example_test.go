package classifier_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/classifier/prequential"
)

// stream returns n examples in which about one in ratio+1 is positive;
// positives are shifted by 1.5 in each of two features.
func stream(n, ratio int) ([][]float64, []bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	xs, ys := make([][]float64, n), make([]bool, n)
	for i := range xs {
		ys[i] = rng.IntN(ratio+1) == 0
		shift := 0.0
		if ys[i] {
			shift = 1.5
		}
		xs[i] = []float64{rng.NormFloat64() + shift, rng.NormFloat64() + shift}
	}
	return xs, ys
}

// testThenTrain scores each example with score, adds the score to a
// prequential evaluation with the threshold, then learns the example, and
// returns the figures of the whole stream.
func testThenTrain(m classifier.Model, score func([]float64) (float64, error), threshold float64, xs [][]float64, ys []bool) prequential.Metrics {
	eval, _ := prequential.New(1000, threshold)
	for i, x := range xs {
		s, _ := score(x)
		eval.Add(s, ys[i])
		m.Learn(x, ys[i])
	}
	return eval.Whole()
}

// C's default for UOB, SB, RUS3 and SBO3 assumes about one positive per ten
// negatives. On a stream of one in about 100, counting the classes on a
// labelled prefix and setting C to their ratio balances training: at the
// model's own threshold, 0.5, the positive recall rises from about a half
// to 0.82 for some false alarms (negative recall 0.98 to 0.86), and
// prequential.Evaluator measures both, scoring each example before it is
// learned.
func ExampleConfig_classRatio() {
	xs, ys := stream(20000, 100)
	// The class ratio of a labelled prefix.
	var pos, neg int
	for _, y := range ys[:2000] {
		if y {
			pos++
		} else {
			neg++
		}
	}
	for _, c := range []float64{0, float64(neg) / float64(pos)} {
		m, err := classifier.New(classifier.Config{Algorithm: classifier.UOB, Features: 2, C: c, Seed: 1})
		if err != nil {
			panic(err)
		}
		w := testThenTrain(m, m.Score, 0.5, xs, ys)
		fmt.Printf("C = %5.1f: AUC %.2f, positive recall %.2f, negative recall %.2f, G-mean %.2f\n",
			m.Config().C, w.AUC, w.TPR, w.TNR, w.GMean)
	}
	// Output:
	// C =  10.0: AUC 0.76, positive recall 0.51, negative recall 0.98, G-mean 0.71
	// C = 104.3: AUC 0.85, positive recall 0.82, negative recall 0.86, G-mean 0.84
}

// AppendMembers shows what each boosting member has become: its weighted
// error ε_m and its vote weight α_m = log((1−ε)/ε), here of online AdaC2
// after a stream of 2000 examples, one in ten positive (Section 7 of the
// paper plots these). LearnWeighted lets a confirmed example count more.
func ExampleEnsemble_AppendMembers() {
	xs, ys := stream(2000, 9)
	m, _ := classifier.New(classifier.Config{Algorithm: classifier.AC2, Features: 2, Members: 4, Seed: 1})
	e := m.(classifier.Ensemble)
	for i, x := range xs {
		w := 1.0
		if ys[i] {
			w = 2 // each positive counts twice
		}
		e.LearnWeighted(x, ys[i], w)
	}
	for i, s := range e.AppendMembers(nil) {
		fmt.Printf("member %d: ε %.3f, α %.2f, trained on %d draws\n", i, s.Error, s.Vote, s.Trained)
	}
	// Output:
	// member 0: ε 0.241, α 1.15, trained on 2157 draws
	// member 1: ε 0.042, α 3.13, trained on 2208 draws
	// member 2: ε 0.197, α 1.40, trained on 2335 draws
	// member 3: ε 0.007, α 4.91, trained on 2395 draws
}
