package classifier

// The boosting algorithms share one structure (Alg. onlineadaboost): a
// weight λ starts at 1 for every example and is handed from member to
// member; member m trains k ~ Poisson(λ') times (λ' = λ or a resampled
// rate), then classifies the example and updates its running sums and λ.
// The update happens for every member and every example, whether or not
// the draw k was zero: the sums estimate the member's error on the whole
// weighted stream, not only on the examples it happened to train on.
//
// In ns variants every running sum of a member is multiplied by β before
// the example's contribution is added (Section 8).

// oza applies the AdaBoost step shared by OzaBoost, RUS1–3 and SBO1–3:
//
//	correct: λ^SC += λ; ε = λ^SW/(λ^SC+λ^SW); λ ← λ / (2(1−ε))
//	wrong:   λ^SW += λ; ε = λ^SW/(λ^SC+λ^SW); λ ← λ / (2ε)
//
// and returns the λ for the next member. After the increment, 1−ε > 0 in
// the correct case and ε > 0 in the wrong case, so neither divides by zero.
// ε > 0.5 is allowed: the weights then move the other way, as the paper
// prescribes for online learning (Section 7), and the member abstains from
// the vote until its error falls below 0.5.
func oza(mb *member, lambda float64, correct bool) float64 {
	if correct {
		mb.sc += lambda
		eps := mb.sw / (mb.sc + mb.sw)
		return lambda / (2 * (1 - eps))
	}
	mb.sw += lambda
	eps := mb.sw / (mb.sc + mb.sw)
	return lambda / (2 * eps)
}

// minLambda is the smallest λ handed to the next member. λ is a product of
// positive factors and cannot reach 0 or +Inf on any real stream, but a
// member whose sums have grown astronomically relative to the example's
// weight could round a factor to 0 or Inf; the clamp keeps every later
// division defined.
const minLambda = 1e-300

// clampLambda keeps λ in [minLambda, maxLambda] (NaN, which the updates
// never produce, maps to minLambda).
func clampLambda(l float64) float64 {
	if !(l >= minLambda) {
		return minLambda
	}
	if l > maxLambda {
		return maxLambda
	}
	return l
}

// decay multiplies every running sum of mb by beta (ns variants).
func (mb *member) decay(beta float64) {
	if beta == 1 {
		return
	}
	// float64(…): never fused with the additions that follow.
	mb.sc = float64(mb.sc * beta)
	mb.sw = float64(mb.sw * beta)
	mb.tp = float64(mb.tp * beta)
	mb.tn = float64(mb.tn * beta)
	mb.fp = float64(mb.fp * beta)
	mb.fn = float64(mb.fn * beta)
	mb.sum = float64(mb.sum * beta)
	mb.pos = float64(mb.pos * beta)
	mb.neg = float64(mb.neg * beta)
}

// learnOzaBoost is online boosting (Alg. onlineadaboost).
func (e *ensemble) learnOzaBoost(x []float64, positive bool) {
	lambda := e.w
	for m := range e.members {
		mb := &e.members[m]
		mb.decay(e.beta)
		mb.lambda, mb.rate = lambda, lambda
		mb.train(x, positive, mb.rng.poisson(lambda))
		lambda = clampLambda(oza(mb, lambda, e.predict(m, x) == positive))
	}
}

// exampleCost is the misclassification cost C_n of AC2 and CSB2: C_P for
// a positive example, C_N for a negative.
func (e *ensemble) exampleCost(positive bool) float64 {
	if positive {
		return e.cfg.CP
	}
	return e.cfg.CN
}

// trainSum starts member m's step of AC2 and CSB2: it decays the member's
// sums (ns), adds λ to λ^SUM, trains it k ~ Poisson(λ) times and returns
// its prediction of x after training.
func (e *ensemble) trainSum(m int, x []float64, positive bool, lambda float64) bool {
	mb := &e.members[m]
	mb.decay(e.beta)
	mb.sum += lambda
	mb.lambda, mb.rate = lambda, lambda
	mb.train(x, positive, mb.rng.poisson(lambda))
	return e.predict(m, x)
}

// learnAC2 is online AdaC2 (Alg. onlineAdaC2). With C_n = C_P for a
// positive and C_N for a negative:
//
//	λ^SUM += λ; train k ~ Poisson(λ) times; then
//	TP: λ^TP += C_P·λ   TN: λ^TN += C_N·λ   FN: λ^FN += C_P·λ   FP: λ^FP += C_N·λ
//	wacc = (λ^TP+λ^TN)/λ^SUM, werr = (λ^FP+λ^FN)/λ^SUM
//	correct: λ ← C_n·λ / (2·wacc)     wrong: λ ← C_n·λ / (2·werr)
//
// The vote weight is log(wacc/werr). nsAC2 (Section 8) multiplies λ^TP,
// λ^TN, λ^FP, λ^FN — and λ^SUM, without which wacc and werr would shrink
// to 0 as λ^SUM kept growing — by β before each example. Section 8's text
// pairs λ^FP with C_P and λ^FN with C_N; that contradicts Alg. onlineAdaC2
// (a false negative is a positive example, whose cost is C_P), and the
// algorithm's pairing is used here.
func (e *ensemble) learnAC2(x []float64, positive bool) {
	cost := e.exampleCost(positive)
	lambda := e.w
	for m := range e.members {
		mb := &e.members[m]
		pred := e.trainSum(m, x, positive, lambda)
		switch {
		case pred && positive:
			mb.tp += float64(cost * lambda) // float64(…): never fused (internal/detmath)
		case !pred && !positive:
			mb.tn += float64(cost * lambda)
		case !pred && positive:
			mb.fn += float64(cost * lambda)
		default:
			mb.fp += float64(cost * lambda)
		}
		if pred == positive {
			wacc := (mb.tp + mb.tn) / mb.sum
			lambda = cost * lambda / (2 * wacc)
		} else {
			werr := (mb.fp + mb.fn) / mb.sum
			lambda = cost * lambda / (2 * werr)
		}
		lambda = clampLambda(lambda)
	}
}

// learnCSB2 is online CSB2 (Alg. onlineCSB2, from the unnormalised update
// derived above it):
//
//	λ^SUM += λ; train k ~ Poisson(λ) times; then
//	correct: ε = λ^SW/λ^SUM, werr = (λ^FP+λ^FN)/λ^SUM,
//	         λ ← λ·ε / ((1−ε)(ε+werr))
//	FN:      λ^FN += C_P·λ, λ^SW += λ, then ε, werr as above, λ ← C_P·λ/(ε+werr)
//	FP:      λ^FP += C_N·λ, λ^SW += λ, then ε, werr as above, λ ← C_N·λ/(ε+werr)
//
// Two departures from the printed pseudo-code, both forced by the update
// it is derived from: the correct case multiplies the current λ (the
// printed line drops it, which would make λ forget the example's weight),
// and a false positive adds C_N·λ to λ^FP (the printed line adds C_P·λ; a
// false positive is a negative example, whose cost is C_N).
//
// While the member has made no error (λ^SW = 0) the correct-case factor is
// 0/0; it is then taken as its limit for unit costs, 1/(2(1−ε)) = 1/2,
// which is AdaBoost's update. The vote weight is log((1−ε)/ε).
func (e *ensemble) learnCSB2(x []float64, positive bool) {
	cost := e.exampleCost(positive)
	lambda := e.w
	for m := range e.members {
		mb := &e.members[m]
		if e.trainSum(m, x, positive, lambda) == positive {
			if mb.sw == 0 {
				lambda = clampLambda(lambda / 2)
				continue
			}
			eps := mb.sw / mb.sum
			werr := (mb.fp + mb.fn) / mb.sum
			lambda = clampLambda(lambda * eps / ((1 - eps) * (eps + werr)))
			continue
		}
		if positive {
			mb.fn += float64(cost * lambda)
		} else {
			mb.fp += float64(cost * lambda)
		}
		mb.sw += lambda
		eps := mb.sw / mb.sum
		werr := (mb.fp + mb.fn) / mb.sum
		lambda = clampLambda(cost * lambda / (eps + werr))
	}
}
