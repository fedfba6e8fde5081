// Package recipe builds the day-one model (package dayone) from the Bonn
// epilepsy EEG: the documented procedure of BuildDayOne, which looks at the
// training segments only, and Build, which adds the metadata the model
// file records. It is kept apart from package dayone so that ictald, which
// only loads the shipped model, does not link the Bonn tools and their
// plotting.
package recipe

import (
	"fmt"
	"math"
	"slices"
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
//  3. calibration: a logistic regression of the class on the out-of-fold
//     smoothed margin gives Slope and Intercept;
//  4. the decision rule: every threshold (the calibrated scores seen) and
//     every K of N in rules runs alert.Detector over every segment; among
//     the rules that alert in at least Sensitivity of the ictal segments,
//     the one alerting in the fewest others wins, then the one with the
//     highest sensitivity, the shortest N, and the highest threshold;
//  5. the model learns every window, in a seeded random order.
func BuildDayOne(segs []bonn.Segment, cfg DayOneConfig) (*DayOne, error) {
	if cfg.Folds == 0 {
		cfg.Folds = 5
	}
	if cfg.Sensitivity == 0 {
		cfg.Sensitivity = 0.95
	}
	feats := cfg.Features.Features
	if feats == nil {
		feats = features.AllFeatures()
	}
	if cfg.Features.Summaries {
		return nil, fmt.Errorf("dayone: a per-channel model takes no summaries")
	}
	e, err := bonn.Extractor(cfg.Features)
	if err != nil {
		return nil, err
	}
	vecs := make([][][]float64, len(segs))
	y := make([]bool, len(segs))
	var background [][]float64
	npos, nneg := 0, 0
	for i, s := range segs {
		vecs[i], y[i] = bonn.Vectors(s.X, e), s.Ictal()
		if y[i] {
			npos += len(vecs[i])
		} else {
			nneg += len(vecs[i])
			background = append(background, vecs[i]...)
		}
	}
	if npos == 0 || nneg == 0 {
		return nil, fmt.Errorf("dayone: %d ictal and %d other windows: a day-one model needs both", npos, nneg)
	}
	pop, err := features.Standard(feats, 1, background)
	if err != nil {
		return nil, err
	}
	base, err := features.NewBaseline(1, feats, pop)
	if err != nil {
		return nil, err
	}
	for i := range vecs {
		for w, v := range vecs[i] {
			vecs[i][w] = base.Normalise(make([]float64, len(v)), v)
		}
	}
	mc := cfg.Model
	mc.Features = len(feats)
	if mc.Algorithm == "" {
		mc.Algorithm = classifier.UOB
	}
	if mc.C == 0 && assumesRatio(mc.Algorithm) {
		mc.C = math.Round(float64(nneg)/float64(npos)*100) / 100
	}
	sc := pipeline.Scoring{PerChannel: true, Population: &pop, TopK: pipeline.DefaultTopK, Smooth: pipeline.DefaultSmooth, Slope: 1}

	// 2: out-of-fold smoothed margins, per segment in window order.
	oof := make([][]float64, len(segs))
	for k, test := range paper.StratifiedFolds(y, cfg.Folds, cfg.Seed) {
		in := make([]bool, len(segs))
		for _, i := range test {
			in[i] = true
		}
		m, err := learnWindows(vecs, y, func(i int) bool { return !in[i] }, mc, cfg.Seed, uint64(k)+1)
		if err != nil {
			return nil, err
		}
		for _, i := range test {
			if oof[i], err = smoothedMargins(m.(classifier.Grader), vecs[i], sc.Smooth); err != nil {
				return nil, err
			}
		}
	}
	var all []float64
	var ally []bool
	for i := range segs {
		for _, m := range oof[i] {
			all, ally = append(all, m), append(ally, y[i])
		}
	}
	segMean := make([]float64, len(segs))
	for i := range segs {
		for _, m := range oof[i] {
			segMean[i] += m / float64(len(oof[i]))
		}
	}
	d := &DayOne{OOFWindowAUC: paper.AUCScores(all, ally), OOFSegmentAUC: paper.AUCScores(segMean, y), Positives: npos, Windows: npos + nneg}

	// 3: calibration.
	sc.Slope, sc.Intercept = fitLogistic(all, ally)
	if !(sc.Slope > 0) {
		return nil, fmt.Errorf("dayone: the out-of-fold margins do not rank the classes (calibration slope %v)", sc.Slope)
	}
	cal := func(m float64) float64 { return 1 / (1 + math.Exp(-(sc.Slope*m + sc.Intercept))) }

	// 4: the decision rule.
	scores := make([][]float64, len(segs))
	var grid []float64
	for i := range segs {
		scores[i] = make([]float64, len(oof[i]))
		for w, m := range oof[i] {
			scores[i][w] = cal(m)
		}
		grid = append(grid, scores[i]...)
	}
	slices.Sort(grid)
	grid = slices.Compact(grid)
	type choice struct {
		th         float64
		k, n       int
		sens       float64
		fa         int
		ok, picked bool
	}
	var best choice
	nIctal := 0
	for i := range segs {
		if y[i] {
			nIctal++
		}
	}
	for _, r := range rules {
		for gi := 0; gi < len(grid); gi += max(1, len(grid)/2000) {
			th := grid[gi]
			if th >= 1 {
				continue
			}
			rule := alert.DetectorConfig{Threshold: th, K: r[0], N: r[1]}
			det, fa := 0, 0
			for i := range segs {
				if alerts(rule, scores[i]) {
					if y[i] {
						det++
					} else {
						fa++
					}
				}
			}
			c := choice{th: th, k: r[0], n: r[1], sens: float64(det) / float64(nIctal), fa: fa, ok: true}
			if c.sens < cfg.Sensitivity {
				continue
			}
			if !best.ok || c.fa < best.fa || c.fa == best.fa && (c.sens > best.sens || c.sens == best.sens && (c.n < best.n || c.n == best.n && c.th > best.th)) {
				best = c
			}
		}
	}
	if !best.ok {
		return nil, fmt.Errorf("dayone: no decision rule reaches sensitivity %v on the training segments", cfg.Sensitivity)
	}
	d.Rule = alert.DetectorConfig{Threshold: best.th, K: best.k, N: best.n}
	d.RuleSensitivity, d.RuleFalseAlarms, d.Negatives = best.sens, best.fa, len(segs)-nIctal
	d.PredictedFAPerDay = float64(best.fa) / float64(d.Negatives) * 86400 / (bonn.SegmentSamples / bonn.Rate)

	// 5: the model.
	if d.Model, err = learnWindows(vecs, y, func(int) bool { return true }, mc, cfg.Seed, 0); err != nil {
		return nil, err
	}
	d.Scoring = sc
	return d, nil
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
func smoothedMargins(g classifier.Grader, wins [][]float64, n int) ([]float64, error) {
	raw := make([]float64, len(wins))
	out := make([]float64, len(wins))
	for w, v := range wins {
		m, err := g.Margin(v)
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
