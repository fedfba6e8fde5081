package classifier

// tally adds the example's λ to member mb's λ^POS or λ^NEG (RUS, SBO).
func (mb *member) tally(positive bool, lambda float64) {
	if positive {
		mb.pos += lambda
	} else {
		mb.neg += lambda
	}
}

// share is the member's weighted share of the example's class,
// λ^POS/(λ^POS+λ^NEG) or λ^NEG/(λ^POS+λ^NEG): the online estimate of the
// paper's D_m⁺ or D_m⁻. It is positive once tally has counted the example.
func (mb *member) share(positive bool) float64 {
	if positive {
		return mb.pos / (mb.pos + mb.neg)
	}
	return mb.neg / (mb.pos + mb.neg)
}

// learnRUS is online RUSBoost 1, 2 and 3 (Alg. onlineRUS): online boosting
// whose training draw uses a resampled rate λ^RUS while the error sums
// λ^SC, λ^SW are kept on the original stream with λ. Per member,
// λ^POS += λ for a positive and λ^NEG += λ for a negative; the class counts
// n⁺, n⁻ are counted once per example (by Learn, before the member loop):
//
//	RUS1 (fixed class ratio), with P = λ^POS, N = λ^NEG:
//	  y=1: λ^RUS = λ · (P+N)/(P + N·C·n⁺/n⁻) · (C+1)n⁺/(n⁺+n⁻)
//	  y=0: λ^RUS = λ · (P+N)/(N + P·n⁻/(C·n⁺)) · (C+1)n⁺/(n⁺+n⁻)
//	RUS2 (fixed example distribution):
//	  y=1: λ^RUS = λ · n⁺/(n⁺+n⁻) / (P/(P+N))
//	  y=0: λ^RUS = λ · C·n⁺/(n⁺+n⁻) / (N/(P+N))
//	RUS3 (fixed sampling rate):
//	  y=1: λ^RUS = λ;  y=0: λ^RUS = λ/C
//
// RUS1 and RUS2 are undefined until both classes have been seen (n⁺ or n⁻
// is 0); until then λ^RUS = λ, plain online boosting.
//
// RUS1's undersampling rate C·n⁺/n⁻ is clamped at 1, as in batch RUS1,
// which keeps min(C·N⁺, N⁻) negatives: once C·n⁺ ≥ n⁻ there is nothing to
// remove, the training set is the whole stream, and λ^RUS = λ (both
// printed factors are then 1). The printed online rates leave the factor
// unclamped: with C·n⁺ > n⁻ they would oversample negatives, at up to C·n⁺/n⁻
// times a positive's rate, which no batch RUS1 does.
func (e *ensemble) learnRUS(x []float64, positive bool) {
	e.learnResampled(x, positive, func(mb *member, lambda float64) (float64, float64) {
		return e.rusRate(mb, positive, lambda), 0
	})
}

// rusRate is member mb's λ^RUS for an example of weight λ, after tally.
func (e *ensemble) rusRate(mb *member, positive bool, lambda float64) float64 {
	C := e.cfg.C
	np, nn := e.nPos, e.nNeg
	rate := lambda
	switch {
	case e.alg == algRUS3:
		if !positive {
			rate = lambda / C
		}
	case np == 0 || nn == 0:
		// one class unseen: plain boosting
	case e.alg == algRUS1 && float64(C*np) >= nn:
		// C·n⁺ ≥ n⁻: no negative to remove, plain boosting
	case e.alg == algRUS1:
		scale := (mb.pos + mb.neg) * (C + 1) * np / (np + nn)
		if positive {
			rate = lambda * scale / (mb.pos + mb.neg*C*np/nn)
		} else {
			rate = lambda * scale / (mb.neg + mb.pos*nn/(C*np))
		}
	case e.alg == algRUS2:
		if positive {
			rate = lambda * np / (np + nn) / mb.share(true)
		} else {
			rate = lambda * C * np / (np + nn) / mb.share(false)
		}
	}
	return rate
}

// learnResampled is the member loop of RUSBoost and SMOTEBoost: per
// member, decay (ns), λ^POS or λ^NEG += λ, train k ~ Poisson(rate) times
// and k' ~ Poisson(srate) times on synthetic positives, where rates gives
// the member's rate and srate for the example of weight λ, then the
// online boosting update of λ on the original stream.
func (e *ensemble) learnResampled(x []float64, positive bool, rates func(mb *member, lambda float64) (rate, srate float64)) {
	lambda := e.w
	for m := range e.members {
		mb := &e.members[m]
		mb.decay(e.beta)
		mb.tally(positive, lambda)
		rate, srate := rates(mb, lambda)
		mb.lambda, mb.rate, mb.smoteRate = lambda, rate, srate
		mb.train(x, positive, mb.rng.poisson(rate))
		if srate > 0 {
			e.trainSynthetic(mb, mb.rng.poisson(srate))
		}
		lambda = clampLambda(oza(mb, lambda, e.predict(m, x) == positive))
	}
}
