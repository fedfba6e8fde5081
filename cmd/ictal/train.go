package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/cli"
	"github.com/ictal/ictal/internal/dayone"
	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/pipeline"
)

// runTrain implements `ictal train -o MODEL FILE.edf...`.
func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", "usage: ictal train -o MODEL [flags] RECORDING...\n\nRecordings are EDF, EDF+, BDF, OpenBCI GUI text or BrainFlow CSV.\nLearns prequentially (score, then learn each window with its label from the\nfile's annotations) over the files in order and saves the model, with how\nit was built (`ictal model info`), for `ictal replay -model` or ictald's\nclassifier.model. The recordings must make the same features (montage).\nPrints JSON lines per recording: the channels used and left out (\"channels\"),\nthen its scores (\"file\").", stderr)
	out := fs.String("o", "", "`MODEL` file to write (required)")
	labels := fs.String("labels", "", "a seizure list giving the seizures of the recordings (by base name), instead of their annotations: CHB-MIT chbNN-summary.txt or Siena Seizures-list-PNnn.txt")
	var mf modelFlags
	mf.add(fs)
	mf.addFrom(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return errors.New("-o and at least one recording are required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := warnLogger(stderr)
	enc := json.NewEncoder(stdout)
	var (
		model classifier.Model
		meta  modelfile.Meta // the first recording's pipeline, then the training
	)
	for _, path := range fs.Args() {
		r, chans, err := mf.open(path)
		if err != nil {
			return err
		}
		if err := enc.Encode(chans); err != nil {
			r.Close()
			return err
		}
		if model, err = trainModel(model, &meta, r, path, &mf); err != nil {
			r.Close()
			return err
		}
		src, err := labelsFor(r, path, *labels, log)
		if err != nil {
			r.Close()
			return err
		}
		fmt.Fprintf(stderr, "training on %s…\n", path)
		rep, err := runFile(ctx, path, src, model, &meta, &mf, pipeline.LearnAnnotations, nil, log)
		rep.Labels = *labels
		r.Close()
		if err != nil {
			return err
		}
		if rep.Seizures == 0 {
			fmt.Fprintf(stderr, "warning: %s has no seizure annotation: it only teaches what non-seizure looks like\n", path)
		}
		meta.Training = append(meta.Training, trainedOn(path, rep))
		if err := enc.Encode(rep); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := writeModel(*out, meta, model); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "model written to %s\n", *out)
	return nil
}

// trainModel returns the model to train on the recording r at path: for
// the first recording a new one (or, with -from dayone, the day-one
// model), whose pipeline *meta then describes, or model itself when r
// makes the same features (a recording of another montage or rate the
// features cannot follow is refused, naming the difference; a per-channel
// model fits any).
func trainModel(model classifier.Model, meta *modelfile.Meta, r acquire.Source, path string, mf *modelFlags) (classifier.Model, error) {
	want, err := modelfile.Describe(mf.features(), r.Info())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if model != nil {
		if err := meta.Check(want); err != nil {
			return nil, fmt.Errorf("%s does not fit the model trained on %s: %w", path, meta.Training[0].File, err)
		}
		return model, nil
	}
	switch mf.from {
	case "dayone":
		dm, m, err := dayone.Load()
		if err != nil {
			return nil, err
		}
		if err := dm.Check(want); err != nil {
			return nil, fmt.Errorf("%s: -from dayone: %w", path, err)
		}
		training := dm.Training
		*meta = want
		meta.Scoring, meta.Rule, meta.Rate, meta.Channels = dm.Scoring, dm.Rule, 0, nil
		meta.Training = append([]modelfile.Recording(nil), training...)
		meta.Classifier = m.Config()
		return m, nil
	case modelNew, "":
	default:
		return nil, fmt.Errorf("-from %q: want new or dayone", mf.from)
	}
	if model, err = mf.newModel(want.Features.Dim); err != nil {
		return nil, err
	}
	*meta = want
	meta.Classifier = model.Config()
	return model, nil
}

// trainedOn describes a recording a model learned from, for its metadata.
func trainedOn(path string, rep fileReport) modelfile.Recording {
	return modelfile.Recording{File: filepath.Base(path), Duration: rep.Duration, Seizures: rep.Seizures,
		Windows: rep.LearnedPos + rep.LearnedNeg}
}

// writeModel writes model with meta to path (atomically: see
// modelfile.WriteFile), recording this program, its version and the time
// it was written, to the second.
func writeModel(path string, meta modelfile.Meta, model classifier.Model) error {
	meta.Program, meta.Created = "ictal "+build.String(), time.Now().UTC().Truncate(time.Second)
	return modelfile.WriteFile(path, meta, model)
}
