package classifier

import "math"

// MemberStats is the state of one ensemble member (Ensemble.AppendMembers):
// the running sums of the paper's pseudo-code that its algorithm keeps
// (the others are 0), the Poisson means of its last update and its vote.
type MemberStats struct {
	// Error is the member's weighted error ε_m, from which its vote
	// weight is computed (λ^SW/(λ^SC+λ^SW); AC2 (λ^FP+λ^FN)/(λ^TP+λ^TN+
	// λ^FP+λ^FN); CSB2 λ^SW/λ^SUM), before clamping; NaN while the
	// member has no estimate, and for bagging algorithms, which keep none.
	Error float64
	// Vote is the member's weight α_m in Score's and Margin's vote: 1 for
	// the bagging algorithms; for boosting log((1−ε)/ε), 0 when the member
	// abstains (see Config.LiteralVote).
	Vote float64
	// Lambda is the boosting weight λ that reached the member on the
	// last Learn, Rate the Poisson mean of its training draw and
	// SyntheticRate that of its synthetic SMOTE positives.
	Lambda, Rate, SyntheticRate float64
	// Correct and Wrong are λ^SC and λ^SW (OzaBoost, RUS, SBO; CSB2's
	// Wrong); TP, TN, FP, FN and Sum are AC2's (and CSB2's FP, FN, Sum)
	// cost-weighted λ sums; Pos and Neg are RUS's and SBO's λ^POS, λ^NEG.
	Correct, Wrong, TP, TN, FP, FN, Sum, Pos, Neg float64
	// Trained and Synthetic count the examples and synthetic examples
	// drawn for the member (the Poisson draws summed).
	Trained, Synthetic uint64
}

// AppendMembers implements Ensemble.
func (e *ensemble) AppendMembers(dst []MemberStats) []MemberStats {
	for m := range e.members {
		mb := &e.members[m]
		s := MemberStats{
			Error: math.NaN(), Vote: 1,
			Lambda: mb.lambda, Rate: mb.rate, SyntheticRate: mb.smoteRate,
			Correct: mb.sc, Wrong: mb.sw, TP: mb.tp, TN: mb.tn, FP: mb.fp, FN: mb.fn,
			Sum: mb.sum, Pos: mb.pos, Neg: mb.neg,
			Trained: mb.trained, Synthetic: mb.synthetic,
		}
		if e.alg.boosting() {
			if wrong, total := e.memberError(mb); total > 0 {
				s.Error = wrong / total
			}
			s.Vote = e.voteWeight(mb)
		}
		dst = append(dst, s)
	}
	return dst
}
