package paper

import (
	"slices"
	"testing"

	"github.com/ictal/ictal/classifier"
)

func TestSweepValuesSpanTheParameterTable(t *testing.T) {
	cases := []struct {
		alg  classifier.Algorithm
		span float64
		want []float64
	}{
		{classifier.AC2, 1, []float64{0.1, 0.55, 1}},
		{classifier.CSB2, 1, []float64{0.1, 0.55, 1}},
		{classifier.UOB, 1, []float64{1, 3, 5}},
		{classifier.SBO3, 1, []float64{1, 3, 5}},
		{classifier.RUS1, 1, []float64{5, 3, 1}},
		{classifier.SBO2, 1, []float64{5, 3, 1}},
		{classifier.OzaBag, 1, []float64{1.0 / 6, 0.5, 5.0 / 6}},
		{classifier.AC2, 2, []float64{0.05, 1.025, 2}},
		{classifier.UOB, 2, []float64{0.5, 5.25, 10}},
		{classifier.RUS1, 2, []float64{10, 5.25, 0.5}},
		{classifier.OzaBag, 2, []float64{1.0 / 6, 0.5, 5.0 / 6}},
	}
	for _, c := range cases {
		if got := sweepValues(c.alg, 3, 5, c.span); !slices.EqualFunc(got, c.want, func(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }) {
			t.Errorf("%s span %g: %v, want %v", c.alg, c.span, got, c.want)
		}
	}
	cfg := withCost(classifier.Config{Algorithm: classifier.AC2}, 0.3)
	if cfg.CP != 1 || cfg.CN != 0.3 || cfg.C != 0 {
		t.Errorf("AC2 cost: %+v", cfg)
	}
	if cfg := withCost(classifier.Config{Algorithm: classifier.RUS2}, 4); cfg.C != 4 || cfg.CN != 0 {
		t.Errorf("RUS2 cost: %+v", cfg)
	}
}

func TestDeriveSeedDependsOnEveryPart(t *testing.T) {
	a := deriveSeed(1, "glass1", "UOB", "nb", "online", "0", "3")
	for _, b := range []uint64{
		deriveSeed(2, "glass1", "UOB", "nb", "online", "0", "3"),
		deriveSeed(1, "glass4", "UOB", "nb", "online", "0", "3"),
		deriveSeed(1, "glass1", "UOB", "nb", "batch", "0", "3"),
		deriveSeed(1, "glass1", "UOB", "nb", "online", "1", "3"),
		deriveSeed(1, "glass1", "UOB", "nb", "online", "0", "4"),
		deriveSeed(1, "glass1U", "OB", "nb", "online", "0", "3"),
	} {
		if a == b {
			t.Error("two different jobs share a seed")
		}
	}
	if a != deriveSeed(1, "glass1", "UOB", "nb", "online", "0", "3") {
		t.Error("not a function of its parts")
	}
}
