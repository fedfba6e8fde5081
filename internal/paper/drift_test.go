package paper

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

func TestSineStreamConceptsAndRatio(t *testing.T) {
	for _, s := range []string{SINE1, SINE1G, SINE1M} {
		X, y, err := SineStream(s, 4000, 90, 5)
		if err != nil {
			t.Fatal(err)
		}
		var np int
		// agreement with the old concept in the first and last tenth
		var oldFirst, oldLast, nFirst, nLast float64
		for i, x := range X {
			if x[0] < 0 || x[0] >= 1 || x[1] < 0 || x[1] >= 1 {
				t.Fatalf("%s: point %v outside [0,1)²", s, x)
			}
			if y[i] {
				np++
			}
			old := (x[1] < math.Sin(x[0])) == y[i]
			if i < 400 {
				nFirst++
				if old {
					oldFirst++
				}
			}
			if i >= 3600 {
				nLast++
				if old {
					oldLast++
				}
			}
		}
		if np != 44 { // round(4000/91)
			t.Errorf("%s: %d positives, want 44 (ratio 1:90)", s, np)
		}
		// sine1m drifts from the start: p(old) falls from 1 to 0.8 over
		// the first tenth, 0.9 on average.
		if f := oldFirst / nFirst; s != SINE1M && f != 1 || s == SINE1M && (f < 0.85 || f == 1) {
			t.Errorf("%s: first tenth follows the old concept %.2f of the time, want 1", s, oldFirst/nFirst)
		}
		// sine1, sine1g: the last tenth follows the new concept only;
		// sine1m: its last tenth is late in a second drift, mostly new.
		if f := oldLast / nLast; s != SINE1M && f != 0 || s == SINE1M && f > 0.2 {
			t.Errorf("%s: last tenth follows the old concept %.2f of the time", s, f)
		}
	}
	if _, _, err := SineStream("sine2", 10, 1, 1); err == nil {
		t.Error("unknown stream accepted")
	}
}

func TestOldConceptProbability(t *testing.T) {
	cases := []struct {
		s    string
		t    int
		want float64
	}{
		{SINE1, 1999, 1}, {SINE1, 2000, 0},
		{SINE1G, 999, 1}, {SINE1G, 2000, 0.5}, {SINE1G, 3000, 0},
		{SINE1M, 0, 1}, {SINE1M, 1000, 0.5}, {SINE1M, 2000, 1}, {SINE1M, 3000, 0.5},
	}
	for _, c := range cases {
		if got, _ := oldConceptProb(c.s, c.t, 4000); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("%s at %d: %g, want %g", c.s, c.t, got, c.want)
		}
	}
}

func TestRunDriftRecords(t *testing.T) {
	var a, b bytes.Buffer
	opt := DriftOptions{Streams: []string{SINE1}, Learners: []string{"nb"}, Runs: 2, Length: 600, Ratio: 20, Seed: 1, Workers: 1}
	if err := RunDrift(opt, &a); err != nil {
		t.Fatal(err)
	}
	opt.Workers = 2
	if err := RunDrift(opt, &b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("output depends on the number of workers")
	}
	dec := json.NewDecoder(&a)
	var variants []string
	for dec.More() {
		var r DriftRecord
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		if r.Stream != SINE1 || r.Runs != 2 || len(r.AUCRuns) != 2 || !(r.AUCMean > 0 && r.AUCMean <= 1) {
			t.Errorf("record %+v", r)
		}
		variants = append(variants, r.Variant)
	}
	if len(variants) != 2 || variants[0] != "plain" || variants[1] != "ns" {
		t.Errorf("variants %v", variants)
	}
}
