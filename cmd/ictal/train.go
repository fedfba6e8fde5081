package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/chbmit"
	"github.com/ictal/ictal/internal/daemon"
	"github.com/ictal/ictal/internal/eval"
	"github.com/ictal/ictal/internal/pipeline"
)

func init() {
	register("train", "bootstrap a patient-specific model from annotated EDF recordings", runTrain)
	register("replay", "run the pipeline over a recording as fast as possible and report its events", runReplay)
}

// modelFlags are the classifier and feature flags shared by train and
// replay.
type modelFlags struct {
	alg, learner    string
	members         int
	c, cp, cn, beta float64
	seed            uint64
	window, step    time.Duration
	seizureRe       string
	threshold       float64
	k, n            int
}

func (m *modelFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&m.alg, "algorithm", classifier.UOB, "ensemble: UOB SB AC2 CSB2 RUS1 RUS2 RUS3 SBO1 SBO2 SBO3 OzaBag OzaBoost (ns prefix: forgetting)")
	fs.StringVar(&m.learner, "learner", classifier.LearnerNB, "base learner: nb, lda or qda")
	fs.IntVar(&m.members, "members", 0, "ensemble size (0: 10)")
	fs.Float64Var(&m.c, "c", 0, "resampling cost C (0: the algorithm's default)")
	fs.Float64Var(&m.cp, "cp", 0, "AC2/CSB2 cost of a missed seizure (0: 1)")
	fs.Float64Var(&m.cn, "cn", 0, "AC2/CSB2 cost of a false alarm (0: 0.1)")
	fs.Float64Var(&m.beta, "beta", 0, "forgetting factor in (0, 1] (0: none, 0.9 for ns variants)")
	fs.Uint64Var(&m.seed, "seed", 1, "random seed of the ensemble")
	fs.DurationVar(&m.window, "window", features.DefaultWindow, "feature window")
	fs.DurationVar(&m.step, "step", features.DefaultStep, "feature step")
	fs.StringVar(&m.seizureRe, "seizure", "", "regexp marking seizure annotations (default: text containing \"seizure\", any case)")
	fs.Float64Var(&m.threshold, "threshold", 0, "decision threshold on the score (0: 0.5)")
	fs.IntVar(&m.k, "k", 0, "alert when k of the last n windows are positive (0: 3)")
	fs.IntVar(&m.n, "n", 0, "see -k (0: 4)")
}

func (m *modelFlags) classifierConfig(d int) classifier.Config {
	return classifier.Config{Algorithm: m.alg, Learner: m.learner, Features: d, Members: m.members,
		C: m.c, CP: m.cp, CN: m.cn, Beta: m.beta, Seed: m.seed}
}

func (m *modelFlags) features() features.Config {
	return features.Config{Window: m.window, Step: m.step}
}

func (m *modelFlags) openReplay(path string) (*edf.Replay, error) {
	rc := edf.ReplayConfig{}
	if m.seizureRe != "" {
		re, err := compileSeizure(m.seizureRe)
		if err != nil {
			return nil, err
		}
		rc.Seizure = re
	}
	return edf.OpenReplay(path, rc)
}

// dim is the feature dimension for a replay's channels.
func (m *modelFlags) dim(r *edf.Replay) (int, error) {
	info := r.Info()
	f := m.features()
	f.Channels, f.Rate = len(info.Channels), info.Rate
	return f.Dim()
}

// fileReport is the JSON line printed per file by train and replay. The
// scores are SzCORE's (internal/eval): event-based, then sample-based at
// 1 Hz; an undefined score (no seizure, no detection) is null.
type fileReport struct {
	Type        string    `json:"type"`
	File        string    `json:"file"`
	Start       string    `json:"start,omitempty"` // RFC 3339, when the recording says
	Labels      string    `json:"labels,omitempty"`
	Duration    float64   `json:"duration_s"`
	Channels    int       `json:"channels"`
	Windows     int64     `json:"windows"`
	Usable      int64     `json:"usable"`
	LearnedPos  int64     `json:"learned_seizure"`
	LearnedNeg  int64     `json:"learned_non_seizure"`
	Seizures    int       `json:"seizures"`
	Detected    int       `json:"detected"`
	FalseAlarms int       `json:"false_alarms"`
	FAPerDay    float64   `json:"false_alarms_per_24h"`
	Sensitivity *float64  `json:"sensitivity"`
	Precision   *float64  `json:"precision"`
	F1          *float64  `json:"f1"`
	Delays      []float64 `json:"delays_s"`
	MedianDelay float64   `json:"median_delay_s"`
	SampleSens  *float64  `json:"sample_sensitivity"`
	SamplePrec  *float64  `json:"sample_precision"`
	SampleFPDay float64   `json:"sample_false_positive_s_per_24h"`
	Seconds     float64   `json:"elapsed_s"`
	RTF         float64   `json:"x_realtime"`
}

// finite returns nil for NaN (JSON null), else a pointer to v.
func finite(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

// labeledSource is a recording with the seizure intervals to score and
// learn against: its own annotations, or those of a -labels file.
type labeledSource interface {
	acquire.Source
	acquire.Labeled
}

// withLabels presents a source with other intervals.
type withLabels struct {
	acquire.Source
	iv []acquire.Interval
}

func (w withLabels) Intervals() []acquire.Interval { return w.iv }

// labelsFor returns r with the seizures that a CHB-MIT summary lists for
// the file at path, or r itself when summary is empty.
func labelsFor(r *edf.Replay, path, summary string) (labeledSource, error) {
	if summary == "" {
		return r, nil
	}
	s, err := chbmit.ReadFile(summary)
	if err != nil {
		return nil, fmt.Errorf("-labels: %w", err)
	}
	f, ok := s.Lookup(path)
	if !ok {
		return nil, fmt.Errorf("-labels: %s does not list %s", summary, filepath.Base(path))
	}
	return withLabels{Source: r, iv: f.Intervals()}, nil
}

// runFile runs one recording through the pipeline and reports it.
func runFile(ctx context.Context, path string, r labeledSource, model classifier.Model, mf *modelFlags, mode string, sinks []alert.Sink, log *slog.Logger) (fileReport, error) {
	ev := &alert.EventLog{}
	pc := pipeline.Config{Learning: pipeline.Learning{Mode: mode}, Detector: alert.DetectorConfig{Threshold: mf.threshold, K: mf.k, N: mf.n}}
	p, err := pipeline.New(r, mf.features(), model, pc, append([]alert.Sink{ev}, sinks...), pipeline.Hooks{}, log)
	if err != nil {
		return fileReport{}, fmt.Errorf("%s: %w", path, err)
	}
	start := time.Now()
	if err := p.Run(ctx); err != nil {
		return fileReport{}, fmt.Errorf("%s: %w", path, err)
	}
	el := time.Since(start)
	st := p.Stats()
	info := r.Info()
	dur := time.Duration(float64(st.Frames) / info.Rate * float64(time.Second))
	ref, hyp := eval.FromIntervals(r.Intervals()), eval.FromAlerts(ev.Events(), dur)
	sum := eval.Events(ref, hyp, dur, eval.DefaultParams())
	smp := eval.Samples(ref, hyp, dur)
	rep := fileReport{Type: "file", File: path, Duration: dur.Seconds(), Channels: len(info.Channels), Windows: st.Windows, Usable: st.Usable,
		LearnedPos: st.LearnedPos, LearnedNeg: st.LearnedNeg, Seizures: len(sum.Seizures), Detected: sum.Detected,
		FalseAlarms: sum.FalseAlarms, FAPerDay: sum.FalseAlarmsPerDay, Sensitivity: finite(sum.Sensitivity),
		Precision: finite(sum.Precision), F1: finite(sum.F1), SampleSens: finite(smp.Sensitivity), SamplePrec: finite(smp.Precision),
		SampleFPDay: smp.FalsePosPerDay, MedianDelay: sum.MedianDelay.Seconds(), Seconds: el.Seconds(), RTF: dur.Seconds() / el.Seconds(), Delays: []float64{}}
	if !info.Start.IsZero() {
		rep.Start = info.Start.UTC().Format(time.RFC3339Nano)
	}
	for _, d := range sum.Delays {
		rep.Delays = append(rep.Delays, d.Seconds())
	}
	return rep, nil
}

// runTrain implements `ictal train -o MODEL FILE.edf...`.
func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "model file to write (required)")
	labels := fs.String("labels", "", "CHB-MIT chbNN-summary.txt giving the seizures of the recordings (by base name), instead of their annotations")
	var mf modelFlags
	mf.add(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ictal train -o MODEL [flags] FILE.edf...\n\nLearns prequentially (score, then learn each window with its label from the\nfile's annotations) over the files in order and saves the model, for\n`ictal replay -model` or ictald's classifier.model.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return errors.New("-o and at least one recording are required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	enc := json.NewEncoder(stdout)
	var model classifier.Model
	for _, path := range fs.Args() {
		r, err := mf.openReplay(path)
		if err != nil {
			return err
		}
		if model == nil {
			d, err := mf.dim(r)
			if err != nil {
				r.Close()
				return fmt.Errorf("%s: %w", path, err)
			}
			if model, err = classifier.New(mf.classifierConfig(d)); err != nil {
				r.Close()
				return err
			}
		}
		src, err := labelsFor(r, path, *labels)
		if err != nil {
			r.Close()
			return err
		}
		fmt.Fprintf(stderr, "training on %s…\n", path)
		rep, err := runFile(ctx, path, src, model, &mf, pipeline.LearnAnnotations, nil, log)
		rep.Labels = *labels
		r.Close()
		if err != nil {
			return err
		}
		if rep.Seizures == 0 {
			fmt.Fprintf(stderr, "warning: %s has no seizure annotation: it only teaches what non-seizure looks like\n", path)
		}
		if err := enc.Encode(rep); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := daemon.SaveModel(*out, model); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "model written to %s\n", *out)
	return nil
}
