package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/ictal/ictal/internal/dayone/recipe"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/internal/bonn"
	"github.com/ictal/ictal/internal/paper"
	"github.com/ictal/ictal/internal/pipeline"
)

// bonnReport is one JSON line of `ictal bonn`.
type bonnReport struct {
	Type        string    `json:"type"`
	Task        string    `json:"task"`
	Mode        string    `json:"mode"` // cv or train-test
	Folds       int       `json:"folds"`
	Seed        uint64    `json:"seed"`
	Algorithm   string    `json:"algorithm"`
	Learner     string    `json:"learner"`
	Aggregate   string    `json:"aggregate"`
	Positives   int       `json:"ictal_segments"`
	Negatives   int       `json:"other_segments"`
	Windows     int       `json:"windows_per_segment"`
	AUCFolds    []float64 `json:"auc_folds"`
	AUCMean     float64   `json:"auc_mean"`
	AUCStd      float64   `json:"auc_std"`
	WindowAUC   float64   `json:"window_auc"`
	Threshold   float64   `json:"threshold"`
	Sensitivity float64   `json:"sensitivity"`
	Specificity float64   `json:"specificity"`
	Accuracy    float64   `json:"accuracy"`
	LearnNs     float64   `json:"learn_ns_per_window"`
}

// bonnModes are the subcommands of `ictal bonn`; without one, the flags
// choose the mode as before (-concat, -concat-eval, -train/-test, else cv).
var bonnModes = []string{"cv", "train-test", "concat", "concat-eval", "feedback-eval", "day-one"}

// bonnFlags are the flags of `ictal bonn`.
type bonnFlags struct {
	data, task         string
	folds              int
	trainDir, testDir  string
	concat, concatEval bool
	out                string
	minutes, rate      float64
	plotDir, half      string
	fb                 feedbackFlags
	mf                 modelFlags
}

// add defines the flags on fs.
func (f *bonnFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&f.data, "data", "", "folder with the sets Z O N F S as subfolders")
	fs.StringVar(&f.task, "task", "", "S-Z, S-F or S-all (default: all three)")
	fs.IntVar(&f.folds, "folds", 5, "cross-validation folds (segments, stratified)")
	fs.StringVar(&f.trainDir, "train", "", "train on this folder's segments (same layout) …")
	fs.StringVar(&f.testDir, "test", "", "… and test on this folder's")
	fs.BoolVar(&f.concat, "concat", false, "write a continuous EDF+ recording spliced from segments (-o)")
	fs.BoolVar(&f.concatEval, "concat-eval", false, "splice a training and a test recording from disjoint segments and replay them through the pipeline")
	fs.StringVar(&f.out, "o", "", "-concat: EDF+ file to write; -concat-eval: folder for the two recordings (default: a temporary one)")
	fs.Float64Var(&f.minutes, "minutes", 60, "-concat, -concat-eval, feedback-eval: length of a recording (feedback-eval: 180 unless given)")
	fs.Float64Var(&f.rate, "seizure-rate", 0.05, "-concat: probability that a 23.6 s slot is ictal")
	fs.StringVar(&f.plotDir, "plot", "", "write figures (PNG) into this folder: ROC curves of the tasks, or score traces of -concat-eval")
	fs.StringVar(&f.half, "half", "", "concat, day-one: use only the odd (\"a\") or even (\"b\") numbered segments, for disjoint recordings (or a quarter, a half of a half: aa, ab, ba, bb)")
	fs.StringVar(&f.mf.censors, "censors", "", "day-one, concat-eval, feedback-eval: the bounds on each feature's evidence, in nats (0: none), a day-one model's procedure chooses from (a full tie goes to the earlier) (default "+recipe.FormatCensors(recipe.DefaultCensors)+")")
	f.fb.add(fs)
	f.mf.add(fs)
}

// runBonn implements `ictal bonn [cv|train-test|concat|concat-eval|feedback-eval] [flags]`.
func runBonn(args []string, stdout, stderr io.Writer) error {
	mode := ""
	if len(args) > 0 && slices.Contains(bonnModes, args[0]) {
		mode, args = args[0], args[1:]
	}
	fs := newFlags("bonn "+mode, "usage: ictal bonn [cv] -data DIR [-task S-Z|S-F|S-all] [-folds 5] [-seed 1]\n       ictal bonn train-test -train DIR -test DIR [-task …]\n       ictal bonn concat -data DIR -o FILE.edf [-minutes 60] [-seizure-rate 0.05] [-half a|b] [-seed 1]\n       ictal bonn concat-eval -data DIR [-o DIR] [-minutes 60]\n       ictal bonn feedback-eval -data DIR [-minutes 180] [-seed N | -seeds 1-5] [-train-half a] [-test-half b] [-mark-delay 3m] [-text] [-plot DIR]\n       ictal bonn day-one -data DIR -o FILE.model [-half a|b] [-task S-F] [-seed 1]\n(the flags -concat and -concat-eval still choose those modes without a subcommand)\n\nThe Bonn benchmark through ictal's features (2 s windows, step 1 s) and an\nonline ensemble learning windows one at a time. Folds split segments, never\nwindows; a segment's score is the mean of its windows' scores. Prints one\nJSON line per task. See internal/eval/README.md.", stderr)
	var f bonnFlags
	f.add(fs)
	if err := parseArgs(fs, args, 0, "unexpected arguments"); err != nil {
		return err
	}
	switch mode {
	case "concat":
		f.concat = true
	case "concat-eval":
		f.concatEval = true
	case "day-one":
		return writeDayOne(f.data, f.out, f.half, f.task, &f.mf, stdout)
	case "feedback-eval":
		return feedbackEvaluate(fs, f.data, f.plotDir, f.rate, f.fb, &f.mf, stdout, stderr)
	case "train-test":
		if f.trainDir == "" || f.testDir == "" {
			return errors.New("train-test needs -train and -test")
		}
	case "cv":
		if f.trainDir != "" || f.testDir != "" || f.concat || f.concatEval {
			return errors.New("cv takes -data only: -train, -test, -concat and -concat-eval choose other modes")
		}
	}
	enc := json.NewEncoder(stdout)
	switch {
	case f.concat || f.concatEval:
		return f.splice(enc, stderr)
	case f.trainDir != "" || f.testDir != "":
		if f.trainDir == "" || f.testDir == "" {
			return errors.New("-train and -test go together")
		}
	case f.data == "":
		fs.Usage()
		return errors.New("-data (or -train and -test) is required")
	}
	return f.evaluate(enc)
}

// maxMinutes bounds -minutes: a week of spliced EEG, 210 MB of EDF.
const maxMinutes = 7 * 24 * 60

// checkMinutes checks -minutes, the length of a spliced recording.
func checkMinutes(m float64) error {
	if !(m > 0 && m <= maxMinutes) {
		return fmt.Errorf("-minutes %v: want a length in (0, %d] (a week)", m, maxMinutes)
	}
	return nil
}

// splice runs -concat (writeConcat into -o) or -concat-eval
// (concatEvaluate) on the segments under -data.
func (f *bonnFlags) splice(enc *json.Encoder, stderr io.Writer) error {
	if f.data == "" {
		return errors.New("-data is required")
	}
	if err := checkMinutes(f.minutes); err != nil {
		return err
	}
	cc := bonn.ConcatConfig{Duration: time.Duration(f.minutes * float64(time.Minute)), SeizureRate: f.rate, Seed: f.mf.seed}
	if f.concat {
		if f.out == "" {
			return errors.New("-concat needs -o FILE.edf")
		}
		return writeConcat(f.data, f.out, f.half, cc, enc)
	}
	return concatEvaluate(f.data, f.out, f.plotDir, cc, &f.mf, enc, stderr)
}

// evaluate runs the task of -task (all three without it) by
// cross-validation on -data or by -train and -test (runTasks), and plots
// their ROC curves into -plot.
func (f *bonnFlags) evaluate(enc *json.Encoder) error {
	tasks := bonn.TaskNames
	if f.task != "" {
		if _, ok := bonn.Tasks[f.task]; !ok {
			return fmt.Errorf("-task %q: want S-Z, S-F or S-all", f.task)
		}
		tasks = []string{f.task}
	}
	cfg := bonn.Config{Folds: f.folds, Seed: f.mf.seed, Model: f.mf.classifierConfig(0), Features: f.mf.features(), Threshold: f.mf.threshold}
	curves, err := runTasks(tasks, f.data, f.trainDir, f.testDir, cfg, &f.mf, enc)
	if err != nil {
		return err
	}
	if f.plotDir != "" {
		return bonn.PlotROC(filepath.Join(f.plotDir, "bonn_roc.png"), curves)
	}
	return nil
}

// runTasks evaluates each task (cross-validation on data, or training on
// trainDir and testing on testDir), prints its record and returns its ROC
// curve.
func runTasks(tasks []string, data, trainDir, testDir string, cfg bonn.Config, mf *modelFlags, enc *json.Encoder) ([]bonn.Curve, error) {
	var curves []bonn.Curve
	for _, t := range tasks {
		sets := append([]string{"S"}, bonn.Tasks[t]...)
		var res bonn.Result
		mode := "cv"
		if trainDir != "" {
			mode = "train-test"
			tr, err := bonn.Load(trainDir, sets...)
			if err != nil {
				return nil, err
			}
			te, err := bonn.Load(testDir, sets...)
			if err != nil {
				return nil, err
			}
			if res, err = bonn.TrainTest(tr, te, cfg); err != nil {
				return nil, err
			}
		} else {
			segs, err := bonn.Load(data, sets...)
			if err != nil {
				return nil, err
			}
			if res, err = bonn.CrossValidate(segs, cfg); err != nil {
				return nil, err
			}
		}
		th := cfg.Threshold
		if th == 0 {
			th = 0.5
		}
		rep := bonnReport{Type: "bonn", Task: t, Mode: mode, Folds: res.Folds, Seed: mf.seed, Algorithm: mf.alg, Learner: mf.learner, Aggregate: "mean",
			Positives: res.Positives, Negatives: res.Negatives, Windows: res.Windows, AUCFolds: res.AUC, AUCMean: res.AUCMean, AUCStd: res.AUCStd,
			WindowAUC: res.WindowAUC, Threshold: th, Sensitivity: res.Sensitivity, Specificity: res.Specificity, Accuracy: res.Accuracy,
			LearnNs: float64(res.LearnTime.Nanoseconds())}
		if err := enc.Encode(rep); err != nil {
			return nil, err
		}
		curves = append(curves, bonn.Curve{Name: fmt.Sprintf("%s (AUC %.3f)", t, paper.AUCScores(res.Scores, res.Labels)), Scores: res.Scores, Labels: res.Labels})
	}
	return curves, nil
}

// trace returns the usable window scores of a replay and its events'
// onsets and ends (the detection time while still going on), for plotting.
func trace(l *alert.EventLog) (t []time.Duration, score []float64, events [][2]time.Duration) {
	for _, sc := range l.WindowScores() {
		if sc.Usable {
			t, score = append(t, sc.Offset), append(score, sc.Score)
		}
	}
	for _, e := range l.Events() {
		end := e.EndOffset
		if e.End.IsZero() {
			end = e.DetectedOffset
		}
		events = append(events, [2]time.Duration{e.OnsetOffset, end})
	}
	return t, score, events
}

// loadHalf loads the segments of sets under data (bonn.Load) and keeps
// one half of each set with half (halfOf; all of them with "").
func loadHalf(data, half string, sets ...string) ([]bonn.Segment, error) {
	segs, err := bonn.Load(data, sets...)
	if err != nil {
		return nil, err
	}
	return halfOf(segs, half)
}

// halfOf keeps the first, third, … ("a") or second, fourth, … ("b")
// segment of each set in name order (S001, S003, … or S002, S004, …).
//
// Two letters name a quarter, a half of a half: "aa" and "ab" are the
// halves of "a" (S001, S005, … and S003, S007, …), for choosing on the
// training half what the test half is then scored with.
func halfOf(segs []bonn.Segment, half string) ([]bonn.Segment, error) {
	if half == "" {
		return segs, nil
	}
	if len(half) == 2 && (half[0] == 'a' || half[0] == 'b') {
		outer, err := halfOf(segs, half[:1])
		if err != nil {
			return nil, err
		}
		return halfOf(outer, half[1:])
	}
	if half != "a" && half != "b" {
		return nil, fmt.Errorf("-half %q: want a or b (or a quarter: aa, ab, ba, bb)", half)
	}
	var out []bonn.Segment
	rank := map[string]int{}
	for _, s := range segs {
		if (rank[s.Set]%2 == 0) == (half == "a") {
			out = append(out, s)
		}
		rank[s.Set]++
	}
	return out, nil
}

// writeConcat writes one spliced recording and prints its seizures.
func writeConcat(data, path, half string, cc bonn.ConcatConfig, enc *json.Encoder) error {
	segs, err := loadHalf(data, half, bonn.Sets...)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cc.Start = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	ivs, err := bonn.Concat(f, segs, cc)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return enc.Encode(map[string]any{"type": "concat", "file": path, "minutes": cc.Duration.Minutes(), "seizures": len(ivs), "half": half, "seed": cc.Seed})
}

// concatEvaluate splices a training recording from the odd-numbered
// segments and a test recording from the even-numbered ones, then replays
// the test recording through the pipeline (a) prequentially from a new
// model, (b) after bootstrapping the model on the training recording, and
// (c) with learning off from the day-one model built from the training
// half's segments (as `ictal bonn day-one -half a`).
func concatEvaluate(data, dir, plotDir string, cc bonn.ConcatConfig, mf *modelFlags, enc *json.Encoder, stderr io.Writer) error {
	train, test, cleanup, err := splicePair(data, dir, cc, enc)
	if err != nil {
		return err
	}
	defer cleanup()
	b, stop := newBonnReplay(mf, plotDir, enc, stderr)
	defer stop()
	if _, err := b.run(test, nil, nil, "prequential", pipeline.LearnAnnotations); err != nil {
		return err
	}
	m, err := b.run(train, nil, nil, "bootstrap-train", pipeline.LearnAnnotations)
	if err != nil {
		return err
	}
	if _, err = b.run(test, m.model, nil, "bootstrapped", pipeline.LearnAnnotations); err != nil {
		return err
	}
	model, err := halfDayOne(data, "a", mf, cc.Seed)
	if err != nil {
		return err
	}
	dm, meta, err := model()
	if err != nil {
		return err
	}
	_, err = b.run(test, dm, meta, "day-one", pipeline.LearnOff)
	return err
}
