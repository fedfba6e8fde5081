package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/bonn"
	"github.com/ictal/ictal/internal/datadir"
)

func bonnLines(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	var recs []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		recs = append(recs, m)
	}
	return recs
}

// TestBonnTrainTestFolders trains on segments 1–40 of S and Z and tests on
// 41–80, laid out as two folders of the shared layout.
func TestBonnTrainTestFolders(t *testing.T) {
	src := datadir.Path(t, "data", "eeg", "bonn")
	dir := t.TempDir()
	for _, half := range []string{"train", "test"} {
		for _, set := range []string{"S", "Z"} {
			d := filepath.Join(dir, half, set)
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			lo := 1
			if half == "test" {
				lo = 41
			}
			for i := lo; i < lo+40; i++ {
				name := fmt.Sprintf("%s%03d.txt", set, i)
				if err := os.Symlink(filepath.Join(src, set, name), filepath.Join(d, name)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"bonn", "-train", filepath.Join(dir, "train"), "-test", filepath.Join(dir, "test"), "-task", "S-Z"}, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	recs := bonnLines(t, out.Bytes())
	if len(recs) != 1 || recs[0]["mode"] != "train-test" || recs[0]["ictal_segments"] != 40.0 || recs[0]["auc_mean"].(float64) < 0.98 {
		t.Errorf("%v", recs)
	}
	errb.Reset()
	if code := run([]string{"bonn", "-data", src, "-task", "S-X"}, &out, &errb); code != 1 {
		t.Errorf("unknown task accepted: %s", errb.String())
	}
}

// TestBonnConcatEval runs the spliced-recording evaluation on 6-minute
// recordings: three replays, each scored.
func TestBonnConcatEval(t *testing.T) {
	src := datadir.Path(t, "data", "eeg", "bonn")
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"bonn", "-data", src, "-concat-eval", "-minutes", "6", "-seizure-rate", "0.3", "-o", dir, "-plot", dir}, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	kinds := map[string]int{}
	for _, r := range bonnLines(t, out.Bytes()) {
		kind := r["type"].(string)
		if kind == "file" {
			kind = r["phase"].(string)
		}
		kinds[kind]++
		if kind == "prequential" || kind == "bootstrapped" {
			if r["seizures"].(float64) < 1 || r["learned_seizure"].(float64) == 0 {
				t.Errorf("%v", r)
			}
		}
	}
	if kinds["concat"] != 2 || kinds["prequential"] != 1 || kinds["bootstrap-train"] != 1 || kinds["bootstrapped"] != 1 {
		t.Errorf("records %v", kinds)
	}
	for _, f := range []string{"bonn-train.edf", "bonn-test.edf", "concat_prequential.png", "concat_bootstrapped.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	errb.Reset()
	if code := run([]string{"bonn", "-data", src, "-concat"}, &out, &errb); code != 1 {
		t.Errorf("-concat without -o: %d", code)
	}
}

func TestHalvesAreDisjointPerSet(t *testing.T) {
	var segs []bonn.Segment
	for _, set := range []string{"S", "Z"} {
		for i := 1; i <= 5; i++ { // odd counts: parity restarts per set
			segs = append(segs, bonn.Segment{Set: set, Name: fmt.Sprintf("%s%03d.txt", set, i)})
		}
	}
	a, _ := halfOf(segs, "a")
	b, _ := halfOf(segs, "b")
	var names []string
	for _, s := range a {
		names = append(names, s.Name)
	}
	if fmt.Sprint(names) != "[S001.txt S003.txt S005.txt Z001.txt Z003.txt Z005.txt]" || len(b) != 4 {
		t.Errorf("half a %v, half b has %d", names, len(b))
	}
	if _, err := halfOf(segs, "c"); err == nil {
		t.Error("-half c accepted")
	}
}

// The modes are subcommands; each checks the flags it needs.
func TestBonnModes(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bonn", "concat", "-data", "x"}, "-concat needs -o"},
		{[]string{"bonn", "train-test", "-train", "x"}, "train-test needs -train and -test"},
		{[]string{"bonn", "cv", "-data", "x", "-concat"}, "cv takes -data only"},
		{[]string{"bonn", "concat-eval"}, "-data is required"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%q: exit %d, %q; want %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}
