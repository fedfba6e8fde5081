package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
)

func TestPaperCVDeterministicAcrossWorkers(t *testing.T) {
	glass4 := datadir.Path(t, "data", "keel", "glass4.dat")
	iris0 := datadir.Path(t, "data", "keel", "iris0.dat")
	args := []string{"paper", "cv", "-data", glass4, iris0, "-algorithms", "UOB,RUS1,SB", "-learners", "nb,lda", "-folds", "3", "-points", "3", "-seed", "5", "-q"}
	one, e1, c1 := runIctal(append(args, "-workers", "1")...)
	two, e2, c2 := runIctal(append(args, "-workers", "2")...)
	if c1 != 0 || c2 != 0 {
		t.Fatalf("exit %d, %d: %s %s", c1, c2, e1, e2)
	}
	if one != two {
		t.Fatal("-workers 1 and -workers 2 differ")
	}
	lines := strings.Split(strings.TrimSpace(one), "\n")
	if len(lines) != 2*3*2*2 {
		t.Fatalf("%d records, want 24", len(lines))
	}
	var r struct {
		Dataset, Algorithm, Learner, Mode string
		Folds                             int
		AUCMean                           float64 `json:"auc_mean"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Fatal(err)
	}
	if r.Dataset != "iris0" || r.Algorithm != "SB" || r.Learner != "lda" || r.Mode != "batch" || r.Folds != 3 || !(r.AUCMean > 0.9) {
		t.Errorf("last record %+v (iris0 is separable)", r)
	}
}

// -literal-vote reaches the records (the paper's vote instead of
// abstention), and only when given.
func TestPaperCVLiteralVoteFlag(t *testing.T) {
	iris0 := datadir.Path(t, "data", "keel", "iris0.dat")
	for _, literal := range []bool{false, true} {
		args := []string{"paper", "cv", "-data", iris0, "-algorithm", "RUS3", "-learner", "nb", "-mode", "online", "-folds", "2", "-points", "2", "-q"}
		if literal {
			args = append(args, "-literal-vote")
		}
		out, errs, code := runIctal(args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if got := strings.Contains(out, `"vote":"literal"`); got != literal {
			t.Errorf("-literal-vote %v: record %s", literal, out)
		}
	}
}

func TestPaperCVProgressAndErrors(t *testing.T) {
	iris0 := datadir.Path(t, "data", "keel", "iris0.dat")
	_, stderr, code := runIctal("paper", "cv", "-data", iris0, "-algorithms", "AC2", "-learners", "nb", "-modes", "batch", "-folds", "2", "-points", "2")
	if code != 0 || !strings.Contains(stderr, "cv: 2/2") {
		t.Errorf("exit %d, progress %q", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"paper", "cv"}, "-data is required"},
		{[]string{"paper", "cv", "-data", iris0, "-algorithms", "XYZ"}, `algorithm "XYZ"`},
		{[]string{"paper", "cv", "-data", iris0, "-folds", "1"}, "-folds 1"},
		{[]string{"paper", "cv", "-data", filepath.Join(t.TempDir(), "none.dat")}, "no such file"},
		{[]string{"paper", "nope"}, `unknown subcommand "nope"`},
		{[]string{"paper", "drift", "-runs", "0"}, "-runs 0"},
		{[]string{"paper", "curve"}, "want exactly one file"},
		{[]string{"paper", "plots", "-out", t.TempDir()}, "-in and -o are required"},
	} {
		_, stderr, code := runIctal(c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", c.args, code, stderr, c.want)
		}
	}
	if _, stderr, code := runIctal("paper", "cv", "-h"); code != 0 || !strings.Contains(stderr, "usage: ictal paper cv -data PATH...") {
		t.Errorf("-h: exit %d, %q", code, stderr)
	}
}

func TestPaperDriftCurvePlots(t *testing.T) {
	dir := t.TempDir()
	drift, stderr, code := runIctal("paper", "drift", "-streams", "sine1", "-learners", "nb", "-runs", "2", "-length", "400", "-ratio", "10", "-q")
	if code != 0 {
		t.Fatalf("drift: %s", stderr)
	}
	if n := strings.Count(drift, `"stream":"sine1"`); n != 2 {
		t.Errorf("drift: %d records, want plain and ns", n)
	}
	iris0 := datadir.Path(t, "data", "keel", "iris0.dat")
	curve, stderr, code := runIctal("paper", "curve", "-data", iris0, "-algorithms", "UOB", "-learners", "nb", "-fractions", "0.3,0.6", "-reps", "2", "-points", "2", "-q")
	if code != 0 {
		t.Fatalf("curve: %s", stderr)
	}
	in := filepath.Join(dir, "all.jsonl")
	if err := os.WriteFile(in, []byte(drift+curve), 0o644); err != nil {
		t.Fatal(err)
	}
	names, stderr, code := runIctal("paper", "plots", "-in", in, "-out", filepath.Join(dir, "fig"))
	if code != 0 || names != "curve\ndrift\n" {
		t.Fatalf("plots: exit %d, names %q, %s", code, names, stderr)
	}
	for _, f := range []string{"curve.png", "curve.svg", "drift.png", "drift.svg"} {
		if st, err := os.Stat(filepath.Join(dir, "fig", f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}
