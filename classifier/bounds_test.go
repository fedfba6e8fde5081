package classifier

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"strings"
	"testing"
)

// TestSyntheticDrawsBounded checks that one Learn trains every member on at
// most syntheticCap synthetic positives whatever the Poisson mean (and
// that the cap is not reached by SB at the largest C): SBO1's
// and SBO2's grow with the class ratio seen (here 1:4000 at the smallest
// valid C), SB's and SBO3's with C (here the largest valid). Without the
// cut, SBO1's mean here is about 4·10⁶ per member.
func TestSyntheticDrawsBounded(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		binds bool // the cut is reached
	}{
		{"SBO1 extreme ratio", Config{Algorithm: SBO1, C: 1.0 / MaxCost}, true},
		{"SBO2 extreme ratio", Config{Algorithm: SBO2, C: 1.0 / MaxCost}, true},
		{"SB largest C", Config{Algorithm: SB, C: MaxCost}, false}, // mean (1−a)·C < cap/2
		{"SBO3 largest C", Config{Algorithm: SBO3, C: MaxCost}, true},
		{"nsSBO1 extreme ratio", Config{Algorithm: "nsSBO1", C: 1.0 / MaxCost, Beta: 1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Features, cfg.Seed = 3, 1
			m, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			e := m.(*ensemble)
			if e.synthCap < 1 || e.synthCap > maxSyntheticPerMember {
				t.Fatalf("synthCap %d outside 1..%d", e.synthCap, maxSyntheticPerMember)
			}
			s := newTestStream(2, 3, 0, 1)
			x := make([]float64, 3)
			for i := 0; i < 4000; i++ {
				s.next(x)
				if err := m.Learn(x, false); err != nil {
					t.Fatal(err)
				}
			}
			s = newTestStream(3, 3, 1, 1)
			before := make([]uint64, len(e.members))
			capped := 0
			for i := 0; i < 8; i++ {
				for j := range e.members {
					before[j] = e.members[j].synthetic
				}
				s.next(x)
				if err := m.Learn(x, true); err != nil {
					t.Fatal(err)
				}
				for j := range e.members {
					n := e.members[j].synthetic - before[j]
					if n > uint64(e.synthCap) {
						t.Fatalf("positive %d: member %d trained on %d synthetic positives, bound %d", i, j, n, e.synthCap)
					}
					if n == uint64(e.synthCap) {
						capped++
					}
				}
			}
			if tt.binds && capped == 0 {
				t.Errorf("no member reached the bound %d: the test has no power", e.synthCap)
			}
		})
	}
}

// TestSyntheticCapWithinWorkBound checks that the synthetic examples of all
// members of one Learn cost at most MaxLearnWork, lowering the cap for
// large learners, and that the cap never falls below 1.
func TestSyntheticCapWithinWorkBound(t *testing.T) {
	for _, l := range Learners {
		for _, d := range []int{1, 36, 345, 1024, MaxFeatures} {
			for _, members := range []int{1, 10, MaxMembers} {
				c := Config{Algorithm: SB, Learner: l, Features: d, Members: members}
				k := syntheticCap(c)
				per := int64(members) * int64(learnerEncodedLen(l, d)/8)
				if k < 1 || k > maxSyntheticPerMember {
					t.Errorf("%s d=%d M=%d: cap %d outside 1..%d", l, d, members, k, maxSyntheticPerMember)
				}
				if k > 1 && int64(k)*per > MaxLearnWork {
					t.Errorf("%s d=%d M=%d: cap %d costs %d > MaxLearnWork", l, d, members, k, int64(k)*per)
				}
			}
		}
	}
}

// TestLoadRefusesUnboundedConfig checks that a checkpoint whose checksum is
// valid but whose configuration is beyond the bounds New enforces (here
// the C = 3.48e10 FuzzLoad found: one Learn then took 23.6 s) is refused
// with an error naming the setting.
func TestLoadRefusesUnboundedConfig(t *testing.T) {
	m, err := New(Config{Algorithm: SB, Features: 2, Members: 2, Memory: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestStream(1, 2, 0.3, 2)
	x := make([]float64, 2)
	for i := 0; i < 20; i++ {
		m.Learn(x, s.next(x))
	}
	cp, _ := m.MarshalBinary()
	// magic, version, two strings, four ints, seed; then C, CP, CN, Beta.
	off := 8 + 8 + 8 + len(SB) + 8 + len(LearnerNB) + 4*8 + 8
	if got := math.Float64frombits(binary.LittleEndian.Uint64(cp[off:])); got != DefaultCOversample {
		t.Fatalf("C at byte %d is %g, want %g: layout changed", off, got, DefaultCOversample)
	}
	for _, c := range []float64{3.48e10, 1e-9} {
		bad := append([]byte(nil), cp...)
		binary.LittleEndian.PutUint64(bad[off:], math.Float64bits(c))
		body := bad[:len(bad)-4]
		binary.LittleEndian.PutUint32(bad[len(body):], crc32.Checksum(body, castagnoli))
		_, err := Load(bad)
		var ce *ConfigError
		if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || ce.Field != "C" || !strings.Contains(err.Error(), "want a cost in") {
			t.Errorf("C = %g: Load error %v, want ErrCorrupt and a ConfigError for C", c, err)
		}
	}
}
