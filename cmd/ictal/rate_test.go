package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayRefusesARateBelow100Hz: a recording slower than the lowest
// rate the features support (features.MinRate) is refused with the rate
// named, never scored: below 120 Hz every score was silently 0.
func TestReplayRefusesARateBelow100Hz(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		rate string
		ok   bool
	}{{"90", false}, {"99", false}, {"100", true}} {
		rec := filepath.Join(dir, "r"+tt.rate+".edf")
		mustRun(t, []string{"synth", "-o", rec, "-duration", "1m", "-seizures", "0", "-rate", tt.rate})
		var out, errb bytes.Buffer
		code := run([]string{"replay", "-learn", "off", rec}, &out, &errb)
		switch {
		case tt.ok && code != 0:
			t.Errorf("%s Hz: exit %d: %s", tt.rate, code, errb.String())
		case !tt.ok && (code == 0 || !strings.Contains(errb.String(), tt.rate+" Hz: the lowest rate supported is 100 Hz")):
			t.Errorf("%s Hz: exit %d, %q; want it refused naming the rate", tt.rate, code, errb.String())
		}
	}
}
