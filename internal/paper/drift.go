package paper

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
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
//
// With transition TransitionAfter, SINE1G's transition covers the second
// half (n/2 to n) instead; with TransitionBefore, the first half.
func oldConceptProb(stream, transition string, t, n int) (float64, error) {
	h := float64(n) / 2
	x := float64(t)
	switch stream {
	case SINE1:
		if x < h {
			return 1, nil
		}
		return 0, nil
	case SINE1G:
		start := h / 2
		switch transition {
		case TransitionAfter:
			start = h
		case TransitionBefore:
			start = 0
		}
		return math.Min(1, math.Max(0, 1-(x-start)/h)), nil
	case SINE1M:
		if x >= h {
			x -= h
		}
		return 1 - x/h, nil
	}
	return 0, fmt.Errorf("paper: stream %q: want sine1, sine1g or sine1m", stream)
}

// Where SINE1G's transition of n/2 examples lies (DriftOptions.Transition);
// the paper gives only its length, 2000 of 4000.
const (
	TransitionCentred = "centred" // n/4 to 3n/4, centred on the midpoint
	TransitionAfter   = "after"   // n/2 to n: old concept over the first half
	TransitionBefore  = "before"  // 0 to n/2: new concept over the second half
)

// How a SINE stream is made imbalanced (DriftOptions.Imbalance); the paper
// says only that "the class ratio is 90".
const (
	// ImbalanceExact places exactly round(n/(ratio+1)) minority examples
	// at random positions.
	ImbalanceExact = "exact"
	// ImbalanceBernoulli makes each example a minority one with
	// probability 1/(ratio+1), independently.
	ImbalanceBernoulli = "bernoulli"
	// ImbalanceThin draws Baena-García's balanced stream (points uniform
	// in the square, labelled by the concept) and keeps a minority point
	// with the fixed probability that gives 1:ratio under the old concept,
	// until n points are kept. Where the minority area changes with the
	// concept (MinorityLabel: 1−cos 1 below the curve, cos 1 above), the
	// ratio after the reversal is ratio·(1−cos 1)²/cos²1 ≈ ratio·0.72.
	ImbalanceThin = "thin"
)

// Which class is the minority after the reversal (DriftOptions.Minority).
const (
	// MinorityLabel keeps the positive label rare: after the reversal
	// the rare positives lie above the curve.
	MinorityLabel = "label"
	// MinorityRegion keeps the region below the curve rare: after the
	// reversal its points are negative, so the positives become the
	// majority (ratio:1).
	MinorityRegion = "region"
)

// SineStream returns n examples of a SINE stream with an exact class ratio
// and a rare positive label (ImbalanceExact, MinorityLabel): two features
// uniform in [0, 1]; under the old concept a point is positive when
// x₂ < sin(x₁), under the new one when x₂ ≥ sin(x₁).
func SineStream(stream string, n int, ratio float64, seed uint64) ([][]float64, []bool, error) {
	return SineStreamWith(stream, n, ratio, SineProtocol{}, seed)
}

// SineProtocol names the choices the paper leaves open in making a SINE
// stream; zero fields mean ImbalanceExact, MinorityLabel and
// TransitionCentred.
type SineProtocol struct {
	Imbalance, Minority, Transition string
}

func (p SineProtocol) withDefaults() (SineProtocol, error) {
	if p.Imbalance == "" {
		p.Imbalance = ImbalanceExact
	}
	if p.Minority == "" {
		p.Minority = MinorityLabel
	}
	if p.Transition == "" {
		p.Transition = TransitionCentred
	}
	switch {
	case p.Imbalance != ImbalanceExact && p.Imbalance != ImbalanceBernoulli && p.Imbalance != ImbalanceThin:
		return p, fmt.Errorf("paper: imbalance %q: want exact, bernoulli or thin", p.Imbalance)
	case p.Minority != MinorityLabel && p.Minority != MinorityRegion:
		return p, fmt.Errorf("paper: minority %q: want label or region", p.Minority)
	case p.Transition != TransitionCentred && p.Transition != TransitionAfter && p.Transition != TransitionBefore:
		return p, fmt.Errorf("paper: transition %q: want centred, after or before", p.Transition)
	}
	return p, nil
}

// SineStreamWith is SineStream with the imbalance and minority protocols
// named. Except with ImbalanceThin, the rare positions are chosen first and
// each example's point is drawn uniformly from its class's region under
// its concept (by rejection), so the concept decides where the points of
// each class lie, not how many there are.
func SineStreamWith(stream string, n int, ratio float64, proto SineProtocol, seed uint64) ([][]float64, []bool, error) {
	if n < 2 || !(ratio > 0) {
		return nil, nil, fmt.Errorf("paper: stream length %d and class ratio %g: want ≥ 2 and > 0", n, ratio)
	}
	proto, err := proto.withDefaults()
	if err != nil {
		return nil, nil, err
	}
	if _, err := oldConceptProb(stream, proto.Transition, 0, 1); err != nil {
		return nil, nil, err
	}
	imbalance, minority, transition := proto.Imbalance, proto.Minority, proto.Transition
	rng := rand.New(rand.NewPCG(seed, 0x73696e65))
	rare := make([]bool, n)
	switch imbalance {
	case ImbalanceExact:
		np := max(1, int(math.Round(float64(n)/(ratio+1))))
		for _, i := range rng.Perm(n)[:np] {
			rare[i] = true
		}
	case ImbalanceBernoulli:
		for i := range rare {
			rare[i] = rng.Float64() < 1/(ratio+1)
		}
	case ImbalanceThin:
		return thinStream(stream, transition, n, ratio, minority, rng)
	}
	X := make([][]float64, n)
	y := make([]bool, n)
	for t := range X {
		p, _ := oldConceptProb(stream, transition, t, n)
		old := rng.Float64() < p
		for {
			a, b := rng.Float64(), rng.Float64()
			below := b < math.Sin(a)
			pos := below == old
			if minority == MinorityLabel && pos == rare[t] || minority == MinorityRegion && below == rare[t] {
				X[t], y[t] = []float64{a, b}, pos
				break
			}
		}
	}
	return X, y, nil
}

// thinStream is SineStreamWith's ImbalanceThin.
func thinStream(stream, transition string, n int, ratio float64, minority string, rng *rand.Rand) ([][]float64, []bool, error) {
	below := 1 - math.Cos(1) // area under sin on [0, 1]
	keep := (1 - below) / (below * ratio)
	X := make([][]float64, 0, n)
	y := make([]bool, 0, n)
	for len(X) < n {
		p, _ := oldConceptProb(stream, transition, len(X), n)
		old := rng.Float64() < p
		a, b := rng.Float64(), rng.Float64()
		isBelow := b < math.Sin(a)
		pos := isBelow == old
		rare := pos
		if minority == MinorityRegion {
			rare = isBelow
		}
		if rare && rng.Float64() >= keep {
			continue
		}
		X = append(X, []float64{a, b})
		y = append(y, pos)
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
	// Imbalance (ImbalanceExact, default, Bernoulli or Thin) and
	// Minority (MinorityLabel, default, or Region) say how the stream is
	// made imbalanced; see SineStreamWith.
	Imbalance, Minority string
	Transition          string  // SINE1G's: TransitionCentred (default), After or Before
	CP, CN              float64 // AC2's costs, default 1 and 0.1
	Members             int     // ensemble size M, default classifier's
	// AUC says how a run's prequential predictions become one AUC: AUCStream
	// (default), AUCCrisp, AUCSweep, AUCSweepHull, AUCWindow or
	// AUCRunning. Window is the window or checkpoint interval of the
	// last two (default 400).
	AUC      string
	Window   int
	Points   int // cost settings of AUCSweep and AUCSweepHull, default 10
	Seed     uint64
	Workers  int
	Progress io.Writer
}

// How RunDrift turns a run's prequential predictions into one AUC.
const (
	// AUCStream is the Mann–Whitney AUC of all the run's scores.
	AUCStream = "stream"
	// AUCCrisp is the AUC of the one ROC point of the decisions
	// Score > 0.5: (1 + TPR − FPR)/2.
	AUCCrisp = "crisp"
	// AUCSweep runs the stream once per C_N of the cv sweep (C_N from 0.1
	// to 1, C_P fixed) and takes the polyline AUC (AUCPoints) of the
	// runs' prequential (FPR, TPR) points, as cv does.
	AUCSweep = "sweep"
	// AUCSweepHull is AUCSweep with the convex-hull AUC (AUCHull).
	AUCSweepHull = "sweep-hull"
	// AUCWindow is the mean Mann–Whitney AUC of consecutive windows of
	// Window examples (windows lacking a class are skipped).
	AUCWindow = "window"
	// AUCRunning is the mean, over checkpoints every Window examples, of
	// the Mann–Whitney AUC of all scores so far (checkpoints before both
	// classes have been seen are skipped).
	AUCRunning = "running"
	// AUCSecondHalf is the Mann–Whitney AUC of the scores of the second
	// half of the stream only: how well a model has adapted after
	// SINE1's reversal.
	AUCSecondHalf = "second-half"
)

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
	// The protocol of the run (DriftOptions).
	Imbalance string `json:"imbalance"`
	Minority  string `json:"minority"`
	// Transition is SINE1G's transition (empty for other streams).
	Transition string  `json:"transition,omitempty"`
	AUC        string  `json:"auc"`
	CP         float64 `json:"cp"`
	CN         float64 `json:"cn"`
	Members    int     `json:"members"`
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
		rec := DriftRecord{Type: "drift", Stream: k.s, Learner: k.l, Variant: k.v, Runs: opt.Runs, AUCRuns: runs, Beta: 1,
			Imbalance: opt.Imbalance, Minority: opt.Minority, AUC: opt.AUC, CP: opt.CP, CN: opt.CN, Members: opt.Members}
		if k.v == "ns" {
			rec.Beta = opt.Beta
		}
		if k.s == SINE1G {
			rec.Transition = opt.Transition
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
		opt.Learners = names(classifier.Learners)
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
	opt.Workers = workers(opt.Workers)
	proto, err := SineProtocol{opt.Imbalance, opt.Minority, opt.Transition}.withDefaults()
	if err != nil {
		return opt, err
	}
	opt.Imbalance, opt.Minority, opt.Transition = proto.Imbalance, proto.Minority, proto.Transition
	if opt.CP == 0 {
		opt.CP = 1
	}
	if opt.CN == 0 {
		opt.CN = 0.1
	}
	if opt.Members == 0 {
		opt.Members = classifier.DefaultMembers
	}
	if opt.AUC == "" {
		opt.AUC = AUCStream
	}
	if opt.Window == 0 {
		opt.Window = 400
	}
	if opt.Points == 0 {
		opt.Points = 10
	}
	switch opt.AUC {
	case AUCStream, AUCCrisp, AUCSweep, AUCSweepHull, AUCWindow, AUCRunning, AUCSecondHalf:
	default:
		return opt, fmt.Errorf("paper: auc %q: want stream, crisp, sweep, sweep-hull, window, running or second-half", opt.AUC)
	}
	if opt.Window < 2 || opt.Points < 1 {
		return opt, fmt.Errorf("paper: window %d and points %d: want ≥ 2 and ≥ 1", opt.Window, opt.Points)
	}
	if opt.Runs < 1 {
		return opt, fmt.Errorf("paper: runs %d: want at least 1", opt.Runs)
	}
	if !(opt.Beta > 0 && opt.Beta < 1) {
		return opt, fmt.Errorf("paper: beta %g: want a forgetting factor in (0, 1)", opt.Beta)
	}
	for _, s := range opt.Streams {
		if _, err := oldConceptProb(s, opt.Transition, 0, 1); err != nil {
			return opt, err
		}
	}
	return opt, nil
}

// driftRun is run r of k: the AUC (opt.AUC) of AC2's (or nsAC2's)
// prequential predictions on a freshly drawn stream.
func driftRun(opt DriftOptions, k driftKey, r int) (float64, error) {
	X, y, err := SineStreamWith(k.s, opt.Length, opt.Ratio, SineProtocol{opt.Imbalance, opt.Minority, opt.Transition},
		deriveSeed(opt.Seed, k.s, "stream", strconv.Itoa(r)))
	if err != nil {
		return 0, err
	}
	cfg := classifier.Config{Algorithm: classifier.AC2, Learner: classifier.LearnerName(k.l), Features: 2, Members: opt.Members,
		CP: opt.CP, CN: opt.CN, Seed: deriveSeed(opt.Seed, k.s, k.l, k.v, strconv.Itoa(r))}
	if k.v == "ns" {
		cfg.Algorithm, cfg.Beta = "ns"+classifier.AC2, opt.Beta
	}
	if opt.AUC == AUCSweep || opt.AUC == AUCSweepHull {
		vals := sweepValues(classifier.AC2, opt.Points, 0, 1)
		pts := make([]Point, len(vals))
		for i, v := range vals {
			c := cfg
			c.CN = v
			c.Seed = deriveSeed(cfg.Seed, "sweep", strconv.Itoa(i))
			scores, err := prequential(c, X, y)
			if err != nil {
				return 0, err
			}
			pts[i] = ROCPoint(scores, y)
		}
		if opt.AUC == AUCSweepHull {
			return AUCHull(pts), nil
		}
		return AUCPoints(pts), nil
	}
	scores, err := prequential(cfg, X, y)
	if err != nil {
		return 0, err
	}
	return streamAUC(opt.AUC, opt.Window, scores, y), nil
}

// prequential returns the score of each example of the stream by a model
// of cfg before it learns that example.
func prequential(cfg classifier.Config, X [][]float64, y []bool) ([]float64, error) {
	m, err := classifier.New(cfg)
	if err != nil {
		return nil, err
	}
	scores := make([]float64, len(X))
	for t, x := range X {
		if scores[t], err = m.Score(x); err != nil {
			return nil, err
		}
		if err = m.Learn(x, y[t]); err != nil {
			return nil, err
		}
	}
	return scores, nil
}

// streamAUC turns prequential scores into one AUC by the method auc
// (AUCStream, AUCCrisp, AUCWindow, AUCRunning or AUCSecondHalf); NaN when no window or
// checkpoint holds both classes.
func streamAUC(auc string, window int, scores []float64, y []bool) float64 {
	switch auc {
	case AUCCrisp:
		p := ROCPoint(scores, y)
		return AUCPoints([]Point{p})
	case AUCSecondHalf:
		return AUCScores(scores[len(scores)/2:], y[len(y)/2:])
	case AUCWindow, AUCRunning:
		var sum, n float64
		for end := window; end <= len(scores); end += window {
			start := end - window
			if auc == AUCRunning {
				start = 0
			}
			if a := AUCScores(scores[start:end], y[start:end]); !math.IsNaN(a) {
				sum += a
				n++
			}
		}
		return sum / n
	}
	return AUCScores(scores, y)
}
