package classifier

import (
	"errors"
	"flag"
	"io"
	"testing"
)

// TestNamedConstantsAreAccepted checks that every exported algorithm and
// learner name, with and without NSPrefix, makes a Config that New
// accepts, and that the ns variant is what NSPrefix selects.
func TestNamedConstantsAreAccepted(t *testing.T) {
	for _, a := range Algorithms {
		for _, name := range []Algorithm{a, NSPrefix + a} {
			for _, l := range Learners {
				m, err := New(Config{Algorithm: name, Learner: l, Features: 2})
				if err != nil {
					t.Errorf("New(%s, %s): %v", name, l, err)
					continue
				}
				want := 1.0
				if name != a {
					want = DefaultNSBeta
				}
				if got := m.Config().Beta; got != want {
					t.Errorf("New(%s, %s): Beta %v, want %v", name, l, got, want)
				}
			}
		}
	}
}

func TestUnknownNamesAreRefused(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		field string
	}{
		{"unknown algorithm", Config{Algorithm: "uob", Features: 2}, "Algorithm"},
		{"prefix alone", Config{Algorithm: NSPrefix, Features: 2}, "Algorithm"},
		{"unknown learner", Config{Algorithm: UOB, Learner: "NB", Features: 2}, "Learner"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != tt.field {
				t.Errorf("New: %v, want a ConfigError for %s", err, tt.field)
			}
		})
	}
}

// TestNamesFromText checks that the names set from text (flag.TextVar,
// JSON, TOML) accept exactly what New does, refuse the rest with a
// ConfigError naming the field and leave the value unchanged, and that
// NS adds the prefix once.
func TestNamesFromText(t *testing.T) {
	for _, tt := range []struct {
		args []string
		alg  Algorithm
		l    LearnerName
		bad  string // the field of the expected ConfigError, if any
	}{
		{nil, UOB, LearnerNB, ""},
		{[]string{"-algorithm", "nsAC2", "-learner", "qda"}, AC2.NS(), LearnerQDA, ""},
		{[]string{"-algorithm", "SBO3"}, SBO3, LearnerNB, ""},
		{[]string{"-algorithm", "ac2"}, UOB, LearnerNB, "Algorithm"},
		{[]string{"-algorithm", "ns"}, UOB, LearnerNB, "Algorithm"},
		{[]string{"-learner", "logistic"}, UOB, LearnerNB, "Learner"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		alg, l := UOB, LearnerNB
		fs.TextVar(&alg, "algorithm", UOB, "")
		fs.TextVar(&l, "learner", LearnerNB, "")
		err := fs.Parse(tt.args)
		if tt.bad != "" {
			// flag keeps only the message: check UnmarshalText's error.
			var ce *ConfigError
			v := tt.args[len(tt.args)-1]
			uerr := alg.UnmarshalText([]byte(v))
			if tt.bad == "Learner" {
				uerr = l.UnmarshalText([]byte(v))
			}
			if err == nil || !errors.As(uerr, &ce) || ce.Field != tt.bad {
				t.Errorf("%v: %v, %v, want a ConfigError for %s", tt.args, err, uerr, tt.bad)
			}
		}
		if tt.bad == "" && err != nil {
			t.Errorf("%v: %v", tt.args, err)
		}
		if alg != tt.alg || l != tt.l {
			t.Errorf("%v: %s, %s, want %s, %s", tt.args, alg, l, tt.alg, tt.l)
		}
		if _, err := New(Config{Algorithm: alg, Learner: l, Features: 2}); err != nil {
			t.Errorf("%v: New: %v", tt.args, err)
		}
	}
	if got := AC2.NS().NS(); got != "nsAC2" {
		t.Errorf("AC2.NS().NS() = %q, want nsAC2", got)
	}
}
