package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ictal/ictal/classifier"
)

func TestTrainAndReplay(t *testing.T) {
	dir := t.TempDir()
	a, b, model := filepath.Join(dir, "a.edf"), filepath.Join(dir, "b.edf"), filepath.Join(dir, "m.model")
	var out, errb bytes.Buffer
	for _, args := range [][]string{
		{"synth", "-o", a, "-duration", "20m", "-seizures", "3", "-seed", "3", "-channels", "4"},
		{"synth", "-o", b, "-duration", "10m", "-seizures", "2", "-seed", "4", "-channels", "4"},
	} {
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: %s", args, errb.String())
		}
	}
	out.Reset()
	if code := run([]string{"train", "-o", model, a}, &out, &errb); code != 0 {
		t.Fatalf("train: %s", errb.String())
	}
	var rep fileReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	if rep.Seizures != 3 || rep.LearnedPos == 0 || rep.LearnedNeg == 0 {
		t.Errorf("train report %+v", rep)
	}
	mb, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := classifier.Load(mb); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"replay", "-model", model, b}, &out, &errb); code != 0 {
		t.Fatalf("replay: %s", errb.String())
	}
	kinds := map[string]int{}
	var sum fileReport
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		kinds[m["type"].(string)]++
		if m["type"] == "summary" {
			json.Unmarshal(sc.Bytes(), &sum)
		}
	}
	if kinds["summary"] != 1 || kinds["alert"] == 0 || kinds["alert"] != kinds["end"] {
		t.Errorf("replay printed %v", kinds)
	}
	if sum.Seizures != 2 || sum.Detected < 1 || sum.RTF < 100 {
		t.Errorf("replay summary %+v", sum)
	}
	// A model of another montage is refused with a clear message.
	c8 := filepath.Join(dir, "c8.edf")
	if code := run([]string{"synth", "-o", c8, "-duration", "1m", "-channels", "8", "-seizures", "0"}, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	errb.Reset()
	if code := run([]string{"replay", "-model", model, c8}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "same montage") {
		t.Errorf("montage mismatch: %d %s", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"train", a}, &out, &errb); code != 1 {
		t.Errorf("train without -o: %d", code)
	}
}
