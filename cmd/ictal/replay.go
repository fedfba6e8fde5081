package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"regexp"
	"syscall"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
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

// runReplay implements `ictal replay [-model MODEL] [-learn mode] [-o MODEL] RECORDING`.
func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "usage: ictal replay [-model MODEL] [flags] RECORDING\n\nRuns the whole pipeline over the recording (EDF, EDF+, BDF, OpenBCI GUI\ntext or BrainFlow CSV) as fast as possible, learning nothing unless\n-learn annotations is given. Prints JSON\nlines: each alert, event end and change of state, then a \"file\" record with\nthe SzCORE scores against the file's seizure annotations or -labels (a\nseizure counts as detected when an alert overlaps it extended by 30 s\nbefore and 60 s after; see internal/eval). `ictal score -ref FILE.edf -hyp\nOUT.jsonl` rescores the saved output.", stderr)
	modelPath := fs.String("model", "", "`MODEL` file written by ictal train or replay -o (default: a new, untrained model)")
	learn := fs.String("learn", "", "learning during the replay: off (score only), or annotations (prequential: score each window, then learn it with its label from the file's annotations or -labels)")
	scores := fs.Bool("scores", false, "also print one line per window")
	save := fs.String("o", "", "write the model after the replay to this `MODEL` file")
	alias(fs, "save", "o")
	labels := fs.String("labels", "", "CHB-MIT chbNN-summary.txt giving the file's seizures (looked up by base name), instead of its annotations")
	var mf modelFlags
	mf.add(fs)
	if err := parseArgs(fs, args, 1, "one recording is required"); err != nil {
		return err
	}
	path := fs.Arg(0)
	r, err := mf.open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	want, err := modelfile.Describe(mf.features(), r.Info())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	model, meta, err := replayModel(*modelPath, path, want, &mf, stderr)
	if err != nil {
		return err
	}
	src, err := labelsFor(r, path, *labels)
	if err != nil {
		return err
	}
	mode, err := replayMode(*learn)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	j := alert.NewJSONLines(stdout, nil, *scores)
	rep, err := runFile(ctx, path, src, model, &mf, mode, []alert.Sink{j}, log)
	j.Close()
	if err != nil {
		return err
	}
	rep.Type, rep.Labels = "file", *labels
	if err := json.NewEncoder(stdout).Encode(rep); err != nil {
		return err
	}
	if *save != "" {
		if rep.LearnedPos+rep.LearnedNeg > 0 {
			meta.Training = append(meta.Training, trainedOn(path, rep))
		}
		meta.Program, meta.Created = program(), time.Now().UTC().Truncate(time.Second)
		return modelfile.WriteFile(*save, meta, model) // atomic, as train writes its model
	}
	return nil
}

// replayModel loads the model at modelPath, checking that it was built
// for the pipeline that want describes (the recording at path with mf's
// feature flags), or makes a new one from mf. A model file without
// metadata is checked on its dimension alone, with a warning on stderr.
// The Meta returned is what -o records: want, with the training
// recordings of the model loaded.
func replayModel(modelPath, path string, want modelfile.Meta, mf *modelFlags, stderr io.Writer) (classifier.Model, modelfile.Meta, error) {
	if modelPath == "" {
		m, err := mf.newModel(want.Features.Dim)
		return m, want, err
	}
	meta, model, err := modelfile.ReadFile(modelPath)
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
	return model, want, nil
}

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
