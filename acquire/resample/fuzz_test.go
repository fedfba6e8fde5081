package resample

import "testing"

// FuzzParseRate: whatever the flag says, ParseRate returns a valid rate
// or an error, never panics, and a rate it returns writes (String) and
// reads back as itself.
func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"256", "173.61", "20485/118", "0", "-1", "1e9", "1/0", "abc", "0.0000001", "100000.000001", "NaN", "Inf", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRate(s)
		if err != nil {
			return
		}
		if err := r.valid(); err != nil {
			t.Fatalf("ParseRate(%q) = %v: %v", s, r, err)
		}
		back, err := ParseRate(r.String())
		if err != nil || back != r {
			t.Fatalf("ParseRate(%q) = %v, written %q, read back as %v, %v", s, r, r.String(), back, err)
		}
	})
}
