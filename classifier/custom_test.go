package classifier

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// baseFactory returns a factory of built-in learners of the kind.
func baseFactory(kind LearnerName, d int, beta float64) LearnerFactory {
	return func(int) (Learner, error) { return NewBaseLearner(kind, d, beta) }
}

// wrapped hides a BaseLearner behind the Learner interface, so that the
// ensemble goes through its adapter (custom) instead of unwrapping it.
type wrapped struct {
	*BaseLearner
	failLearn, failOdds, failMarshal bool
}

func (w *wrapped) MarshalBinary() ([]byte, error) {
	if w.failMarshal {
		return nil, errors.New("marshal refused")
	}
	return w.BaseLearner.MarshalBinary()
}

func (w *wrapped) Learn(x []float64, positive bool, v float64) error {
	if w.failLearn {
		return errors.New("learn refused")
	}
	return w.BaseLearner.Learn(x, positive, v)
}

func (w *wrapped) LogOdds(x []float64) (float64, error) {
	if w.failOdds {
		return math.NaN(), nil
	}
	return w.BaseLearner.LogOdds(x)
}

func wrappedFactory(kind LearnerName, d int) LearnerFactory {
	return func(int) (Learner, error) {
		b, err := NewBaseLearner(kind, d, 1)
		return &wrapped{BaseLearner: b}, err
	}
}

// TestNewWithLearnerMatchesNew checks that an ensemble over a factory of
// built-in learners, unwrapped or behind the adapter, scores, grades and
// learns exactly as New's, and that its checkpoint restores with
// LoadWithLearner (and only with it).
func TestNewWithLearnerMatchesNew(t *testing.T) {
	const d = 3
	for _, name := range allNames() {
		for _, l := range Learners {
			cfg := Config{Algorithm: name, Learner: l, Features: d, Members: 4, Seed: 5, Memory: 32}
			ref, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Learner = "my-" + l
			c, _, _, _ := ref.Config().validate(false)
			for _, mk := range []LearnerFactory{baseFactory(l, d, c.Beta), wrappedFactory(l, d)} {
				if name[:2] == NSPrefix && c.Beta != 1 {
					// wrappedFactory's β is 1: compare ns variants
					// only through the unwrapped factory.
					if _, ok := mustLearner(t, mk).(*wrapped); ok {
						continue
					}
				}
				ref, _ = New(Config{Algorithm: name, Learner: l, Features: d, Members: 4, Seed: 5, Memory: 32})
				m, err := NewWithLearner(cfg, mk)
				if err != nil {
					t.Fatal(err)
				}
				s := newTestStream(2, d, 0.2, 1)
				x := make([]float64, d)
				for i := 0; i < 300; i++ {
					y := s.next(x)
					a, _ := ref.Score(x)
					b, err := m.Score(x)
					ga, _ := ref.(Grader).Margin(x)
					gb, _ := m.Margin(x)
					if err != nil || a != b || math.Float64bits(ga) != math.Float64bits(gb) {
						t.Fatalf("%s/%s example %d: Score %v, Margin %v, want %v, %v (err %v)", name, l, i, b, gb, a, ga, err)
					}
					ref.Learn(x, y)
					if err := m.Learn(x, y); err != nil {
						t.Fatal(err)
					}
				}
				ckpt, err := m.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := Load(ckpt); !errors.Is(err, ErrCorrupt) {
					t.Errorf("%s/%s: Load of a custom checkpoint: %v, want ErrCorrupt", name, l, err)
				}
				back, err := LoadWithLearner(ckpt, mk)
				if err != nil {
					t.Fatalf("%s/%s: %v", name, l, err)
				}
				again, _ := back.MarshalBinary()
				if !bytes.Equal(again, ckpt) {
					t.Errorf("%s/%s: checkpoint changed through LoadWithLearner", name, l)
				}
				refCkpt, _ := ref.MarshalBinary()
				if _, err := LoadWithLearner(refCkpt, mk); !errors.Is(err, ErrCorrupt) {
					t.Errorf("%s/%s: LoadWithLearner of a built-in checkpoint: %v, want ErrCorrupt", name, l, err)
				}
			}
		}
	}
}

func mustLearner(t *testing.T, mk LearnerFactory) Learner {
	t.Helper()
	l, err := mk(0)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestNewWithLearnerErrors checks the custom learner's name, the
// factory's errors and the learner's own, which Learn, Score and Margin
// report naming the member.
func TestNewWithLearnerErrors(t *testing.T) {
	good := wrappedFactory(LearnerNB, 2)
	bad := []struct {
		name string
		cfg  Config
		mk   LearnerFactory
	}{
		{"built-in name", Config{Algorithm: AC2, Learner: LearnerNB, Features: 2}, good},
		{"no name", Config{Algorithm: AC2, Features: 2}, good},
		{"long name", Config{Algorithm: AC2, Learner: LearnerName(make([]byte, maxNameLen+1)), Features: 2}, good},
		{"factory error", Config{Algorithm: AC2, Learner: "x", Features: 2}, func(int) (Learner, error) { return nil, errors.New("no") }},
		{"nil learner", Config{Algorithm: AC2, Learner: "x", Features: 2}, func(int) (Learner, error) { return nil, nil }},
		{"wrong dimension", Config{Algorithm: AC2, Learner: "x", Features: 2}, baseFactory(LearnerNB, 3, 1)},
		{"wrong dimension, wrapped", Config{Algorithm: AC2, Learner: "x", Features: 2}, wrappedFactory(LearnerNB, 3)},
	}
	for _, tc := range bad {
		if _, err := NewWithLearner(tc.cfg, tc.mk); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	var ce *ConfigError
	if _, err := NewWithLearner(bad[0].cfg, good); !errors.As(err, &ce) || ce.Field != "Learner" {
		t.Errorf("built-in name: %v, want a ConfigError on Learner", err)
	}
	if _, err := LoadWithLearner(nil, nil); err == nil {
		t.Error("LoadWithLearner with a nil factory: no error")
	}

	m, err := NewWithLearner(Config{Algorithm: OzaBag, Learner: "x", Features: 2, Members: 3}, good)
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{1, 2}
	m.Learn(x, true)
	m.Learn(x, false)
	h := m.(*ensemble).members[1].h.(*custom).l.(*wrapped)
	h.failOdds = true
	if _, err := m.Score(x); err == nil {
		t.Error("Score with NaN log-odds: no error")
	}
	if _, err := m.Margin(x); err == nil {
		t.Error("Margin with NaN log-odds: no error")
	}
	h.failOdds = false
	if _, err := m.Score(x); err != nil {
		t.Errorf("Score after the learner recovered: %v", err)
	}
	h.failMarshal = true
	if _, err := m.MarshalBinary(); err == nil {
		t.Error("MarshalBinary with a failing learner: no error")
	}
	if _, err := m.Clone(); err == nil {
		t.Error("Clone with a failing learner: no error")
	}
	h.failMarshal = false
	ckpt, _ := m.MarshalBinary()
	// Learners of another dimension: one that says so (Dimensioned) is
	// refused before it is given the state; one that does not (its Dim
	// hidden behind the interface) refuses the state itself.
	if _, err := LoadWithLearner(ckpt, wrappedFactory(LearnerNB, 3)); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "dimension 3, want 2") {
		t.Errorf("LoadWithLearner into learners of another dimension: %v, want ErrCorrupt naming it", err)
	}
	refuse := func(int) (Learner, error) {
		b, _ := NewBaseLearner(LearnerNB, 3, 1)
		return struct{ Learner }{&wrapped{BaseLearner: b}}, nil
	}
	if _, err := LoadWithLearner(ckpt, refuse); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "custom learner state") {
		t.Errorf("LoadWithLearner into learners that refuse the state: %v, want ErrCorrupt", err)
	}
	h.failLearn = true
	for i := 0; i < 20; i++ { // until member 1 draws k > 0
		if err = m.Learn(x, true); err != nil {
			break
		}
	}
	if err == nil {
		t.Error("Learn with a failing learner: no error")
	}
}

// TestLearnWeighted checks that weight 1 is Learn bit for bit, that an
// invalid weight is refused and changes nothing, that an integer weight
// scales the training draws as that many examples would, and that it
// allocates nothing.
func TestLearnWeighted(t *testing.T) {
	for _, name := range allNames() {
		cfg := Config{Algorithm: name, Features: 2, Members: 3, Seed: 3, Memory: 16}
		a, _ := New(cfg)
		b, _ := New(cfg)
		wb := b.(Ensemble)
		s := newTestStream(4, 2, 0.3, 1)
		x := make([]float64, 2)
		for i := 0; i < 200; i++ {
			y := s.next(x)
			a.Learn(x, y)
			if err := wb.LearnWeighted(x, y, 1); err != nil {
				t.Fatal(err)
			}
		}
		ca, _ := a.MarshalBinary()
		cb, _ := b.MarshalBinary()
		if !bytes.Equal(ca, cb) {
			t.Errorf("%s: LearnWeighted(x, y, 1) differs from Learn", name)
		}
		for _, w := range []float64{0, -1, math.NaN(), math.Inf(1), MaxWeight * 2} {
			if err := wb.LearnWeighted(x, true, w); !errors.Is(err, ErrInput) {
				t.Errorf("%s: weight %v: %v, want ErrInput", name, w, err)
			}
		}
		if cb, _ = b.MarshalBinary(); !bytes.Equal(ca, cb) {
			t.Errorf("%s: a refused weight changed the model", name)
		}
		if n := testing.AllocsPerRun(100, func() { wb.LearnWeighted(x, false, 2.5) }); n != 0 {
			t.Errorf("%s: LearnWeighted allocates %v times", name, n)
		}
	}

	// OzaBag: each member draws k ~ Poisson(w); over 1000 members the
	// sum is within 5σ of 1000·w. AC2: the class counts grow by w.
	m, _ := New(Config{Algorithm: OzaBag, Features: 2, Members: 1000, Seed: 1})
	if err := m.(Ensemble).LearnWeighted([]float64{1, 2}, true, 4); err != nil {
		t.Fatal(err)
	}
	var k uint64
	for _, st := range m.(Ensemble).AppendMembers(nil) {
		k += st.Trained
	}
	if math.Abs(float64(k)-4000) > 5*math.Sqrt(4000) {
		t.Errorf("OzaBag weight 4 over 1000 members drew %d examples, want about 4000", k)
	}
	e, _ := New(Config{Algorithm: AC2, Features: 2})
	e.(Ensemble).LearnWeighted([]float64{1, 2}, true, 2.5)
	e.(Ensemble).LearnWeighted([]float64{1, 2}, false, 0.5)
	if en := e.(*ensemble); en.nPos != 2.5 || en.nNeg != 0.5 || en.members[0].sum != 2.5+0.5 {
		t.Errorf("AC2 after weights 2.5 and 0.5: n+ %v, n- %v, member 0 λ^SUM %v, want 2.5, 0.5, 3", en.nPos, en.nNeg, en.members[0].sum)
	}
}

// TestAppendMembers checks the diagnostics against the running sums and
// the vote weights Score uses, and that they allocate nothing.
func TestAppendMembers(t *testing.T) {
	for _, name := range []Algorithm{OzaBag, UOB, AC2, CSB2, OzaBoost, RUS1, SBO3} {
		m, _ := New(Config{Algorithm: name, Features: 2, Members: 5, Seed: 2, Memory: 16})
		e := m.(*ensemble)
		buf := make([]MemberStats, 0, 5)
		if st := e.AppendMembers(buf); len(st) != 5 || (e.alg.boosting() && !math.IsNaN(st[0].Error)) {
			t.Fatalf("%s untrained: %+v", name, st)
		}
		s := newTestStream(1, 2, 0.2, 1.5)
		x := make([]float64, 2)
		for i := 0; i < 500; i++ {
			y := s.next(x)
			m.Score(x)
			m.Learn(x, y)
		}
		m.Score(x)
		e.voteWeights()
		st := e.AppendMembers(buf)
		for i, s := range st {
			mb := &e.members[i]
			if s.Trained != mb.trained || s.Lambda != mb.lambda || s.Rate != mb.rate || s.TP != mb.tp || s.Wrong != mb.sw {
				t.Errorf("%s member %d: %+v, member %+v", name, i, s, *mb)
			}
			if !e.alg.boosting() {
				if s.Vote != 1 || !math.IsNaN(s.Error) {
					t.Errorf("%s member %d: vote %v, error %v, want 1, NaN", name, i, s.Vote, s.Error)
				}
				continue
			}
			if s.Vote != e.alpha[i] {
				t.Errorf("%s member %d: vote %v, Score's α %v", name, i, s.Vote, e.alpha[i])
			}
			if want := math.Log((1 - s.Error) / s.Error); s.Error < 0.5 && s.Error > epsMin && math.Abs(s.Vote-want) > 1e-12*math.Abs(want) {
				t.Errorf("%s member %d: vote %v, want log((1-ε)/ε) = %v", name, i, s.Vote, want)
			}
		}
		if n := testing.AllocsPerRun(100, func() { e.AppendMembers(buf) }); n != 0 {
			t.Errorf("%s: AppendMembers allocates %v times", name, n)
		}
	}
}

// TestResetAndClone checks that Reset gives a model that learns as a new
// one, and that a clone continues as the original does, for built-in and
// custom learners.
func TestResetAndClone(t *testing.T) {
	for _, name := range []Algorithm{UOB, AC2, "nsAC2", SBO1, SB} {
		cfg := Config{Algorithm: name, Features: 2, Members: 3, Seed: 8, Memory: 16}
		ccfg := cfg
		ccfg.Learner = "wrapped"
		fresh := func(custom bool) Ensemble {
			if custom {
				m, err := NewWithLearner(ccfg, wrappedFactory(LearnerNB, 2))
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			m, _ := New(cfg)
			return m.(Ensemble)
		}
		for _, custom := range []bool{false, true} {
			if custom && name == "nsAC2" {
				continue // wrappedFactory's learners do not forget
			}
			run := func(ms ...Ensemble) {
				s := newTestStream(9, 2, 0.3, 1)
				x := make([]float64, 2)
				for i := 0; i < 100; i++ {
					y := s.next(x)
					for _, m := range ms {
						m.Score(x)
						m.Learn(x, y)
					}
				}
			}
			m := fresh(custom)
			run(m)
			c, err := m.Clone()
			if err != nil {
				t.Fatal(err)
			}
			run(m, c)
			cm, _ := m.MarshalBinary()
			cc, _ := c.MarshalBinary()
			if !bytes.Equal(cm, cc) {
				t.Errorf("%s custom=%v: clone diverged", name, custom)
			}
			if err := m.Reset(); err != nil {
				t.Fatal(err)
			}
			n := fresh(custom)
			run(m)
			run(n)
			cm, _ = m.MarshalBinary()
			cn, _ := n.MarshalBinary()
			if !bytes.Equal(cm, cn) {
				t.Errorf("%s custom=%v: a reset model learns unlike a new one", name, custom)
			}
		}
	}
}

// FuzzLoadWithLearner checks that no checkpoint makes LoadWithLearner
// panic, and that one it accepts writes itself back unchanged.
func FuzzLoadWithLearner(f *testing.F) {
	mk := wrappedFactory(LearnerNB, 2)
	for _, name := range []Algorithm{UOB, AC2, SBO1} {
		m, _ := NewWithLearner(Config{Algorithm: name, Learner: "w", Features: 2, Members: 2, Memory: 4}, mk)
		s := newTestStream(1, 2, 0.3, 1)
		x := make([]float64, 2)
		for i := 0; i < 20; i++ {
			m.Learn(x, s.next(x))
		}
		b, _ := m.MarshalBinary()
		f.Add(b)
	}
	check := func(t *testing.T, data []byte) {
		m, err := LoadWithLearner(data, mk)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
				t.Fatalf("error %v wraps neither ErrCorrupt nor ErrVersion", err)
			}
			return
		}
		back, err := m.MarshalBinary()
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("accepted checkpoint writes back differently (%v)", err)
		}
		if _, err := m.Score(make([]float64, m.Config().Features)); err != nil {
			t.Fatalf("accepted checkpoint does not score: %v", err)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data)
		if fixed, ok := sealed(data); ok {
			check(t, fixed)
		}
	})
}

// FuzzBaseLearnerUnmarshal checks that no state makes UnmarshalBinary
// panic, and that a state it accepts marshals back unchanged.
func FuzzBaseLearnerUnmarshal(f *testing.F) {
	for i, kind := range Learners {
		b, _ := NewBaseLearner(kind, 2, 0.9)
		s := newTestStream(1, 2, 0.3, 1)
		x := make([]float64, 2)
		for i := 0; i < 20; i++ {
			b.Learn(x, s.next(x), 1)
		}
		st, _ := b.MarshalBinary()
		f.Add(uint8(i), st)
	}
	f.Fuzz(func(t *testing.T, k uint8, data []byte) {
		b, _ := NewBaseLearner(Learners[int(k)%len(Learners)], 2, 0.9)
		if err := b.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		back, _ := b.MarshalBinary()
		if !bytes.Equal(back, data) {
			t.Fatal("accepted state marshals back differently")
		}
		if _, err := b.LogOdds([]float64{1, 2}); err != nil {
			t.Fatal(err)
		}
	})
}
