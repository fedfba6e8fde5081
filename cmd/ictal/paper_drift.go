package main

import (
	"fmt"
	"io"

	"github.com/ictal/ictal/internal/paper"
)

func runPaperDrift(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("paper drift", "usage: ictal paper drift [-streams sine1,sine1g,sine1m] [-learner nb,lda,qda] [-runs 10] [-beta 0.9] [-imbalance exact] [-minority label] [-transition centred] [-auc stream] [-cp 1 -cn 0.1] [-members 10] [-seed 1]\n"+
		"Section 8: prequential AUC (score, then learn) of online AC2 and nsAC2 on the SINE streams, class ratio 1:90.\n"+
		`One JSON line per (stream, learner, variant): {"stream","learner","variant","runs","auc_mean","auc_std",...}.`, stderr)
	streams := fs.String("streams", "sine1,sine1g,sine1m", "comma-separated streams")
	learners := fs.String("learner", "nb,lda,qda", "comma-separated base learners")
	runs := fs.Int("runs", 10, "runs per stream (a new stream and model seed each)")
	beta := fs.Float64("beta", 0.9, "forgetting factor of nsAC2")
	length := fs.Int("length", 4000, "examples per stream")
	ratio := fs.Float64("ratio", 90, "negatives per positive")
	imbalance := fs.String("imbalance", "exact", "how the class ratio is made: exact (round(n/(ratio+1)) rare examples), bernoulli (each rare with probability 1/(ratio+1)) or thin (a balanced SINE stream with rare points kept at a fixed rate)")
	minority := fs.String("minority", "label", "what stays rare after the reversal: label (the positive class) or region (the points below the curve, so positives become the majority)")
	transition := fs.String("transition", "centred", "where SINE1G's transition of length/2 lies: centred (length/4 to 3·length/4), after (the second half) or before (the first half)")
	auc := fs.String("auc", "stream", "AUC of a run: stream (Mann-Whitney of all prequential scores), crisp ((1+TPR-FPR)/2 of Score>0.5), sweep or sweep-hull (one run per C_N of cv's sweep; polyline or convex-hull AUC of the prequential ROC points), window (mean AUC of windows of -window examples), running (mean AUC of all scores so far, every -window examples) or second-half (AUC of the second half's scores only)")
	window := fs.Int("window", 400, "window (or checkpoint interval) of -auc window and running")
	points := fs.Int("points", 10, "C_N settings of -auc sweep and sweep-hull")
	cp := fs.Float64("cp", 1, "AC2's cost C_P of a missed positive")
	cn := fs.Float64("cn", 0.1, "AC2's cost C_N of a false alarm")
	members := fs.Int("members", 10, "ensemble size M")
	pf := addPaperFlags(fs, "streams and models", "runs")
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
		Beta: *beta, Length: *length, Ratio: *ratio, Seed: *pf.seed, Workers: *pf.workers, Progress: pf.progress(stderr),
		Imbalance: *imbalance, Minority: *minority, Transition: *transition, AUC: *auc, Window: *window, Points: *points,
		CP: *cp, CN: *cn, Members: *members}
	return paper.RunDrift(opt, stdout)
}
