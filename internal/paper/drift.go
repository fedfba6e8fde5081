package paper

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"

	"github.com/ictal/ictal/classifier"
)

// Stream names of Section 8.
const (
	SINE1  = "sine1"  // abrupt reversal at the midpoint
	SINE1G = "sine1g" // gradual reversal over the middle half
	SINE1M = "sine1m" // gradual reversal over each half, back to the old concept at the midpoint
)

// oldConceptProb returns the probability that example t of n follows the
// old concept (points below y = sin(x) positive) rather than the reversed
// one:
//
//	sine1:  1 before n/2, 0 after (abrupt drift, Baena-García et al.'s SINE1)
//	sine1g: 1 before n/4, 0 from 3n/4, linear in between: a transition
//	        of n/2 = 2000 examples centred on the midpoint (SINE1G)
//	sine1m: falls linearly from 1 to 0 over the first half, returns to 1
//	        at the midpoint and falls again over the second half, as the
//	        paper describes its mixture.
func oldConceptProb(stream string, t, n int) (float64, error) {
	h := float64(n) / 2
	x := float64(t)
	switch stream {
	case SINE1:
		if x < h {
			return 1, nil
		}
		return 0, nil
	case SINE1G:
		return math.Min(1, math.Max(0, 1-(x-h/2)/h)), nil
	case SINE1M:
		if x >= h {
			x -= h
		}
		return 1 - x/h, nil
	}
	return 0, fmt.Errorf("paper: stream %q: want sine1, sine1g or sine1m", stream)
}

// SineStream returns n examples of a SINE stream: two features uniform in
// [0, 1]; under the old concept a point is positive when x₂ < sin(x₁),
// under the new one when x₂ ≥ sin(x₁). The class ratio (negatives per
// positive) is imposed exactly: round(n/(ratio+1)) positions, chosen at
// random, are positive, and each example's point is drawn uniformly from
// its class's region under its concept (by rejection), so the concept
// decides where the points of each class lie, not how many there are.
func SineStream(stream string, n int, ratio float64, seed uint64) ([][]float64, []bool, error) {
	if n < 2 || !(ratio > 0) {
		return nil, nil, fmt.Errorf("paper: stream length %d and class ratio %g: want ≥ 2 and > 0", n, ratio)
	}
	rng := rand.New(rand.NewPCG(seed, 0x73696e65))
	y := make([]bool, n)
	np := max(1, int(math.Round(float64(n)/(ratio+1))))
	for _, i := range rng.Perm(n)[:np] {
		y[i] = true
	}
	X := make([][]float64, n)
	for t := range X {
		p, err := oldConceptProb(stream, t, n)
		if err != nil {
			return nil, nil, err
		}
		old := rng.Float64() < p
		for {
			a, b := rng.Float64(), rng.Float64()
			below := b < math.Sin(a)
			if (below == old) == y[t] {
				X[t] = []float64{a, b}
				break
			}
		}
	}
	return X, y, nil
}

// DriftOptions parameterises RunDrift; zero values mean the defaults of
// `ictal paper drift`.
type DriftOptions struct {
	Streams  []string // default sine1, sine1g, sine1m
	Learners []string // default nb, lda, qda
	Runs     int      // default 10
	Beta     float64  // forgetting factor of nsAC2, default 0.9
	Length   int      // examples per stream, default 4000
	Ratio    float64  // negatives per positive, default 90
	Seed     uint64
	Workers  int
	Progress io.Writer
}

// DriftRecord is one output line of RunDrift.
type DriftRecord struct {
	Type    string    `json:"type"` // "drift"
	Stream  string    `json:"stream"`
	Learner string    `json:"learner"`
	Variant string    `json:"variant"` // "plain" (AC2) or "ns" (nsAC2)
	Runs    int       `json:"runs"`
	AUCMean float64   `json:"auc_mean"`
	AUCStd  float64   `json:"auc_std"`
	AUCRuns []float64 `json:"auc_runs"`
	Beta    float64   `json:"beta"`
}

// RunDrift measures the prequential AUC (each example scored before it is
// learned; the Mann–Whitney AUC of all scores of a run) of online AC2 and
// nsAC2 at the default costs (C_P = 1, C_N = 0.1) on the SINE streams.
// Plain and ns variants and every learner see the same stream in a run.
func RunDrift(opt DriftOptions, out io.Writer) error {
	opt, err := opt.withDefaults()
	if err != nil {
		return err
	}
	var keys []driftKey
	for _, s := range opt.Streams {
		for _, l := range opt.Learners {
			for _, v := range []string{"plain", "ns"} {
				keys = append(keys, driftKey{s, l, v})
			}
		}
	}
	aucs := make([]float64, len(keys)*opt.Runs)
	err = parallel(len(aucs), opt.Workers, func(i int) error {
		k, r := keys[i/opt.Runs], i%opt.Runs
		auc, err := driftRun(opt, k, r)
		if err != nil {
			return err
		}
		aucs[i] = auc
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "drift: %s %s %s run %d: auc %.4f\n", k.s, k.l, k.v, r, aucs[i])
		}
		return nil
	})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	for i, k := range keys {
		runs := aucs[i*opt.Runs : (i+1)*opt.Runs]
		rec := DriftRecord{Type: "drift", Stream: k.s, Learner: k.l, Variant: k.v, Runs: opt.Runs, AUCRuns: runs, Beta: 1}
		if k.v == "ns" {
			rec.Beta = opt.Beta
		}
		rec.AUCMean, rec.AUCStd = meanStd(runs)
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return nil
}

// driftKey names one (stream, learner, variant) of RunDrift.
type driftKey struct{ s, l, v string }

// withDefaults fills in the zero options and checks them.
func (opt DriftOptions) withDefaults() (DriftOptions, error) {
	if opt.Streams == nil {
		opt.Streams = []string{SINE1, SINE1G, SINE1M}
	}
	if opt.Learners == nil {
		opt.Learners = classifier.Learners
	}
	if opt.Runs == 0 {
		opt.Runs = 10
	}
	if opt.Beta == 0 {
		opt.Beta = classifier.DefaultNSBeta
	}
	if opt.Length == 0 {
		opt.Length = 4000
	}
	if opt.Ratio == 0 {
		opt.Ratio = 90
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Runs < 1 {
		return opt, fmt.Errorf("paper: runs %d: want at least 1", opt.Runs)
	}
	if !(opt.Beta > 0 && opt.Beta < 1) {
		return opt, fmt.Errorf("paper: beta %g: want a forgetting factor in (0, 1)", opt.Beta)
	}
	for _, s := range opt.Streams {
		if _, err := oldConceptProb(s, 0, 1); err != nil {
			return opt, err
		}
	}
	return opt, nil
}

// driftRun is run r of k: the prequential AUC of AC2 (or nsAC2) on a
// freshly drawn stream.
func driftRun(opt DriftOptions, k driftKey, r int) (float64, error) {
	X, y, err := SineStream(k.s, opt.Length, opt.Ratio, deriveSeed(opt.Seed, k.s, "stream", strconv.Itoa(r)))
	if err != nil {
		return 0, err
	}
	cfg := classifier.Config{Algorithm: classifier.AC2, Learner: k.l, Features: 2,
		Seed: deriveSeed(opt.Seed, k.s, k.l, k.v, strconv.Itoa(r))}
	if k.v == "ns" {
		cfg.Algorithm, cfg.Beta = "ns"+classifier.AC2, opt.Beta
	}
	m, err := classifier.New(cfg)
	if err != nil {
		return 0, err
	}
	scores := make([]float64, len(X))
	for t, x := range X {
		if scores[t], err = m.Score(x); err != nil {
			return 0, err
		}
		if err = m.Learn(x, y[t]); err != nil {
			return 0, err
		}
	}
	return AUCScores(scores, y), nil
}
