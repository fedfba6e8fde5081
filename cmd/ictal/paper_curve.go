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
	pf := addPaperFlags(fs, "splits, orders and ensembles", "jobs")
	pf.compare(fs, "UOB,AC2,RUS3")
	fractions := fs.String("fractions", "0.05,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9", "training fractions")
	reps := fs.Int("reps", 5, "random stratified splits per fraction")
	points := fs.Int("points", 10, "cost settings per ROC")
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
	opt := paper.CurveOptions{Algorithms: listFlag(*pf.algorithms), Learners: listFlag(*pf.learners), Modes: listFlag(*pf.modes),
		Fractions: fr, Reps: *reps, Points: *points, Seed: *pf.seed, Workers: *pf.workers, Progress: pf.progress(stderr)}
	return paper.RunCurve(ds[0], opt, stdout)
}
