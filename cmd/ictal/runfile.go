package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/acquire/recording"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/chbmit"
	"github.com/ictal/ictal/internal/eval"
	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/pipeline"
	"github.com/ictal/ictal/internal/siena"
)

// fileReport is the JSON line printed per file by train and replay. The
// scores are SzCORE's (internal/eval): event-based, then sample-based at
// 1 Hz; an undefined score (no seizure, no detection) is null.
type fileReport struct {
	Type        string    `json:"type"`
	File        string    `json:"file"`
	Start       string    `json:"start,omitempty"` // RFC 3339, when the recording says
	Labels      string    `json:"labels,omitempty"`
	Phase       string    `json:"phase,omitempty"` // bonn concat-eval: prequential, bootstrap-train or bootstrapped
	Duration    float64   `json:"duration_s"`
	Channels    int       `json:"channels"`
	Windows     int64     `json:"windows"`
	Usable      int64     `json:"usable"`
	Partial     int64     `json:"usable_partial"` // of Usable, scored on some channels only (a bad channel or a blink left out)
	Artifact    int64     `json:"artifact"`
	ElecOff     int64     `json:"electrode_off"`
	SignalLost  int64     `json:"signal_lost"`
	Learn       string    `json:"learn"`
	Alerts      int       `json:"alerts"`
	LearnedPos  int64     `json:"learned_seizure"`
	LearnedNeg  int64     `json:"learned_non_seizure"`
	Agreed      int64     `json:"labelled_agreed"` // labelled windows not learned: the detector had decided them so
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

// channelsReport is the "channels" JSON line replay and train print
// before a recording's "file" record: the channels the pipeline uses
// (acquire.ChooseEEG, or -channels) and every other one with the reason
// it was left out, the signals the EDF reader does not serve (annotation
// signals, other rates) last.
type channelsReport struct {
	Type    string            `json:"type"`
	File    string            `json:"file"`
	By      string            `json:"by"` // selection (-channels), labels or voltage: see acquire's README
	Used    []string          `json:"used"`
	LeftOut []acquire.Omitted `json:"left_out"`
}

// open opens the recording at path in any format ictal reads, with the
// -seizure expression; keeps its EEG channels (the -channels selection,
// else those acquire.ChooseEEG finds); labels them with -montage; and
// reports the channels used and left out.
func (m *modelFlags) open(path string) (recording.Recording, channelsReport, error) {
	opts := &recording.Opts{Board: m.board}
	if m.seizureRe != "" {
		re, err := compileSeizure(m.seizureRe)
		if err != nil {
			return nil, channelsReport{}, err
		}
		opts.Seizure = re
	}
	r, _, err := recording.Open(path, opts) // its errors name the file
	if err != nil {
		return nil, channelsReport{}, err
	}
	var sel []string
	if m.channels != "" {
		sel = strings.Split(m.channels, ",")
	}
	src, choice, err := acquire.SelectEEG(r, sel)
	switch {
	case err != nil && sel != nil:
		r.Close()
		return nil, channelsReport{}, fmt.Errorf("%s: -channels: %w", path, err)
	case err != nil:
		r.Close()
		return nil, channelsReport{}, fmt.Errorf("%s: %w (-channels names them)", path, err)
	}
	rep := channelsReport{Type: "channels", File: path, By: choice.By, Used: choice.Labels(r.Info()),
		LeftOut: append([]acquire.Omitted{}, choice.Omitted...)}
	if e, ok := r.(*edf.Replay); ok {
		for _, s := range e.Skipped() {
			rep.LeftOut = append(rep.LeftOut, acquire.Omitted{Label: s.Label, Reason: s.Reason})
		}
	}
	rec := src.(recording.Recording) // r, or an acquire.Selected passing r's intervals through
	if m.montage != "" {
		l, err := acquire.Relabel(rec, strings.Split(m.montage, ","))
		if err != nil {
			r.Close()
			return nil, channelsReport{}, fmt.Errorf("%s: -montage: %w", path, err)
		}
		rec = l
	}
	return rec, rep, nil
}

// dim is the feature dimension for a source's channels.
func (m *modelFlags) dim(r acquire.Source) (int, error) {
	info := r.Info()
	f := m.features()
	f.Channels, f.Rate = len(info.Channels), info.Rate
	return f.Dim()
}

// finite returns nil for NaN (JSON null), else a pointer to v.
func finite(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

// delaySeconds returns the durations d in seconds, an empty list (JSON [], not
// null) for none.
func delaySeconds(d []time.Duration) []float64 {
	s := make([]float64, len(d))
	for i, x := range d {
		s[i] = x.Seconds()
	}
	return s
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

// labelsFor returns r with the seizures that a seizure list gives for the
// file at path (found by its base name), or r itself when list is empty.
// The list is a CHB-MIT chbNN-summary.txt or a Siena
// Seizures-list-PNnn.txt, told apart by content (Siena's lists give
// registration times).
//
// A Siena list's times count from its registration start; when the
// recording's header starts at another time of day, log says by how much.
func labelsFor(r recording.Recording, path, list string, log *slog.Logger) (labeledSource, error) {
	if list == "" {
		return r, nil
	}
	b, err := os.ReadFile(list)
	if err != nil {
		return nil, fmt.Errorf("-labels: %w", err)
	}
	if bytes.Contains(bytes.ToLower(b), []byte("registration start time")) {
		l, err := siena.Parse(bytes.NewReader(b), filepath.Base(list))
		if err != nil {
			return nil, fmt.Errorf("-labels: %w", err)
		}
		iv, err := l.Intervals(path)
		if err != nil {
			return nil, fmt.Errorf("-labels: %w", err)
		}
		reg, _, _ := l.Registration(path)
		warnStart(log, filepath.Base(path), list, r.Info().Start, reg)
		return withLabels{Source: r, iv: iv}, nil
	}
	s, err := chbmit.Parse(bytes.NewReader(b), filepath.Base(list))
	if err != nil {
		return nil, fmt.Errorf("-labels: %w", err)
	}
	f, ok := s.Lookup(path)
	if !ok {
		return nil, fmt.Errorf("-labels: %s does not list %s", list, filepath.Base(path))
	}
	return withLabels{Source: r, iv: f.Intervals()}, nil
}

// labelSender is a sink that also gives the pipeline labels, as a
// clinician does (bonn feedback-eval's simulated clinician): runFile
// attaches it to the pipeline's Labels.
type labelSender interface {
	Attach(labels chan<- alert.Label)
}

// warnLogger returns the logger runFile's pipeline takes: its warnings
// (not its progress) as text on stderr.
func warnLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// runFile runs one recording through the pipeline and reports it.
//
// meta, when not nil, is the model's record: a per-channel model's scoring
// and the decision rule chosen with it (which -threshold, -k and -n
// override) come from it, and after the run its Scoring holds the
// patient's baseline, for the model file a replay writes.
func runFile(ctx context.Context, path string, r labeledSource, model classifier.Model, meta *modelfile.Meta, mf *modelFlags, mode string, sinks []alert.Sink, log *slog.Logger) (fileReport, error) {
	ev := &alert.EventLog{}
	pc := pipeline.Config{Learning: pipeline.Learning{Mode: mode, LearnAgreed: mf.learnAgreed}, Artifact: mf.artifact(),
		Detector: alert.DetectorConfig{Threshold: mf.threshold, K: mf.k, N: mf.n}}
	if meta != nil {
		pc = meta.Configure(pc)
	}
	p, err := pipeline.New(r, mf.features(), model, pc, append([]alert.Sink{ev}, sinks...), pipeline.Hooks{}, log)
	if err != nil {
		return fileReport{}, fmt.Errorf("%s: %w", path, err)
	}
	for _, s := range sinks {
		if l, ok := s.(labelSender); ok {
			l.Attach(p.Labels())
		}
	}
	start := time.Now()
	if err := p.Run(ctx); err != nil {
		return fileReport{}, fmt.Errorf("%s: %w", path, err)
	}
	el := time.Since(start)
	if meta != nil && meta.PerChannel() {
		sc := *meta.Scoring
		sc.Baseline = p.Baseline()
		meta.Scoring = &sc
	}
	st := p.Stats()
	info := r.Info()
	dur := time.Duration(float64(st.Frames) / info.Rate * float64(time.Second))
	ref, hyp := eval.FromIntervals(r.Intervals()), eval.FromAlerts(ev.Events(), dur)
	sum := eval.Events(ref, hyp, dur, eval.DefaultParams())
	smp := eval.Samples(ref, hyp, dur)
	rep := fileReport{Type: "file", File: path, Duration: dur.Seconds(), Channels: len(info.Channels), Windows: st.Windows, Usable: st.Usable, Partial: st.Partial,
		Artifact: st.Artifact, ElecOff: st.ElectrodeOff, SignalLost: st.SignalLost, Learn: mode, Alerts: len(hyp),
		LearnedPos: st.LearnedPos, LearnedNeg: st.LearnedNeg, Agreed: st.Agreed, Seizures: len(sum.Seizures), Detected: sum.Detected,
		FalseAlarms: sum.FalseAlarms, FAPerDay: sum.FalseAlarmsPerDay, Sensitivity: finite(sum.Sensitivity),
		Precision: finite(sum.Precision), F1: finite(sum.F1), SampleSens: finite(smp.Sensitivity), SamplePrec: finite(smp.Precision),
		SampleFPDay: smp.FalsePosPerDay, MedianDelay: sum.MedianDelay.Seconds(), Seconds: el.Seconds(), RTF: dur.Seconds() / el.Seconds(), Delays: delaySeconds(sum.Delays)}
	if !info.Start.IsZero() {
		rep.Start = info.Start.UTC().Format(time.RFC3339Nano)
	}
	return rep, nil
}
