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

// TestOldConceptProbability checks the probability of the old concept
// over each stream, and over SINE1G with each placement of its transition.
func TestOldConceptProbability(t *testing.T) {
	cases := []struct {
		s, tr string
		t     int
		want  float64
	}{
		{SINE1, TransitionCentred, 1999, 1}, {SINE1, TransitionCentred, 2000, 0},
		{SINE1G, TransitionCentred, 999, 1}, {SINE1G, TransitionCentred, 1000, 1}, {SINE1G, TransitionCentred, 2000, 0.5},
		{SINE1G, TransitionCentred, 3000, 0},
		{SINE1M, TransitionCentred, 0, 1}, {SINE1M, TransitionCentred, 1000, 0.5}, {SINE1M, TransitionCentred, 2000, 1},
		{SINE1M, TransitionCentred, 3000, 0.5},
		{SINE1G, TransitionAfter, 1999, 1}, {SINE1G, TransitionAfter, 3000, 0.5}, {SINE1G, TransitionAfter, 3999, 0.0005},
		{SINE1G, TransitionBefore, 0, 1}, {SINE1G, TransitionBefore, 1000, 0.5}, {SINE1G, TransitionBefore, 2000, 0},
	}
	for _, c := range cases {
		if got, _ := oldConceptProb(c.s, c.tr, c.t, 4000); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s (%s) at %d: %g, want %g", c.s, c.tr, c.t, got, c.want)
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

func TestSineStreamProtocols(t *testing.T) {
	const n = 20000
	below := func(x []float64) bool { return x[1] < math.Sin(x[0]) }
	count := func(X [][]float64, y []bool, from, to int) (pos, rareRegion int) {
		for i := from; i < to; i++ {
			if y[i] {
				pos++
			}
			if below(X[i]) {
				rareRegion++
			}
		}
		return
	}
	tests := []struct {
		name  string
		proto SineProtocol
		check func(t *testing.T, X [][]float64, y []bool)
	}{
		{"bernoulli: about n/(ratio+1) positives", SineProtocol{Imbalance: ImbalanceBernoulli}, func(t *testing.T, X [][]float64, y []bool) {
			if p, _ := count(X, y, 0, n); p < 1600 || p > 2000 || p == 1818 { // mean 1818, sd 41
				t.Errorf("%d positives, want about 1818 and not exactly round(n/11)", p)
			}
		}},
		{"thin: 1:ratio before the reversal, 1:ratio·0.72 after", SineProtocol{Imbalance: ImbalanceThin}, func(t *testing.T, X [][]float64, y []bool) {
			p1, _ := count(X, y, 0, n/2)
			p2, _ := count(X, y, n/2, n)
			r1, r2 := float64(n/2-p1)/float64(p1), float64(n/2-p2)/float64(p2)
			if math.Abs(r1-10) > 1 || math.Abs(r2-7.24) > 0.8 {
				t.Errorf("ratios %.2f and %.2f, want about 10 and 7.24", r1, r2)
			}
		}},
		{"region: the rare points stay below the curve, positives become the majority", SineProtocol{Minority: MinorityRegion}, func(t *testing.T, X [][]float64, y []bool) {
			p1, b1 := count(X, y, 0, n/2)
			p2, b2 := count(X, y, n/2, n)
			if p1 != b1 || p2 != n/2-b2 || b1+b2 != 1818 || p2 < n/2-1000 {
				t.Errorf("first half %d positives %d below; second half %d positives %d below", p1, b1, p2, b2)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			X, y, err := SineStreamWith(SINE1, n, 10, tc.proto, 3)
			if err != nil {
				t.Fatal(err)
			}
			if len(X) != n || len(y) != n {
				t.Fatalf("%d examples, want %d", len(X), n)
			}
			tc.check(t, X, y)
		})
	}
	for _, bad := range []SineProtocol{{Imbalance: "smote"}, {Minority: "x"}, {Transition: "middle"}} {
		if _, _, err := SineStreamWith(SINE1, 10, 1, bad, 1); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestStreamAUC(t *testing.T) {
	// Eight examples: the first half ranked perfectly, the second half
	// reversed.
	scores := []float64{0.9, 0.1, 0.8, 0.2, 0.1, 0.9, 0.2, 0.8}
	y := []bool{true, false, true, false, true, false, true, false}
	tests := []struct {
		auc    string
		window int
		want   float64
	}{
		{AUCStream, 0, 0.5},
		{AUCSecondHalf, 0, 0},
		{AUCWindow, 4, 0.5},                // windows: 1, 0
		{AUCRunning, 4, (1 + 0.5) / 2},     // checkpoints at 4 and 8
		{AUCCrisp, 0, (1 + 0.5 - 0.5) / 2}, // TPR 2/4, FPR 2/4
	}
	for _, tc := range tests {
		if got := streamAUC(tc.auc, tc.window, scores, y); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %g, want %g", tc.auc, got, tc.want)
		}
	}
}

func TestRunDriftProtocolOptions(t *testing.T) {
	var out bytes.Buffer
	opt := DriftOptions{Streams: []string{SINE1G}, Learners: []string{"lda"}, Runs: 1, Length: 400, Ratio: 9, Seed: 2,
		Workers: 1, Imbalance: ImbalanceThin, Minority: MinorityRegion, Transition: TransitionAfter,
		AUC: AUCSweepHull, Points: 3, Members: 2, CP: 1, CN: 0.5}
	if err := RunDrift(opt, &out); err != nil {
		t.Fatal(err)
	}
	var r DriftRecord
	if err := json.NewDecoder(&out).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if r.Imbalance != ImbalanceThin || r.Minority != MinorityRegion || r.Transition != TransitionAfter ||
		r.AUC != AUCSweepHull || r.Members != 2 || r.CN != 0.5 || !(r.AUCMean >= 0.5 && r.AUCMean <= 1) {
		t.Errorf("record %+v", r)
	}
	for _, bad := range []DriftOptions{{AUC: "pr"}, {Imbalance: "x"}, {Transition: "x"}, {Window: 1, AUC: AUCWindow}} {
		bad.Runs, bad.Length = 1, 100
		if err := RunDrift(bad, &out); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
