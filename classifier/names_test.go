package classifier

import (
	"errors"
	"testing"
)

// TestNamedConstantsAreAccepted checks that every exported algorithm and
// learner name, with and without NSPrefix, makes a Config that New
// accepts, and that the ns variant is what NSPrefix selects.
func TestNamedConstantsAreAccepted(t *testing.T) {
	for _, a := range Algorithms {
		for _, name := range []string{a, NSPrefix + a} {
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
