package paper

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
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
	// Hull adds to each record the AUC of the ROC convex hull of the
	// sweep's points (AUCHull) beside the polyline AUC (AUCPoints).
	Hull bool
	// Span widens the paper's cost ranges by this factor at both ends
	// (sweepValues); default 1, the paper's ranges.
	Span     float64
	Seed     uint64
	Workers  int       // default GOMAXPROCS
	Progress io.Writer // progress lines; nil for none
	// LiteralVote trains every model with classifier.Config.LiteralVote:
	// boosting members with ε > 0.5 vote for the other class, as the
	// paper's output literally does, instead of abstaining.
	LiteralVote bool
}

// CVRecord is one output line of RunCV: the cross-validated AUC of one
// (dataset, algorithm, learner, mode).
type CVRecord struct {
	Type      string  `json:"type"` // "cv"
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
	// AUCHull… are the AUC of the ROC convex hull of each fold's sweep
	// (CVOptions.Hull only).
	AUCHullMean  float64   `json:"auc_hull_mean,omitempty"`
	AUCHullStd   float64   `json:"auc_hull_std,omitempty"`
	AUCHullFolds []float64 `json:"auc_hull_folds,omitempty"`
	Sweep        string    `json:"sweep"` // "C", "CN" or "threshold"
	// Vote is "literal" under CVOptions.LiteralVote, else absent (members
	// with ε ≥ 0.5 abstain).
	Vote   string `json:"vote,omitempty"`
	Points int    `json:"points"`
	// ROC is the fold-averaged (FPR, TPR) of each sweep setting, in sweep
	// order.
	ROC [][2]float64 `json:"roc"`
}

// foldResult is the outcome of one job (one fold of one record).
type foldResult struct {
	auc, aucHull, aucScore float64
	roc                    []Point
}

// cvJob is one fold of one record.
type cvJob struct {
	rec, fold int
}

func (o *CVOptions) defaults() error {
	if o.Algorithms == nil {
		o.Algorithms = names(classifier.Algorithms)
	}
	if o.Learners == nil {
		o.Learners = names(classifier.Learners)
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
	if o.Span == 0 {
		o.Span = 1
	}
	if !(o.Span >= 1) {
		return fmt.Errorf("paper: span %g: want at least 1", o.Span)
	}
	o.Workers = workers(o.Workers)
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
		if !slices.Contains(names(classifier.Learners), l) {
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
		if classifier.Algorithm(a) == b {
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
	r := &cvRun{data: data, opt: opt, enc: json.NewEncoder(out), start: time.Now()}
	if err := r.plan(); err != nil {
		return err
	}
	jobs := make(chan cvJob)
	var wg sync.WaitGroup
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				k := r.keys[j.rec]
				res, err := runFold(&data[k.d], r.folds[k.d], j.fold, k.alg, k.lrn, k.mod, opt)
				r.record(j, res, err)
			}
		}()
	}
	for rec := range r.keys {
		for f := 0; f < opt.Folds; f++ {
			if r.failed() {
				break
			}
			jobs <- cvJob{rec, f}
		}
	}
	close(jobs)
	wg.Wait()
	return r.err
}

// cvKey names one record of RunCV's output.
type cvKey struct {
	d             int
	alg, lrn, mod string
}

// cvRun is the state RunCV's workers share: the records in output order,
// their folds' results as they arrive, and how far the output has got.
type cvRun struct {
	data  []Data
	opt   CVOptions
	keys  []cvKey
	folds [][][]int // per data set: the stratified folds

	mu       sync.Mutex
	results  [][]foldResult
	done     []int // folds finished per record
	next     int   // first record not yet written
	finished int
	err      error // the first error
	enc      *json.Encoder
	start    time.Time
}

// plan lists the records and stratifies every data set's folds.
func (r *cvRun) plan() error {
	r.folds = make([][][]int, len(r.data))
	for di := range r.data {
		d := &r.data[di]
		pos, neg := partition(d.Y)
		if len(pos) < r.opt.Folds || len(neg) < r.opt.Folds {
			return fmt.Errorf("paper: data set %s: %d positives and %d negatives cannot fill %d stratified folds", d.Name, len(pos), len(neg), r.opt.Folds)
		}
		r.folds[di] = StratifiedFolds(d.Y, r.opt.Folds, deriveSeed(r.opt.Seed, d.Name, "folds"))
		for _, a := range r.opt.Algorithms {
			for _, l := range r.opt.Learners {
				for _, m := range r.opt.Modes {
					r.keys = append(r.keys, cvKey{di, a, l, m})
				}
			}
		}
	}
	r.results = make([][]foldResult, len(r.keys))
	r.done = make([]int, len(r.keys))
	for i := range r.results {
		r.results[i] = make([]foldResult, r.opt.Folds)
	}
	return nil
}

func (r *cvRun) failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err != nil
}

// record keeps one fold's result and writes every record now complete.
func (r *cvRun) record(j cvJob, res foldResult, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := r.keys[j.rec]
	name := r.data[k.d].Name
	if err != nil {
		if r.err == nil {
			r.err = fmt.Errorf("paper: %s %s %s %s fold %d: %w", name, k.alg, k.lrn, k.mod, j.fold, err)
		}
		return
	}
	r.results[j.rec][j.fold] = res
	r.done[j.rec]++
	r.finished++
	if r.err == nil {
		r.err = r.flush()
	}
	if r.opt.Progress != nil {
		fmt.Fprintf(r.opt.Progress, "cv: %d/%d  %s %s %s %s fold %d  auc %.4f  %s\n", r.finished, len(r.keys)*r.opt.Folds,
			name, k.alg, k.lrn, k.mod, j.fold, res.auc, time.Since(r.start).Round(time.Second))
	}
}

// flush writes the complete records at the head of the output, in order
// (with mu held).
func (r *cvRun) flush() error {
	for r.next < len(r.keys) && r.done[r.next] == r.opt.Folds {
		k := r.keys[r.next]
		rec := aggregate(r.data[k.d].Name, k.alg, k.lrn, k.mod, r.opt, r.results[r.next])
		if err := r.enc.Encode(rec); err != nil {
			return fmt.Errorf("paper: writing %s %s %s %s: %w", rec.Dataset, rec.Algorithm, rec.Learner, rec.Mode, err)
		}
		r.results[r.next] = nil
		r.next++
	}
	return nil
}

// runFold trains and tests one fold of one record at every cost setting.
func runFold(d *Data, folds [][]int, f int, alg, lrn, mode string, opt CVOptions) (foldResult, error) {
	s := makeSplit(d.X, d.Y, complement(len(d.Y), folds[f]), folds[f])
	return evalSplit(s, alg, lrn, mode, opt.Points, opt.Span, opt.LiteralVote, func(point string) uint64 {
		return deriveSeed(opt.Seed, d.Name, alg, lrn, mode, strconv.Itoa(f), point)
	})
}

// evalSplit trains on s's training rows at every cost setting of the sweep
// (and at the default cost) and measures the ROC on its test rows. seed
// gives the training seed of each setting ("0", "1", ..., "default").
func evalSplit(s split, alg, lrn, mode string, points int, span float64, literal bool, seed func(point string) uint64) (foldResult, error) {
	base := classifier.Config{Algorithm: classifier.Algorithm(alg), Learner: classifier.LearnerName(lrn), Features: len(s.xtr[0]), LiteralVote: literal}
	vals := sweepValues(classifier.Algorithm(alg), points, s.ratio, span)
	res := foldResult{roc: make([]Point, len(vals))}
	if sweepKind(classifier.Algorithm(alg)) == SweepThreshold {
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
				return res, fmt.Errorf("setting %s = %g: %w", sweepKind(classifier.Algorithm(alg)), v, err)
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
	res.aucHull = AUCHull(res.roc)
	if math.IsNaN(res.aucScore) {
		return res, errors.New("test set lacks a class")
	}
	return res, nil
}

// aggregate turns one record's folds into its CVRecord.
func aggregate(name, alg, lrn, mode string, opt CVOptions, rs []foldResult) CVRecord {
	r := CVRecord{Type: "cv", Dataset: name, Algorithm: alg, Learner: lrn, Mode: mode, Folds: len(rs),
		Sweep: sweepKind(classifier.Algorithm(alg)), Points: opt.Points}
	if opt.LiteralVote {
		r.Vote = "literal"
	}
	sc := make([]float64, len(rs))
	for i, f := range rs {
		r.AUCFolds = append(r.AUCFolds, f.auc)
		sc[i] = f.aucScore
	}
	r.AUCMean, r.AUCStd = meanStd(r.AUCFolds)
	r.AUCScore, r.AUCScoreStd = meanStd(sc)
	if opt.Hull {
		for _, f := range rs {
			r.AUCHullFolds = append(r.AUCHullFolds, f.aucHull)
		}
		r.AUCHullMean, r.AUCHullStd = meanStd(r.AUCHullFolds)
	}
	r.ROC = make([][2]float64, opt.Points)
	for _, f := range rs {
		for i, p := range f.roc {
			r.ROC[i][0] += p.FPR / float64(len(rs))
			r.ROC[i][1] += p.TPR / float64(len(rs))
		}
	}
	return r
}
