package batch

import "github.com/ictal/ictal/internal/detmath"

// epsMin bounds ε away from 0 in a vote weight, as the online ensembles do.
const epsMin = 1e-6

// voteWeight is a member's vote weight log((1−ε)/ε), 0 (abstain) for
// ε ≥ 0.5, with ε clamped below at epsMin: the online rule. With literal
// (Config.LiteralVote) ε > 0.5 gives the negative log((1−ε)/ε), ε clamped
// above at 1−epsMin.
func voteWeight(eps float64, literal bool) float64 {
	if literal && eps > 0.5 {
		eps = min(eps, 1-epsMin)
		return detmath.Log((1 - eps) / eps)
	}
	if !(eps < 0.5) {
		return 0
	}
	if eps < epsMin {
		eps = epsMin
	}
	return detmath.Log((1 - eps) / eps)
}

// normalise rescales D to sum 1 (uniform if it sums to 0).
func normalise(D []float64) {
	var s float64
	for _, v := range D {
		s += v
	}
	for i := range D {
		if s > 0 {
			D[i] /= s
		} else {
			D[i] = 1 / float64(len(D))
		}
	}
}

// updateAdaBoost applies Alg. adaboost's step to D (summing to 1) and
// returns the member's error ε = Σ D(n)·[wrong]:
//
//	correct: D ← D / (2(1−ε));  wrong: D ← D / (2ε)
//
// With ε = 0 or 1 only one case occurs and D keeps its shape. D is then
// renormalised (a no-op but for rounding when 0 < ε < 1).
func updateAdaBoost(D []float64, wrong []bool) float64 {
	var eps float64
	for i, w := range wrong {
		if w {
			eps += D[i]
		}
	}
	for i, w := range wrong {
		if w {
			D[i] /= 2 * eps
		} else {
			D[i] /= 2 * (1 - eps)
		}
	}
	normalise(D)
	return eps
}

// updateAC2 applies Alg. AdaC2's step in the normalisation-free form online
// AdaC2 is derived from, with wacc = Σ C_n D(n)[correct] and
// werr = Σ C_n D(n)[wrong]:
//
//	correct: D ← C_n·D / (2·wacc);  wrong: D ← C_n·D / (2·werr)
//
// which equals C_n·D·exp(∓α)/Z with α = ½log(wacc/werr). It returns
// ε = werr/(wacc+werr), whose vote weight log((1−ε)/ε) is log(wacc/werr).
func updateAC2(D []float64, wrong []bool, cost []float64) float64 {
	var wacc, werr float64
	for i, w := range wrong {
		if w {
			werr += float64(cost[i] * D[i])
		} else {
			wacc += float64(cost[i] * D[i])
		}
	}
	for i, w := range wrong {
		if w {
			D[i] = cost[i] * D[i] / (2 * werr)
		} else {
			D[i] = cost[i] * D[i] / (2 * wacc)
		}
	}
	normalise(D)
	return werr / (wacc + werr)
}

// updateCSB2 applies Alg. CSB2's step in the normalisation-free form online
// CSB2 is derived from, with ε = Σ D(n)[wrong] and werr = Σ C_n D(n)[wrong]:
//
//	correct: D ← D·ε / ((1−ε)(ε+werr));  wrong: D ← C_n·D / (ε+werr)
//
// The correct-case factor is 0/0 when ε = 0; it is then 1/2, AdaBoost's,
// as in online CSB2. It returns ε. The update equals the printed
// C_δ·D·exp(∓α)/Z with AdaBoost's α = ½log((1−ε)/ε); Alg. CSB2 prints
// α = ½log(ε/(1−ε)), upside down (see the classifier package comment).
func updateCSB2(D []float64, wrong []bool, cost []float64) float64 {
	var eps, werr float64
	for i, w := range wrong {
		if w {
			eps += D[i]
			werr += float64(cost[i] * D[i])
		}
	}
	for i, w := range wrong {
		switch {
		case w:
			D[i] = cost[i] * D[i] / (eps + werr)
		case eps == 0:
			D[i] /= 2
		default:
			D[i] = D[i] * eps / ((1 - eps) * (eps + werr))
		}
	}
	normalise(D)
	return eps
}
