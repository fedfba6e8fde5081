package paper

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/ictal/ictal/classifier"
)

// CurveOptions parameterises RunCurve; zero values mean the defaults of
// `ictal paper curve`.
type CurveOptions struct {
	Algorithms []string  // default UOB, AC2, RUS3 (the paper's representatives)
	Learners   []string  // default nb, lda, qda
	Modes      []string  // default online, batch
	Fractions  []float64 // training fractions, default 0.05, 0.1, 0.2, ..., 0.9
	Reps       int       // repetitions per fraction, default 5
	Points     int       // cost settings per ROC, default 10
	Seed       uint64
	Workers    int
	Progress   io.Writer
}

// DefaultFractions are the learning curve's training fractions: 5 % to 90 %.
var DefaultFractions = []float64{0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}

// CurveRecord is one output line of RunCurve: one point of a learning curve.
type CurveRecord struct {
	Type      string    `json:"type"` // "curve"
	Dataset   string    `json:"dataset"`
	Algorithm string    `json:"algorithm"`
	Learner   string    `json:"learner"`
	Mode      string    `json:"mode"`
	Fraction  float64   `json:"fraction"`
	Reps      int       `json:"reps"`
	AUCMean   float64   `json:"auc_mean"` // AUC of the swept ROC, as in cv
	AUCStd    float64   `json:"auc_std"`
	AUCScore  float64   `json:"auc_score"`
	AUCReps   []float64 `json:"auc_reps"`
}

// StratifiedSplit returns a random training set of round(f·N⁺) positives
// and round(f·N⁻) negatives (at least one of each, and at least one of
// each left for testing) and the rest as the test set, both sorted.
func StratifiedSplit(y []bool, f float64, seed uint64) (train, test []int) {
	rng := rand.New(rand.NewPCG(seed, 0x73706c6974))
	pos, neg := partition(y)
	in := make([]bool, len(y))
	for _, c := range [][]int{pos, neg} {
		k := min(max(1, int(math.Round(f*float64(len(c))))), len(c)-1)
		for _, j := range rng.Perm(len(c))[:k] {
			in[c[j]] = true
		}
	}
	return partition(in)
}

// RunCurve measures learning curves on one data set (the paper uses
// satimage): for each training fraction, Reps stratified random splits;
// each algorithm, learner and mode is trained on the training part and
// its swept-ROC AUC measured on the rest, exactly as in RunCV. Records
// come out in (algorithm, learner, mode, fraction) order.
func RunCurve(d Data, opt CurveOptions, out io.Writer) error {
	opt, err := opt.withDefaults()
	if err != nil {
		return err
	}
	type key struct {
		a, l, m string
		f       float64
	}
	var keys []key
	for _, a := range opt.Algorithms {
		for _, l := range opt.Learners {
			for _, m := range opt.Modes {
				for _, f := range opt.Fractions {
					keys = append(keys, key{a, l, m, f})
				}
			}
		}
	}
	res := make([]foldResult, len(keys)*opt.Reps)
	err = parallel(len(res), opt.Workers, func(i int) error {
		k, r := keys[i/opt.Reps], i%opt.Reps
		fs := strconv.FormatFloat(k.f, 'g', -1, 64)
		train, test := StratifiedSplit(d.Y, k.f, deriveSeed(opt.Seed, d.Name, "split", fs, strconv.Itoa(r)))
		s := makeSplit(d.X, d.Y, train, test)
		var err error
		res[i], err = evalSplit(s, k.a, k.l, k.m, opt.Points, 1, false, func(point string) uint64 {
			return deriveSeed(opt.Seed, d.Name, k.a, k.l, k.m, fs, strconv.Itoa(r), point)
		})
		if err != nil {
			return fmt.Errorf("paper: curve %s %s %s fraction %g rep %d: %w", k.a, k.l, k.m, k.f, r, err)
		}
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "curve: %s %s %s fraction %g rep %d: auc %.4f\n", k.a, k.l, k.m, k.f, r, res[i].auc)
		}
		return nil
	})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	for i, k := range keys {
		rec := CurveRecord{Type: "curve", Dataset: d.Name, Algorithm: k.a, Learner: k.l, Mode: k.m, Fraction: k.f, Reps: opt.Reps}
		sc := make([]float64, opt.Reps)
		for r := 0; r < opt.Reps; r++ {
			rec.AUCReps = append(rec.AUCReps, res[i*opt.Reps+r].auc)
			sc[r] = res[i*opt.Reps+r].aucScore
		}
		rec.AUCMean, rec.AUCStd = meanStd(rec.AUCReps)
		rec.AUCScore, _ = meanStd(sc)
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return nil
}

// withDefaults fills in the zero options and checks them.
func (opt CurveOptions) withDefaults() (CurveOptions, error) {
	if opt.Algorithms == nil {
		opt.Algorithms = names([]classifier.Algorithm{classifier.UOB, classifier.AC2, classifier.RUS3})
	}
	if opt.Learners == nil {
		opt.Learners = names(classifier.Learners)
	}
	if opt.Modes == nil {
		opt.Modes = []string{ModeOnline, ModeBatch}
	}
	if opt.Fractions == nil {
		opt.Fractions = DefaultFractions
	}
	if opt.Reps == 0 {
		opt.Reps = 5
	}
	if opt.Points == 0 {
		opt.Points = 10
	}
	opt.Workers = workers(opt.Workers)
	for _, f := range opt.Fractions {
		if !(f > 0 && f < 1) {
			return opt, fmt.Errorf("paper: training fraction %g: want (0, 1)", f)
		}
	}
	for _, a := range opt.Algorithms {
		if !validAlgorithm(a) {
			return opt, fmt.Errorf("paper: algorithm %q: want one of %v", a, classifier.Algorithms)
		}
	}
	if opt.Reps < 1 || opt.Points < 1 {
		return opt, fmt.Errorf("paper: reps %d, points %d: want at least 1", opt.Reps, opt.Points)
	}
	return opt, nil
}
