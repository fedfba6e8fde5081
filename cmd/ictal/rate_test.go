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

// TestNoArtifactKindAlerts: the artifacts that mimic seizures (chewing,
// patting, rocking, runs of electrode pops, sweat sway: acquire/synth's
// ArtifactKinds, 30 of each an hour) over the simulated patient's
// background, replayed with the day-one model at 100, 250, 256 and 1000
// Hz, raise no alert of any kind, seizure or motor.
func TestNoArtifactKindAlerts(t *testing.T) {
	dir := t.TempDir()
	for _, rate := range []string{"100", "250", "256", "1000"} {
		rec := filepath.Join(dir, "a"+rate+".edf")
		mustRun(t, []string{"synth", "-o", rec, "-duration", "20m", "-seizures", "0", "-rate", rate, "-seed", "4",
			"-artifact-kinds", "chewing,patting,rocking,electrode-pops,sweat", "-artifacts-per-hour", "30"})
		var out, errb bytes.Buffer
		if code := run([]string{"replay", "-learn", "off", rec}, &out, &errb); code != 0 {
			t.Fatalf("%s Hz: exit %d: %s", rate, code, errb.String())
		}
		var sum fileReport
		lastLine(t, out.Bytes(), &sum)
		if sum.Alerts != 0 || sum.Windows != 1199 {
			t.Errorf("%s Hz: %d alerts in %d windows, want none in 1199", rate, sum.Alerts, sum.Windows)
		}
	}
}
