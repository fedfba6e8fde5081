package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/ictal/ictal/internal/paper"
)

func runPaperCurve(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("paper curve", "usage: ictal paper curve -data satimage.dat [-algorithm UOB,AC2,RUS3] [-learner nb,lda,qda] [-fractions LIST] [-reps 5] [-points 10] [-seed 1] [-workers N]\n"+
		"The paper's Fig. \"Learning curves\": AUC (swept ROC, as cv) on the rest of the data after training on a stratified\n"+
		"random fraction, online vs batch. One JSON line per (algorithm, learner, mode, fraction).", stderr)
	var data pathsFlag
	fs.Var(&data, "data", "the KEEL .dat file (the paper uses satimage.dat)")
	algs := fs.String("algorithm", "UOB,AC2,RUS3", "comma-separated algorithms (ictal replay and train: one)")
	learners := fs.String("learner", "nb,lda,qda", "comma-separated base learners (ictal replay and train: one)")
	modes := fs.String("mode", "online,batch", "comma-separated modes")
	fractions := fs.String("fractions", "0.05,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9", "training fractions")
	reps := fs.Int("reps", 5, "random stratified splits per fraction")
	points := fs.Int("points", 10, "cost settings per ROC")
	seed := fs.Uint64("seed", 1, "seed of splits, orders and ensembles")
	workers := fs.Int("workers", 0, "parallel jobs (0: GOMAXPROCS)")
	quiet := fs.Bool("q", false, "no progress on stderr")
	alias(fs, "algorithms", "algorithm")
	alias(fs, "learners", "learner")
	alias(fs, "modes", "mode")
	if err := parseWithPaths(fs, args, &data); err != nil {
		return err
	}
	if len(data) != 1 {
		return fmt.Errorf("-data: want exactly one file, got %d", len(data))
	}
	ds, err := paper.LoadData(data)
	if err != nil {
		return err
	}
	if len(ds) != 1 {
		return fmt.Errorf("-data %s: want one data set, got %d", data[0], len(ds))
	}
	var fr []float64
	for _, s := range listFlag(*fractions) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("-fractions: %q is not a number", s)
		}
		fr = append(fr, f)
	}
	if len(fr) == 0 || *reps < 1 || *points < 1 {
		return fmt.Errorf("-fractions, -reps and -points must be non-empty and positive")
	}
	opt := paper.CurveOptions{Algorithms: listFlag(*algs), Learners: listFlag(*learners), Modes: listFlag(*modes),
		Fractions: fr, Reps: *reps, Points: *points, Seed: *seed, Workers: *workers}
	if !*quiet {
		opt.Progress = stderr
	}
	return paper.RunCurve(ds[0], opt, stdout)
}
