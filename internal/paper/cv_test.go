package paper

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
)

func loadShared(t *testing.T, names ...string) []Data {
	t.Helper()
	var paths []string
	for _, n := range names {
		paths = append(paths, datadir.Path(t, "data", "keel", n))
	}
	ds, err := LoadData(paths)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestRunCVIdenticalForAnyNumberOfWorkers(t *testing.T) {
	ds := loadShared(t, "glass4.dat", "iris0.dat")
	run := func(workers int) string {
		var out bytes.Buffer
		opt := CVOptions{Algorithms: []string{"UOB", "AC2", "SBO2", "OzaBag"}, Learners: []string{"nb", "qda"},
			Folds: 3, Points: 3, Seed: 7, Workers: workers}
		if err := RunCV(ds, opt, &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	one, two, three := run(1), run(2), run(3)
	if one != two || one != three {
		t.Fatal("output differs between 1, 2 and 3 workers")
	}
	lines := strings.Split(strings.TrimSpace(one), "\n")
	if len(lines) != 2*4*2*2 {
		t.Fatalf("%d records, want 32", len(lines))
	}
	var first CVRecord
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.Dataset != "glass4" || first.Algorithm != "UOB" || first.Learner != "nb" || first.Mode != "online" ||
		first.Folds != 3 || len(first.AUCFolds) != 3 || len(first.ROC) != 3 || first.Sweep != SweepC ||
		!(first.AUCMean > 0.5 && first.AUCMean <= 1) || !(first.AUCScore > 0.5) {
		t.Errorf("first record %+v", first)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"dataset", "algorithm", "learner", "mode", "folds", "auc_mean", "auc_std"} {
			if _, ok := m[k]; !ok {
				t.Errorf("record lacks %q: %s", k, l)
			}
		}
	}
}

func TestRunCVRejectsBadOptions(t *testing.T) {
	ds := loadShared(t, "glass4.dat")
	for _, opt := range []CVOptions{
		{Algorithms: []string{"nsAC2"}},
		{Learners: []string{"svm"}},
		{Modes: []string{"offline"}},
		{Folds: 1},
		{Points: -1},
		{Folds: 20}, // 13 positives cannot fill 20 folds
	} {
		if err := RunCV(ds, opt, new(bytes.Buffer)); err == nil {
			t.Errorf("%+v accepted", opt)
		}
	}
}

func TestMakeSplitStandardisesOnTheTrainingRows(t *testing.T) {
	X := [][]float64{{1, 5}, {3, 5}, {5, 5}, {100, 7}}
	y := []bool{true, false, false, true}
	s := makeSplit(X, y, []int{0, 1, 2}, []int{3})
	// mean (3, 5), sd (sqrt(8/3), 0 → 1)
	if s.xtr[0][0] >= 0 || s.xtr[1][0] != 0 || s.xtr[0][1] != 0 || s.xte[0][1] != 2 || s.ratio != 2 {
		t.Errorf("split %+v", s)
	}
}

func TestRunCurveRecords(t *testing.T) {
	ds := loadShared(t, "iris0.dat")
	var out bytes.Buffer
	opt := CurveOptions{Algorithms: []string{"UOB"}, Learners: []string{"nb"}, Fractions: []float64{0.2, 0.6}, Reps: 2, Points: 2, Seed: 1, Workers: 2}
	if err := RunCurve(ds[0], opt, &out); err != nil {
		t.Fatal(err)
	}
	var res Results
	if err := ReadResults(&out, "curve", &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Curve) != 4 || res.Curve[0].Fraction != 0.2 || res.Curve[0].Mode != ModeOnline || res.Curve[3].Mode != ModeBatch || len(res.Curve[0].AUCReps) != 2 {
		t.Errorf("records %+v", res.Curve)
	}
	if err := RunCurve(ds[0], CurveOptions{Fractions: []float64{1.5}}, &out); err == nil {
		t.Error("fraction 1.5 accepted")
	}
}

func TestRunCVHullFields(t *testing.T) {
	ds := loadShared(t, "glass4.dat")
	run := func(hull bool) []CVRecord {
		var out bytes.Buffer
		opt := CVOptions{Algorithms: []string{"UOB", "AC2"}, Learners: []string{"nb"}, Modes: []string{ModeOnline},
			Folds: 3, Points: 4, Seed: 7, Workers: 1, Hull: hull}
		if err := RunCV(ds, opt, &out); err != nil {
			t.Fatal(err)
		}
		var recs []CVRecord
		for dec := json.NewDecoder(&out); dec.More(); {
			var r CVRecord
			if err := dec.Decode(&r); err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
		}
		return recs
	}
	plain, hull := run(false), run(true)
	for i, r := range hull {
		if plain[i].AUCHullFolds != nil {
			t.Errorf("%s: hull folds without -hull", r.Algorithm)
		}
		if r.AUCMean != plain[i].AUCMean || len(r.AUCHullFolds) != r.Folds {
			t.Errorf("%s: polyline AUC %g (without hull %g), %d hull folds", r.Algorithm, r.AUCMean, plain[i].AUCMean, len(r.AUCHullFolds))
		}
		for f, h := range r.AUCHullFolds {
			if h < r.AUCFolds[f]-1e-12 || h < 0.5 || h > 1 {
				t.Errorf("%s fold %d: hull AUC %g below polyline %g or outside [½, 1]", r.Algorithm, f, h, r.AUCFolds[f])
			}
		}
	}
}

func TestRunCVLiteralVoteIsRecorded(t *testing.T) {
	ds := loadShared(t, "iris0.dat")
	for _, literal := range []bool{false, true} {
		var out bytes.Buffer
		opt := CVOptions{Algorithms: []string{"RUS3"}, Learners: []string{"nb"}, Modes: []string{"online"},
			Folds: 2, Points: 2, Seed: 3, Workers: 1, LiteralVote: literal}
		if err := RunCV(ds, opt, &out); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		if v, ok := m["vote"]; literal && v != "literal" || !literal && ok {
			t.Errorf("LiteralVote %v: record's vote %v (present %v)", literal, v, ok)
		}
	}
}
