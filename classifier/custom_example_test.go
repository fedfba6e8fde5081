package classifier_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/ictal/ictal/classifier"
)

// logistic is an online logistic regression, a Learner of the caller's:
// one weighted stochastic gradient step per example on the log loss,
// with the step size η/√t, t the weight seen so far. LogOdds is its
// linear score, which is the model's log p(+|x)/p(−|x).
type logistic struct {
	w []float64 // weights, then the bias
	t float64   // weight seen
}

func (l *logistic) Learn(x []float64, positive bool, w float64) error {
	y := 0.0
	if positive {
		y = 1
	}
	z, _ := l.LogOdds(x)
	l.t += w
	step := 0.5 * w / math.Sqrt(l.t) * (y - 1/(1+math.Exp(-z)))
	d := len(l.w) - 1
	for j, v := range x {
		l.w[j] += step * v
	}
	l.w[d] += step
	return nil
}

func (l *logistic) LogOdds(x []float64) (float64, error) {
	d := len(l.w) - 1
	z := l.w[d]
	for j, v := range x {
		z += l.w[j] * v
	}
	return z, nil
}

// MarshalBinary writes t and the weights as little-endian float64 bits.
func (l *logistic) MarshalBinary() ([]byte, error) {
	b := binary.LittleEndian.AppendUint64(nil, math.Float64bits(l.t))
	for _, v := range l.w {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b, nil
}

func (l *logistic) UnmarshalBinary(b []byte) error {
	if len(b) != 8*(1+len(l.w)) {
		return errors.New("logistic: wrong state length")
	}
	l.t = math.Float64frombits(binary.LittleEndian.Uint64(b))
	for j := range l.w {
		l.w[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*(j+1):]))
	}
	return nil
}

// Any ensemble of the package can be built on a learner of one's own:
// here online AdaC2 on logistic regressions, scored prequentially with
// Margin, the graded score an ROC curve is built on, and compared with the
// built-in naive Bayes (a BaseLearner from the same kind of factory), and
// checkpointed and restored.
func ExampleNewWithLearner() {
	xs, ys := stream(20000, 20)
	cfg := classifier.Config{Algorithm: classifier.AC2, Features: 2, Seed: 1}
	factories := []struct {
		name classifier.LearnerName
		mk   classifier.LearnerFactory
	}{
		{"logistic", func(int) (classifier.Learner, error) { return &logistic{w: make([]float64, 3)}, nil }},
		{"my-nb", func(int) (classifier.Learner, error) { return classifier.NewBaseLearner(classifier.LearnerNB, 2, 1) }},
	}
	for _, f := range factories {
		cfg.Learner = f.name
		m, err := classifier.NewWithLearner(cfg, f.mk)
		if err != nil {
			panic(err)
		}
		auc := testThenTrain(m, m.Margin, 0, xs, ys).AUC
		ckpt, _ := m.MarshalBinary()
		back, err := classifier.LoadWithLearner(ckpt, f.mk)
		if err != nil {
			panic(err)
		}
		a, _ := m.Margin(xs[0])
		b, _ := back.Margin(xs[0])
		fmt.Printf("%-8s AUC %.2f, restored margin equal: %v\n", f.name, auc, a == b)
	}
	// Output:
	// logistic AUC 0.90, restored margin equal: true
	// my-nb    AUC 0.90, restored margin equal: true
}
