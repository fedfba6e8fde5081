package bonn

import (
	"testing"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/datadir"
)

// TestCrossValidateMeetsTargets runs the default model (UOB with naive
// Bayes, fixed before looking at these data) on S vs Z and S vs all: the
// segment-level AUC must reach 0.98 and 0.95.
func TestCrossValidateMeetsTargets(t *testing.T) {
	dir := datadir.Path(t, "data", "eeg", "bonn")
	for _, tt := range []struct {
		task string
		min  float64
	}{{"S-Z", 0.98}, {"S-all", 0.95}} {
		segs, err := Load(dir, append([]string{"S"}, Tasks[tt.task]...)...)
		if err != nil {
			t.Fatal(err)
		}
		res, err := CrossValidate(segs, Config{Folds: 5, Seed: 1, Model: classifier.Config{Algorithm: classifier.UOB}})
		if err != nil {
			t.Fatal(err)
		}
		if res.AUCMean < tt.min || len(res.AUC) != 5 || res.Positives != 80 {
			t.Errorf("%s: AUC %.4f over %d folds (%d ictal), want ≥ %v", tt.task, res.AUCMean, len(res.AUC), res.Positives, tt.min)
		}
		if res.Sensitivity < 0.9 || res.Specificity < 0.9 {
			t.Errorf("%s: sensitivity %.3f specificity %.3f", tt.task, res.Sensitivity, res.Specificity)
		}
	}
}

func TestCrossValidateRefusesTooFewSegments(t *testing.T) {
	segs := []Segment{{Set: "S", X: make([]float64, SegmentSamples)}, {Set: "Z", X: make([]float64, SegmentSamples)}}
	if _, err := CrossValidate(segs, Config{Folds: 5}); err == nil {
		t.Error("2 segments split in 5 folds")
	}
}
