package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"syscall"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/daemon"
	"github.com/ictal/ictal/internal/pipeline"
)

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
