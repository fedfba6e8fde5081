package classifier

// Independent checks that the ensembles follow Wang & Pineau's equations
// (shared/seed, Sections 3, 4 and 8). Every ensemble here is built on a
// scripted stub learner whose answers the test controls, so each member's
// running sums, the λ that reaches it and its Poisson means are
// deterministic, and they are compared with a re-computation written
// straight from the paper's pseudo-code (paperModel below), which calls
// none of the package's update code. Points on which public ports of these
// algorithms go wrong each get a test that fails on the ported behaviour;
// the comment on each names the port.

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
)

// ---------------------------------------------------------------------------
// The scripted stub learner.

// stubCall is one recorded learn(x, positive, w) call.
type stubCall struct {
	x        []float64 // copy of x at the time of the call
	ptr      *float64  // &x[0] as passed: tells the example itself from the synthetic buffer
	positive bool
	w        float64
}

// scriptLearner answers predict from a script indexed by x[0] (the example
// id) and records every learn call. Ids outside the script predict
// negative.
type scriptLearner struct {
	answers []bool
	calls   []stubCall
}

func (s *scriptLearner) learn(x []float64, positive bool, w float64) {
	s.calls = append(s.calls, stubCall{x: append([]float64(nil), x...), ptr: &x[0], positive: positive, w: w})
}

func (s *scriptLearner) predict(x []float64) bool {
	id := int(x[0])
	if float64(id) != x[0] || id < 0 || id >= len(s.answers) {
		return false
	}
	return s.answers[id]
}

func (s *scriptLearner) logOdds(x []float64) float64 {
	if s.predict(x) {
		return 1
	}
	return -1
}

func (s *scriptLearner) prepare()                             {}
func (s *scriptLearner) logOddsShared(x, _ []float64) float64 { return s.logOdds(x) }

func (s *scriptLearner) encodedLen() int              { return 0 }
func (s *scriptLearner) appendBinary(b []byte) []byte { return b }
func (s *scriptLearner) decode(*decoder) error        { return nil }

// parseSigns parses a script of labels or predictions: '+' positive, '-' negative.
func parseSigns(s string) []bool {
	b := make([]bool, len(s))
	for i, c := range s {
		switch c {
		case '+':
			b[i] = true
		case '-':
		default:
			panic("parseSigns: bad script " + s)
		}
	}
	return b
}

// stubScript is a stream of labels with every member's prediction for every
// example, as strings of '+' and '-'.
type stubScript struct {
	name   string
	labels string
	preds  []string // one per member
}

// Two streams of M = 3 members. In each, member 1 is wrong more than half
// the time, and members make both kinds of error (FP and FN).
var (
	// streamA starts with a positive; n⁻ > n⁺ later, so SBO1/SBO2 make
	// synthetic examples.
	streamA = stubScript{
		name:   "A",
		labels: "+---+--+",
		preds: []string{
			"+-----++", // wrong at 4 (FN) and 6 (FP)
			"-+-+-++-", // wrong 7 of 8 times
			"++--+---", // wrong at 1 (FP) and 7 (FN)
		},
	}
	// streamB starts with a negative.
	streamB = stubScript{
		name:   "B",
		labels: "-+--+-",
		preds: []string{
			"---++-", // wrong at 1 (FN) and 3 (FP)
			"+++--+", // wrong 4 of 6 times
			"-+--++", // wrong at 5 (FP)
		},
	}
)

// scriptedX returns the feature vector of example n: x[0] = n is the id the
// stub keys its answers on; x[1] spreads the positives apart for SMOTE.
func scriptedX(n int) []float64 { return []float64{float64(n), float64((n * 7) % 5)} }

// newScripted builds the ensemble of cfg over stub learners running sc.
func newScripted(t *testing.T, cfg Config, sc stubScript) (*ensemble, []*scriptLearner) {
	t.Helper()
	c, a, ns, err := cfg.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.preds) != c.Members {
		t.Fatalf("script %s has %d members, config %d", sc.name, len(sc.preds), c.Members)
	}
	stubs := make([]*scriptLearner, c.Members)
	e := newEnsemble(c, a, ns, func(m int) learner {
		stubs[m] = &scriptLearner{answers: parseSigns(sc.preds[m])}
		return stubs[m]
	})
	return e, stubs
}

// ---------------------------------------------------------------------------
// The paper, re-computed.

// refSums are the running sums of one member in the paper's notation.
type refSums struct {
	sc, sw         float64 // λ^SC, λ^SW
	tp, tn, fp, fn float64 // λ^TP, λ^TN, λ^FP, λ^FN
	sum            float64 // λ^SUM
	pos, neg       float64 // λ^POS, λ^NEG
}

// refRow is what one member saw for one example.
type refRow struct {
	lambda    float64 // boosting λ that reached the member (0 for bagging)
	rate      float64 // Poisson mean of its training draw: λ, λ^RUS, λ' or the bagging rate
	smoteRate float64 // Poisson mean of its synthetic draw, λ^SMOTE
	s         refSums // sums after the member's update
}

// paperModel follows the pseudo-code of the paper line by line. The only
// rules not printed in the paper are the ones the package documents for
// cases the paper leaves undefined: RUS1/RUS2/SBO2 use λ until both classes
// have been seen; a negative λ^SMOTE means no synthetic example; CSB2's 0/0
// correct-case factor while λ^SW = 0 is 1/2; SB's negative rate is 1 (the
// printed algorithm uses an undefined λ there; batch SMOTEBagging resamples
// N⁻ negatives at 100 %).
type paperModel struct {
	alg        Algorithm // base algorithm name
	ns         bool
	beta       float64
	c, cp, cn  float64
	s          []refSums
	nPos, nNeg float64
}

func newPaperModel(c Config) *paperModel {
	base, ns := c.Algorithm, false
	if len(base) > 2 && base[:2] == "ns" {
		base, ns = base[2:], true
	}
	return &paperModel{alg: base, ns: ns, beta: c.Beta, c: c.C, cp: c.CP, cn: c.CN, s: make([]refSums, c.Members)}
}

// learn applies one example with the members' predictions h_m(x_n).
func (p *paperModel) learn(positive bool, pred []bool) []refRow {
	if p.ns {
		p.nPos *= p.beta
		p.nNeg *= p.beta
	}
	// n⁺/n⁻ count the example once (the paper's line sits inside the
	// member loop, but n⁺ is the number of positive examples N⁺ of the
	// batch algorithm, not N⁺·M).
	if positive {
		p.nPos++
	} else {
		p.nNeg++
	}
	M := float64(len(p.s))
	rows := make([]refRow, len(p.s))
	switch p.alg {
	case OzaBag: // Alg. onlinebagging: k ~ Poisson(1)
		for m := range rows {
			rows[m].rate = 1
		}
		return rows
	case UOB: // Alg. onlineunderoverbagging: a = m/M, λ = aC or a
		for m := range rows {
			a := float64(m+1) / M
			if positive {
				rows[m].rate = a * p.c
			} else {
				rows[m].rate = a
			}
		}
		return rows
	case SB: // Alg. onlinesmotebagging: λ = aC, λ_SMOTE = (1−a)C
		for m := range rows {
			a := float64(m+1) / M
			if positive {
				rows[m].rate, rows[m].smoteRate = a*p.c, (1-a)*p.c
			} else {
				rows[m].rate = 1
			}
		}
		return rows
	}
	lambda := 1.0 // "Set λ = 1"
	for m := range p.s {
		s := &p.s[m]
		if p.ns { // Section 8: λ^X ← βλ^X + ...
			s.sc *= p.beta
			s.sw *= p.beta
			s.tp *= p.beta
			s.tn *= p.beta
			s.fp *= p.beta
			s.fn *= p.beta
			s.sum *= p.beta
			s.pos *= p.beta
			s.neg *= p.beta
		}
		row := refRow{lambda: lambda, rate: lambda}
		correct := pred[m] == positive
		switch p.alg {
		case OzaBoost:
			lambda = paperAdaBoost(s, lambda, correct)
		case AC2:
			lambda = p.adaC2(s, lambda, positive, pred[m])
		case CSB2:
			lambda = p.csb2(s, lambda, positive, pred[m])
		default: // RUS1–3, SBO1–3
			if positive {
				s.pos += lambda
			} else {
				s.neg += lambda
			}
			row.rate, row.smoteRate = p.resample(s, lambda, positive)
			lambda = paperAdaBoost(s, lambda, correct)
		}
		row.s = *s
		rows[m] = row
	}
	return rows
}

// paperAdaBoost is the update of Alg. onlineadaboost (also onlineRUS and
// onlineSMOTE):
//
//	h_m(x_n) = y_n: λ^SC ← λ^SC + λ, ε ← λ^SW/(λ^SC+λ^SW), λ ← λ/(2(1−ε))
//	otherwise:      λ^SW ← λ^SW + λ, ε ← λ^SW/(λ^SC+λ^SW), λ ← λ/(2ε)
func paperAdaBoost(s *refSums, lambda float64, correct bool) float64 {
	if correct {
		s.sc = s.sc + lambda
		eps := s.sw / (s.sc + s.sw)
		return lambda / (2 * (1 - eps))
	}
	s.sw = s.sw + lambda
	eps := s.sw / (s.sc + s.sw)
	return lambda / (2 * eps)
}

// adaC2 is Alg. onlineAdaC2, one branch per line of the pseudo-code.
func (p *paperModel) adaC2(s *refSums, lambda float64, y, h bool) float64 {
	s.sum = s.sum + lambda
	switch {
	case h && y: // TP
		s.tp = s.tp + p.cp*lambda
		wacc := (s.tp + s.tn) / s.sum
		return p.cp * lambda / (2 * wacc)
	case !h && !y: // TN
		s.tn = s.tn + p.cn*lambda
		wacc := (s.tp + s.tn) / s.sum
		return p.cn * lambda / (2 * wacc)
	case !h && y: // FN
		s.fn = s.fn + p.cp*lambda
		werr := (s.fp + s.fn) / s.sum
		return p.cp * lambda / (2 * werr)
	default: // FP
		s.fp = s.fp + p.cn*lambda
		werr := (s.fp + s.fn) / s.sum
		return p.cn * lambda / (2 * werr)
	}
}

// csb2 is Alg. onlineCSB2 as the update it is derived from prescribes:
//
//	correct: λ ← λ·ε/((1−ε)(ε+werr))   (printed without the factor λ)
//	FN:      λ^FN += C_P·λ, λ^SW += λ, λ ← C_P·λ/(ε+werr)
//	FP:      λ^FP += C_N·λ, λ^SW += λ, λ ← C_N·λ/(ε+werr)   (printed with C_P in λ^FP)
//
// with ε = λ^SW/λ^SUM and werr = (λ^FP+λ^FN)/λ^SUM.
func (p *paperModel) csb2(s *refSums, lambda float64, y, h bool) float64 {
	s.sum = s.sum + lambda
	if h == y {
		if s.sw == 0 {
			return lambda / 2 // 0/0: the unit-cost limit 1/(2(1−ε)) at ε = 0
		}
		eps := s.sw / s.sum
		werr := (s.fp + s.fn) / s.sum
		return lambda * eps / ((1 - eps) * (eps + werr))
	}
	cost := p.cn
	if y {
		cost = p.cp
		s.fn = s.fn + p.cp*lambda
	} else {
		s.fp = s.fp + p.cn*lambda
	}
	s.sw = s.sw + lambda
	eps := s.sw / s.sum
	werr := (s.fp + s.fn) / s.sum
	return cost * lambda / (eps + werr)
}

// resample returns (λ^RUS or λ', λ^SMOTE) of Alg. onlineRUS steps 21–23 and
// Alg. onlineSMOTE steps 26–31, written as printed.
func (p *paperModel) resample(s *refSums, lambda float64, y bool) (rate, smote float64) {
	np, nn, P, N, C := p.nPos, p.nNeg, s.pos, s.neg, p.c
	both := np > 0 && nn > 0
	switch p.alg {
	case RUS1:
		// Clamped at C·n⁺ ≥ n⁻ as batch RUS1 is (see learnRUS).
		if !both || C*np >= nn {
			return lambda, 0
		}
		if y {
			return lambda * ((P + N) / (P + N*(C*np/nn))) * ((C + 1) * np / (np + nn)), 0
		}
		return lambda * ((P + N) / (N + P*(nn/(C*np)))) * ((C + 1) * np / (np + nn)), 0
	case RUS2:
		if !both {
			return lambda, 0
		}
		if y {
			return lambda * (np / (np + nn)) / (P / (P + N)), 0
		}
		return lambda * (C * np / (np + nn)) / (N / (P + N)), 0
	case RUS3:
		if y {
			return lambda, 0
		}
		return lambda / C, 0
	case SBO1:
		if y {
			return lambda, math.Max(0, nn/(C*np)-1)
		}
		return lambda, 0
	case SBO2:
		rate = lambda
		if both {
			if y {
				rate = lambda * (np / (np + nn)) / (P / (P + N))
			} else {
				rate = lambda * (nn / (np + nn)) / (N / (P + N))
			}
		}
		if y {
			return rate, math.Max(0, rate*(nn/(C*np)-1))
		}
		return rate, 0
	case SBO3:
		if y {
			return lambda, (C - 1) * lambda
		}
		return lambda, 0
	}
	panic("resample: " + p.alg)
}

// paperScore is the normalised output H of the paper: the unweighted vote
// for bagging; for boosting Σ α_m h_m(x) / Σ α_m with α_m = log((1−ε_m)/ε_m)
// (log(wacc_m/werr_m) for AC2), where a member with ε ≥ 0.5 or no estimate
// abstains (α = 0), ε is clamped to [10⁻⁶, 1−10⁻⁶] (the package's
// documented floor), and a vote with no positive weight falls back to the
// unweighted one.
func paperScore(alg Algorithm, sums []refSums, h []bool) float64 {
	var plain float64
	for _, p := range h {
		if p {
			plain++
		}
	}
	plain /= float64(len(h))
	if alg == OzaBag || alg == UOB || alg == SB {
		return plain
	}
	var num, den float64
	for m, s := range sums {
		var wrong, total float64
		switch alg {
		case AC2:
			// log(wacc/werr) = log((1−ε)/ε) with ε = werr/(wacc+werr).
			wrong, total = s.fp+s.fn, s.tp+s.tn+s.fp+s.fn
		case CSB2:
			wrong, total = s.sw, s.sum
		default:
			wrong, total = s.sw, s.sc+s.sw
		}
		if total == 0 {
			continue
		}
		eps := wrong / total
		if eps >= 0.5 {
			continue
		}
		eps = math.Max(eps, 1e-6)
		a := math.Log((1 - eps) / eps)
		den += a
		if h[m] {
			num += a
		}
	}
	if den == 0 {
		return plain
	}
	return num / den
}

// ---------------------------------------------------------------------------
// Comparing the package with the paper.

// paperClose reports got == want to a relative 1e-12 (exact when both are 0).
func paperClose(got, want float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= 1e-12*math.Max(math.Abs(got), math.Abs(want))
}

// handEqual compares a value with a hand-computed one: exactly when the
// hand value is a short binary fraction (v·2²⁰ is an integer: 1/2 and 3/8
// are, 1/20 is not), else to a relative 1e-12.
func handEqual(got, want float64) bool {
	if s := want * (1 << 20); s == math.Trunc(s) && math.Abs(s) < 1<<52 {
		return got == want
	}
	return paperClose(got, want)
}

// diffMember lists the fields of mb that differ from the paper's row.
func diffMember(mb *member, want refRow) []string {
	var bad []string
	check := func(name string, got, w float64) {
		if !paperClose(got, w) {
			bad = append(bad, fmt.Sprintf("%s = %.17g, paper %.17g", name, got, w))
		}
	}
	check("λ", mb.lambda, want.lambda)
	check("rate", mb.rate, want.rate)
	check("λ^SMOTE", mb.smoteRate, want.smoteRate)
	check("λ^SC", mb.sc, want.s.sc)
	check("λ^SW", mb.sw, want.s.sw)
	check("λ^TP", mb.tp, want.s.tp)
	check("λ^TN", mb.tn, want.s.tn)
	check("λ^FP", mb.fp, want.s.fp)
	check("λ^FN", mb.fn, want.s.fn)
	check("λ^SUM", mb.sum, want.s.sum)
	check("λ^POS", mb.pos, want.s.pos)
	check("λ^NEG", mb.neg, want.s.neg)
	return bad
}

// positivesMemory is the test's own copy of the SMOTE positive memory X⁺.
type positivesMemory struct {
	capacity int
	xs       [][]float64 // oldest first, at most capacity
}

func (pm *positivesMemory) add(x []float64) {
	pm.xs = append(pm.xs, append([]float64(nil), x...))
	if len(pm.xs) > pm.capacity {
		pm.xs = pm.xs[1:]
	}
}

func sqDist(a, b []float64) float64 {
	var d float64
	for i := range a {
		t := a[i] - b[i]
		d += t * t
	}
	return d
}

// nearest returns the latest positive and, by brute-force sort, the k
// nearest stored positives distinct from it (copies at distance 0 are no
// neighbours), nearest first, with their squared distances.
func (pm *positivesMemory) nearest(k int) (x []float64, nbrs [][]float64, d2 []float64) {
	x = pm.xs[len(pm.xs)-1]
	type cand struct {
		y  []float64
		d2 float64
	}
	var cs []cand
	for _, y := range pm.xs[:len(pm.xs)-1] {
		if d := sqDist(x, y); d > 0 {
			cs = append(cs, cand{y, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d2 < cs[j].d2 })
	if len(cs) > k {
		cs = cs[:k]
	}
	for _, c := range cs {
		nbrs = append(nbrs, c.y)
		d2 = append(d2, c.d2)
	}
	return x, nbrs, d2
}

// onSMOTESegment reports whether s = x + γ(y − x) for some γ in [0, 1) and the
// given neighbour y, to rounding, and returns γ.
func onSMOTESegment(s, x, y []float64) (float64, bool) {
	var num, den float64
	for i := range x {
		num += (s[i] - x[i]) * (y[i] - x[i])
		den += (y[i] - x[i]) * (y[i] - x[i])
	}
	g := num / den
	if !(g >= 0 && g < 1) {
		return g, false
	}
	for i := range x {
		if math.Abs(x[i]+g*(y[i]-x[i])-s[i]) > 1e-12*(1+math.Abs(s[i])) {
			return g, false
		}
	}
	return g, true
}

// synthNeighbour returns the index in nbrs of the neighbour whose segment
// from x holds s, or -1.
func synthNeighbour(s, x []float64, nbrs [][]float64) int {
	for j, y := range nbrs {
		if _, ok := onSMOTESegment(s, x, y); ok {
			return j
		}
	}
	return -1
}

// splitCalls separates the calls made with the example's own vector from
// the synthetic ones.
func splitCalls(calls []stubCall, x []float64) (real, synth []stubCall) {
	for _, c := range calls {
		if c.ptr == &x[0] {
			real = append(real, c)
		} else {
			synth = append(synth, c)
		}
	}
	return real, synth
}

// runTrace feeds sc to the ensemble of cfg and, after every example,
// compares every member's trace, n⁺/n⁻, the SMOTE memory count, the learn
// calls and the Score of every scripted example with the paper. The draws
// are checked against an oracle copy of each member's random stream
// (member m uses stream m+1 of the seed, as documented by newEnsemble)
// drawing Poisson(paper's rate); the synthetic examples against a
// brute-force nearest-neighbour search.
//
// hook, if not nil, is called after every example with the ensemble, a copy
// of its members from before the example, and the members drawn k = 0
// times for it.
func runTrace(t *testing.T, cfg Config, sc stubScript, hook func(n int, e *ensemble, prev []member, zeros []int)) {
	t.Helper()
	e, stubs := newScripted(t, cfg, sc)
	c := e.cfg
	ref := newPaperModel(c)
	M := c.Members
	oracle := make([]stream, M)
	for m := range oracle {
		oracle[m] = newStream(c.Seed, uint64(m)+1)
	}
	labels := parseSigns(sc.labels)
	preds := make([][]bool, M)
	for m := range preds {
		preds[m] = parseSigns(sc.preds[m])
	}
	pm := &positivesMemory{capacity: c.Memory}
	var positives int
	for n, y := range labels {
		x := scriptedX(n)
		before := make([]int, M)
		for m := range stubs {
			before[m] = len(stubs[m].calls)
		}
		prev := append([]member(nil), e.members...)
		var zeros []int
		h := make([]bool, M)
		for m := range h {
			h[m] = preds[m][n]
		}
		if y {
			positives++
			if e.mem != nil {
				pm.add(x)
			}
		}
		if err := e.Learn(x, y); err != nil {
			t.Fatalf("example %d: %v", n, err)
		}
		rows := ref.learn(y, h)

		for m := range e.members {
			mb := &e.members[m]
			if bad := diffMember(mb, rows[m]); len(bad) > 0 {
				t.Errorf("%s example %d (%s) member %d: %v", c.Algorithm, n, sc.labels[n:n+1], m, bad)
			}
			// Draws: the example itself k ~ Poisson(rate) times as one call
			// of weight k, then k' ~ Poisson(λ^SMOTE) synthetic positives.
			k := oracle[m].poisson(rows[m].rate)
			real, synth := splitCalls(stubs[m].calls[before[m]:], x)
			switch {
			case k == 0 && len(real) != 0:
				t.Errorf("example %d member %d: drawn 0 times but trained %d times", n, m, len(real))
			case k > 0 && (len(real) != 1 || real[0].w != float64(k) || real[0].positive != y):
				t.Errorf("example %d member %d: want one learn call of weight %d, label %v; got %+v", n, m, k, y, real)
			}
			if len(real) == 0 { // the stub saw no training call: k = 0
				zeros = append(zeros, m)
			}
			wantSynth := 0
			if rows[m].smoteRate > 0 {
				ks := oracle[m].poisson(rows[m].smoteRate)
				xl, nbrs, _ := pm.nearest(c.Neighbors)
				if len(nbrs) > 0 {
					wantSynth = ks
					for i := 0; i < ks; i++ { // keep the oracle in step: neighbour choice, γ
						oracle[m].intn(len(nbrs))
						oracle[m].float64()
					}
				}
				for _, s := range synth {
					if !s.positive || s.w != 1 {
						t.Errorf("example %d member %d: synthetic call %+v, want a positive of weight 1", n, m, s)
					}
					if synthNeighbour(s.x, xl, nbrs) < 0 {
						t.Errorf("example %d member %d: synthetic %v is on no segment from %v to its %d nearest distinct positives", n, m, s.x, xl, c.Neighbors)
					}
				}
			}
			if len(synth) != wantSynth {
				t.Errorf("example %d member %d: %d synthetic examples, want %d (λ^SMOTE %g)", n, m, len(synth), wantSynth, rows[m].smoteRate)
			}
		}
		if e.nPos != ref.nPos || e.nNeg != ref.nNeg {
			if !paperClose(e.nPos, ref.nPos) || !paperClose(e.nNeg, ref.nNeg) {
				t.Errorf("example %d: n⁺, n⁻ = %g, %g; want %g, %g", n, e.nPos, e.nNeg, ref.nPos, ref.nNeg)
			}
		}
		if e.mem != nil && e.mem.n != positives {
			t.Errorf("example %d: SMOTE memory holds %d positives, want %d", n, e.mem.n, positives)
		}
		if hook != nil {
			hook(n, e, prev, zeros)
		}
		// Score of every scripted example under the current sums.
		sums := make([]refSums, M)
		for m := range sums {
			sums[m] = ref.s[m]
		}
		for probe := range labels {
			hp := make([]bool, M)
			for m := range hp {
				hp[m] = preds[m][probe]
			}
			got, err := e.Score([]float64{float64(probe), 0})
			if err != nil {
				t.Fatal(err)
			}
			want := paperScore(ref.alg, sums, hp)
			if !(got >= 0 && got <= 1) || !paperClose(got, want) {
				t.Errorf("after example %d: Score(example %d) = %.17g, paper %.17g", n, probe, got, want)
			}
		}
	}
}

// traceConfigs gives every algorithm its parameters for the trace tests:
// costs exact in binary where they can be, C chosen so resampled rates are
// neither 0 nor λ.
var traceConfigs = []Config{
	{Algorithm: OzaBag},
	{Algorithm: OzaBoost},
	{Algorithm: UOB, C: 4},
	{Algorithm: SB, C: 4, Neighbors: 2},
	{Algorithm: AC2, CP: 1, CN: 0.25},
	{Algorithm: CSB2, CP: 1, CN: 0.25},
	{Algorithm: RUS1, C: 2},
	{Algorithm: RUS2, C: 2},
	{Algorithm: RUS3, C: 3},
	{Algorithm: SBO1, C: 1, Neighbors: 2},
	{Algorithm: SBO2, C: 1.25, Neighbors: 2},
	{Algorithm: SBO3, C: 3, Neighbors: 2},
	{Algorithm: "nsAC2", CP: 1, CN: 0.3, Beta: 0.9},
}

// TestTraceFollowsPaper runs every algorithm over both scripted streams
// and compares, after every example, each member's λ, training rate,
// λ^SMOTE and all running sums, n⁺ and n⁻, the draws and the Score with the
// paper's pseudo-code.
func TestTraceFollowsPaper(t *testing.T) {
	for _, cfg := range traceConfigs {
		for _, sc := range []stubScript{streamA, streamB} {
			t.Run(string(cfg.Algorithm)+"/"+sc.name, func(t *testing.T) {
				cfg := cfg
				cfg.Features, cfg.Members, cfg.Seed = 2, 3, 11
				runTrace(t, cfg, sc, nil)
			})
		}
	}
}

// ---------------------------------------------------------------------------
// 1. Updates for examples drawn k = 0 times.

// TestBoostingUpdatesOnZeroDraws: λ and a member's sums are updated for
// every example, whether or not its Poisson draw was 0. The sums estimate
// the member's error on the whole weighted stream (Alg. onlineadaboost
// updates them unconditionally after "Do k times").
//
// Bug caught: scikit-multiflow's online_csb2.py wraps the whole update in
// `if k > 0`, so an unsampled example still adds to λ^SUM but leaves λ^SW,
// λ^FP, λ^FN and the next member's λ untouched. Zero draws are recognised by the
// stub: no learn call with the example for that member.
func TestBoostingUpdatesOnZeroDraws(t *testing.T) {
	for _, cfg := range traceConfigs {
		a, _, _ := parseAlgorithm(cfg.Algorithm)
		if !a.boosting() {
			continue
		}
		t.Run(string(cfg.Algorithm), func(t *testing.T) {
			cfg := cfg
			cfg.Features, cfg.Members, cfg.Seed = 2, 3, 11
			checked := 0
			runTrace(t, cfg, streamA, func(n int, e *ensemble, prev []member, zeros []int) {
				for _, m := range zeros {
					mb, old := &e.members[m], &prev[m]
					moved := mb.sc != old.sc || mb.sw != old.sw || mb.sum != old.sum ||
						mb.tp != old.tp || mb.tn != old.tn || mb.fp != old.fp || mb.fn != old.fn
					if !moved {
						t.Errorf("example %d member %d: drawn k = 0 and its error sums did not move", n, m)
					}
					if m == len(e.members)-1 {
						continue
					}
					// Under `if k > 0` the next member would receive this
					// member's λ unchanged.
					if e.members[m+1].lambda == mb.lambda {
						t.Errorf("example %d member %d: drawn k = 0 and passed λ = %g on unchanged", n, m, mb.lambda)
					}
					checked++
				}
			})
			if checked == 0 {
				t.Fatalf("seed %d gives no zero draw before the last member: the test would check nothing; pick another seed", cfg.Seed)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// 2. Class counts and the SMOTE memory grow once per example.

// TestClassCountsOncePerExample pins n⁺, n⁻ and the resampled rates that
// use them mid-loop, by hand. RUS1, C = 2, M = 3, every member always right,
// stream "+-":
//
//	ex 0 (+): n⁺ = 1, n⁻ = 0: one class unseen, λ^RUS = λ = 1, 1/2, 1/4
//	          (each member right with ε = 0 halves λ)
//	ex 1 (−): n⁺ = 1, n⁻ = 1, C·n⁺ ≥ n⁻: nothing to undersample, λ^RUS = λ
//	          (batch RUS1 keeps min(C·N⁺, N⁻) negatives)
//
// and with C = 1, stream "+--":
//
//	ex 1 (−): C·n⁺ = n⁻: λ^RUS = λ
//	ex 2 (−): n⁺ = 1, n⁻ = 2, (C+1)n⁺/(n⁺+n⁻) = 2/3 for every member;
//	  m0: λ = 1,   P = 1,   N = 2: λ^RUS = 1·3·(2/3)/(2 + 1·2)           = 1/2
//	  m1: λ = 1/2, P = 1/2, N = 1: λ^RUS = 1/2·(3/2)(2/3)/(1 + 1/2·2)    = 1/4
//	  m2: λ = 1/4, P = 1/4, N = 1/2: λ^RUS = 1/4·(3/4)(2/3)/(1/2 + 1/4·2) = 1/8
//
// Counting once per member (n⁺ = 3 after ex 0, n⁻ = 4 when m0 sees ex 2)
// would give m0 27/35 instead.
// SBO1, C = 1, stream "--+": n⁻/(C·n⁺) − 1 = 2/1 − 1 = 1 for every member
// (λ^SMOTE of SBO1 is not scaled by λ); per-member counting gives 5 for m0.
//
// Bug caught: scikit-multiflow's online_rus_boost.py increments n_pos /
// n_neg inside the loop over members, following the pseudo-code's layout.
func TestClassCountsOncePerExample(t *testing.T) {
	tests := []struct {
		name      string
		cfg       Config
		sc        stubScript
		wantPos   float64
		wantNeg   float64
		wantRate  []float64 // members' rate after the last example
		wantSMOTE []float64 // members' λ^SMOTE after the last example
		wantMem   int       // positives in the SMOTE memory
	}{
		{
			name:    "RUS1 rates after +--",
			cfg:     Config{Algorithm: RUS1, C: 1},
			sc:      stubScript{labels: "+--", preds: []string{"+--", "+--", "+--"}},
			wantPos: 1, wantNeg: 2,
			wantRate: []float64{0.5, 0.25, 0.125}, wantSMOTE: []float64{0, 0, 0},
		},
		{
			// C·n⁺ = 2 ≥ n⁻ = 1: nothing to undersample, λ^RUS = λ (the
			// unclamped printed rate gives 2, 1, 1/2: negatives oversampled).
			name:    "RUS1 clamped after +-",
			cfg:     Config{Algorithm: RUS1, C: 2},
			sc:      stubScript{labels: "+-", preds: []string{"+-", "+-", "+-"}},
			wantPos: 1, wantNeg: 1,
			wantRate: []float64{1, 0.5, 0.25}, wantSMOTE: []float64{0, 0, 0},
		},
		{
			name:    "RUS2 rates after +-",
			cfg:     Config{Algorithm: RUS2, C: 2},
			sc:      stubScript{labels: "+-", preds: []string{"+-", "+-", "+-"}},
			wantPos: 1, wantNeg: 1,
			// λ·C·n⁺/(n⁺+n⁻)/(N/(P+N)) = λ·1/(1/2) = 2λ
			wantRate: []float64{2, 1, 0.5}, wantSMOTE: []float64{0, 0, 0},
		},
		{
			name:    "SBO1 synthetic rate after --+",
			cfg:     Config{Algorithm: SBO1, C: 1},
			sc:      stubScript{labels: "--+", preds: []string{"--+", "--+", "--+"}},
			wantPos: 1, wantNeg: 2,
			wantRate: []float64{1, 0.5, 0.25}, wantSMOTE: []float64{1, 1, 1},
			wantMem: 1,
		},
		{
			name:    "SB memory after +-++",
			cfg:     Config{Algorithm: SB, C: 2},
			sc:      stubScript{labels: "+-++", preds: []string{"----", "----", "----"}},
			wantPos: 3, wantNeg: 1,
			// a = m/M: λ = aC = 2/3, 4/3, 2; λ_SMOTE = (1−a)C = 4/3, 2/3, 0
			wantRate: []float64{2.0 / 3, 4.0 / 3, 2}, wantSMOTE: []float64{4.0 / 3, 2.0 / 3, 0},
			wantMem: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Features, cfg.Members, cfg.Seed = 2, 3, 1
			e, _ := newScripted(t, cfg, tt.sc)
			for n, y := range parseSigns(tt.sc.labels) {
				if err := e.Learn(scriptedX(n), y); err != nil {
					t.Fatal(err)
				}
			}
			if e.nPos != tt.wantPos || e.nNeg != tt.wantNeg {
				t.Errorf("n⁺, n⁻ = %g, %g; want %g, %g", e.nPos, e.nNeg, tt.wantPos, tt.wantNeg)
			}
			for m := range e.members {
				if got := e.members[m].rate; !handEqual(got, tt.wantRate[m]) {
					t.Errorf("member %d: rate %.17g, want %g", m, got, tt.wantRate[m])
				}
				if got := e.members[m].smoteRate; !handEqual(got, tt.wantSMOTE[m]) {
					t.Errorf("member %d: λ^SMOTE %.17g, want %g", m, got, tt.wantSMOTE[m])
				}
			}
			if e.mem != nil && e.mem.n != tt.wantMem {
				t.Errorf("SMOTE memory holds %d positives, want %d", e.mem.n, tt.wantMem)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// 3. CSB2.

// TestCSB2ByHand follows Alg. onlineCSB2 with C_P = 1, C_N = 1/2 over the
// stream "-+-+" by hand (ε = λ^SW/λ^SUM, werr = (λ^FP+λ^FN)/λ^SUM):
//
//	ex 0 (−): m0 right, λ^SW = 0: the 0/0 factor is 1/2, λ ← 1/2.
//	          m1 λ = 1/2 FP: λ^SUM = 1/2, λ^FP = C_N·λ = 1/4, λ^SW = 1/2,
//	             ε = 1, werr = 1/2, λ ← C_N·λ/(ε+werr) = (1/4)/(3/2) = 1/6.
//	          m2 λ = 1/6 right, λ^SW = 0: λ ← 1/12.
//	ex 1 (+): m0 λ = 1 FN: λ^SUM = 2, λ^FN = C_P·1 = 1, λ^SW = 1, ε = werr = 1/2,
//	             λ ← C_P·1/(1/2+1/2) = 1.
//	          m1 λ = 1 right: λ^SUM = 3/2, ε = 1/3, werr = 1/6,
//	             λ ← 1·(1/3)/((2/3)(1/3+1/6)) = 1.
//	ex 2 (−): m0 λ = 1 FP: λ^SUM = 3, λ^FP = 1/2, λ^SW = 2, ε = 2/3, werr = 1/2,
//	             λ ← (1/2)/(7/6) = 3/7.
//	          m1 λ = 3/7 right: λ^SUM = 27/14, ε = 7/27, werr = 7/54,
//	             λ ← (3/7)·(7/27)/((20/27)(7/18)) = 27/70.
//	ex 3 (+): m0 λ = 1 right: λ^SUM = 4, ε = 1/2, werr = 3/8, λ ← (1/2)/((1/2)(7/8)) = 8/7.
//	          m1 λ = 8/7 FN: λ^FN = 8/7, λ^SW = 23/14, λ^SUM = 43/14, ε = 23/43,
//	             werr = 39/86, λ ← (8/7)/(85/86) = 688/595.
//
// Bugs caught (scikit-multiflow's online_csb2.py): the correct case as
// printed, λ ← ε/((1−ε)(ε+werr)), drops the factor λ and would give m2
// λ = 9/10 at ex 2 instead of 27/70; a false positive weighted by C_P (the
// printed λ^FP line) would give m2 λ = 1/8 at ex 0 instead of 1/6; and the
// port adds a false negative to λ^FP and a false positive to λ^FN.
func TestCSB2ByHand(t *testing.T) {
	cfg := Config{Algorithm: CSB2, Features: 2, Members: 3, CP: 1, CN: 0.5, Seed: 3}
	sc := stubScript{labels: "-+-+", preds: []string{"--++", "++--", "-+-+"}}
	type want struct{ lambda, fp, fn, sw, sum float64 }
	// Values that are short binary fractions are compared exactly
	// (handEqual), except where inexact steps lead to them: approx.
	tests := []struct {
		name    string
		example int
		member  int
		want    want
		approx  bool
	}{
		{"right with no error yet: the next λ is λ/2", 0, 0, want{1, 0, 0, 0, 1}, false},
		{"false positive weighted by C_N", 0, 1, want{0.5, 0.25, 0, 0.5, 0.5}, false},
		{"λ after a false positive is C_N·λ/(ε+werr)", 0, 2, want{1.0 / 6, 0, 0, 0, 1.0 / 6}, false},
		{"false negative weighted by C_P", 1, 0, want{1, 0, 1, 1, 2}, false},
		{"λ after a false negative is C_P·λ/(ε+werr)", 1, 1, want{1, 0.25, 0, 0.5, 1.5}, false},
		{"λ after a right answer with ε = 1/3", 1, 2, want{1, 0, 0, 0, 7.0 / 6}, true}, // 1·(1/3)/((2/3)(1/2)) rounds
		{"second false positive", 2, 0, want{1, 0.5, 1, 2, 3}, false},
		{"λ after FP with ε = 2/3", 2, 1, want{3.0 / 7, 0.25, 0, 0.5, 27.0 / 14}, false},
		{"right answer multiplies the current λ", 2, 2, want{27.0 / 70, 0, 0, 0, 163.0 / 105}, false},
		{"right with ε = 1/2", 3, 0, want{1, 0.5, 1, 2, 4}, false},
		{"false negative with λ ≠ 1", 3, 1, want{8.0 / 7, 0.25, 8.0 / 7, 23.0 / 14, 43.0 / 14}, false},
		{"λ after FN with ε = 23/43", 3, 2, want{688.0 / 595, 0, 0, 0, 967.0 / 357}, false},
	}
	e, _ := newScripted(t, cfg, sc)
	labels := parseSigns(sc.labels)
	learned := 0
	for _, tt := range tests {
		for learned <= tt.example {
			if err := e.Learn(scriptedX(learned), labels[learned]); err != nil {
				t.Fatal(err)
			}
			learned++
		}
		t.Run(fmt.Sprintf("ex%d/m%d/%s", tt.example, tt.member, tt.name), func(t *testing.T) {
			mb := &e.members[tt.member]
			got := want{mb.lambda, mb.fp, mb.fn, mb.sw, mb.sum}
			eq := handEqual
			if tt.approx {
				eq = paperClose
			}
			if !eq(got.lambda, tt.want.lambda) || !eq(got.fp, tt.want.fp) || !eq(got.fn, tt.want.fn) ||
				!eq(got.sw, tt.want.sw) || !eq(got.sum, tt.want.sum) {
				t.Errorf("(λ, λ^FP, λ^FN, λ^SW, λ^SUM) = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// 4. Online SMOTE.

// TestSMOTENeverInterpolatesTowardsCopies stores three copies of A, then
// B, C, D and A again, so the latest positive A has copies of itself at
// distance 0 in the memory. Its 2 nearest distinct neighbours are B
// (d² = 5) and C (d² = 17); D (d² = 18) is third. Every synthetic example
// made for A (SBO3, C = 10: λ^SMOTE = 9λ, so dozens) must be A + γ(N − A)
// with N ∈ {B, C} and γ ∈ [0, 1), both neighbours must be used, and none
// may equal A, which is what a copy as neighbour produces.
//
// Bug caught: scikit-multiflow's online_smote_bagging.py excludes only the
// last stored entry from the neighbour search, so stored copies sort first
// at distance 0 and "synthetic" examples are the point itself.
func TestSMOTENeverInterpolatesTowardsCopies(t *testing.T) {
	A, B, C, D := []float64{1, 1}, []float64{2, 3}, []float64{0, 5}, []float64{4, 4}
	stream := [][]float64{A, A, A, B, C, D, A}
	cfg := Config{Algorithm: SBO3, Features: 2, Members: 3, C: 10, Neighbors: 2, Seed: 5}
	e, stubs := newScripted(t, cfg, stubScript{preds: []string{"", "", ""}})
	for _, x := range stream[:len(stream)-1] {
		if err := e.Learn(x, true); err != nil {
			t.Fatal(err)
		}
	}
	before := make([]int, len(stubs))
	for m := range stubs {
		before[m] = len(stubs[m].calls)
	}
	x := append([]float64(nil), A...)
	if err := e.Learn(x, true); err != nil {
		t.Fatal(err)
	}
	used := map[int]int{}
	total := 0
	for m, s := range stubs {
		_, synth := splitCalls(s.calls[before[m]:], x)
		for _, c := range synth {
			total++
			if c.x[0] == A[0] && c.x[1] == A[1] {
				t.Errorf("member %d: synthetic example equals the positive itself", m)
				continue
			}
			j := synthNeighbour(c.x, A, [][]float64{B, C})
			if j < 0 {
				t.Errorf("member %d: synthetic %v is not between A and B or C", m, c.x)
				continue
			}
			used[j]++
		}
	}
	if total < 10 {
		t.Fatalf("only %d synthetic examples: the test has no power", total)
	}
	if used[0] == 0 || used[1] == 0 {
		t.Errorf("neighbour use B: %d, C: %d of %d; want both of the 2 nearest used", used[0], used[1], total)
	}
}

// TestSMOTEWithOnlyCopiesMakesNothing: when every stored positive is a copy
// of the latest, there is no neighbour to interpolate towards, so no
// synthetic example is produced although λ^SMOTE > 0.
func TestSMOTEWithOnlyCopiesMakesNothing(t *testing.T) {
	for _, alg := range []Algorithm{SB, SBO3} {
		t.Run(string(alg), func(t *testing.T) {
			cfg := Config{Algorithm: alg, Features: 2, Members: 3, C: 10, Neighbors: 3, Seed: 8}
			e, stubs := newScripted(t, cfg, stubScript{preds: []string{"", "", ""}})
			for i := 0; i < 6; i++ {
				x := []float64{2.5, -1}
				before := make([]int, len(stubs))
				for m := range stubs {
					before[m] = len(stubs[m].calls)
				}
				if err := e.Learn(x, true); err != nil {
					t.Fatal(err)
				}
				for m, s := range stubs {
					if _, synth := splitCalls(s.calls[before[m]:], x); len(synth) > 0 {
						t.Errorf("positive %d member %d: %d synthetic examples made from copies only", i, m, len(synth))
					}
				}
			}
			rated := false
			for m := range e.members {
				rated = rated || e.members[m].smoteRate > 0
				if e.members[m].synthetic != 0 {
					t.Errorf("member %d: %d synthetic examples counted", m, e.members[m].synthetic)
				}
			}
			if !rated {
				t.Fatal("no member had λ^SMOTE > 0: the test checks nothing")
			}
			if e.mem.n != 6 {
				t.Errorf("memory holds %d positives, want 6", e.mem.n)
			}
		})
	}
}

// TestSMOTENeighboursAreTheKNearest feeds positives with small integer
// coordinates (so that duplicates and distance ties occur) through a
// memory of capacity 8, which wraps around, and after each compares the
// ensemble's neighbours of the latest positive with a brute-force sort of
// the stored positives: the same k smallest non-zero squared distances.
// It then draws synthetic examples from the memory and checks each lies on
// a segment towards one of those neighbours with γ ∈ [0, 1), and that every
// neighbour is chosen.
func TestSMOTENeighboursAreTheKNearest(t *testing.T) {
	const k, capacity = 3, 8
	cfg := Config{Algorithm: SB, Features: 2, Members: 1, C: 1, Neighbors: k, Memory: capacity, Seed: 13}
	e, _ := newScripted(t, cfg, stubScript{preds: []string{""}})
	pm := &positivesMemory{capacity: capacity}
	gen := newStream(99, 0)
	for i := 0; i < 40; i++ {
		x := []float64{float64(gen.intn(4)), float64(gen.intn(4))}
		pm.add(x)
		if err := e.Learn(x, true); err != nil {
			t.Fatal(err)
		}
		xl, nbrs, d2 := pm.nearest(k)
		mem := e.mem
		if mem.nn != len(nbrs) {
			t.Fatalf("positive %d %v: %d neighbours, brute force %d", i, x, mem.nn, len(nbrs))
		}
		got := make([]float64, mem.nn)
		for j := 0; j < mem.nn; j++ {
			got[j] = sqDist(xl, mem.slot(mem.nbr[j]))
		}
		sort.Float64s(got)
		for j := range got {
			if got[j] != d2[j] {
				t.Fatalf("positive %d %v: neighbour distances² %v, brute force %v", i, x, got, d2)
			}
		}
		if len(nbrs) == 0 {
			continue
		}
		// Admissible neighbours: stored positives other than copies of
		// the latest, within the k-th smallest distance (a tie at the
		// k-th distance makes the choice among equals arbitrary).
		var admissible [][]float64
		for _, y := range pm.xs {
			if d := sqDist(xl, y); d > 0 && d <= d2[len(d2)-1] {
				admissible = append(admissible, y)
			}
		}
		// Each of the ensemble's neighbours, as a point, must be chosen.
		want := map[[2]float64]bool{}
		for j := 0; j < mem.nn; j++ {
			y := mem.slot(mem.nbr[j])
			want[[2]float64{y[0], y[1]}] = true
		}
		seen := map[[2]float64]bool{}
		dst := make([]float64, 2)
		rng := newStream(7, uint64(i))
		for draw := 0; draw < 60*k; draw++ {
			if !mem.synthesize(dst, &rng) {
				t.Fatalf("positive %d: synthesize failed with %d neighbours", i, mem.nn)
			}
			// Collinear neighbours share part of a segment: credit every
			// admissible point whose segment holds the synthetic example.
			on := false
			for _, y := range admissible {
				if _, ok := onSMOTESegment(dst, xl, y); ok {
					seen[[2]float64{y[0], y[1]}] = true
					on = true
				}
			}
			if !on {
				t.Fatalf("positive %d: synthetic %v is towards none of the %d nearest distinct positives of %v", i, dst, k, xl)
			}
		}
		for y := range want {
			if !seen[y] {
				t.Errorf("positive %d: neighbour %v never chosen in %d draws", i, y, 60*k)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// 5. Vote weights and Score.

// TestScoreWeightsByHand sets members' sums directly and checks Score
// against Σ α_m h_m(x) / Σ α_m computed by hand with α = log((1−ε)/ε):
//
//	ε = 1/4 → α = log 3;  ε = 1/3 → α = log 2;  ε ≥ 1/2 → α = 0 (abstains);
//	ε = 0 → α = log((1−10⁻⁶)/10⁻⁶) (finite, the documented floor).
//
// Bug caught: scikit-multiflow's online_csb2.py and online_rus_boost.py
// weight every member by log((1−ε)/ε) unclamped, so a member with ε = 3/4
// gets −log 3 and votes for the class it does not predict (the first case
// would score log 3/log 2 > 1); for a member with ε = 0 the division by
// zero is caught and its vote skipped, so the best member is ignored.
func TestScoreWeightsByHand(t *testing.T) {
	floor := math.Log((1 - 1e-6) / 1e-6)
	epsMax := 1 - 1e-6 // ε clamped to 1−10⁻⁶ (a variable: rounded, unlike a constant expression)
	ceil := -math.Log((1 - epsMax) / epsMax)
	oza := func(sc, sw float64) refSums { return refSums{sc: sc, sw: sw} }
	tests := []struct {
		name  string
		alg   Algorithm
		sums  []refSums
		preds string // each member's h_m(x) for the probe
		want  float64
	}{
		{"member with ε > 1/2 abstains instead of voting no", OzaBoost,
			[]refSums{oza(3, 1), oza(2, 1), oza(1, 3)}, "+--", math.Log(3) / (math.Log(3) + math.Log(2))},
		{"member with ε > 1/2 abstains instead of voting yes", OzaBoost,
			[]refSums{oza(3, 1), oza(2, 1), oza(1, 3)}, "+-+", math.Log(3) / (math.Log(3) + math.Log(2))},
		{"ε = 1/2 exactly abstains", RUS3,
			[]refSums{oza(3, 1), oza(1, 1), oza(2, 1)}, "-++", math.Log(2) / (math.Log(3) + math.Log(2))},
		{"ε = 0 gets a finite weight", SBO1,
			[]refSums{oza(2, 0), oza(3, 1), oza(1, 3)}, "+-+", floor / (floor + math.Log(3))},
		{"all ε = 0: equal finite weights", OzaBoost,
			[]refSums{oza(2, 0), oza(5, 0), oza(1, 0)}, "++-", 2.0 / 3},
		{"no member has an estimate: unweighted vote", OzaBoost,
			[]refSums{{}, {}, {}}, "+-+", 2.0 / 3},
		{"every member at ε ≥ 1/2: unweighted vote", RUS1,
			[]refSums{oza(1, 1), oza(1, 2), oza(0, 4)}, "--+", 1.0 / 3},
		// AC2: α = log(wacc/werr) = log((λ^TP+λ^TN)/(λ^FP+λ^FN)).
		{"AC2 weights log(wacc/werr)", AC2,
			[]refSums{{tp: 3, tn: 1, fp: 1, sum: 9}, {tp: 1, tn: 1, fn: 1, sum: 9}, {tn: 1, fp: 2, fn: 1, sum: 9}}, "+--",
			math.Log(4) / (math.Log(4) + math.Log(2))},
		// CSB2: α = log((1−ε)/ε) with ε = λ^SW/λ^SUM.
		{"CSB2 weights with ε = λ^SW/λ^SUM", CSB2,
			[]refSums{{sw: 1, sum: 4}, {sw: 1, sum: 3}, {sw: 3, sum: 4}}, "+-+", math.Log(3) / (math.Log(3) + math.Log(2))},
		{"bagging is the unweighted vote whatever the sums", OzaBag,
			[]refSums{oza(3, 1), oza(2, 1), oza(1, 3)}, "+--", 1.0 / 3},
		// Config.LiteralVote: ε > 1/2 votes log(ε/(1−ε)) for the other class.
		{"literal: member with ε = 3/4 votes log 3 for yes when predicting no", "literal " + OzaBoost,
			[]refSums{oza(3, 1), oza(2, 1), oza(1, 3)}, "+--", 2 * math.Log(3) / (2*math.Log(3) + math.Log(2))},
		{"literal: member with ε = 3/4 votes log 3 for no when predicting yes", "literal " + OzaBoost,
			[]refSums{oza(3, 1), oza(2, 1), oza(1, 3)}, "+-+", math.Log(3) / (2*math.Log(3) + math.Log(2))},
		{"literal: unanimous yes is outvoted by bad members", "literal " + RUS3,
			[]refSums{oza(3, 1), oza(1, 4), oza(1, 3)}, "+++", math.Log(3) / (2*math.Log(3) + math.Log(4))},
		{"literal: ε = 1/2 exactly still abstains", "literal " + RUS3,
			[]refSums{oza(3, 1), oza(1, 1), oza(2, 1)}, "-++", math.Log(2) / (math.Log(3) + math.Log(2))},
		{"literal: ε = 1 gets the finite weight of ε = 0, for the other class", "literal " + OzaBoost,
			[]refSums{oza(0, 2), oza(3, 1)}, "++", math.Log(3) / (ceil + math.Log(3))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			alg, literal := strings.CutPrefix(string(tt.alg), "literal ")
			cfg := Config{Algorithm: Algorithm(alg), Features: 2, Members: len(tt.sums), LiteralVote: literal}
			preds := make([]string, len(tt.sums))
			for m := range preds {
				preds[m] = tt.preds[m : m+1] // answer for id 0
			}
			e, _ := newScripted(t, cfg, stubScript{preds: preds})
			for m, s := range tt.sums {
				mb := &e.members[m]
				mb.sc, mb.sw, mb.tp, mb.tn, mb.fp, mb.fn, mb.sum = s.sc, s.sw, s.tp, s.tn, s.fp, s.fn, s.sum
			}
			got, err := e.Score([]float64{0, 0})
			if err != nil {
				t.Fatal(err)
			}
			if !paperClose(got, tt.want) || !(got >= 0 && got <= 1) {
				t.Errorf("Score = %.17g, want %.17g", got, tt.want)
			}
		})
	}
}

// TestScoreStaysInUnitInterval sets random member sums, from 0 to extreme
// magnitudes and around ε = 1/2, with random member answers, and checks
// Score is never NaN and always in [0, 1] for every algorithm.
func TestScoreStaysInUnitInterval(t *testing.T) {
	rng := newStream(2024, 0)
	mags := []float64{0, 1e-300, 1e-9, 0.5, 1, 3, 1e9, 1e300}
	pick := func() float64 { return mags[rng.intn(len(mags))] * (0.5 + rng.float64()) }
	for _, name := range append(append([]Algorithm{}, Algorithms...), "literal vote AC2", "literal vote RUS1") {
		alg, literal := strings.CutPrefix(string(name), "literal vote ")
		t.Run(string(name), func(t *testing.T) {
			preds := make([]string, 5)
			for m := range preds {
				b := make([]byte, 64)
				for i := range b {
					b[i] = "+-"[rng.intn(2)]
				}
				preds[m] = string(b)
			}
			cfg := Config{Algorithm: Algorithm(alg), Features: 2, Members: 5, LiteralVote: literal}
			e, _ := newScripted(t, cfg, stubScript{preds: preds})
			for trial := 0; trial < 200; trial++ {
				for m := range e.members {
					mb := &e.members[m]
					mb.sc, mb.sw, mb.tp, mb.tn, mb.fp, mb.fn = pick(), pick(), pick(), pick(), pick(), pick()
					mb.sum = mb.sc + mb.sw
					if rng.intn(4) == 0 {
						mb.sw = mb.sc // ε = 1/2 exactly
					}
				}
				e.alphaOK = false // the sums changed outside Learn
				for id := 0; id < 64; id++ {
					got, err := e.Score([]float64{float64(id), 0})
					if err != nil {
						t.Fatal(err)
					}
					if !(got >= 0 && got <= 1) {
						t.Fatalf("trial %d probe %d: Score = %v", trial, id, got)
					}
				}
			}
		})
	}
}

// ---------------------------------------------------------------------------
// 6. nsAC2.

// TestNsAC2ByHand follows Alg. onlineAdaC2 with Section 8's forgetting
// factor, β = 1/2, C_P = 2, C_N = 1/2, stream "+-+-", by hand. Before each
// example every member's λ^TP, λ^TN, λ^FP, λ^FN and λ^SUM is multiplied by
// β; then, as in Alg. onlineAdaC2, TP and FN add C_P·λ, TN and FP add C_N·λ.
// For example at ex 1 (−), m1 (λ = 1/4, h = +, a FP): λ^FP = β·0 + C_N·1/4 =
// 1/8, λ^FN = β·1 = 1/2, λ^SUM = β·1/2 + 1/4 = 1/2, werr = 5/4, and
// λ ← C_N·λ/(2·werr) = (1/8)/(5/2) = 1/20.
//
// Cost pairing: Section 8's text writes λ^FP ← βλ^FP + C_P·λ and
// λ^FN ← βλ^FN + C_N·λ. That contradicts Alg. onlineAdaC2 and the AdaC2
// derivation above it, where the cost C_n belongs to the example's class:
// a false negative is a positive example (cost C_P), a false positive a
// negative one (cost C_N). The package follows the algorithm, and so does
// this test; with the text's pairing m1 would hold λ^FP = 1/2, λ^FN = 1/8
// after ex 1. λ^SUM is decayed too: Section 8 lists only the four weighted
// sums, but without it wacc and werr would shrink to 0 as λ^SUM grew and
// λ would blow up (with λ^SUM undecayed m1 would see λ = 1/3 at ex 1, not 1/4).
func TestNsAC2ByHand(t *testing.T) {
	cfg := Config{Algorithm: "nsAC2", Features: 2, Members: 3, CP: 2, CN: 0.5, Beta: 0.5, Seed: 4}
	sc := stubScript{labels: "+-+-", preds: []string{"+--+", "-+++", "+-+-"}}
	type want struct{ lambda, tp, tn, fp, fn, sum float64 }
	rows := [][]want{
		{ // ex 0 (+)
			{1, 2, 0, 0, 0, 1},
			{0.5, 0, 0, 0, 1, 0.5},
			{0.25, 0.5, 0, 0, 0, 0.25},
		},
		{ // ex 1 (−)
			{1, 1, 0.5, 0, 0, 1.5},
			{0.25, 0, 0, 0.125, 0.5, 0.5},
			{1.0 / 20, 0.25, 1.0 / 40, 0, 0, 7.0 / 40},
		},
		{ // ex 2 (+)
			{1, 0.5, 0.25, 0, 2, 1.75},
			{7.0 / 8, 1.75, 0, 1.0 / 16, 0.25, 9.0 / 8},
			{9.0 / 16, 1.25, 1.0 / 80, 0, 0, 13.0 / 20},
		},
		{ // ex 3 (−)
			{1, 0.25, 0.125, 0.5, 1, 15.0 / 8},
			{5.0 / 16, 7.0 / 8, 0, 3.0 / 16, 0.125, 7.0 / 8},
			{7.0 / 32, 5.0 / 8, 37.0 / 320, 0, 0, 87.0 / 160},
		},
	}
	// n⁺, n⁻ decay by β too: after "+-+-" they are 5/8 and 5/4.
	nPos := []float64{1, 0.5, 1.25, 0.625}
	nNeg := []float64{0, 1, 0.5, 1.25}
	e, _ := newScripted(t, cfg, sc)
	for n, y := range parseSigns(sc.labels) {
		if err := e.Learn(scriptedX(n), y); err != nil {
			t.Fatal(err)
		}
		for m, w := range rows[n] {
			mb := &e.members[m]
			got := want{mb.lambda, mb.tp, mb.tn, mb.fp, mb.fn, mb.sum}
			if !handEqual(got.lambda, w.lambda) || !handEqual(got.tp, w.tp) || !handEqual(got.tn, w.tn) ||
				!handEqual(got.fp, w.fp) || !handEqual(got.fn, w.fn) || !handEqual(got.sum, w.sum) {
				t.Errorf("ex %d member %d: (λ, TP, TN, FP, FN, SUM) = %+v, want %+v", n, m, got, w)
			}
		}
		if e.nPos != nPos[n] || e.nNeg != nNeg[n] {
			t.Errorf("ex %d: n⁺, n⁻ = %g, %g; want %g, %g", n, e.nPos, e.nNeg, nPos[n], nNeg[n])
		}
	}
}
