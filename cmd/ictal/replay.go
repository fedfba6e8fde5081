package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"regexp"
	"syscall"

	"github.com/ictal/ictal/internal/checkpoint"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/pipeline"
)

func compileSeizure(expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("-seizure: %w", err)
	}
	return re, nil
}

// runReplay implements `ictal replay [-model MODEL] [-learn mode] FILE.edf`.
func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	modelPath := fs.String("model", "", "model trained by `ictal train` (default: a new, untrained model)")
	learn := fs.String("learn", "", "learning during the replay: annotations (prequential), off (default: annotations when the file has seizure annotations, else off)")
	scores := fs.Bool("scores", false, "also print one line per window")
	save := fs.String("save", "", "write the model after the replay to this file")
	labels := fs.String("labels", "", "CHB-MIT chbNN-summary.txt giving the file's seizures (looked up by base name), instead of its annotations")
	var mf modelFlags
	mf.add(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ictal replay [-model MODEL] [flags] FILE.edf\n\nRuns the whole pipeline over the recording as fast as possible. Prints JSON\nlines: each alert, event end and change of state, then a \"file\" record with\nthe SzCORE scores against the file's seizure annotations or -labels (a\nseizure counts as detected when an alert overlaps it extended by 30 s\nbefore and 60 s after; see internal/eval). `ictal score -ref FILE.edf -hyp\nOUT.jsonl` rescores the saved output.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("one recording is required")
	}
	path := fs.Arg(0)
	r, err := mf.openReplay(path)
	if err != nil {
		return err
	}
	defer r.Close()
	d, err := mf.dim(r)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	model, err := replayModel(*modelPath, path, d, &mf)
	if err != nil {
		return err
	}
	src, err := labelsFor(r, path, *labels)
	if err != nil {
		return err
	}
	mode, err := replayMode(*learn, src)
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
	rep.Type, rep.Labels = "summary", *labels
	if err := json.NewEncoder(stdout).Encode(rep); err != nil {
		return err
	}
	if *save != "" {
		b, err := model.MarshalBinary()
		if err != nil {
			return err
		}
		return checkpoint.Save(*save, b) // atomic, as train writes its model
	}
	return nil
}

// replayModel loads the model at modelPath, checking that it takes the d
// features the recording at path makes, or makes a new one from mf.
func replayModel(modelPath, path string, d int, mf *modelFlags) (classifier.Model, error) {
	if modelPath == "" {
		return classifier.New(mf.classifierConfig(d))
	}
	b, err := os.ReadFile(modelPath)
	if err != nil {
		return nil, err
	}
	model, err := classifier.Load(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", modelPath, err)
	}
	if model.Config().Features != d {
		return nil, fmt.Errorf("%s takes %d features; %s with these feature settings makes %d (was it trained on the same montage?)", modelPath, model.Config().Features, path, d)
	}
	return model, nil
}

// replayMode is the learning mode of -learn: annotations when the file
// has seizure annotations and -learn is not given, else off.
func replayMode(learn string, src labeledSource) (string, error) {
	switch learn {
	case "":
		for _, iv := range src.Intervals() {
			if iv.Seizure {
				return pipeline.LearnAnnotations, nil
			}
		}
		return pipeline.LearnOff, nil
	case pipeline.LearnOff, pipeline.LearnAnnotations:
		return learn, nil
	}
	return "", fmt.Errorf("-learn %q: want annotations or off", learn)
}
