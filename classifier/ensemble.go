package classifier

import "github.com/ictal/ictal/internal/detmath"

// member is one base learner h_m with its random stream and the running
// sums of the paper's pseudo-code. Which sums an algorithm uses:
//
//	OzaBoost, RUS1–3, SBO1–3: sc, sw (λ^SC, λ^SW); RUS and SBO also pos, neg (λ^POS, λ^NEG)
//	AC2:  tp, tn, fp, fn, sum (λ^TP, λ^TN, λ^FP, λ^FN, λ^SUM)
//	CSB2: fp, fn, sw, sum
//
// rate and smoteRate record the Poisson means used for the member's last
// training draw and synthetic draw, and lambda the boosting λ that reached
// it (for tests and diagnostics; they are not part of the model's
// behaviour).
type member struct {
	h   learner
	rng stream

	sc, sw             float64
	tp, tn, fp, fn     float64
	sum                float64
	pos, neg           float64
	lambda, rate       float64
	smoteRate          float64
	trained, synthetic uint64 // examples and synthetic examples drawn for this member (k summed)
	// version counts the member's training updates; Score's memo of its
	// prediction is valid while it is unchanged.
	version uint64
}

// ensemble implements Model for every algorithm of the paper.
type ensemble struct {
	cfg  Config
	alg  algo
	ns   bool
	beta float64 // forgetting factor of the ensemble sums: cfg.Beta for ns variants, else 1

	members []member
	// nPos and nNeg count the examples of each class, once per example
	// (the paper's n^+ and n^-), decayed by beta in ns variants.
	nPos, nNeg float64
	examples   uint64

	mem      *smoteMemory // SB and SBO1–3 only
	xs       []float64    // synthetic example
	synthCap int          // synthetic positives per member per Learn at most (syntheticCap)

	// Score's memo: the last scored vector and each member's prediction
	// of it at the member's version then. Learn on the same vector (the
	// prequential score-then-learn pattern) reuses a prediction when the
	// member has not been trained since, instead of recomputing it: the
	// result is the same bit for bit, only cheaper.
	memoX       []float64
	memoPred    []bool
	memoVersion []uint64
	memoValid   bool
	memoHit     bool // set by Learn: x equals memoX

	// Boosting vote weights α_m (voteWeight), computed by Score when it
	// needs them and kept until the next Learn changes the members' sums:
	// at most once per Learn, however many windows are scored in between.
	alpha   []float64
	alphaOK bool
	// alphaRuns counts the computations of every α_m (for tests).
	alphaRuns uint64

	// w is the weight of the example being learned: 1 for Learn, the
	// caller's for LearnWeighted. It scales the first Poisson mean
	// (bagging's λ, boosting's initial λ) and the class counts.
	w float64
	// factory made the members of a NewWithLearner ensemble (nil for
	// the built-in learners); Reset and Clone make new ones with it.
	factory LearnerFactory
}

// newEnsemble builds an ensemble whose members come from mk. Member m
// draws from random stream m+1 of the seed.
func newEnsemble(cfg Config, a algo, ns bool, mk func(m int) learner) *ensemble {
	e := &ensemble{cfg: cfg, alg: a, ns: ns, beta: 1, w: 1}
	if ns {
		e.beta = cfg.Beta
	}
	e.members = make([]member, cfg.Members)
	e.memoX = make([]float64, cfg.Features)
	e.memoPred = make([]bool, cfg.Members)
	e.memoVersion = make([]uint64, cfg.Members)
	e.alpha = make([]float64, cfg.Members)
	for m := range e.members {
		e.members[m].h = mk(m)
		e.members[m].rng = newStream(cfg.Seed, uint64(m)+1)
	}
	if a.smote() {
		e.mem = newSMOTEMemory(cfg.Features, cfg.Memory, cfg.Neighbors)
		e.xs = make([]float64, cfg.Features)
		e.synthCap = syntheticCap(cfg)
	}
	return e
}

func (e *ensemble) Config() Config { return e.cfg }

// Learn implements Model. It validates x, counts the example once (n^+ or
// n^-), stores a positive in the SMOTE memory once, then runs the
// algorithm's update over the members in order.
func (e *ensemble) Learn(x []float64, positive bool) error {
	if err := checkInput(x, e.cfg.Features); err != nil {
		return err
	}
	e.learn(x, positive)
	return e.customErr()
}

// learn is Learn of a valid x with weight e.w.
func (e *ensemble) learn(x []float64, positive bool) {
	e.examples++
	e.memoHit = e.memoValid && equalVectors(x, e.memoX)
	// Explicit rounding: never fused with the increment below into an
	// FMA, so every architecture counts alike (internal/detmath).
	e.nPos = float64(e.nPos * e.beta)
	e.nNeg = float64(e.nNeg * e.beta)
	if positive {
		e.nPos += e.w
	} else {
		e.nNeg += e.w
	}
	if positive && e.mem != nil {
		e.mem.add(x)
	}
	switch e.alg {
	case algOzaBag, algUOB:
		e.learnBagging(x, positive)
	case algSB:
		e.learnSMOTEBagging(x, positive)
	case algOzaBoost:
		e.learnOzaBoost(x, positive)
	case algAC2:
		e.learnAC2(x, positive)
	case algCSB2:
		e.learnCSB2(x, positive)
	case algRUS1, algRUS2, algRUS3:
		e.learnRUS(x, positive)
	case algSBO1, algSBO2, algSBO3:
		e.learnSMOTEBoost(x, positive)
	}
	e.memoHit = false
	e.alphaOK = false
}

// equalVectors reports whether a and b hold the same values (bit for bit
// but for the sign of zero, which no learner distinguishes).
func equalVectors(a, b []float64) bool {
	for i, v := range a {
		if v != b[i] {
			return false
		}
	}
	return true
}

// predict returns member m's prediction of x, the example being learned,
// from Score's memo when the member has not been trained since Score saw
// the same vector.
func (e *ensemble) predict(m int, x []float64) bool {
	mb := &e.members[m]
	if e.memoHit && e.memoVersion[m] == mb.version {
		return e.memoPred[m]
	}
	return mb.h.predict(x)
}

// train presents (x, y) to member m k times, as one update of weight k.
func (mb *member) train(x []float64, positive bool, k int) {
	if k > 0 {
		mb.h.learn(x, positive, float64(k))
		mb.trained += uint64(k)
		mb.version++
	}
}

// trainSynthetic presents k synthetic positives made by online SMOTE from
// the latest stored positive (Alg. onlinesmote), each a new interpolation.
// When the memory holds no distinct neighbour of that positive yet, no
// synthetic example can be made and none is presented.
//
// k is cut to e.synthCap (see syntheticCap): each synthetic example is a
// learner update of its own, and a Poisson mean that grows with the class
// ratio seen (SBO1, SBO2) or with λ (SBO3) must not make one Learn
// unbounded. The cut binds on no setting of the paper's.
func (e *ensemble) trainSynthetic(mb *member, k int) {
	k = min(k, e.synthCap)
	for i := 0; i < k; i++ {
		if !e.mem.synthesize(e.xs, &mb.rng) {
			return
		}
		mb.h.learn(e.xs, true, 1)
		mb.synthetic++
		mb.version++
	}
}

// epsMin bounds a member's error estimate away from 0 and 1 in its vote
// weight, so a member that has made no error yet gets the finite weight
// log((1-epsMin)/epsMin) ≈ 13.8 instead of +Inf (and never NaN).
const epsMin = 1e-6

// voteWeight returns member m's weight in the boosting vote: the paper's
// log((1-ε_m)/ε_m) (log(wacc_m/werr_m) for AC2), with ε clamped to
// [epsMin, 1-epsMin]. A member whose error is 0.5 or worse, or that has no
// error estimate yet, gets weight 0: it abstains rather than voting for the
// opposite class. It keeps learning, so it can come back once its error
// falls below 0.5 (Section 7). With Config.LiteralVote such a member gets
// the paper's negative weight log((1−ε)/ε), ε clamped to 1−epsMin.
// Score counts a negative weight as a vote of |α| for the class the
// member does not predict.
func (e *ensemble) voteWeight(mb *member) float64 {
	wrong, total := e.memberError(mb)
	if !(total > 0) {
		return 0
	}
	eps := wrong / total
	if eps >= 0.5 {
		if !e.cfg.LiteralVote || eps == 0.5 {
			return 0
		}
		// The paper's vote: log((1−ε)/ε) < 0, for the other class.
		eps = min(eps, 1-epsMin)
		return detmath.Log((1 - eps) / eps)
	}
	if eps < epsMin {
		eps = epsMin
	}
	return detmath.Log((1 - eps) / eps)
}

// voteWeights brings e.alpha up to date: every α_m is computed at most
// once per Learn, however many windows are scored in between.
func (e *ensemble) voteWeights() {
	if e.alphaOK {
		return
	}
	for m := range e.members {
		e.alpha[m] = e.voteWeight(&e.members[m])
	}
	e.alphaOK = true
	e.alphaRuns++
}

// memberError returns the weighted errors and the total weight of a
// boosting member's error estimate ε = wrong/total.
func (e *ensemble) memberError(mb *member) (wrong, total float64) {
	switch e.alg {
	case algAC2:
		return mb.fp + mb.fn, mb.tp + mb.tn + mb.fp + mb.fn
	case algCSB2:
		return mb.sw, mb.sum
	}
	return mb.sw, mb.sc + mb.sw
}

// Score implements Model. Bagging algorithms return the fraction of members
// that predict positive (the unweighted vote); boosting algorithms return
// Σ α_m h_m(x) / Σ α_m over the members with α_m > 0. While no member has a
// positive weight (at the very start of a stream) a boosting ensemble
// falls back to the unweighted vote.
//
// When the members agree the score is 0 or 1 whatever the weights (the
// weighted sums over all members and over those voting positive are then
// the same sum), and Score does not compute them. With
// Config.LiteralVote a member with ε > 0.5 votes |α_m| for the class it
// does not predict, so Score = Σ_m |α_m|·[vote_m = +] / Σ_m |α_m|, whose
// decision at 0.5 is the paper's argmax.
func (e *ensemble) Score(x []float64) (float64, error) {
	if err := checkInput(x, e.cfg.Features); err != nil {
		return 0, err
	}
	s := e.vote(x)
	if err := e.customErr(); err != nil {
		return 0, err
	}
	return s, nil
}

// vote is Score of a valid x.
func (e *ensemble) vote(x []float64) float64 {
	var votes float64
	if !e.alg.boosting() {
		for m := range e.members {
			if e.members[m].h.predict(x) {
				votes++
			}
		}
		return votes / float64(len(e.members))
	}
	copy(e.memoX, x)
	e.memoValid = true
	npos := 0
	for m := range e.members {
		mb := &e.members[m]
		p := mb.h.predict(x)
		e.memoPred[m], e.memoVersion[m] = p, mb.version
		if p {
			npos++
		}
	}
	if !e.cfg.LiteralVote { // weights ≥ 0: a unanimous vote is 0 or 1
		switch npos {
		case 0:
			return 0
		case len(e.members):
			return 1
		}
	}
	e.voteWeights()
	return WeightedVote(e.alpha, e.memoPred)
}

// WeightedVote is the boosting ensembles' score of a vote in which member
// m predicts preds[m] with weight alpha[m]: Σ_m |α_m|·[vote_m = +] /
// Σ_m |α_m|, at most 1 (rounding), where a member with α_m < 0
// (Config.LiteralVote, ε > 0.5) votes for the class it does not predict.
// When the weights sum to 0 it is the share of members predicting
// positive. Batch ensembles (classifier/batch) score with it too.
func WeightedVote(alpha []float64, preds []bool) float64 {
	var votes, sum, plain float64
	for m, a := range alpha {
		p := preds[m]
		if p {
			plain++
		}
		if a < 0 { // LiteralVote: |α| for the other class
			a, p = -a, !p
		}
		sum += a
		if p {
			votes += a
		}
	}
	if sum > 0 {
		s := votes / sum
		if s > 1 { // rounding
			s = 1
		}
		return s
	}
	return plain / float64(len(preds))
}

// MaxMargin bounds each member's log-odds in Margin: a member that has
// seen only one class (log-odds ±Inf) counts as ±MaxMargin, so one
// untrained member cannot make the ensemble's margin infinite.
const MaxMargin = 1000

// Margin implements Grader: the members' log-odds log p(+|x)/p(−|x),
// each clamped to [−MaxMargin, MaxMargin], averaged with the weights
// Score's vote gives them (1 for the bagging algorithms, α_m for the
// boosting ones, an abstaining member 0; with LiteralVote a negative α_m
// turns the member's opinion round). While no member has a weight it is
// the plain mean. It allocates nothing and does not change the model
// (beyond the caches Score also refreshes).
func (e *ensemble) Margin(x []float64) (float64, error) {
	return e.margin(x, 0)
}

// margin is Margin, or CensoredMargin with censoring bound c when c > 0
// (the members are then naive Bayes: CensoredMargin checked).
func (e *ensemble) margin(x []float64, c float64) (float64, error) {
	if err := checkInput(x, e.cfg.Features); err != nil {
		return 0, err
	}
	var sum, plain, weights float64
	boosting := e.alg.boosting()
	if boosting {
		e.voteWeights()
	}
	for m := range e.members {
		var l float64
		if c > 0 {
			l = e.members[m].h.(*nb).censoredLogOdds(x, c)
		} else {
			l = e.members[m].h.logOdds(x)
		}
		l = min(max(l, -MaxMargin), MaxMargin)
		plain += l
		if boosting {
			a := e.alpha[m]
			sum += float64(a * l)
			weights += abs(a)
		}
	}
	mean := plain / float64(len(e.members))
	if boosting && weights > 0 {
		mean = sum / weights
	}
	if err := e.customErr(); err != nil {
		return 0, err
	}
	return min(max(mean, -MaxMargin), MaxMargin), nil // rounding
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
