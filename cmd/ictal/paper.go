package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ictal/ictal/internal/paper"
)

// paperCommands are the subcommands of `ictal paper`.
var paperCommands = map[string]struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}{
	"cv":    {"cross-validated AUC of online and batch ensembles on KEEL data (Section 6)", runPaperCV},
	"drift": {"prequential AUC of AC2 and nsAC2 on the SINE streams (Section 8)", runPaperDrift},
	"curve": {"learning curves on satimage, online vs batch (Fig. Learning curves)", runPaperCurve},
	"plots": {"the paper's figures as PNG and SVG from cv, drift and curve output", runPaperPlots},
}

func runPaper(args []string, stdout, stderr io.Writer) error {
	if err := needSubcommand(args, paperUsage(), "missing subcommand", stderr); err != nil {
		return err
	}
	c, ok := paperCommands[args[0]]
	if !ok {
		return fmt.Errorf("unknown subcommand %q (want cv, drift, curve or plots)", args[0])
	}
	return c.run(args[1:], stdout, stderr)
}

// paperUsage lists the subcommands of `ictal paper` by name.
func paperUsage() string {
	names := make([]string, 0, len(paperCommands))
	for n := range paperCommands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("usage: ictal paper SUBCOMMAND [flags]  (ictal paper SUBCOMMAND -h for help)")
	for _, n := range names {
		fmt.Fprintf(&b, "\n  %-6s %s", n, paperCommands[n].summary)
	}
	return b.String()
}

// listFlag splits a comma-separated flag value, dropping empty items.
func listFlag(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// paperFlags are the flags the paper's experiments share: what they
// compare (-algorithm, -learner, -mode, for the commands that call
// compare) and how they run (-seed, -workers, -q).
type paperFlags struct {
	algorithms, learners, modes *string
	seed                        *uint64
	workers                     *int
	quiet                       *bool
}

// addPaperFlags adds -seed ("seed of " + seeds), -workers ("parallel " +
// jobs) and -q to fs.
func addPaperFlags(fs *flag.FlagSet, seeds, jobs string) *paperFlags {
	return &paperFlags{
		seed:    fs.Uint64("seed", 1, "seed of "+seeds),
		workers: fs.Int("workers", 0, "parallel "+jobs+" (0: GOMAXPROCS)"),
		quiet:   fs.Bool("q", false, "no progress on stderr"),
	}
}

// compare adds -algorithm (by default algorithms), -learner and -mode, and
// their old plural names, to fs.
func (p *paperFlags) compare(fs *flag.FlagSet, algorithms string) {
	p.algorithms = fs.String("algorithm", algorithms, "comma-separated algorithms (ictal replay and train: one)")
	p.learners = fs.String("learner", "nb,lda,qda", "comma-separated base learners (ictal replay and train: one)")
	p.modes = fs.String("mode", "online,batch", "comma-separated modes")
	alias(fs, "algorithms", "algorithm")
	alias(fs, "learners", "learner")
	alias(fs, "modes", "mode")
}

// progress returns where the progress lines go: stderr, or nowhere (nil)
// with -q.
func (p *paperFlags) progress(stderr io.Writer) io.Writer {
	if *p.quiet {
		return nil
	}
	return stderr
}

// pathsFlag collects -data values; it may be given more than once.
type pathsFlag []string

func (p *pathsFlag) String() string     { return strings.Join(*p, " ") }
func (p *pathsFlag) Set(s string) error { *p = append(*p, s); return nil }

// parseWithPaths parses args with fs, taking the positional arguments that
// follow a path flag (-data a.dat b.dat -folds 5) as more paths.
func parseWithPaths(fs *flag.FlagSet, args []string, paths *pathsFlag) error {
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return nil
		}
		i := 0
		for i < len(rest) && !strings.HasPrefix(rest[i], "-") {
			*paths = append(*paths, rest[i])
			i++
		}
		args = rest[i:]
	}
}

func runPaperCV(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("paper cv", "usage: ictal paper cv -data PATH... [-algorithm LIST] [-learner nb,lda,qda] [-mode online,batch] [-folds 5] [-points 10] [-hull] [-span 1] [-literal-vote] [-seed 1] [-workers N]\n"+
		"The paper's protocol (Section 6) on KEEL .dat files: stratified k-fold CV; online ensembles learn each\n"+
		"training fold once in a seeded random order, batch ones train on it as a set; the ROC is traced by sweeping\n"+
		"the cost over -points settings of the paper's ranges. One JSON line per (dataset, algorithm, learner, mode)\n"+
		"on stdout: auc_mean, auc_std (AUC of the swept ROC), auc_score (Mann-Whitney AUC at the default cost), roc.\n"+
		"The output is identical for any -workers.", stderr)
	var data pathsFlag
	fs.Var(&data, "data", "KEEL .dat file or folder of them (repeatable; more paths may follow)")
	pf := addPaperFlags(fs, "folds, orders and ensembles", "jobs")
	pf.compare(fs, "UOB,SB,AC2,CSB2,RUS1,RUS2,RUS3,SBO1,SBO2,SBO3,OzaBag,OzaBoost")
	folds := fs.Int("folds", 5, "stratified cross-validation folds")
	points := fs.Int("points", 10, "cost settings per ROC")
	span := fs.Float64("span", 1, "widen the paper's cost ranges by this factor at both ends (C_N from 0.1/F to F; C from 1/F to F·ratio)")
	hull := fs.Bool("hull", false, "also report auc_hull_mean: the AUC of the ROC convex hull of each fold's sweep")
	literal := fs.Bool("literal-vote", false, "boosting members with ε > 0.5 vote for the other class, as the paper prints it, instead of abstaining (records carry \"vote\":\"literal\")")
	if err := parseWithPaths(fs, args, &data); err != nil {
		return err
	}
	if len(data) == 0 {
		return fmt.Errorf("-data is required")
	}
	ds, err := paper.LoadData(data)
	if err != nil {
		return err
	}
	opt := paper.CVOptions{
		Algorithms: listFlag(*pf.algorithms), Learners: listFlag(*pf.learners), Modes: listFlag(*pf.modes),
		Folds: *folds, Points: *points, Hull: *hull, Span: *span, LiteralVote: *literal, Seed: *pf.seed, Workers: *pf.workers,
		Progress: pf.progress(stderr),
	}
	if *folds < 2 {
		return fmt.Errorf("-folds %d: want at least 2", *folds)
	}
	if !(*span >= 1) {
		return fmt.Errorf("-span %g: want at least 1", *span)
	}
	if *points < 1 {
		return fmt.Errorf("-points %d: want at least 1", *points)
	}
	return paper.RunCV(ds, opt, stdout)
}
