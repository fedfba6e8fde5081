package classifier

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"
	"testing"
)

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		field string // "" for valid
	}{
		{"defaults", Config{Algorithm: "UOB", Features: 4}, ""},
		{"ns variant", Config{Algorithm: "nsAC2", Features: 4}, ""},
		{"unknown algorithm", Config{Algorithm: "AdaBoostM1", Features: 4}, "Config.Algorithm"},
		{"empty algorithm", Config{Features: 4}, "Config.Algorithm"},
		{"unknown learner", Config{Algorithm: "UOB", Learner: "svm", Features: 4}, "Config.Learner"},
		{"no features", Config{Algorithm: "UOB"}, "Config.Features"},
		{"too many features", Config{Algorithm: "UOB", Features: MaxFeatures + 1}, "Config.Features"},
		{"negative members", Config{Algorithm: "UOB", Features: 4, Members: -1}, "Config.Members"},
		{"negative C", Config{Algorithm: "UOB", Features: 4, C: -2}, "Config.C"},
		{"NaN C", Config{Algorithm: "UOB", Features: 4, C: math.NaN()}, "Config.C"},
		{"Inf CP", Config{Algorithm: "AC2", Features: 4, CP: math.Inf(1)}, "Config.CP"},
		{"negative CN", Config{Algorithm: "AC2", Features: 4, CN: -0.1}, "Config.CN"},
		{"beta above 1", Config{Algorithm: "nsAC2", Features: 4, Beta: 1.5}, "Config.Beta"},
		{"negative beta", Config{Algorithm: "AC2", Features: 4, Beta: -0.5}, "Config.Beta"},
		{"neighbors", Config{Algorithm: "SB", Features: 4, Neighbors: -3}, "Config.Neighbors"},
		{"memory", Config{Algorithm: "SB", Features: 4, Memory: 1}, "Config.Memory"},
		{"model too large", Config{Algorithm: "UOB", Learner: "qda", Features: MaxFeatures, Members: MaxMembers}, "needs"},
		{"C at the bound", Config{Algorithm: "SB", Features: 4, C: MaxCost}, ""},
		{"C at the lower bound", Config{Algorithm: "SBO1", Features: 4, C: 1.0 / MaxCost}, ""},
		{"C above the bound", Config{Algorithm: "SB", Features: 4, C: 1e10}, "Config.C"},
		{"C below the bound", Config{Algorithm: "SBO1", Features: 4, C: 1e-10}, "Config.C"},
		{"CP above the bound", Config{Algorithm: "AC2", Features: 4, CP: 2 * MaxCost}, "Config.CP"},
		{"CN below the bound", Config{Algorithm: "CSB2", Features: 4, CN: 1e-4}, "Config.CN"},
		{"members × qda over the work bound", Config{Algorithm: "UOB", Learner: "qda", Features: 1024, Members: 128}, "units of work"},
		{"SMOTE memory over the work bound", Config{Algorithm: "SB", Features: 2048, Memory: 1 << 16}, "units of work"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := New(tt.cfg)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if m.Config().Members != DefaultMembers || m.Config().Learner != LearnerNB {
					t.Errorf("defaults not filled: %+v", m.Config())
				}
				return
			}
			if err == nil {
				t.Fatalf("New accepted %+v", tt.cfg)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q does not name %s", err, tt.field)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	tests := []struct {
		alg  Algorithm
		c    float64
		beta float64
	}{
		{"UOB", DefaultCOversample, 1}, {"SB", DefaultCOversample, 1}, {"RUS3", DefaultCOversample, 1}, {"SBO3", DefaultCOversample, 1},
		{"RUS1", DefaultCRatio, 1}, {"RUS2", DefaultCRatio, 1}, {"SBO1", DefaultCRatio, 1}, {"SBO2", DefaultCRatio, 1},
		{"nsAC2", DefaultCOversample, DefaultNSBeta},
	}
	for _, tt := range tests {
		m, err := New(Config{Algorithm: tt.alg, Features: 3})
		if err != nil {
			t.Fatal(err)
		}
		c := m.Config()
		if c.C != tt.c || c.Beta != tt.beta || c.CP != DefaultCP || c.CN != DefaultCN || c.Neighbors != DefaultNeighbors || c.Memory != DefaultMemory {
			t.Errorf("%s: effective config %+v", tt.alg, c)
		}
	}
}

// TestBadInputLeavesModelUnchanged checks that a wrong dimension, NaN or
// Inf is an error from both Learn and Score and changes nothing.
func TestBadInputLeavesModelUnchanged(t *testing.T) {
	bad := []struct {
		name string
		x    []float64
	}{
		{"short", []float64{1, 2}},
		{"long", []float64{1, 2, 3, 4}},
		{"nil", nil},
		{"NaN", []float64{1, math.NaN(), 3}},
		{"+Inf", []float64{math.Inf(1), 2, 3}},
		{"-Inf", []float64{1, 2, math.Inf(-1)}},
	}
	for _, name := range allNames() {
		for _, l := range Learners {
			m, err := New(Config{Algorithm: name, Learner: l, Features: 3, Members: 4, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			s := newTestStream(1, 3, 0.2, 2)
			x := make([]float64, 3)
			for i := 0; i < 50; i++ {
				y := s.next(x)
				if err := m.Learn(x, y); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := m.MarshalBinary()
			for _, b := range bad {
				if err := m.Learn(b.x, true); !errors.Is(err, ErrInput) {
					t.Errorf("%s/%s Learn(%s): error %v, want ErrInput", name, l, b.name, err)
				}
				if _, err := m.Score(b.x); !errors.Is(err, ErrInput) {
					t.Errorf("%s/%s Score(%s): error %v, want ErrInput", name, l, b.name, err)
				}
			}
			after, _ := m.MarshalBinary()
			if !bytes.Equal(before, after) {
				t.Errorf("%s/%s: rejected input changed the model", name, l)
			}
		}
	}
}

// run trains m on n examples of s and returns the scores it gave each
// example before learning it (prequential).
func run(t testing.TB, m Model, s *testStream, n int) []float64 {
	x := make([]float64, m.Config().Features)
	scores := make([]float64, n)
	for i := range scores {
		y := s.next(x)
		p, err := m.Score(x)
		if err != nil {
			t.Fatal(err)
		}
		if !(p >= 0 && p <= 1) {
			t.Fatalf("score %v outside [0, 1]", p)
		}
		scores[i] = p
		if err := m.Learn(x, y); err != nil {
			t.Fatal(err)
		}
	}
	return scores
}

func TestDeterministic(t *testing.T) {
	for _, name := range allNames() {
		for _, l := range Learners {
			cfg := Config{Algorithm: name, Learner: l, Features: 5, Members: 5, Seed: 42, Memory: 64}
			a, _ := New(cfg)
			b, _ := New(cfg)
			sa := run(t, a, newTestStream(9, 5, 0.1, 1.5), 300)
			sb := run(t, b, newTestStream(9, 5, 0.1, 1.5), 300)
			for i := range sa {
				if math.Float64bits(sa[i]) != math.Float64bits(sb[i]) {
					t.Fatalf("%s/%s: example %d scored %v and %v with the same seed", name, l, i, sa[i], sb[i])
				}
			}
			ca, _ := a.MarshalBinary()
			cb, _ := b.MarshalBinary()
			if !bytes.Equal(ca, cb) {
				t.Errorf("%s/%s: same seed, different checkpoints", name, l)
			}
			cfg.Seed = 43
			c, _ := New(cfg)
			run(t, c, newTestStream(9, 5, 0.1, 1.5), 300)
			cc, _ := c.MarshalBinary()
			if bytes.Equal(ca, cc) && name != "nsOzaBag" {
				t.Errorf("%s/%s: seeds 42 and 43 gave the same model", name, l)
			}
		}
	}
}

// TestCheckpointContinues checks that a model restored mid-stream continues
// bit-identically to one that never stopped.
func TestCheckpointContinues(t *testing.T) {
	for _, name := range allNames() {
		for _, l := range Learners {
			t.Run(string(name)+"/"+string(l), func(t *testing.T) {
				cfg := Config{Algorithm: name, Learner: l, Features: 4, Members: 4, Seed: 7, Memory: 32}
				a, _ := New(cfg)
				s := newTestStream(5, 4, 0.15, 1.5)
				run(t, a, s, 200)
				cp, err := a.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				b, err := Load(cp)
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				if b.Config() != a.Config() {
					t.Fatalf("config %+v, want %+v", b.Config(), a.Config())
				}
				s1 := newTestStream(6, 4, 0.15, 1.5)
				s2 := newTestStream(6, 4, 0.15, 1.5)
				ra := run(t, a, s1, 200)
				rb := run(t, b, s2, 200)
				for i := range ra {
					if math.Float64bits(ra[i]) != math.Float64bits(rb[i]) {
						t.Fatalf("example %d after restore: %v, never-stopped model %v", i, rb[i], ra[i])
					}
				}
				ca, _ := a.MarshalBinary()
				cb, _ := b.MarshalBinary()
				if !bytes.Equal(ca, cb) {
					t.Error("checkpoints differ after the same continuation")
				}
			})
		}
	}
}

// TestLoadCorrupt checks that every truncation and many single-bit flips of
// a checkpoint give an error wrapping ErrCorrupt, never a panic.
func TestLoadCorrupt(t *testing.T) {
	for _, name := range []Algorithm{"SB", "nsAC2", "RUS1", "SBO2"} {
		for _, l := range Learners {
			m, _ := New(Config{Algorithm: name, Learner: l, Features: 3, Members: 2, Memory: 8})
			run(t, m, newTestStream(1, 3, 0.3, 2), 40)
			cp, _ := m.MarshalBinary()
			for n := 0; n < len(cp); n++ {
				if _, err := Load(cp[:n]); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s/%s truncated to %d of %d bytes: %v", name, l, n, len(cp), err)
				}
			}
			for i := 0; i < len(cp); i += 1 + i/16 {
				bad := bytes.Clone(cp)
				bad[i] ^= 1 << (i % 8)
				if _, err := Load(bad); !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
					t.Fatalf("%s/%s bit flip at byte %d: %v", name, l, i, err)
				}
			}
		}
	}
	if _, err := Load([]byte("ICTALCLF")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("magic only: %v", err)
	}
}

func TestAllocs(t *testing.T) {
	for _, name := range allNames() {
		for _, l := range Learners {
			m, _ := New(Config{Algorithm: name, Learner: l, Features: 6, Seed: 1, Memory: 64})
			s := newTestStream(2, 6, 0.2, 1)
			run(t, m, s, 100)
			x := make([]float64, 6)
			y := s.next(x)
			allocs := testing.AllocsPerRun(200, func() {
				y = s.next(x)
				if _, err := m.Score(x); err != nil {
					t.Fatal(err)
				}
				if err := m.Learn(x, y); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%s/%s: Score+Learn allocate %v times per example", name, l, allocs)
			}
		}
	}
}

// TestLearnsSeparableStream checks every algorithm and learner actually
// learns: on a well-separated imbalanced stream the prequential scores of
// the last half rank positives above negatives.
func TestLearnsSeparableStream(t *testing.T) {
	for _, name := range allNames() {
		for _, l := range Learners {
			m, _ := New(Config{Algorithm: name, Learner: l, Features: 4, Seed: 11})
			s := newTestStream(3, 4, 0.1, 2.5)
			x := make([]float64, 4)
			var pos, neg []float64
			for i := 0; i < 2000; i++ {
				y := s.next(x)
				p, _ := m.Score(x)
				if i >= 1000 {
					if y {
						pos = append(pos, p)
					} else {
						neg = append(neg, p)
					}
				}
				m.Learn(x, y)
			}
			if auc := testAUC(pos, neg); auc < 0.9 {
				t.Errorf("%s/%s: prequential AUC %.3f on a separable stream", name, l, auc)
			}
		}
	}
}

// testAUC is the Mann–Whitney AUC with ties counted ½.
func testAUC(pos, neg []float64) float64 {
	var s float64
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				s++
			case p == n:
				s += 0.5
			}
		}
	}
	return s / float64(len(pos)*len(neg))
}

func FuzzLoad(f *testing.F) {
	for _, name := range []Algorithm{"UOB", "SB", "nsAC2", "SBO3"} {
		for _, l := range Learners {
			m, _ := New(Config{Algorithm: name, Learner: l, Features: 2, Members: 2, Memory: 4})
			s := newTestStream(1, 2, 0.3, 2)
			x := make([]float64, 2)
			for i := 0; i < 20; i++ {
				y := s.next(x)
				m.Learn(x, y)
			}
			cp, _ := m.MarshalBinary()
			f.Add(cp)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, data)
		// Also with the checksum repaired, so the fuzzer reaches the
		// decoder behind it.
		if fixed, ok := sealed(data); ok {
			checkLoad(t, fixed)
		}
	})
}

// sealed returns a copy of a checkpoint with its CRC made right, so that
// a fuzzer's mutation reaches the decoder behind the checksum; false for
// data too short to hold one.
func sealed(data []byte) ([]byte, bool) {
	if len(data) < 4 {
		return nil, false
	}
	fixed := bytes.Clone(data)
	body := fixed[:len(fixed)-4]
	binary.LittleEndian.PutUint32(fixed[len(body):], crc32.Checksum(body, castagnoli))
	return fixed, true
}

// checkLoad loads data and, if it loads, checks the model works and
// re-encodes to the same bytes.
func checkLoad(t *testing.T, data []byte) {
	{
		m, err := Load(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
				t.Fatalf("error %v wraps neither ErrCorrupt nor ErrVersion", err)
			}
			return
		}
		// A checkpoint that loads is a working model that re-encodes to
		// the same bytes.
		x := make([]float64, m.Config().Features)
		if p, err := m.Score(x); err != nil || !(p >= 0 && p <= 1) {
			t.Fatalf("loaded model scores %v, %v", p, err)
		}
		again, _ := m.MarshalBinary()
		if !bytes.Equal(again, data) {
			t.Fatalf("re-encoded checkpoint differs")
		}
		if err := m.Learn(x, true); err != nil {
			t.Fatal(err)
		}
	}
}

func ExampleNew() {
	m, err := New(Config{Algorithm: "UOB", Learner: "nb", Features: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	// Negatives around (0, 0), rare positives around (3, 3).
	for i := 0; i < 500; i++ {
		a, b := float64(i%7)/7-0.5, float64(i%5)/5-0.5
		m.Learn([]float64{a, b}, false)
		if i%25 == 0 {
			j := i / 25
			m.Learn([]float64{3 + float64(j%7)/7 - 0.5, 3 + float64(j%3)/3 - 0.5}, true)
		}
	}
	low, _ := m.Score([]float64{0.1, -0.2})
	high, _ := m.Score([]float64{3.1, 2.8})
	fmt.Printf("background %.1f, seizure-like %.1f\n", low, high)
	// Output: background 0.0, seizure-like 1.0
}

// TestScoreMemoChangesNothing checks that Learn's reuse of Score's
// predictions gives exactly the model that learning alone gives.
func TestScoreMemoChangesNothing(t *testing.T) {
	for _, name := range allNames() {
		cfg := Config{Algorithm: name, Features: 3, Members: 5, Seed: 5, Memory: 16}
		a, _ := New(cfg)
		b, _ := New(cfg)
		s := newTestStream(8, 3, 0.2, 1.5)
		x := make([]float64, 3)
		for i := 0; i < 400; i++ {
			y := s.next(x)
			if _, err := a.Score(x); err != nil {
				t.Fatal(err)
			}
			a.Learn(x, y)
			if i%3 == 0 { // a repeated example hits the memo without a Score
				a.Learn(x, y)
			}
			b.Learn(x, y)
			if i%3 == 0 {
				b.Learn(x, y)
			}
		}
		ca, _ := a.MarshalBinary()
		cb, _ := b.MarshalBinary()
		if !bytes.Equal(ca, cb) {
			t.Errorf("%s: scoring before learning changed the model", name)
		}
	}
}

// TestScoreVoteWeightsOncePerLearn checks that the boosting vote weights
// are computed at most once between two Learns, however many times the
// model is scored, and not at all while the members agree.
func TestScoreVoteWeightsOncePerLearn(t *testing.T) {
	for _, alg := range []Algorithm{"AC2", "CSB2", "RUS1", "SBO3", "OzaBoost"} {
		m, err := New(Config{Algorithm: alg, Learner: "nb", Features: 4, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		e := m.(*ensemble)
		s := newTestStream(2, 4, 0.3, 1)
		x := make([]float64, 4)
		for i := 0; i < 300; i++ {
			y := s.next(x)
			before := e.alphaRuns
			var mixed bool
			for range 3 {
				if _, err := m.Score(x); err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, p := range e.memoPred {
					if p {
						n++
					}
				}
				mixed = mixed || (n > 0 && n < len(e.memoPred))
			}
			runs := e.alphaRuns - before
			if runs > 1 || (runs == 1) != mixed {
				t.Fatalf("%s example %d: vote weights computed %d times over 3 Scores (members split: %v), want once exactly when split", alg, i, runs, mixed)
			}
			if err := m.Learn(x, y); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestCheckpointLiteralVote checks that Config.LiteralVote survives a
// checkpoint (version 2, with an option flag), that a model with the
// default vote still writes version 1, and that flipping the flag's word
// to an unknown value or to 0 is refused.
func TestCheckpointLiteralVote(t *testing.T) {
	for _, literal := range []bool{false, true} {
		cfg := Config{Algorithm: "RUS3", Features: 3, Members: 3, Seed: 4, LiteralVote: literal}
		a, _ := New(cfg)
		run(t, a, newTestStream(3, 3, 0.3, 1), 100)
		cp, _ := a.MarshalBinary()
		want := uint64(1)
		if literal {
			want = 2
		}
		if v := binary.LittleEndian.Uint64(cp[len(checkpointMagic):]); v != want {
			t.Errorf("LiteralVote %v: version %d, want %d", literal, v, want)
		}
		b, err := Load(cp)
		if err != nil {
			t.Fatal(err)
		}
		if b.Config() != a.Config() {
			t.Fatalf("config %+v, want %+v", b.Config(), a.Config())
		}
		ra := run(t, a, newTestStream(9, 3, 0.3, 1), 100)
		rb := run(t, b, newTestStream(9, 3, 0.3, 1), 100)
		for i := range ra {
			if math.Float64bits(ra[i]) != math.Float64bits(rb[i]) {
				t.Fatalf("LiteralVote %v, example %d after restore: %v, never-stopped model %v", literal, i, rb[i], ra[i])
			}
		}
		if !literal {
			continue
		}
		// The flags word follows the four costs, after the seed.
		at := len(checkpointMagic) + 8 + 2*8 + len(cfg.Algorithm) + len("nb") + 5*8 + 4*8
		for _, flags := range []uint64{0, 2} {
			bad := bytes.Clone(cp)
			binary.LittleEndian.PutUint64(bad[at:], flags)
			body := bad[:len(bad)-4]
			binary.LittleEndian.PutUint32(bad[len(body):], crc32.Checksum(body, castagnoli))
			if _, err := Load(bad); !errors.Is(err, ErrCorrupt) {
				t.Errorf("flags %#x: %v, want ErrCorrupt", flags, err)
			}
		}
	}
}

// TestCheckInputEdges pins checkInput's test (sums of v − v) at the edges
// of the finite range: the largest and the smallest magnitudes pass, in
// every position of vectors of 1 to 11 features (each of the four sums and
// the tail); NaN and both infinities fail in every position, and the error
// names the position.
func TestCheckInputEdges(t *testing.T) {
	for d := 1; d <= 11; d++ {
		for i := 0; i < d; i++ {
			x := make([]float64, d)
			for j := range x {
				x[j] = float64(j) - 3.5
			}
			for _, v := range []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 0, math.Copysign(0, -1)} {
				x[i] = v
				if err := checkInput(x, d); err != nil {
					t.Errorf("d=%d, %g at %d: %v", d, v, i, err)
				}
			}
			for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				x[i] = v
				err := checkInput(x, d)
				if !errors.Is(err, ErrInput) {
					t.Errorf("d=%d, %g at %d: %v, want ErrInput", d, v, i, err)
				} else if want := fmt.Sprintf("feature %d is %g", i, v); !strings.Contains(err.Error(), want) {
					t.Errorf("d=%d, %g at %d: %q, want it to say %q", d, v, i, err, want)
				}
			}
		}
	}
}
