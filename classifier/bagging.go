package classifier

// learnBagging is online bagging (Alg. onlinebagging, Oza & Russell) and
// online UnderOverBagging (Alg. onlineunderoverbagging). Member m = 1..M
// trains on the example k ~ Poisson(λ) times, with
//
//	OzaBag: λ = 1
//	UOB:    a = m/M; λ = a·C for a positive, λ = a for a negative,
//
// so the resampling rate grows from undersampling at the first member to
// plain bagging at the last, and positives are oversampled C times.
func (e *ensemble) learnBagging(x []float64, positive bool) {
	M := float64(len(e.members))
	for m := range e.members {
		mb := &e.members[m]
		lambda := e.w
		if e.alg == algUOB {
			a := float64(m+1) / M
			lambda = a * e.w
			if positive {
				lambda = a * e.cfg.C * e.w
			}
		}
		mb.rate = lambda
		mb.train(x, positive, mb.rng.poisson(lambda))
	}
}

// learnSMOTEBagging is online SMOTEBagging (Alg. onlinesmotebagging): with
// a = m/M, a positive trains member m k ~ Poisson(a·C) times and adds
// k' ~ Poisson((1−a)·C) synthetic positives from online SMOTE; a negative
// trains it k ~ Poisson(1) times, the online form of the batch algorithm's
// resampling of N⁻ negatives at rate 100 %. The positive was stored in the
// SMOTE memory once, by Learn, before this loop.
func (e *ensemble) learnSMOTEBagging(x []float64, positive bool) {
	M := float64(len(e.members))
	for m := range e.members {
		mb := &e.members[m]
		if !positive {
			mb.rate, mb.smoteRate = e.w, 0
			mb.train(x, false, mb.rng.poisson(e.w))
			continue
		}
		a := float64(m+1) / M
		mb.rate, mb.smoteRate = a*e.cfg.C*e.w, (1-a)*e.cfg.C*e.w
		mb.train(x, true, mb.rng.poisson(mb.rate))
		e.trainSynthetic(mb, mb.rng.poisson(mb.smoteRate))
	}
}
