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
	for _, bad := range []string{"c", "ac", "ca", "aab"} {
		if _, err := halfOf(segs, bad); err == nil {
			t.Errorf("-half %s accepted", bad)
		}
	}
	// Quarters: the halves of a half, disjoint, together the half.
	aa, _ := halfOf(segs, "aa")
	ab, _ := halfOf(segs, "ab")
	names = names[:0]
	for _, s := range append(aa, ab...) {
		names = append(names, s.Name)
	}
	if fmt.Sprint(names) != "[S001.txt S005.txt Z001.txt Z005.txt S003.txt Z003.txt]" {
		t.Errorf("quarters aa + ab: %v", names)
	}
}

// feedback-eval refuses a test half that shares segments with the
// training half, before it reads any data.
func TestFeedbackEvalHalvesMustBeDisjoint(t *testing.T) {
	for _, h := range [][2]string{{"a", "a"}, {"a", "ab"}, {"bb", "b"}} {
		var out, errb bytes.Buffer
		code := run([]string{"bonn", "feedback-eval", "-data", t.TempDir(), "-train-half", h[0], "-test-half", h[1]}, &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), "share segments") {
			t.Errorf("-train-half %s -test-half %s: exit %d, %q", h[0], h[1], code, errb.String())
		}
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
		{[]string{"bonn", "feedback-eval"}, "-data is required"},
		{[]string{"bonn", "feedback-eval", "-data", "x", "-seeds", "5-1"}, `-seeds "5-1": 5 is after 1`},
		{[]string{"bonn", "feedback-eval", "-data", "x", "-minutes", "-3"}, "-minutes -3: want a length in (0, 10080]"},
		{[]string{"bonn", "feedback-eval", "-data", "x", "-minutes", "inf"}, "-minutes +Inf: want a length"},
		{[]string{"bonn", "concat-eval", "-data", "x", "-minutes", "nan"}, "-minutes NaN: want a length"},
		{[]string{"bonn", "concat", "-data", "x", "-o", "x.edf", "-minutes", "0"}, "-minutes 0: want a length"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%q: exit %d, %q; want %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

// TestBonnFeedbackEval runs feedback-eval on two seeds of 20-minute
// recordings: the same output twice; per seed and run, the parts add up
// to the whole; every label sent was applied or refused, some applied;
// the run without feedback sends none; the sum is the seeds'.
func TestBonnFeedbackEval(t *testing.T) {
	src := datadir.Path(t, "data", "eeg", "bonn")
	dir := t.TempDir()
	args := []string{"bonn", "feedback-eval", "-data", src, "-minutes", "20", "-seizure-rate", "0.2", "-seeds", "1-2", "-plot", dir}
	var outs [2]bytes.Buffer
	for i := range outs {
		var errb bytes.Buffer
		if code := run(args, &outs[i], &errb); code != 0 {
			t.Fatal(errb.String())
		}
	}
	if !bytes.Equal(outs[0].Bytes(), outs[1].Bytes()) {
		t.Errorf("two runs differ:\n%s\n%s", outs[0].String(), outs[1].String())
	}
	keys := []string{"minutes", "seizures", "detected", "false_alarms", "labels_sent", "confirmed", "rejected", "marked", "labels_applied", "labels_refused", "labels_unsent"}
	sums := map[string]map[string]float64{} // by seeds/run/part: parts summed, and the seeds summed
	add := func(k string, r map[string]any) {
		if sums[k] == nil {
			sums[k] = map[string]float64{}
		}
		for _, f := range keys {
			sums[k][f] += r[f].(float64)
		}
	}
	recs := bonnLines(t, outs[0].Bytes())
	if len(recs) != 3*2*4 {
		t.Fatalf("%d records, want 24 (seeds 1, 2 and 1-2; two runs; three parts and all)", len(recs))
	}
	applied := 0.0
	for _, r := range recs {
		seeds, run, part := r["seeds"].(string), r["run"].(string), r["part"].(string)
		if r["labels_sent"] != r["labels_applied"].(float64)+r["labels_refused"].(float64) ||
			r["labels_sent"] != r["confirmed"].(float64)+r["rejected"].(float64)+r["marked"].(float64) {
			t.Errorf("labels do not add up: %v", r)
		}
		if run == "no-feedback" && r["labels_sent"].(float64)+r["labels_unsent"].(float64) != 0 {
			t.Errorf("labels without feedback: %v", r)
		}
		if part == "all" {
			add(seeds+" "+run+" all", r)
			if seeds != "1-2" {
				add("1-2 "+run+" all (seeds)", r)
			}
			if run == "feedback" && seeds != "1-2" {
				applied += r["labels_applied"].(float64)
			}
		} else {
			add(seeds+" "+run+" parts", r)
		}
	}
	for k, all := range sums {
		if !strings.HasSuffix(k, " all") {
			continue
		}
		base := strings.TrimSuffix(k, " all")
		for _, other := range []string{base + " parts", base + " all (seeds)"} {
			got, ok := sums[other]
			if !ok {
				continue
			}
			for _, f := range keys {
				if d := got[f] - all[f]; d > 1e-6 || d < -1e-6 {
					t.Errorf("%s: %s adds up to %v, all says %v", other, f, got[f], all[f])
				}
			}
		}
	}
	if applied == 0 {
		t.Error("no label applied")
	}
	if _, err := os.Stat(filepath.Join(dir, "feedback_thirds.png")); err != nil {
		t.Error(err)
	}
	var text, errb bytes.Buffer
	if code := run(append(args[:len(args)-2], "-text"), &text, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	if !strings.Contains(text.String(), "| 1-2 | all |") || strings.Count("\n"+text.String(), "\n| ") != 1+3*4 {
		t.Errorf("table:\n%s", text.String())
	}
}

func FuzzParseSeeds(f *testing.F) {
	for _, s := range []string{"1-5", "3", "5-1", "0-999", "1-", "-", "18446744073709551615"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seeds, err := parseSeeds(s)
		if err != nil {
			if !strings.Contains(err.Error(), "-seeds") {
				t.Fatalf("error without the flag: %v", err)
			}
			return
		}
		if len(seeds) == 0 || len(seeds) > 1000 {
			t.Fatalf("%q: %d seeds", s, len(seeds))
		}
		for i := 1; i < len(seeds); i++ {
			if seeds[i] != seeds[i-1]+1 {
				t.Fatalf("%q: %v", s, seeds)
			}
		}
	})
}
