// Package recipe builds the day-one model (package dayone) from the Bonn
// epilepsy EEG: the documented procedure of BuildDayOne, which looks at the
// training segments only, and Build, which adds the metadata the model
// file records. It is kept apart from package dayone so that ictald, which
// only loads the shipped model, does not link the Bonn tools and their
// plotting.
package recipe

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/bonn"
	"github.com/ictal/ictal/internal/paper"
	"github.com/ictal/ictal/internal/pipeline"
)

// DayOneConfig builds a generic per-channel model from Bonn segments.
type DayOneConfig struct {
	// Model is the ensemble (Features is filled in). A zero C is set to
	// the training windows' class ratio n⁻/n⁺ for the algorithms whose C
	// assumes one (classifier's doc).
	Model    classifier.Config
	Features features.Config // Channels and Rate are filled in; no Summaries
	Seed     uint64          // the folds and the learning order
	// Folds for the out-of-fold margins the calibration and the decision
	// rule are fitted on (default 5).
	Folds int
	// Sensitivity the decision rule must reach on the training segments
	// (default 0.95).
	Sensitivity float64
	// Censors are the bounds on each feature's evidence the procedure
	// chooses from (pipeline.Scoring.Censor, in nats; 0 for none), in
	// the order of preference on a tie: nil means DefaultCensors, or none
	// for LDA and QDA members (classifier.ErrNotCensorable).
	Censors []float64
}

// DefaultCensors are the censoring bounds BuildDayOne tries, least
// censoring first: none, then 8 nats halving down to ½ (a feature alone
// then moves a channel's log-odds by at most a factor of e^½ ≈ 1.6).
var DefaultCensors = []float64{0, 8, 4, 2, 1, 0.5}

// CensorResult is what one censoring bound did on the training segments,
// out of fold (see DayOne).
type CensorResult struct {
	Censor                      float64
	OOFWindowAUC, OOFSegmentAUC float64
	Rule                        alert.DetectorConfig
	RuleSensitivity             float64
	RuleFalseAlarms             int
	ok                          bool // a rule reached the sensitivity
	slope, intercept            float64
}

// DayOne is a generic model with everything the pipeline needs to use it
// on any montage from the first window.
type DayOne struct {
	Model   classifier.Model
	Scoring pipeline.Scoring
	Rule    alert.DetectorConfig // Threshold, K and N chosen on the training segments
	// OOFWindowAUC is the out-of-fold window AUC of the smoothed margin,
	// OOFSegmentAUC that of a segment's mean margin (the Bonn benchmark's
	// segment-level AUC);
	// RuleSensitivity and RuleFalseAlarms are the chosen rule's on the
	// training segments (out of fold): the fraction of ictal segments it
	// alerts in, and the number of other segments it alerts in, of
	// Negatives.
	OOFWindowAUC, OOFSegmentAUC float64
	RuleSensitivity             float64
	RuleFalseAlarms, Negatives  int
	// PredictedFAPerDay is what the rule's false alarms on the training
	// segments predict for a spliced recording of them: the fraction of
	// non-ictal segments it alerts in, times the segments in 24 h.
	PredictedFAPerDay float64
	// Positives and Windows count the ictal and all training windows.
	Positives, Windows int
	// Censors holds, for every bound tried, what it did out of fold; the
	// chosen one is Scoring.Censor, and the fields above are its.
	Censors []CensorResult
}

// rules are the persistence rules the decision procedure tries (K of N
// windows at a 1 s step), shortest first.
var rules = [][2]int{{1, 1}, {2, 2}, {2, 3}, {3, 3}, {3, 4}, {4, 4}, {4, 5}, {5, 6}}

// BuildDayOne builds the generic model of the per-channel mode from the
// Bonn segments (S ictal, the others not), by a procedure that looks at
// nothing but these segments:
//
//  1. every segment's windows (one channel) give the feature vectors; the
//     population is the median and robust scale of every feature over the
//     non-ictal windows (features.Standard), and every window is
//     normalised by it (the baseline a new patient starts from);
//  2. out-of-fold margins: the segments are split in Folds stratified
//     folds; a model learns the other folds' windows online, in a seeded
//     random order, and grades the fold's windows; each window's margin is
//     smoothed over the segment's previous windows as the pipeline does;
//  3. for every censoring bound in Censors (the margin is then
//     classifier.CensoredGrader's, each feature's evidence bounded), with
//     the same out-of-fold models:
//     a. calibration: a logistic regression of the class on the
//     out-of-fold smoothed margin gives Slope and Intercept;
//     b. the decision rule: every threshold (the calibrated scores seen)
//     and every K of N in rules runs alert.Detector over every segment;
//     among the rules that alert in at least Sensitivity of the ictal
//     segments, the one alerting in the fewest others wins, then the one
//     with the highest sensitivity, the shortest N, and the highest
//     threshold;
//  4. the bound whose rule alerts in the fewest other segments wins, then
//     the one that ranks the windows best (out-of-fold window AUC), then
//     the one whose rule is the most sensitive, then the first in Censors:
//     the censor is chosen as the rule is, by what the detector would do
//     on the training segments, and among equals by ranking;
//  5. the model learns every window, in a seeded random order.
func BuildDayOne(segs []bonn.Segment, cfg DayOneConfig) (*DayOne, error) {
	if cfg.Folds == 0 {
		cfg.Folds = 5
	}
	if cfg.Sensitivity == 0 {
		cfg.Sensitivity = 0.95
	}
	if cfg.Censors == nil {
		cfg.Censors = DefaultCensors
		if l := cfg.Model.Learner; l != "" && l != classifier.LearnerNB {
			cfg.Censors = []float64{0} // only naive Bayes' evidence can be censored
		}
	}
	for _, c := range cfg.Censors {
		if !(c >= 0) || math.IsInf(c, 1) {
			return nil, fmt.Errorf("dayone: censoring bound %v: want 0 (none) or a finite positive number", c)
		}
	}
	feats := cfg.Features.Features
	if feats == nil {
		feats = features.AllFeatures()
	}
	// 1: the windows, normalised by the population.
	tr, err := normalisedWindows(segs, cfg.Features, feats)
	if err != nil {
		return nil, err
	}
	mc := cfg.Model
	mc.Features = len(feats)
	if mc.Algorithm == "" {
		mc.Algorithm = classifier.UOB
	}
	if mc.C == 0 && assumesRatio(mc.Algorithm) {
		mc.C = math.Round(float64(tr.nneg)/float64(tr.npos)*100) / 100
	}
	sc := pipeline.Scoring{PerChannel: true, Population: &tr.pop, TopK: pipeline.DefaultTopK, Smooth: pipeline.DefaultSmooth, Slope: 1}

	// 2: out-of-fold smoothed margins, per bound, per segment in window
	// order.
	oof, err := outOfFold(tr, mc, cfg, sc.Smooth)
	if err != nil {
		return nil, err
	}
	d := &DayOne{Positives: tr.npos, Windows: tr.npos + tr.nneg}
	// 3 and 4: the bounds' calibrations and rules, and the best bound.
	var best int
	if d.Censors, best, err = chooseCensor(oof, tr.y, cfg); err != nil {
		return nil, err
	}
	r := d.Censors[best]
	sc.Censor, sc.Slope, sc.Intercept = r.Censor, r.slope, r.intercept
	d.OOFWindowAUC, d.OOFSegmentAUC = r.OOFWindowAUC, r.OOFSegmentAUC
	d.Rule, d.RuleSensitivity, d.RuleFalseAlarms = r.Rule, r.RuleSensitivity, r.RuleFalseAlarms
	d.Negatives = len(segs) - countTrue(tr.y)
	d.PredictedFAPerDay = float64(r.RuleFalseAlarms) / float64(d.Negatives) * 86400 / (bonn.SegmentSamples / bonn.Rate)

	// 5: the model.
	if d.Model, err = learnWindows(tr.vecs, tr.y, func(int) bool { return true }, mc, cfg.Seed, 0); err != nil {
		return nil, err
	}
	d.Scoring = sc
	return d, nil
}

// chooseCensor runs steps 3 and 4 of BuildDayOne on the out-of-fold
// margins of every bound of cfg.Censors (oof[i] those of bound i): what
// each bound did, and the index of the one chosen. The bounds run on
// goroutines of their own (they share nothing).
func chooseCensor(oof [][][]float64, y []bool, cfg DayOneConfig) ([]CensorResult, int, error) {
	res := make([]CensorResult, len(cfg.Censors))
	errs := make([]error, len(cfg.Censors))
	var wg sync.WaitGroup
	for ci, c := range cfg.Censors {
		wg.Go(func() {
			res[ci], errs[ci] = censorResult(oof[ci], y, cfg.Sensitivity)
			res[ci].Censor = c
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, 0, err
	}
	best := -1
	for ci, r := range res {
		if r.ok && (best < 0 || r.better(res[best])) {
			best = ci
		}
	}
	if best < 0 {
		return nil, 0, fmt.Errorf("dayone: no decision rule reaches sensitivity %v on the training segments", cfg.Sensitivity)
	}
	return res, best, nil
}

// censorResult is steps 3a and 3b for one bound's out-of-fold smoothed
// margins oof (per segment, in window order).
func censorResult(oof [][]float64, y []bool, minSens float64) (CensorResult, error) {
	var all []float64
	var ally []bool
	segMean := make([]float64, len(oof))
	for i := range oof {
		for _, m := range oof[i] {
			all, ally = append(all, m), append(ally, y[i])
			segMean[i] += m / float64(len(oof[i]))
		}
	}
	r := CensorResult{OOFWindowAUC: paper.AUCScores(all, ally), OOFSegmentAUC: paper.AUCScores(segMean, y)}
	r.slope, r.intercept = fitLogistic(all, ally)
	if !(r.slope > 0) {
		return r, fmt.Errorf("dayone: the out-of-fold margins do not rank the classes (calibration slope %v)", r.slope)
	}
	scores := make([][]float64, len(oof))
	for i := range oof {
		scores[i] = make([]float64, len(oof[i]))
		for w, m := range oof[i] {
			scores[i][w] = 1 / (1 + math.Exp(-(r.slope*m + r.intercept)))
		}
	}
	best, _ := chooseRule(scores, y, minSens)
	r.Rule, r.RuleSensitivity, r.RuleFalseAlarms, r.ok = best.rule, best.sens, best.fa, best.ok
	return r, nil
}

// better reports whether r is preferred to b (step 4): fewer false-alarm
// segments, then a higher window AUC, then a higher sensitivity.
func (r CensorResult) better(b CensorResult) bool {
	if r.RuleFalseAlarms != b.RuleFalseAlarms {
		return r.RuleFalseAlarms < b.RuleFalseAlarms
	}
	if r.OOFWindowAUC != b.OOFWindowAUC {
		return r.OOFWindowAUC > b.OOFWindowAUC
	}
	return r.RuleSensitivity > b.RuleSensitivity
}

// countTrue counts the true elements of y.
func countTrue(y []bool) int {
	n := 0
	for _, v := range y {
		if v {
			n++
		}
	}
	return n
}

// training is the training segments' windows, normalised by their
// population.
type training struct {
	vecs       [][][]float64 // per segment, per window
	y          []bool        // per segment: ictal
	pop        features.Population
	npos, nneg int // ictal and other windows
}

// normalisedWindows extracts every segment's windows (one channel), takes
// the population from the non-ictal ones (features.Standard), and
// normalises every window by it: the baseline a new patient starts from.
func normalisedWindows(segs []bonn.Segment, fc features.Config, feats []features.Feature) (training, error) {
	if fc.Summaries {
		return training{}, fmt.Errorf("dayone: a per-channel model takes no summaries")
	}
	e, err := bonn.Extractor(fc)
	if err != nil {
		return training{}, err
	}
	tr := training{vecs: make([][][]float64, len(segs)), y: make([]bool, len(segs))}
	var background [][]float64
	for i, s := range segs {
		tr.vecs[i], tr.y[i] = bonn.Vectors(s.X, e), s.Ictal()
		if tr.y[i] {
			tr.npos += len(tr.vecs[i])
		} else {
			tr.nneg += len(tr.vecs[i])
			background = append(background, tr.vecs[i]...)
		}
	}
	if tr.npos == 0 || tr.nneg == 0 {
		return training{}, fmt.Errorf("dayone: %d ictal and %d other windows: a day-one model needs both", tr.npos, tr.nneg)
	}
	if tr.pop, err = features.Standard(feats, 1, background); err != nil {
		return training{}, err
	}
	base, err := features.NewBaseline(1, feats, tr.pop)
	if err != nil {
		return training{}, err
	}
	for i := range tr.vecs {
		for w, v := range tr.vecs[i] {
			tr.vecs[i][w] = base.Normalise(make([]float64, len(v)), v)
		}
	}
	return tr, nil
}

// outOfFold returns, for every bound of cfg.Censors, every segment's
// out-of-fold margins in window order, smoothed over smooth windows: a
// model of mc learns the other folds' windows (stratified folds of cfg)
// and grades the fold's, once per bound.
func outOfFold(tr training, mc classifier.Config, cfg DayOneConfig, smooth int) ([][][]float64, error) {
	oof := make([][][]float64, len(cfg.Censors))
	for ci := range oof {
		oof[ci] = make([][]float64, len(tr.vecs))
	}
	for k, test := range paper.StratifiedFolds(tr.y, cfg.Folds, cfg.Seed) {
		in := make([]bool, len(tr.vecs))
		for _, i := range test {
			in[i] = true
		}
		m, err := learnWindows(tr.vecs, tr.y, func(i int) bool { return !in[i] }, mc, cfg.Seed, uint64(k)+1)
		if err != nil {
			return nil, err
		}
		for ci, c := range cfg.Censors {
			grade := m.(classifier.Grader).Margin
			if c > 0 {
				cg, ok := m.(classifier.CensoredGrader)
				if !ok {
					return nil, fmt.Errorf("dayone: censoring bound %v: the model does not censor", c)
				}
				grade = func(x []float64) (float64, error) { return cg.CensoredMargin(x, c) }
			}
			for _, i := range test {
				if oof[ci][i], err = smoothedMargins(grade, tr.vecs[i], smooth); err != nil && c > 0 {
					return nil, fmt.Errorf("dayone: censoring bound %v: %w", c, err)
				} else if err != nil {
					return nil, err
				}
			}
		}
	}
	return oof, nil
}

// ruleChoice is a decision rule with what it did on the training
// segments: the fraction of ictal segments it alerted in, and the number
// of others it alerted in.
type ruleChoice struct {
	rule alert.DetectorConfig
	sens float64
	fa   int
	ok   bool
}

// better reports whether c is preferred to b: fewer false-alarm segments,
// then a higher sensitivity, a shorter N, a higher threshold.
func (c ruleChoice) better(b ruleChoice) bool {
	if !b.ok || c.fa != b.fa {
		return !b.ok || c.fa < b.fa
	}
	if c.sens != b.sens {
		return c.sens > b.sens
	}
	if c.rule.N != b.rule.N {
		return c.rule.N < b.rule.N
	}
	return c.rule.Threshold > b.rule.Threshold
}

// chooseRule runs every threshold (the calibrated scores seen, every
// len/2000-th of them when there are more) and every K of N in rules over
// every segment's scores, and returns, among the rules that alert in at
// least minSens of the ictal segments, the best one (ruleChoice.better;
// ok false when none reaches minSens), with the number of ictal segments.
func chooseRule(scores [][]float64, y []bool, minSens float64) (ruleChoice, int) {
	var grid []float64
	nIctal := 0
	for i, sc := range scores {
		grid = append(grid, sc...)
		if y[i] {
			nIctal++
		}
	}
	slices.Sort(grid)
	grid = slices.Compact(grid)
	var best ruleChoice
	for _, r := range rules {
		for gi := 0; gi < len(grid); gi += max(1, len(grid)/2000) {
			if grid[gi] >= 1 {
				continue
			}
			c := ruleChoice{rule: alert.DetectorConfig{Threshold: grid[gi], K: r[0], N: r[1]}, ok: true}
			det := 0
			for i := range scores {
				if alerts(c.rule, scores[i]) {
					if y[i] {
						det++
					} else {
						c.fa++
					}
				}
			}
			if c.sens = float64(det) / float64(nIctal); c.sens >= minSens && c.better(best) {
				best = c
			}
		}
	}
	return best, nIctal
}

// assumesRatio reports whether an algorithm's default C is a class ratio
// it assumes (classifier's doc: UOB, SB, RUS3, SBO3).
func assumesRatio(alg classifier.Algorithm) bool {
	switch alg {
	case "", classifier.UOB, classifier.SB, classifier.RUS3, classifier.SBO3:
		return true
	}
	return false
}

// learnWindows is bonn.LearnWindows with the model seeded from the
// stream as well: seed·1000 + stream.
func learnWindows(vecs [][][]float64, y []bool, use func(int) bool, mc classifier.Config, seed, stream uint64) (classifier.Model, error) {
	mc.Seed = seed*1000 + stream
	m, _, _, err := bonn.LearnWindows(vecs, y, use, mc, seed, stream)
	return m, err
}

// smoothedMargins grades a segment's windows in order and smooths the
// margins over the last n windows, as the pipeline's scorer does.
func smoothedMargins(grade func([]float64) (float64, error), wins [][]float64, n int) ([]float64, error) {
	raw := make([]float64, len(wins))
	out := make([]float64, len(wins))
	for w, v := range wins {
		m, err := grade(v)
		if err != nil {
			return nil, err
		}
		raw[w] = m
		lo := max(0, w-n+1)
		var s float64
		for _, r := range raw[lo : w+1] {
			s += r
		}
		out[w] = s / float64(w+1-lo)
	}
	return out, nil
}

// alerts reports whether the rule raises an alert over the scores of one
// segment's windows (1 s apart).
func alerts(rule alert.DetectorConfig, scores []float64) bool {
	d, err := alert.NewDetector(rule)
	if err != nil {
		return false
	}
	for w, s := range scores {
		if d.Window(secs(w), secs(w+2), s, true).Started {
			return true
		}
	}
	return false
}

// fitLogistic fits P(y | m) = 1/(1+exp(−(a·m + b))) by Newton's method
// (maximum likelihood, a tiny ridge on a for separable data).
func fitLogistic(m []float64, y []bool) (a, b float64) {
	const ridge = 1e-6
	for it := 0; it < 100; it++ {
		var ga, gb, haa, hab, hbb float64
		for i, x := range m {
			p := 1 / (1 + math.Exp(-(a*x + b)))
			t := 0.0
			if y[i] {
				t = 1
			}
			w := max(p*(1-p), 1e-12)
			ga += (p - t) * x
			gb += p - t
			haa += w * x * x
			hab += w * x
			hbb += w
		}
		ga += ridge * a
		haa += ridge
		det := haa*hbb - hab*hab
		if det <= 0 {
			break
		}
		da := (hbb*ga - hab*gb) / det
		db := (haa*gb - hab*ga) / det
		a, b = a-da, b-db
		if math.Abs(da) < 1e-10 && math.Abs(db) < 1e-10 {
			break
		}
	}
	return a, b
}

func secs(n int) time.Duration { return time.Duration(n) * time.Second }
