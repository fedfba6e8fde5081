package classifier

// learnSMOTEBoost is online SMOTEBoost 1, 2 and 3 (Alg. onlineSMOTE):
// online boosting that also trains each member on synthetic positives made
// by online SMOTE from the latest stored positive, while the error sums
// λ^SC, λ^SW are kept on the original stream with λ. λ^POS, λ^NEG are
// updated per member and n⁺, n⁻ once per example, as in RUSBoost:
//
//	SBO1: λ' = λ;  y=1: λ^SMOTE = n⁻/(C·n⁺) − 1
//	SBO2: y=1: λ' = λ · n⁺/(n⁺+n⁻) / (P/(P+N)),  λ^SMOTE = λ'·(n⁻/(C·n⁺) − 1)
//	      y=0: λ' = λ · n⁻/(n⁺+n⁻) / (N/(P+N))
//	SBO3: λ' = λ;  y=1: λ^SMOTE = (C−1)·λ
//
// and λ^SMOTE = 0 for negatives. SBO1's synthetic rate is not scaled by λ:
// its synthetic examples carry weight 1/N' whatever the boosting weights,
// as the paper derives. A negative λ^SMOTE (C·n⁺ > n⁻: positives are
// already at least 1/C of negatives) means no synthetic example. SBO2's λ'
// is λ until both classes have been seen.
func (e *ensemble) learnSMOTEBoost(x []float64, positive bool) {
	e.learnResampled(x, positive, func(mb *member, lambda float64) (float64, float64) {
		return e.smoteRates(mb, positive, lambda)
	})
}

// smoteRates is member mb's λ' and λ^SMOTE for an example of weight λ,
// after tally.
func (e *ensemble) smoteRates(mb *member, positive bool, lambda float64) (rate, srate float64) {
	C := e.cfg.C
	np, nn := e.nPos, e.nNeg
	rate = lambda
	if e.alg == algSBO2 && np > 0 && nn > 0 {
		if positive {
			rate = lambda * np / (np + nn) / mb.share(true)
		} else {
			rate = lambda * nn / (np + nn) / mb.share(false)
		}
	}
	if positive {
		switch e.alg {
		case algSBO1:
			srate = (nn/(C*np) - 1) * e.w
		case algSBO2:
			srate = rate * (nn/(C*np) - 1)
		case algSBO3:
			srate = (C - 1) * lambda
		}
		if !(srate > 0) {
			srate = 0
		}
	}
	return rate, srate
}
