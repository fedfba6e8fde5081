package batch

import (
	"math/rand/v2"
	"testing"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/classifier/prequential"
)

// evaluate returns the figures of scores s against labels y over the
// whole set: the Mann–Whitney AUC (ties ½) and the rates of the decision
// score > 0.5, as the prequential evaluator counts them.
func evaluate(t *testing.T, s []float64, y []bool) prequential.Metrics {
	t.Helper()
	e, err := prequential.New(1, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s {
		if err := e.Add(s[i], y[i]); err != nil {
			t.Fatal(err)
		}
	}
	return e.Whole()
}

// TestOnlineUOBConvergesToBatchUOB is the paper's central claim for
// UnderOverBagging, on a large imbalanced set: online UOB learning the
// examples one at a time and batch UOB trained by resampling give test
// AUCs within 0.01 (measured: 0.001–0.002; a batch side with C = 1
// instead of 9 misses by 0.13), with the same learners, costs and vote.
func TestOnlineUOBConvergesToBatchUOB(t *testing.T) {
	X, y := blobs(300, 2700, 1, 11)
	Xt, yt := blobs(300, 2700, 1, 12)
	for _, l := range classifier.Learners {
		cfg := classifier.Config{Algorithm: classifier.UOB, Learner: l, Features: 1, C: 9, Seed: 5}
		so, sb := scores(learnOnline(t, cfg, X, y), Xt), scores(train(t, cfg, X, y), Xt)
		ao, ab := evaluate(t, so, yt).AUC, evaluate(t, sb, yt).AUC
		if d := ao - ab; d > 0.01 || d < -0.01 {
			t.Errorf("%s: online AUC %.4f, batch %.4f", l, ao, ab)
		}
	}
}

// TestOnlineBoostingConvergesToBatch is the paper's Theorems 2 and 3
// (online AdaC2 and CSB2, and online RUSBoost, converge to their batch
// counterparts as N⁺, N⁻ → ∞ when the base learners are naive Bayes),
// measured on 3000 positives and 27 000 negatives in one dimension: the
// test AUCs of online and batch models with the same costs, learners and
// vote agree within auc, and, where the decision Score > 0.5 is not
// degenerate (AC2 calls everything positive at both costs here, online
// and batch alike), so do its true and false positive rates, within op.
// Measured (seeds fixed): AUC gaps 0.002 (CSB2) to 0.020 (RUS1 at C =
// 1), operating points within 0.008; the operating points of two settings
// of one algorithm differ by far more than op (RUS1's TPR 0.78 at C = 1
// and 0.53 at C = 3), so a batch side with the other's cost fails.
//
// AdaC2's convergence (Theorem 2) holds under the condition its proof
// needs beyond naive Bayes members: every member's weighted accuracy must
// stay above its weighted error, wacc_m > werr_m (the paper's footnote
// on the boosting requirement), so that the online estimates of wacc and
// werr, which converge to the batch sums, drive λ in the same direction as
// the batch distribution update; a member that breaks it (early in the
// stream, or on a class it cannot separate) makes the two diverge, and
// the gap only closes once its errors fall below its accuracy.
//
// RUS2's operating point at C = 1 is left out, for a reason the limit
// itself gives (TestBatchRUS2AtC1IsDegenerate): batch RUS2 at C = 1 on
// these mirror-image blobs is a degenerate boosting fixed point, every
// member after the first a copy of member 0 with ε = 1/2 and vote ≈ 0, so
// its decision is member 0's (TPR 0.78). The online members approach that
// point one after another as the stream grows (the first with ε < 0.45 is
// member 1–3 at this size, seeds 5–10; 2–4 with ten times the data; 5
// with thirty times, seed 5), but the members past it fall off the fixed
// point (where the weighted classes are inseparable, so an NB member's
// threshold is ill-conditioned), to ε 0.1–0.4 and votes up to 1.3, and
// take the decision: online TPR 0.63, 0.49, 0.007 at 1, 10 and 30 times
// this size (seed 5), against 0.78. The paper's boosting requirement
// ε_m < 1/2 holds there only at its boundary. At C = 3 RUS2 agrees.
//
// RUS3's operating points at C = 1 and 3 are left out because they are not
// functions of the data (TestRUS3OperatingPointDependsOnSeed): with the
// data fixed they take one of two values depending on the resampling seed
// alone, online at C = 1 (TPR 0.27 or 0.16–0.18) and batch at C = 3 (0.53
// or 0.20), at this size and at ten times it (in 8 runs each, batch at
// C = 1 gave only 0.27 and online at C = 3 only 0.51–0.53). With seed 5
// here the online side lands on the other value at C = 1 (0.18 against
// 0.27) and the batch side at C = 3 (0.20 against 0.53); with seeds 6–8
// (and the stream order permuted by seed) both sides agree within op, and
// the AUCs agree at every seed. At its default C = 10 RUS3 agrees.
//
// SMOTEBoost is left out: the paper notes online SMOTE cannot converge to
// batch SMOTE (SBO2's operating point stays 0.35 against 0.78 TPR), so
// there is no theorem to check.
func TestOnlineBoostingConvergesToBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("30 000 examples per algorithm")
	}
	X, y := blobs(3000, 27000, 1, 11)
	Xt, yt := blobs(300, 2700, 1, 12)
	const auc, op = 0.03, 0.03
	tests := []struct {
		name      string
		cfg       classifier.Config
		decisions bool // compare the operating points too
	}{
		{"AC2 C_N=0.1", classifier.Config{Algorithm: classifier.AC2, CN: 0.1}, false},
		{"AC2 C_N=0.5", classifier.Config{Algorithm: classifier.AC2, CN: 0.5}, false},
		{"CSB2 C_N=0.5", classifier.Config{Algorithm: classifier.CSB2, CN: 0.5}, true},
		{"RUS1 C=1", classifier.Config{Algorithm: classifier.RUS1, C: 1}, true},
		{"RUS1 C=3", classifier.Config{Algorithm: classifier.RUS1, C: 3}, true},
		{"RUS2 C=3", classifier.Config{Algorithm: classifier.RUS2, C: 3}, true},
		{"RUS3 C=10", classifier.Config{Algorithm: classifier.RUS3, C: 10}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Learner, cfg.Features, cfg.Seed = classifier.LearnerNB, 1, 5
			so, sb := scores(learnOnline(t, cfg, X, y), Xt), scores(train(t, cfg, X, y), Xt)
			mo, mb := evaluate(t, so, yt), evaluate(t, sb, yt)
			ao, ab := mo.AUC, mb.AUC
			to, fo := mo.TPR, 1-mo.TNR
			tb, fb := mb.TPR, 1-mb.TNR
			t.Logf("AUC online %.4f batch %.4f; TPR %.3f %.3f; FPR %.3f %.3f", ao, ab, to, tb, fo, fb)
			if ao-ab > auc || ab-ao > auc {
				t.Errorf("online AUC %.4f, batch %.4f", ao, ab)
			}
			if !tt.decisions {
				return
			}
			if to-tb > op || tb-to > op || fo-fb > op || fb-fo > op {
				t.Errorf("online TPR %.3f FPR %.3f, batch TPR %.3f FPR %.3f", to, fo, tb, fb)
			}
		})
	}
}

// TestBatchRUS2AtC1IsDegenerate pins why online RUS2 at C = 1 does not
// reach batch RUS2's operating point in TestOnlineBoostingConvergesToBatch:
// batch RUS2 at C = 1 on these blobs is a degenerate boosting fixed point.
// Member 0, trained on a balanced resample, errs on both classes at the
// same rate (the blobs are mirror images about its threshold), so AdaBoost's
// D_2 restricted to each class and rebalanced to N⁺ : N⁺ (the RUS2 weights
// D'_m = D_m·(N⁺/N)/D_m⁺, D_m·(CN⁺/N)/D_m⁻) is mirror-symmetric about the
// same threshold: member 1 is member 0 again, with ε_1 = 1/2 (0.4995 on
// this finite sample), so D_3 = D_2 and so on. The exact chain (expected weights, no resampling)
// shows it; the resampled batch members sit within sampling noise of
// ε = 1/2, vote with weight ≈ 0, and the batch decision is member 0's.
// The paper's boosting requirement ε_m < 1/2 holds for no member after
// the first, only its boundary.
func TestBatchRUS2AtC1IsDegenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("30 000 examples")
	}
	X, y := blobs(3000, 27000, 1, 11)
	Xt, _ := blobs(300, 2700, 1, 12)
	cfg := classifier.Config{Algorithm: classifier.RUS2, C: 1, Learner: classifier.LearnerNB, Features: 1, Seed: 5}

	// The exact chain: NB fitted to the RUS2 weights themselves.
	var np float64
	for _, p := range y {
		if p {
			np++
		}
	}
	N := float64(len(X))
	D := make([]float64, len(X))
	for i := range D {
		D[i] = 1 / N
	}
	wrong := make([]bool, len(X))
	for m := 0; m < 10; m++ {
		var dp float64
		for i := range D {
			if y[i] {
				dp += D[i]
			}
		}
		h, err := classifier.NewBaseLearner(classifier.LearnerNB, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range X {
			w := D[i] * np / dp
			if !y[i] {
				w = D[i] * cfg.C * np / (1 - dp)
			}
			if err := h.Learn(x, y[i], w); err != nil {
				t.Fatal(err)
			}
		}
		for i, x := range X {
			p, _ := h.Predict(x)
			wrong[i] = p != y[i]
		}
		eps := updateAdaBoost(D, wrong)
		t.Logf("exact member %d: ε = %.5f", m, eps)
		if m > 0 && (eps < 0.499 || eps > 0.501) {
			t.Errorf("exact member %d: ε = %.5f, want 1/2", m, eps)
		}
	}

	// The resampled batch model: members 1.. near ε = 1/2, member 0 decides.
	b := train(t, cfg, X, y)
	var rest float64
	for m := 1; m < len(b.alpha); m++ {
		if e := b.stats[m].eps; e < 0.46 || e > 0.54 {
			t.Errorf("batch member %d: ε = %.4f, want within sampling noise of 1/2", m, e)
		}
		rest += b.alpha[m]
	}
	if rest >= b.alpha[0] {
		t.Errorf("batch members 1.. vote %.3f, member 0 %.3f: want member 0 to decide", rest, b.alpha[0])
	}
	for _, x := range Xt {
		s, _ := b.Score(x)
		p, _ := b.members[0].Predict(x)
		if (s > 0.5) != p {
			t.Fatalf("batch decision at %v differs from member 0's", x)
		}
	}
}

// TestRUS3OperatingPointDependsOnSeed pins why RUS3's operating points at
// C = 1 and 3 are left out of TestOnlineBoostingConvergesToBatch: on these
// blobs the decision Score > 0.5 of online RUS3 at C = 1 and of batch
// RUS3 at C = 3 takes one of two values depending on the resampling seed
// alone, so a comparison of one seed on each side can fail by the gap
// between the two with no difference between the algorithms. The AUCs
// do not move with the seed.
func TestRUS3OperatingPointDependsOnSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("30 000 examples per model")
	}
	X, y := blobs(3000, 27000, 1, 11)
	Xt, yt := blobs(300, 2700, 1, 12)
	tpr := func(online bool, C float64, seed uint64) float64 {
		cfg := classifier.Config{Algorithm: classifier.RUS3, C: C, Learner: classifier.LearnerNB, Features: 1, Seed: seed}
		var s scorer = learnOnline(t, cfg, X, y)
		if !online {
			s = train(t, cfg, X, y)
		}
		return evaluate(t, scores(s, Xt), yt).TPR
	}
	for _, c := range []struct {
		online bool
		C      float64
	}{{true, 1}, {false, 3}} {
		a, b := tpr(c.online, c.C, 5), tpr(c.online, c.C, 6)
		t.Logf("online %v C = %g: TPR %.3f (seed 5), %.3f (seed 6)", c.online, c.C, a, b)
		if d := a - b; d > -0.05 && d < 0.05 {
			t.Errorf("online %v C = %g: TPR %.3f and %.3f with seeds 5 and 6, want two operating points", c.online, c.C, a, b)
		}
	}
}

// learnOnline returns an online model of cfg that learned X, y one
// example at a time, in a fixed random order.
func learnOnline(t *testing.T, cfg classifier.Config, X [][]float64, y []bool) classifier.Model {
	t.Helper()
	o, err := classifier.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, i := range rng.Perm(len(X)) {
		if err := o.Learn(X[i], y[i]); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// scorer is what online and batch models share for scoring.
type scorer interface {
	Score([]float64) (float64, error)
}

// scores returns s's score of every row of X.
func scores(s scorer, X [][]float64) []float64 {
	sc := make([]float64, len(X))
	for i, x := range X {
		sc[i], _ = s.Score(x)
	}
	return sc
}
