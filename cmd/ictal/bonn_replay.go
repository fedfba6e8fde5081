package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/bonn"
	"github.com/ictal/ictal/internal/modelfile"
)

// splicePair writes, as concat-eval and feedback-eval use them, a
// training recording from the odd-numbered segments (seed cc.Seed) and a
// test recording from the even-numbered ones (seed cc.Seed+1) into dir,
// or into a temporary folder that cleanup removes when dir is empty.
func splicePair(data, dir string, cc bonn.ConcatConfig, enc *json.Encoder) (train, test string, cleanup func(), err error) {
	cleanup = func() {}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "ictal-bonn-"); err != nil {
			return "", "", nil, err
		}
		cleanup = func() { os.RemoveAll(dir) }
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", nil, err
	}
	train, test = filepath.Join(dir, "bonn-train.edf"), filepath.Join(dir, "bonn-test.edf")
	ctest := cc
	ctest.Seed = cc.Seed + 1
	if err = writeConcat(data, train, "a", cc, enc); err == nil {
		err = writeConcat(data, test, "b", ctest, enc)
	}
	if err != nil {
		cleanup()
		return "", "", nil, err
	}
	return train, test, cleanup, nil
}

// bonnReplay replays spliced recordings through the pipeline, for
// concat-eval and feedback-eval.
type bonnReplay struct {
	ctx     context.Context
	mf      *modelFlags
	plotDir string        // score traces go here when set
	enc     *json.Encoder // each replay's report
	log     *slog.Logger
}

// replayed is what a replay left: the model, its report, the recording's
// annotations and the detector's events.
type replayed struct {
	model       classifier.Model
	rep         fileReport
	annotations []acquire.Interval
	events      []alert.Event
}

// newBonnReplay returns a replayer that stops at SIGINT or SIGTERM (until
// stop is called) and logs warnings on stderr.
func newBonnReplay(mf *modelFlags, plotDir string, enc *json.Encoder, stderr io.Writer) (b *bonnReplay, stop context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	log := warnLogger(stderr)
	return &bonnReplay{ctx: ctx, mf: mf, plotDir: plotDir, enc: enc, log: log}, stop
}

// run replays the recording at path with model (a new one when nil; meta,
// when not nil, its record: see runFile), learning in mode, with sinks
// added to the pipeline's; label names the replay in its report and its
// score trace.
func (b *bonnReplay) run(path string, model classifier.Model, meta *modelfile.Meta, label, mode string, sinks ...alert.Sink) (replayed, error) {
	mf := b.mf
	r, _, err := mf.open(path)
	if err != nil {
		return replayed{}, err
	}
	defer r.Close()
	if model == nil {
		d, err := mf.dim(r)
		if err != nil {
			return replayed{}, err
		}
		if model, err = mf.newModel(d); err != nil {
			return replayed{}, err
		}
	}
	tr := &alert.EventLog{Scores: b.plotDir != ""}
	rep, err := runFile(b.ctx, path, r, model, meta, mf, mode, append([]alert.Sink{tr}, sinks...), b.log)
	if err != nil {
		return replayed{}, err
	}
	rep.Phase = label
	if b.plotDir != "" {
		th := mf.threshold
		switch {
		case th != 0:
		case meta != nil && meta.Rule != nil:
			th = meta.Rule.Threshold
		default:
			th = 0.5
		}
		title := fmt.Sprintf("%s: %d/%d seizures detected, %d false alarms", label, rep.Detected, rep.Seizures, rep.FalseAlarms)
		ts, score, events := trace(tr)
		if err := bonn.PlotTrace(filepath.Join(b.plotDir, "concat_"+label+".png"), title, ts, score, r.Intervals(), events, th); err != nil {
			return replayed{}, err
		}
	}
	return replayed{model: model, rep: rep, annotations: r.Intervals(), events: tr.Events()}, b.enc.Encode(rep)
}

// halfDayOne builds the day-one model from one half of the segments only
// (recipe.Build, as `ictal bonn day-one -half half -seed seed`; "a": the
// odd-numbered) and returns a function giving a fresh copy of it, with its
// record, for each replay.
func halfDayOne(data, half string, mf *modelFlags, seed uint64) (func() (classifier.Model, *modelfile.Meta, error), error) {
	meta, d, _, err := buildDayOne(data, half, bonn.Sets, mf, seed)
	if err != nil {
		return nil, err
	}
	blob, err := modelfile.Encode(meta, d.Model)
	if err != nil {
		return nil, err
	}
	return func() (classifier.Model, *modelfile.Meta, error) {
		meta, m, err := modelfile.Decode(blob)
		return m, &meta, err
	}, nil
}
