package bonn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/paper"
)

// Tasks maps a task name to the negative sets compared with S.
var Tasks = map[string][]string{
	"S-Z":   {"Z"},
	"S-F":   {"F"},
	"S-all": {"Z", "O", "N", "F"},
}

// TaskNames lists the tasks in report order.
var TaskNames = []string{"S-Z", "S-F", "S-all"}

// Config is one cross-validation run.
type Config struct {
	Folds     int               // k (default 5)
	Seed      uint64            // folds, learning order and model seeds
	Model     classifier.Config // Features is filled in
	Features  features.Config   // Channels and Rate are filled in
	Threshold float64           // on a segment's mean score (default 0.5)
}

// Result is the outcome of a cross-validation.
type Result struct {
	Folds       int
	Positives   int       // ictal segments
	Negatives   int       // other segments
	Windows     int       // per segment
	AUC         []float64 // segment-level AUC per fold
	AUCMean     float64
	AUCStd      float64
	WindowAUC   float64 // pooled out-of-fold window-level AUC
	Sensitivity float64 // pooled over folds, at the threshold
	Specificity float64
	Accuracy    float64
	// Scores and Labels are every segment's out-of-fold score and class.
	Scores []float64
	Labels []bool
	// LearnTime is the time spent in Learn over all folds, per window.
	LearnTime time.Duration
}

// Vectors returns the feature vectors of a segment's windows.
func Vectors(x []float64, e *features.Extractor) [][]float64 {
	e.Reset()
	var out [][]float64
	s := []float64{0}
	for _, v := range x {
		s[0] = v
		if e.Push(s) {
			out = append(out, e.Vector(make([]float64, e.Dim())))
		}
	}
	return out
}

// Extractor returns a single-channel extractor at the Bonn rate.
func Extractor(fc features.Config) (*features.Extractor, error) {
	fc.Channels, fc.Rate = 1, Rate
	return features.New(fc)
}

// CrossValidate runs a k-fold cross-validation over segments stratified by
// class, with a new model per fold.
func CrossValidate(segs []Segment, cfg Config) (Result, error) {
	if cfg.Folds == 0 {
		cfg.Folds = 5
	}
	if cfg.Threshold == 0 {
		cfg.Threshold = 0.5
	}
	e, err := Extractor(cfg.Features)
	if err != nil {
		return Result{}, err
	}
	vecs := make([][][]float64, len(segs))
	y := make([]bool, len(segs))
	res := Result{Folds: cfg.Folds, Scores: make([]float64, len(segs)), Labels: y}
	for i, s := range segs {
		vecs[i] = Vectors(s.X, e)
		y[i] = s.Ictal()
		if y[i] {
			res.Positives++
		} else {
			res.Negatives++
		}
	}
	if res.Positives < cfg.Folds || res.Negatives < cfg.Folds {
		return Result{}, fmt.Errorf("bonn: %d ictal and %d other segments cannot make %d folds", res.Positives, res.Negatives, cfg.Folds)
	}
	res.Windows = len(vecs[0])
	var winScores []float64
	var winLabels []bool
	var learnTime time.Duration
	var learned int
	folds := paper.StratifiedFolds(y, cfg.Folds, cfg.Seed)
	for k, test := range folds {
		m, n, took, err := trainFold(segs, vecs, y, test, cfg, k, e.Dim())
		if err != nil {
			return Result{}, err
		}
		learnTime += took
		learned += n
		fs := make([]float64, len(test))
		fy := make([]bool, len(test))
		for j, i := range test {
			sum := 0.0
			for _, v := range vecs[i] {
				p, err := m.Score(v)
				if err != nil {
					return Result{}, fmt.Errorf("bonn: fold %d: scoring %s: %w", k, segs[i].Name, err)
				}
				sum += p
				winScores = append(winScores, p)
				winLabels = append(winLabels, y[i])
			}
			fs[j], fy[j] = sum/float64(len(vecs[i])), y[i]
			res.Scores[i] = fs[j]
		}
		res.AUC = append(res.AUC, paper.AUCScores(fs, fy))
	}
	res.AUCMean, res.AUCStd = meanStd(res.AUC)
	res.WindowAUC = paper.AUCScores(winScores, winLabels)
	res.rates(y, cfg.Threshold)
	if learned > 0 {
		res.LearnTime = learnTime / time.Duration(learned)
	}
	return res, nil
}

// trainFold learns a new model of fold k on the windows of every segment
// outside test, in a seeded random order; n is how many it learned, in took.
func trainFold(segs []Segment, vecs [][][]float64, y []bool, test []int, cfg Config, k, dim int) (m classifier.Model, n int, took time.Duration, err error) {
	inTest := make([]bool, len(segs))
	for _, i := range test {
		inTest[i] = true
	}
	mc := cfg.Model
	mc.Features = dim
	mc.Seed = cfg.Seed*1000 + uint64(k)
	m, n, took, err = LearnWindows(vecs, y, func(i int) bool { return !inTest[i] }, mc, cfg.Seed, uint64(k)+1)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("bonn: fold %d: %w", k, err)
	}
	return m, n, took, nil
}

// LearnWindows returns a new model of mc that learned every window of the
// segments use accepts (vecs[i] are segment i's windows, y[i] its class),
// each once, online, in an order shuffled by PCG(seed, stream); with how
// many it learned and the time Learn took.
func LearnWindows(vecs [][][]float64, y []bool, use func(int) bool, mc classifier.Config, seed, stream uint64) (classifier.Model, int, time.Duration, error) {
	type ex struct{ seg, win int }
	var order []ex
	for i := range vecs {
		if use(i) {
			for w := range vecs[i] {
				order = append(order, ex{i, w})
			}
		}
	}
	rand.New(rand.NewPCG(seed, stream)).Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	m, err := classifier.New(mc)
	if err != nil {
		return nil, 0, 0, err
	}
	t0 := time.Now()
	for _, o := range order {
		if err := m.Learn(vecs[o.seg][o.win], y[o.seg]); err != nil {
			return nil, 0, 0, fmt.Errorf("learning segment %d window %d: %w", o.seg, o.win, err)
		}
	}
	return m, len(order), time.Since(t0), nil
}

// rates sets the sensitivity, specificity and accuracy of the segment
// scores at threshold.
func (res *Result) rates(y []bool, threshold float64) {
	var tp, tn int
	for i, s := range res.Scores {
		switch {
		case y[i] && s >= threshold:
			tp++
		case !y[i] && s < threshold:
			tn++
		}
	}
	res.Sensitivity = float64(tp) / float64(res.Positives)
	res.Specificity = float64(tn) / float64(res.Negatives)
	res.Accuracy = float64(tp+tn) / float64(len(y))
}

// TrainTest trains on every window of train and scores the segments of
// test (a segment's score is the mean of its windows').
func TrainTest(train, test []Segment, cfg Config) (Result, error) {
	if cfg.Threshold == 0 {
		cfg.Threshold = 0.5
	}
	e, err := Extractor(cfg.Features)
	if err != nil {
		return Result{}, err
	}
	mc := cfg.Model
	mc.Features = e.Dim()
	mc.Seed = cfg.Seed
	m, err := classifier.New(mc)
	if err != nil {
		return Result{}, err
	}
	type ex struct {
		x   []float64
		pos bool
	}
	var order []ex
	for _, s := range train {
		for _, v := range Vectors(s.X, e) {
			order = append(order, ex{v, s.Ictal()})
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0))
	rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	for _, o := range order {
		if err := m.Learn(o.x, o.pos); err != nil {
			return Result{}, err
		}
	}
	res := Result{Folds: 1}
	var winScores []float64
	var winLabels []bool
	var tp, tn int
	for _, s := range test {
		vs := Vectors(s.X, e)
		sum := 0.0
		for _, v := range vs {
			p, err := m.Score(v)
			if err != nil {
				return Result{}, fmt.Errorf("bonn: scoring %s: %w", s.Name, err)
			}
			sum += p
			winScores = append(winScores, p)
			winLabels = append(winLabels, s.Ictal())
		}
		sc := sum / float64(len(vs))
		res.Scores, res.Labels = append(res.Scores, sc), append(res.Labels, s.Ictal())
		res.Windows = len(vs)
		if s.Ictal() {
			res.Positives++
			if sc >= cfg.Threshold {
				tp++
			}
		} else {
			res.Negatives++
			if sc < cfg.Threshold {
				tn++
			}
		}
	}
	auc := paper.AUCScores(res.Scores, res.Labels)
	res.AUC, res.AUCMean = []float64{auc}, auc
	res.WindowAUC = paper.AUCScores(winScores, winLabels)
	res.Sensitivity = float64(tp) / math.Max(1, float64(res.Positives))
	res.Specificity = float64(tn) / math.Max(1, float64(res.Negatives))
	res.Accuracy = float64(tp+tn) / math.Max(1, float64(len(test)))
	return res, nil
}

func meanStd(xs []float64) (float64, float64) {
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	if len(xs) > 1 {
		v /= float64(len(xs) - 1)
	}
	return m, math.Sqrt(v)
}
