package recipe

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestCensorChoice: step 4 prefers fewer training false alarms, then the
// better ranking, then the more sensitive rule, and keeps the earlier
// bound of Censors on a full tie.
func TestCensorChoice(t *testing.T) {
	base := CensorResult{OOFWindowAUC: 0.99, RuleSensitivity: 0.95, RuleFalseAlarms: 2, ok: true}
	for _, c := range []struct {
		name string
		edit func(*CensorResult)
		want bool
	}{
		{"fewer false alarms, worse ranking", func(r *CensorResult) { r.RuleFalseAlarms, r.OOFWindowAUC = 1, 0.9 }, true},
		{"more false alarms, better ranking", func(r *CensorResult) { r.RuleFalseAlarms, r.OOFWindowAUC = 3, 0.999 }, false},
		{"better ranking", func(r *CensorResult) { r.OOFWindowAUC = 0.991 }, true},
		{"better ranking, less sensitive", func(r *CensorResult) { r.OOFWindowAUC, r.RuleSensitivity = 0.991, 0.9 }, true},
		{"more sensitive", func(r *CensorResult) { r.RuleSensitivity = 0.975 }, true},
		{"equal", func(*CensorResult) {}, false},
	} {
		r := base
		c.edit(&r)
		if got := r.better(base); got != c.want {
			t.Errorf("%s: better %v, want %v", c.name, got, c.want)
		}
	}
}

// TestParseCensors: the -censors list round-trips and refuses what is not
// a bound.
func TestParseCensors(t *testing.T) {
	got, err := ParseCensors(FormatCensors(DefaultCensors))
	if err != nil || !slices.Equal(got, DefaultCensors) {
		t.Errorf("round trip of %v: %v, %v", DefaultCensors, got, err)
	}
	if got, err := ParseCensors(" 0, 1.5 "); err != nil || !slices.Equal(got, []float64{0, 1.5}) {
		t.Errorf("spaces: %v, %v", got, err)
	}
	for _, bad := range []string{"", "1,", "-1", "NaN", "Inf", "one"} {
		if _, err := ParseCensors(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseCensors: whatever -censors is given, ParseCensors returns
// bounds that are 0 or finite and positive, and that FormatCensors writes
// back into a list that parses to the same bounds; or an error.
func FuzzParseCensors(f *testing.F) {
	for _, s := range []string{FormatCensors(DefaultCensors), " 0, 1.5 ", "1e308,5e-324", "0x1p-2", "-0", "1,,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseCensors(s)
		if err != nil {
			return
		}
		for _, c := range cs {
			if !(c >= 0) || math.IsInf(c, 0) {
				t.Fatalf("%q gives the bound %v", s, c)
			}
		}
		if back, err := ParseCensors(FormatCensors(cs)); err != nil || !slices.Equal(back, cs) {
			t.Fatalf("%q: %v written as %q reads back as %v, %v", s, cs, FormatCensors(cs), back, err)
		}
	})
}

// TestBuildDayOneRefusesABadCensor: a bound that is not 0 or a finite
// positive number is refused before any segment is read.
func TestBuildDayOneRefusesABadCensor(t *testing.T) {
	for _, c := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := BuildDayOne(nil, DayOneConfig{Censors: []float64{0, c}}); err == nil || !strings.Contains(err.Error(), "censoring bound") {
			t.Errorf("censor %v: %v", c, err)
		}
	}
}
