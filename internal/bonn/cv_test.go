package bonn

import (
	"testing"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/shared"
)

func TestCrossValidateSZ(t *testing.T) {
	dir := shared.Path(t, "data", "eeg", "bonn")
	segs, err := Load(dir, "S", "Z")
	if err != nil {
		t.Fatal(err)
	}
	res, err := CrossValidate(segs, Config{Folds: 5, Seed: 1, Model: classifier.Config{Algorithm: classifier.UOB}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res.AUC)
	t.Logf("auc %.4f±%.4f sens %.3f spec %.3f window auc %.4f", res.AUCMean, res.AUCStd, res.Sensitivity, res.Specificity, res.WindowAUC)
}
