package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"regexp"
	"runtime"
	"syscall"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/cli"
	"github.com/ictal/ictal/internal/dayone"
	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/pipeline"
)

func compileSeizure(expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("-seizure: %w", err)
	}
	return re, nil
}

// runReplay implements `ictal replay [-model MODEL] [-learn mode] [-o MODEL] [-workers N] RECORDING...`.
func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "usage: ictal replay [-model MODEL] [flags] RECORDING...\n\nRuns the whole pipeline over each recording (EDF, EDF+, BDF, OpenBCI GUI\ntext or BrainFlow CSV) as fast as possible, learning nothing unless\n-learn annotations is given. Prints JSON\nlines: the channels used and left out (a \"channels\" record), each alert, event end and change of state, then a \"file\" record with\nthe SzCORE scores against the file's seizure annotations or -labels (a\nseizure counts as detected when an alert overlaps it extended by 30 s\nbefore and 60 s after; see internal/eval). `ictal score -ref FILE.edf -hyp\nOUT.jsonl` rescores the saved output.\n\nSeveral recordings are replayed independently, each from the same model\n(-model, else the day-one model), by -workers at a time; their lines come out in the\norder of the arguments, one recording after another, as with one worker.", stderr)
	modelPath := fs.String("model", "", "`MODEL` file written by ictal train or replay -o (default: the day-one model, internal/dayone, when it fits the feature flags and no -algorithm, -learner, -members or cost flag asks for another; -model new: a new, untrained model)")
	learn := fs.String("learn", "", "learning during the replay: off (score only), or annotations (prequential: score each window, then learn it with its label from the file's annotations or -labels)")
	scores := fs.Bool("scores", false, "also print one line per window")
	save := fs.String("o", "", "write the model after the replay to this `MODEL` file (one recording only)")
	alias(fs, "save", "o")
	labels := fs.String("labels", "", "a seizure list giving the file's seizures (looked up by base name), instead of its annotations: CHB-MIT chbNN-summary.txt or Siena Seizures-list-PNnn.txt")
	workers := fs.Int("workers", runtime.NumCPU(), "recordings replayed at the same time (each on one core)")
	var mf modelFlags
	mf.add(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	paths := fs.Args()
	switch {
	case len(paths) == 0:
		fs.Usage()
		return errors.New("a recording is required")
	case *save != "" && len(paths) > 1:
		return errors.New("-o takes one recording: with several, each starts from the same model and none of their models is the one to keep")
	case *workers < 1:
		return fmt.Errorf("-workers %d: want at least 1", *workers)
	}
	mode, err := replayMode(*learn)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	job := replayJob{modelPath: *modelPath, labels: *labels, mode: mode, scores: *scores, mf: &mf, stderr: stderr,
		log: warnLogger(stderr)}
	if len(paths) == 1 {
		model, meta, rep, err := job.run(ctx, paths[0], stdout)
		if err != nil || *save == "" {
			return err
		}
		if rep.LearnedPos+rep.LearnedNeg > 0 {
			meta.Training = append(meta.Training, trainedOn(paths[0], rep))
		}
		return writeModel(*save, meta, model)
	}
	return job.runAll(ctx, paths, min(*workers, len(paths)), stdout)
}

// replayJob is what every recording of one `ictal replay` shares.
type replayJob struct {
	modelPath, labels, mode string
	scores                  bool
	mf                      *modelFlags
	stderr                  io.Writer
	log                     *slog.Logger
}

// run replays the recording at path, writing its JSON lines to out, and
// returns the model after it, the model's metadata and the report.
func (j replayJob) run(ctx context.Context, path string, out io.Writer) (classifier.Model, modelfile.Meta, fileReport, error) {
	r, chans, err := j.mf.open(path)
	if err != nil {
		return nil, modelfile.Meta{}, fileReport{}, err
	}
	defer r.Close()
	if err := json.NewEncoder(out).Encode(chans); err != nil {
		return nil, modelfile.Meta{}, fileReport{}, err
	}
	want, err := modelfile.Describe(j.mf.features(), r.Info())
	if err != nil {
		return nil, modelfile.Meta{}, fileReport{}, fmt.Errorf("%s: %w", path, err)
	}
	model, meta, err := replayModel(j.modelPath, path, want, j.mf, j.stderr)
	if err != nil {
		return nil, modelfile.Meta{}, fileReport{}, err
	}
	src, err := labelsFor(r, path, j.labels, j.log)
	if err != nil {
		return nil, modelfile.Meta{}, fileReport{}, err
	}
	jl := alert.NewJSONLines(out, nil, j.scores)
	rep, err := runFile(ctx, path, src, model, &meta, j.mf, j.mode, []alert.Sink{jl}, j.log)
	jl.Close()
	if err != nil {
		return nil, modelfile.Meta{}, fileReport{}, err
	}
	rep.Type, rep.Labels = "file", j.labels
	return model, meta, rep, json.NewEncoder(out).Encode(rep)
}

// runAll replays the recordings by workers at a time, each into a buffer
// of its own, and writes the buffers to stdout in the order of paths as
// they complete: the same lines as one worker gives. The first error
// (in that order) stops the others and is returned after the lines of
// the recordings before it.
func (j replayJob) runAll(ctx context.Context, paths []string, workers int, stdout io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		out  bytes.Buffer
		err  error
		done chan struct{}
	}
	res := make([]result, len(paths))
	for i := range res {
		res[i].done = make(chan struct{})
	}
	go func() {
		slots := make(chan struct{}, workers)
		for i, path := range paths {
			slots <- struct{}{}
			go func() {
				defer func() { <-slots; close(res[i].done) }()
				if ctx.Err() != nil {
					res[i].err = ctx.Err()
					return
				}
				_, _, _, res[i].err = j.run(ctx, path, &res[i].out)
			}()
		}
	}()
	for i := range res {
		<-res[i].done
		if res[i].err != nil {
			cancel()
			return res[i].err
		}
		if _, err := stdout.Write(res[i].out.Bytes()); err != nil {
			cancel()
			return err
		}
		res[i].out = bytes.Buffer{} // written: let it go
	}
	return nil
}

// replayModel loads the model at modelPath, checking that it was built
// for the pipeline that want describes (the recording at path with mf's
// feature flags); without a path, the day-one model when it fits and no
// flag shapes another; with "new" (or when the day-one model does not
// fit), a new one from mf. A model file without metadata is checked on
// its dimension alone, with a warning on stderr. The Meta returned is
// what -o records: want, with the training recordings, and for a
// per-channel model the scoring and rule, of the model loaded.
func replayModel(modelPath, path string, want modelfile.Meta, mf *modelFlags, stderr io.Writer) (classifier.Model, modelfile.Meta, error) {
	var meta modelfile.Meta
	var model classifier.Model
	var err error
	if modelPath == "" && mf.shapesModel() {
		modelPath = modelNew
	}
	switch modelPath {
	case modelNew:
		m, err := mf.newModel(want.Features.Dim)
		return m, want, err
	case "":
		meta, model, err = dayone.Load()
		if err == nil && meta.Check(want) != nil {
			fmt.Fprintf(stderr, "note: the day-one model does not fit these feature settings (%v): a new, untrained model scores %s\n", meta.Check(want), path)
			m, err := mf.newModel(want.Features.Dim)
			return m, want, err
		}
		modelPath = "the day-one model"
	default:
		meta, model, err = modelfile.ReadFile(modelPath)
	}
	if err != nil {
		return nil, modelfile.Meta{}, err
	}
	if err := meta.Check(want); err != nil {
		return nil, modelfile.Meta{}, fmt.Errorf("%s cannot score %s with these flags (train and replay need the same montage and feature settings): %w", modelPath, path, err)
	}
	if meta.Legacy {
		fmt.Fprintf(stderr, "warning: %s has no metadata (written before models recorded how they were built): only its feature dimension (%d) could be checked\n", modelPath, meta.Classifier.Features)
	}
	want.Training = append([]modelfile.Recording(nil), meta.Training...)
	if meta.PerChannel() {
		want.Scoring, want.Rule, want.Rate, want.Channels = meta.Scoring, meta.Rule, 0, nil
	}
	return model, want, nil
}

// modelNew is the -model value that asks for a new, untrained model
// instead of the day-one model.
const modelNew = "new"

// replayMode is the learning mode of -learn: off unless annotations are
// asked for, so that an evaluation never learns from the answers it is
// scored against.
func replayMode(learn string) (string, error) {
	switch learn {
	case "", pipeline.LearnOff:
		return pipeline.LearnOff, nil
	case pipeline.LearnAnnotations:
		return learn, nil
	}
	return "", fmt.Errorf("-learn %q: want annotations or off", learn)
}
