package paper

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/ictal/ictal/classifier"
)

// CVOptions parameterises RunCV; zero values mean the defaults of
// `ictal paper cv`.
type CVOptions struct {
	Algorithms []string // default: classifier.Algorithms
	Learners   []string // default: nb, lda, qda
	Modes      []string // default: online, batch
	Folds      int      // default 5
	Points     int      // cost settings per ROC, default 10
	Seed       uint64
	Workers    int       // default GOMAXPROCS
	Progress   io.Writer // progress lines; nil for none
}

// CVRecord is one output line of RunCV: the cross-validated AUC of one
// (dataset, algorithm, learner, mode).
type CVRecord struct {
	Dataset   string  `json:"dataset"`
	Algorithm string  `json:"algorithm"`
	Learner   string  `json:"learner"`
	Mode      string  `json:"mode"`
	Folds     int     `json:"folds"`
	AUCMean   float64 `json:"auc_mean"` // AUC of the ROC traced by the cost sweep
	AUCStd    float64 `json:"auc_std"`  // its sample standard deviation over folds
	// AUCScore is the Mann–Whitney AUC of the continuous Score at the
	// default cost (for OzaBag/OzaBoost: of the one trained model).
	AUCScore    float64   `json:"auc_score"`
	AUCScoreStd float64   `json:"auc_score_std"`
	AUCFolds    []float64 `json:"auc_folds"`
	Sweep       string    `json:"sweep"` // "C", "CN" or "threshold"
	Points      int       `json:"points"`
	// ROC is the fold-averaged (FPR, TPR) of each sweep setting, in sweep
	// order.
	ROC [][2]float64 `json:"roc"`
}

// foldResult is the outcome of one job (one fold of one record).
type foldResult struct {
	auc, aucScore float64
	roc           []Point
}

// cvJob is one fold of one record.
type cvJob struct {
	rec, fold int
}

func (o *CVOptions) defaults() error {
	if o.Algorithms == nil {
		o.Algorithms = classifier.Algorithms
	}
	if o.Learners == nil {
		o.Learners = classifier.Learners
	}
	if o.Modes == nil {
		o.Modes = []string{ModeOnline, ModeBatch}
	}
	if o.Folds == 0 {
		o.Folds = 5
	}
	if o.Points == 0 {
		o.Points = 10
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Folds < 2 {
		return fmt.Errorf("paper: folds %d: want at least 2", o.Folds)
	}
	if o.Points < 1 {
		return fmt.Errorf("paper: points %d: want at least 1", o.Points)
	}
	for _, a := range o.Algorithms {
		if !validAlgorithm(a) {
			return fmt.Errorf("paper: algorithm %q: want one of %v", a, classifier.Algorithms)
		}
	}
	for _, l := range o.Learners {
		if l != classifier.LearnerNB && l != classifier.LearnerLDA && l != classifier.LearnerQDA {
			return fmt.Errorf("paper: learner %q: want nb, lda or qda", l)
		}
	}
	for _, m := range o.Modes {
		if m != ModeOnline && m != ModeBatch {
			return fmt.Errorf("paper: mode %q: want online or batch", m)
		}
	}
	return nil
}

func validAlgorithm(a string) bool {
	for _, b := range classifier.Algorithms {
		if a == b {
			return true
		}
	}
	return false
}

// RunCV runs the paper's protocol (Section 6) on every data set and writes
// one JSON line per (dataset, algorithm, learner, mode), in that nested
// order, to out. Folds are stratified (seeded by the run's seed and the
// data set's name); every fold and cost setting trains with a seed derived
// from (seed, dataset, algorithm, learner, mode, fold, setting), so the
// output is byte-identical for any number of workers. Records are written
// as soon as they and every earlier record are complete.
func RunCV(data []Data, opt CVOptions, out io.Writer) error {
	if err := opt.defaults(); err != nil {
		return err
	}
	type recKey struct {
		d             int
		alg, lrn, mod string
	}
	var keys []recKey
	folds := make([][][]int, len(data))
	for di := range data {
		d := &data[di]
		p := d.Positives()
		if p < opt.Folds || len(d.Y)-p < opt.Folds {
			return fmt.Errorf("paper: data set %s: %d positives and %d negatives cannot fill %d stratified folds", d.Name, p, len(d.Y)-p, opt.Folds)
		}
		folds[di] = StratifiedFolds(d.Y, opt.Folds, deriveSeed(opt.Seed, d.Name, "folds"))
		for _, a := range opt.Algorithms {
			for _, l := range opt.Learners {
				for _, m := range opt.Modes {
					keys = append(keys, recKey{di, a, l, m})
				}
			}
		}
	}
	results := make([][]foldResult, len(keys))
	done := make([]int, len(keys))
	for i := range results {
		results[i] = make([]foldResult, opt.Folds)
	}
	jobs := make(chan cvJob)
	var (
		mu       sync.Mutex
		next     int
		finished int
		firstErr error
		start    = time.Now()
		total    = len(keys) * opt.Folds
	)
	enc := json.NewEncoder(out)
	flush := func() error { // with mu held
		for next < len(keys) && done[next] == opt.Folds {
			k := keys[next]
			rec := aggregate(data[k.d].Name, k.alg, k.lrn, k.mod, opt, results[next])
			if err := enc.Encode(rec); err != nil {
				return fmt.Errorf("paper: writing %s %s %s %s: %w", rec.Dataset, rec.Algorithm, rec.Learner, rec.Mode, err)
			}
			results[next] = nil
			next++
		}
		return nil
	}
	var wg sync.WaitGroup
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				k := keys[j.rec]
				d := &data[k.d]
				res, err := runFold(d, folds[k.d], j.fold, k.alg, k.lrn, k.mod, opt)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = fmt.Errorf("paper: %s %s %s %s fold %d: %w", d.Name, k.alg, k.lrn, k.mod, j.fold, err)
					}
				} else {
					results[j.rec][j.fold] = res
					done[j.rec]++
					finished++
					if firstErr == nil {
						firstErr = flush()
					}
					if opt.Progress != nil {
						fmt.Fprintf(opt.Progress, "cv: %d/%d  %s %s %s %s fold %d  auc %.4f  %s\n", finished, total,
							d.Name, k.alg, k.lrn, k.mod, j.fold, res.auc, time.Since(start).Round(time.Second))
					}
				}
				mu.Unlock()
			}
		}()
	}
	for r := range keys {
		for f := 0; f < opt.Folds; f++ {
			mu.Lock()
			stop := firstErr != nil
			mu.Unlock()
			if stop {
				break
			}
			jobs <- cvJob{r, f}
		}
	}
	close(jobs)
	wg.Wait()
	return firstErr
}

// runFold trains and tests one fold of one record at every cost setting.
func runFold(d *Data, folds [][]int, f int, alg, lrn, mode string, opt CVOptions) (foldResult, error) {
	s := makeSplit(d.X, d.Y, complement(len(d.Y), folds[f]), folds[f])
	return evalSplit(s, alg, lrn, mode, opt.Points, func(point string) uint64 {
		return deriveSeed(opt.Seed, d.Name, alg, lrn, mode, strconv.Itoa(f), point)
	})
}

// evalSplit trains on s's training rows at every cost setting of the sweep
// (and at the default cost) and measures the ROC on its test rows. seed
// gives the training seed of each setting ("0", "1", ..., "default").
func evalSplit(s split, alg, lrn, mode string, points int, seed func(point string) uint64) (foldResult, error) {
	base := classifier.Config{Algorithm: alg, Learner: lrn, Features: len(s.xtr[0])}
	vals := sweepValues(alg, points, s.ratio)
	res := foldResult{roc: make([]Point, len(vals))}
	if sweepKind(alg) == SweepThreshold {
		cfg := base
		cfg.Seed = seed("0")
		scores, err := fitScore(cfg, mode, s)
		if err != nil {
			return res, err
		}
		for i, t := range vals {
			res.roc[i] = ROCPointAt(scores, s.yte, t)
		}
		res.aucScore = AUCScores(scores, s.yte)
	} else {
		for i, v := range vals {
			cfg := withCost(base, v)
			cfg.Seed = seed(strconv.Itoa(i))
			scores, err := fitScore(cfg, mode, s)
			if err != nil {
				return res, fmt.Errorf("setting %s = %g: %w", sweepKind(alg), v, err)
			}
			res.roc[i] = ROCPoint(scores, s.yte)
		}
		cfg := base
		cfg.Seed = seed("default")
		scores, err := fitScore(cfg, mode, s)
		if err != nil {
			return res, fmt.Errorf("default cost: %w", err)
		}
		res.aucScore = AUCScores(scores, s.yte)
	}
	res.auc = AUCPoints(res.roc)
	if math.IsNaN(res.aucScore) {
		return res, errors.New("test set lacks a class")
	}
	return res, nil
}

// aggregate turns one record's folds into its CVRecord.
func aggregate(name, alg, lrn, mode string, opt CVOptions, rs []foldResult) CVRecord {
	r := CVRecord{Dataset: name, Algorithm: alg, Learner: lrn, Mode: mode, Folds: len(rs),
		Sweep: sweepKind(alg), Points: opt.Points}
	sc := make([]float64, len(rs))
	for i, f := range rs {
		r.AUCFolds = append(r.AUCFolds, f.auc)
		sc[i] = f.aucScore
	}
	r.AUCMean, r.AUCStd = meanStd(r.AUCFolds)
	r.AUCScore, r.AUCScoreStd = meanStd(sc)
	r.ROC = make([][2]float64, opt.Points)
	for _, f := range rs {
		for i, p := range f.roc {
			r.ROC[i][0] += p.FPR / float64(len(rs))
			r.ROC[i][1] += p.TPR / float64(len(rs))
		}
	}
	return r
}
