package main

import (
	"fmt"
	"io"

	"github.com/ictal/ictal/internal/paper"
)

func runPaperDrift(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("paper drift", "usage: ictal paper drift [-streams sine1,sine1g,sine1m] [-learner nb,lda,qda] [-runs 10] [-beta 0.9] [-seed 1]\n"+
		"Section 8: prequential AUC (score, then learn) of online AC2 and nsAC2 on the SINE streams, class ratio 1:90.\n"+
		`One JSON line per (stream, learner, variant): {"stream","learner","variant","runs","auc_mean","auc_std",...}.`, stderr)
	streams := fs.String("streams", "sine1,sine1g,sine1m", "comma-separated streams")
	learners := fs.String("learner", "nb,lda,qda", "comma-separated base learners")
	runs := fs.Int("runs", 10, "runs per stream (a new stream and model seed each)")
	beta := fs.Float64("beta", 0.9, "forgetting factor of nsAC2")
	length := fs.Int("length", 4000, "examples per stream")
	ratio := fs.Float64("ratio", 90, "negatives per positive")
	seed := fs.Uint64("seed", 1, "seed of streams and models")
	workers := fs.Int("workers", 0, "parallel runs (0: GOMAXPROCS)")
	quiet := fs.Bool("q", false, "no progress on stderr")
	alias(fs, "learners", "learner")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *runs < 1 {
		return fmt.Errorf("-runs %d: want at least 1", *runs)
	}
	if *length < 2 || !(*ratio > 0) {
		return fmt.Errorf("-length %d -ratio %g: want at least 2 examples and a positive ratio", *length, *ratio)
	}
	opt := paper.DriftOptions{Streams: listFlag(*streams), Learners: listFlag(*learners), Runs: *runs,
		Beta: *beta, Length: *length, Ratio: *ratio, Seed: *seed, Workers: *workers}
	if !*quiet {
		opt.Progress = stderr
	}
	return paper.RunDrift(opt, stdout)
}
