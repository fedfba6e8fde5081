package paper

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPlotWritesEveryFigure(t *testing.T) {
	ds := loadShared(t, "iris0.dat")
	ds[0].Name = "satimage" // so the ROC figure is drawn
	var buf bytes.Buffer
	if err := RunCV(ds, CVOptions{Algorithms: []string{"UOB", "AC2"}, Learners: []string{"nb"}, Folds: 2, Points: 3, Workers: 2}, &buf); err != nil {
		t.Fatal(err)
	}
	if err := RunDrift(DriftOptions{Learners: []string{"nb"}, Runs: 2, Length: 300, Ratio: 10, Workers: 2}, &buf); err != nil {
		t.Fatal(err)
	}
	if err := RunCurve(ds[0], CurveOptions{Algorithms: []string{"UOB"}, Learners: []string{"nb"}, Fractions: []float64{0.3, 0.6}, Reps: 2, Points: 2}, &buf); err != nil {
		t.Fatal(err)
	}
	var res Results
	if err := ReadResults(&buf, "all.jsonl", &res); err != nil {
		t.Fatal(err)
	}
	if len(res.CV) != 4 || len(res.Drift) != 6 || len(res.Curve) != 4 {
		t.Fatalf("read %d cv, %d drift, %d curve records", len(res.CV), len(res.Drift), len(res.Curve))
	}
	dir := t.TempDir()
	names, err := Plot(&res, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"auc_mean", "auc_diff", "roc_satimage", "curve", "drift"}
	if !slices.Equal(names, want) {
		t.Errorf("figures %v, want %v", names, want)
	}
	for _, n := range want {
		for _, ext := range []string{".png", ".svg"} {
			b, err := os.ReadFile(filepath.Join(dir, n+ext))
			if err != nil || len(b) < 1000 {
				t.Errorf("%s%s: %d bytes, %v", n, ext, len(b), err)
			}
			if ext == ".png" && !bytes.HasPrefix(b, []byte("\x89PNG")) {
				t.Errorf("%s.png is not a PNG", n)
			}
		}
	}
}

func TestReadResultsNamesTheBadLine(t *testing.T) {
	var res Results
	err := ReadResults(strings.NewReader(`{"stream":"sine1","learner":"nb"}`+"\n{not json\n"), "x.jsonl", &res)
	if err == nil || !strings.Contains(err.Error(), "x.jsonl:2") {
		t.Errorf("got %v", err)
	}
	err = ReadResults(strings.NewReader(`{"what":1}`), "y.jsonl", &res)
	if err == nil || !strings.Contains(err.Error(), "y.jsonl:1") {
		t.Errorf("got %v", err)
	}
}

func FuzzReadResults(f *testing.F) {
	f.Add([]byte(`{"dataset":"iris0","algorithm":"UOB","learner":"nb","mode":"online","folds":5,"auc_mean":1,"auc_std":0,"roc":[[0,1]]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var res Results
		err := ReadResults(bytes.NewReader(b), "fuzz.jsonl", &res)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.jsonl") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		lines := 0
		for _, l := range bytes.Split(b, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				lines++
			}
		}
		if got := len(res.CV) + len(res.Drift) + len(res.Curve); got != lines {
			t.Fatalf("%d records from %d lines", got, lines)
		}
	})
}
