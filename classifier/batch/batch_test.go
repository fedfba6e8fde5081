package batch

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ictal/ictal/classifier"
)

// blobs returns np positives around (1, 1, ...) and nn negatives around 0,
// in d dimensions, shuffled.
func blobs(np, nn, d int, seed uint64) ([][]float64, []bool) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var X [][]float64
	var y []bool
	for i := 0; i < np+nn; i++ {
		pos := i < np
		x := make([]float64, d)
		for j := range x {
			x[j] = rng.NormFloat64()
			if pos {
				x[j] += 1.5
			}
		}
		X, y = append(X, x), append(y, pos)
	}
	rng.Shuffle(len(X), func(i, j int) { X[i], X[j] = X[j], X[i]; y[i], y[j] = y[j], y[i] })
	return X, y
}

func train(t *testing.T, cfg classifier.Config, X [][]float64, y []bool) *Model {
	t.Helper()
	m, err := Train(cfg, X, y)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestResampleSizesFollowThePaper checks each member's training multiset
// against the algorithm's box, with N⁺ = 20, N⁻ = 180 (ratio 9), M = 10.
func TestResampleSizesFollowThePaper(t *testing.T) {
	const np, nn, M = 20, 180, 10
	X, y := blobs(np, nn, 3, 7)
	round := func(v float64) int { return int(math.Round(v)) }
	for _, tc := range []struct {
		alg classifier.Algorithm
		C   float64
		// check is called for member m = 1..M with its stats.
		check func(t *testing.T, m int, s memberStats)
	}{
		{classifier.OzaBag, 0, func(t *testing.T, m int, s memberStats) {
			if s.pos+s.neg != np+nn || s.synthetic != 0 {
				t.Errorf("member %d: %d+%d drawn, %d synthetic; want N = %d, 0", m, s.pos, s.neg, s.synthetic, np+nn)
			}
		}},
		{classifier.UOB, 5, func(t *testing.T, m int, s memberStats) {
			a := float64(m) / M
			if s.neg != round(a*nn) || s.pos != round(5*a*np) {
				t.Errorf("member %d: %d negatives, %d positives; want N⁻·m/M = %d, C·N⁺·m/M = %d", m, s.neg, s.pos, round(a*nn), round(5*a*np))
			}
		}},
		{classifier.SB, 5, func(t *testing.T, m int, s memberStats) {
			a := float64(m) / M
			if s.neg != nn || s.pos != round(5*a*np) || s.synthetic != round(5*(1-a)*np) {
				t.Errorf("member %d: %d neg, %d pos, %d synthetic; want %d, %d, %d", m, s.neg, s.pos, s.synthetic, nn, round(5*a*np), round(5*(1-a)*np))
			}
		}},
		{classifier.RUS1, 3, func(t *testing.T, m int, s memberStats) {
			if s.pos+s.neg != np+3*np || s.synthetic != 0 {
				t.Errorf("member %d: %d drawn; want (C+1)N⁺ = %d", m, s.pos+s.neg, 4*np)
			}
		}},
		{classifier.RUS2, 3, func(t *testing.T, m int, s memberStats) {
			if s.neg != 3*np || s.pos != np {
				t.Errorf("member %d: %d negatives, %d positives; want exactly C·N⁺ = %d and N⁺ = %d", m, s.neg, s.pos, 3*np, np)
			}
		}},
		{classifier.RUS3, 3, func(t *testing.T, m int, s memberStats) {
			// N draws from D keep every drawn positive; the N − pos drawn
			// negatives are cut to 1/C of their number.
			if want := round(float64(np+nn-s.pos) / 3); s.neg != want || s.synthetic != 0 {
				t.Errorf("member %d: %d negatives of %d drawn; want round(k⁻/C) = %d", m, s.neg, np+nn-s.pos, want)
			}
		}},
		{classifier.SBO1, 3, func(t *testing.T, m int, s memberStats) {
			if s.pos+s.neg != np+nn || s.synthetic != nn/3-np {
				t.Errorf("member %d: %d drawn, %d synthetic; want N = %d, N⁻/C − N⁺ = %d", m, s.pos+s.neg, s.synthetic, np+nn, nn/3-np)
			}
		}},
		{classifier.SBO2, 3, func(t *testing.T, m int, s memberStats) {
			if s.neg != nn || s.pos != np || s.synthetic != nn/3-np {
				t.Errorf("member %d: %d neg, %d pos, %d synthetic; want %d, %d, %d", m, s.neg, s.pos, s.synthetic, nn, np, nn/3-np)
			}
		}},
		{classifier.SBO3, 3, func(t *testing.T, m int, s memberStats) {
			if s.pos+s.neg != np+nn || s.synthetic != round(2*float64(s.pos)) {
				t.Errorf("member %d: %d drawn, %d positives, %d synthetic; want N and (C−1)·N'⁺", m, s.pos+s.neg, s.pos, s.synthetic)
			}
		}},
		{classifier.AC2, 0, func(t *testing.T, m int, s memberStats) {
			if s.pos+s.neg != np+nn || s.synthetic != 0 {
				t.Errorf("member %d: %d drawn; want N", m, s.pos+s.neg)
			}
		}},
	} {
		t.Run(string(tc.alg), func(t *testing.T) {
			m := train(t, classifier.Config{Algorithm: tc.alg, C: tc.C, Members: M, Seed: 3}, X, y)
			for k, s := range m.stats {
				tc.check(t, k+1, s)
			}
		})
	}
}

// TestUOBClassProportionsGrowWithTheMember checks the expected balance of
// UOB: positives/negatives = C·N⁺/N⁻ for every member, whatever a.
func TestUOBClassProportionsGrowWithTheMember(t *testing.T) {
	X, y := blobs(30, 120, 2, 1)
	m := train(t, classifier.Config{Algorithm: classifier.UOB, C: 4, Members: 10}, X, y)
	for k, s := range m.stats {
		if got := float64(s.pos) / float64(s.neg); math.Abs(got-1) > 0.1 {
			t.Errorf("member %d: positives/negatives %.3f, want C·N⁺/N⁻ = 1", k+1, got)
		}
		if k > 0 && s.neg <= m.stats[k-1].neg {
			t.Errorf("member %d: %d negatives, not more than member %d's %d", k+1, s.neg, k, m.stats[k-1].neg)
		}
	}
}

func TestUpdateAdaBoostByHand(t *testing.T) {
	D := []float64{0.25, 0.25, 0.25, 0.25}
	wrong := []bool{true, false, false, false}
	eps := updateAdaBoost(D, wrong)
	// ε = 1/4: wrong 0.25/(2·0.25) = 0.5; correct 0.25/(2·0.75) = 1/6.
	want := []float64{0.5, 1.0 / 6, 1.0 / 6, 1.0 / 6}
	if eps != 0.25 || !close(D, want) {
		t.Errorf("ε %g D %v; want 0.25 %v", eps, D, want)
	}
	D = []float64{0.5, 0.5}
	if eps := updateAdaBoost(D, []bool{false, false}); eps != 0 || !close(D, []float64{0.5, 0.5}) {
		t.Errorf("ε = 0: ε %g D %v; want the shape kept", eps, D)
	}
}

func TestUpdateAC2ByHand(t *testing.T) {
	// Rows: positive wrong, positive right, negative wrong, negative right.
	D := []float64{0.25, 0.25, 0.25, 0.25}
	wrong := []bool{true, false, true, false}
	cost := []float64{1, 1, 0.2, 0.2}
	eps := updateAC2(D, wrong, cost)
	// wacc = werr = 0.25 + 0.05 = 0.3. Wrong: C_n·D/(2·0.3); correct: C_n·D/(2·0.3).
	want := []float64{0.25 / 0.6, 0.25 / 0.6, 0.05 / 0.6, 0.05 / 0.6}
	if eps != 0.5 || !close(D, want) {
		t.Errorf("ε %g D %v; want 0.5 %v", eps, D, want)
	}
	// Equals the printed AdaC2: C_n·D·exp(∓α)/Z with α = ½log(wacc/werr).
	D = []float64{0.1, 0.2, 0.3, 0.4}
	wrong = []bool{true, false, false, true}
	cost = []float64{1, 0.5, 1, 0.5}
	wacc, werr := 0.5*0.2+1*0.3, 1*0.1+0.5*0.4
	alpha := 0.5 * math.Log(wacc/werr)
	printed := []float64{1 * 0.1 * math.Exp(alpha), 0.5 * 0.2 * math.Exp(-alpha), 1 * 0.3 * math.Exp(-alpha), 0.5 * 0.4 * math.Exp(alpha)}
	normaliseCopy(printed)
	eps = updateAC2(D, wrong, cost)
	if math.Abs(eps-werr/(wacc+werr)) > 1e-15 || !close(D, printed) {
		t.Errorf("ε %g D %v; want %g %v", eps, D, werr/(wacc+werr), printed)
	}
}

func TestUpdateCSB2ByHand(t *testing.T) {
	D := []float64{0.1, 0.2, 0.3, 0.4}
	wrong := []bool{true, false, false, true}
	cost := []float64{1, 0.5, 1, 0.5}
	eps, werr := 0.1+0.4, 1*0.1+0.5*0.4
	eps2 := updateCSB2(D, wrong, cost)
	// correct: D·ε/((1−ε)(ε+werr)); wrong: C_n·D/(ε+werr); both sum to 1.
	want := []float64{1 * 0.1 / (eps + werr), 0.2 * eps / ((1 - eps) * (eps + werr)), 0.3 * eps / ((1 - eps) * (eps + werr)), 0.5 * 0.4 / (eps + werr)}
	if eps2 != eps || !close(D, want) {
		t.Errorf("ε %g D %v; want %g %v", eps2, D, eps, want)
	}
	// Equals the printed CSB2, C_δ·D·exp(∓α)/Z (C_δ = 1 when correct, C_n
	// when wrong), with AdaBoost's α = ½log((1−ε)/ε): the printed
	// α = ½log(ε/(1−ε)) is upside down. With it a member better than
	// chance would gain weight on the examples it got right (and vote
	// against its own predictions).
	for _, wrong := range [][]bool{{true, false, false, true}, {true, false, false, false}, {false, true, true, false}} {
		D0 := []float64{0.1, 0.2, 0.3, 0.4}
		D := append([]float64(nil), D0...)
		printed := func(alpha float64) []float64 {
			p := make([]float64, len(D0))
			for i, w := range wrong {
				if w {
					p[i] = cost[i] * D0[i] * math.Exp(alpha)
				} else {
					p[i] = D0[i] * math.Exp(-alpha)
				}
			}
			normaliseCopy(p)
			return p
		}
		eps := updateCSB2(D, wrong, cost)
		if p := printed(0.5 * math.Log((1-eps)/eps)); !close(D, p) {
			t.Errorf("wrong %v: D %v; the printed update with α = ½log((1−ε)/ε) gives %v", wrong, D, p)
		}
		if p := printed(0.5 * math.Log(eps/(1-eps))); eps != 0.5 && close(D, p) {
			t.Errorf("wrong %v: D %v equals the printed update with α as printed, ½log(ε/(1−ε))", wrong, D)
		}
	}
	// With ε = 0 the correct-case factor is AdaBoost's 1/2: the shape is kept.
	D = []float64{0.25, 0.75}
	if e := updateCSB2(D, []bool{false, false}, []float64{1, 1}); e != 0 || !close(D, []float64{0.25, 0.75}) {
		t.Errorf("ε = 0: %g %v", e, D)
	}
}

func close(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return len(a) == len(b)
}

func normaliseCopy(x []float64) {
	var s float64
	for _, v := range x {
		s += v
	}
	for i := range x {
		x[i] /= s
	}
}

func TestVoteWeightMirrorsTheOnlineRule(t *testing.T) {
	for _, c := range []struct {
		eps     float64
		literal bool
		want    float64
	}{
		{0.5, false, 0}, {0.7, false, 0}, {1, false, 0}, {math.NaN(), false, 0},
		{0.25, false, math.Log(3)},
		{0, false, math.Log((1 - 1e-6) / 1e-6)},
		// Config.LiteralVote: the paper's log((1−ε)/ε), negative above 1/2.
		{0.5, true, 0}, {0.75, true, -math.Log(3)}, {0.25, true, math.Log(3)},
		{1, true, -math.Log((1 - 1e-6) / 1e-6)},
	} {
		if got := voteWeight(c.eps, c.literal); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("voteWeight(%g, literal %v) = %g, want %g", c.eps, c.literal, got, c.want)
		}
	}
}

// TestLiteralVoteScore checks that a batch member with a negative weight
// (Config.LiteralVote) votes |α| for the class it does not predict: an
// ensemble whose members all have ε > 1/2 scores 1 − the default score.
func TestLiteralVoteScore(t *testing.T) {
	X, y := blobs(30, 90, 3, 5)
	m := train(t, classifier.Config{Algorithm: classifier.OzaBoost, Learner: "nb", Members: 4, Seed: 2, LiteralVote: true}, X, y)
	want := make([]float64, len(X))
	for i, x := range X {
		s, _ := m.Score(x)
		want[i] = 1 - s
	}
	for k := range m.alpha {
		if !(m.alpha[k] > 0) {
			t.Fatalf("member %d: α = %g, want a member better than chance", k, m.alpha[k])
		}
		m.alpha[k] = -m.alpha[k] // as if ε were 1 − ε
	}
	for i, x := range X {
		if got, _ := m.Score(x); math.Abs(got-want[i]) > 1e-12 {
			t.Fatalf("x %d: every α negated: Score %v, want 1 − %v", i, got, 1-want[i])
		}
	}
}

func TestTrainIsDeterministicAndSeeded(t *testing.T) {
	X, y := blobs(25, 100, 4, 2)
	for _, alg := range classifier.Algorithms {
		t.Run(string(alg), func(t *testing.T) {
			a := train(t, classifier.Config{Algorithm: alg, Learner: "qda", Seed: 9}, X, y)
			b := train(t, classifier.Config{Algorithm: alg, Learner: "qda", Seed: 9}, X, y)
			c := train(t, classifier.Config{Algorithm: alg, Learner: "qda", Seed: 10}, X, y)
			differ := false
			for _, x := range X {
				sa, _ := a.Score(x)
				sb, _ := b.Score(x)
				sc, _ := c.Score(x)
				if sa != sb {
					t.Fatalf("same seed, scores %v and %v", sa, sb)
				}
				differ = differ || sa != sc
			}
			if !differ {
				t.Error("seeds 9 and 10 gave identical scores on every row")
			}
		})
	}
}

func TestScoreInUnitIntervalAndSeparates(t *testing.T) {
	X, y := blobs(40, 160, 3, 4)
	for _, alg := range classifier.Algorithms {
		for _, l := range classifier.Learners {
			m := train(t, classifier.Config{Algorithm: alg, Learner: l, Seed: 1}, X, y)
			var pos, neg, np, nn float64
			for i, x := range X {
				s, err := m.Score(x)
				if err != nil || !(s >= 0 && s <= 1) {
					t.Fatalf("%s %s: Score %v, %v", alg, l, s, err)
				}
				if y[i] {
					pos, np = pos+s, np+1
				} else {
					neg, nn = neg+s, nn+1
				}
			}
			if pos/np <= neg/nn {
				t.Errorf("%s %s: mean score of positives %.3f not above negatives' %.3f", alg, l, pos/np, neg/nn)
			}
		}
	}
}

func TestTrainRejectsBadInput(t *testing.T) {
	X, y := blobs(5, 5, 2, 1)
	nan := [][]float64{{0, 1}, {math.NaN(), 1}}
	cases := []struct {
		name string
		cfg  classifier.Config
		X    [][]float64
		y    []bool
		want error
	}{
		{"empty", classifier.Config{Algorithm: "UOB"}, nil, nil, ErrData},
		{"lengths differ", classifier.Config{Algorithm: "UOB"}, X, y[:3], ErrData},
		{"ragged", classifier.Config{Algorithm: "UOB"}, [][]float64{{1, 2}, {1}}, []bool{true, false}, ErrData},
		{"NaN", classifier.Config{Algorithm: "AC2"}, nan, []bool{true, false}, ErrData},
		{"infinite", classifier.Config{Algorithm: "AC2"}, [][]float64{{0, 1}, {1, math.Inf(-1)}}, []bool{true, false}, ErrData},
		{"one class", classifier.Config{Algorithm: "RUS1"}, X, make([]bool, len(X)), ErrOneClass},
		{"ns variant", classifier.Config{Algorithm: "nsAC2"}, X, y, ErrUnsupported},
		{"forgetting", classifier.Config{Algorithm: "AC2", Beta: 0.9}, X, y, ErrUnsupported},
		{"wrong width", classifier.Config{Algorithm: "AC2", Features: 3}, X, y, ErrData},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Train(c.cfg, c.X, c.y); !errors.Is(err, c.want) {
				t.Errorf("got %v, want %v", err, c.want)
			}
		})
	}
	if _, err := Train(classifier.Config{Algorithm: "Nope"}, X, y); err == nil {
		t.Error("unknown algorithm accepted")
	}
	m := train(t, classifier.Config{Algorithm: "UOB"}, X, y)
	if _, err := m.Score([]float64{1}); !errors.Is(err, classifier.ErrInput) {
		t.Errorf("Score of a short vector: %v", err)
	}
	if _, err := m.Score([]float64{1, math.NaN()}); !errors.Is(err, classifier.ErrInput) {
		t.Errorf("Score of NaN: %v", err)
	}
}

func TestSMOTENeighboursAreDistinctFromThePoint(t *testing.T) {
	X := [][]float64{{0, 0}, {0, 0}, {1, 0}, {0, 2}, {5, 5}}
	s := newSMOTE(X, []int{0, 1, 2, 3}, 2)
	for i, nb := range s.nbr {
		for _, j := range nb {
			if X[j][0] == X[s.pos[i]][0] && X[j][1] == X[s.pos[i]][1] {
				t.Errorf("positive %d has a copy of itself (%d) as neighbour", s.pos[i], j)
			}
		}
	}
	if got := s.nbr[0]; len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("neighbours of row 0: %v, want [2 3]", got)
	}
	lone := newSMOTE([][]float64{{1, 1}, {1, 1}}, []int{0, 1}, 5)
	if lone.synthesize(memberRand(1, 0), 0, make([]float64, 2)) {
		t.Error("synthesized from a positive with only copies of itself")
	}
	dst := make([]float64, 2)
	if !s.synthesize(memberRand(1, 0), 0, dst) || dst[0] < 0 || dst[0] > 1 || dst[1] < 0 || dst[1] > 2 || (dst[0] > 0 && dst[1] > 0) {
		t.Errorf("synthetic %v not on a segment from (0,0) to a neighbour", dst)
	}
}

func TestScoreAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops scratch on purpose; the count is checked without -race")
	}
	X, y := blobs(20, 80, 8, 3)
	for _, alg := range []classifier.Algorithm{classifier.UOB, classifier.AC2} {
		m := train(t, classifier.Config{Algorithm: alg, Learner: "lda"}, X, y)
		if a := testing.AllocsPerRun(100, func() { m.Score(X[0]) }); a != 0 {
			t.Errorf("%s Score: %g allocations", alg, a)
		}
	}
}
