package paper

import "github.com/ictal/ictal/classifier"

// Sweep parameters, named in the records' "sweep" field.
const (
	SweepCN        = "CN"        // AC2, CSB2: C_P = 1, C_N from 0.1 to 1
	SweepC         = "C"         // UOB, SB, RUS1–3, SBO1–3: C between 1 and the class ratio
	SweepThreshold = "threshold" // OzaBag, OzaBoost: no cost; the decision threshold
)

// sweepKind returns how an algorithm's ROC is traced.
func sweepKind(alg classifier.Algorithm) string {
	switch alg {
	case classifier.AC2, classifier.CSB2:
		return SweepCN
	case classifier.OzaBag, classifier.OzaBoost:
		return SweepThreshold
	}
	return SweepC
}

// sweepValues returns the n settings of an algorithm's cost, spanning the
// paper's Table "Parameter Setting" evenly: C_N from 0.1 to 1 (AC2, CSB2);
// C from 1 to ratio (UOB, SB, RUS3, SBO3); C from ratio down to 1 (RUS1,
// RUS2, SBO1, SBO2). For OzaBag and OzaBoost, which have no cost, they are
// n decision thresholds (i+½)/n on the score of one trained model.
//
// A span F > 1 widens each cost range [lo, hi] to [lo/F, hi·F] (spacing
// still even): C_N from 0.1/F to F, C from 1/F to F·ratio. F = 1 is the
// paper's table; thresholds do not change.
func sweepValues(alg classifier.Algorithm, n int, ratio, span float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		t := 0.0
		if n > 1 {
			t = float64(i) / float64(n-1)
		}
		switch alg {
		case classifier.AC2, classifier.CSB2:
			lo, hi := 0.1/span, span
			v[i] = lo + (hi-lo)*t
		case classifier.OzaBag, classifier.OzaBoost:
			v[i] = (float64(i) + 0.5) / float64(n)
		case classifier.RUS1, classifier.RUS2, classifier.SBO1, classifier.SBO2:
			lo, hi := 1/span, ratio*span
			v[i] = hi - (hi-lo)*t
		default:
			lo, hi := 1/span, ratio*span
			v[i] = lo + (hi-lo)*t
		}
	}
	return v
}

// withCost returns cfg with the sweep's setting v applied.
func withCost(cfg classifier.Config, v float64) classifier.Config {
	switch sweepKind(cfg.Algorithm) {
	case SweepCN:
		cfg.CP, cfg.CN = 1, v
	case SweepC:
		cfg.C = v
	}
	return cfg
}
