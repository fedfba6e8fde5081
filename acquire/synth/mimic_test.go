package synth

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

func TestArtifactKindsAnnotated(t *testing.T) {
	tests := []struct {
		kind     ArtifactKind
		min, max time.Duration
	}{
		{ArtifactChewing, 5 * time.Second, 30 * time.Second},
		{ArtifactPatting, 10 * time.Second, 60 * time.Second},
		{ArtifactRocking, 10 * time.Second, 60 * time.Second},
		{ArtifactElectrodePops, 5 * time.Second, 30 * time.Second},
		{ArtifactSweat, 60 * time.Second, 300 * time.Second},
	}
	p, err := New(Config{Duration: 2 * time.Hour, ArtifactKinds: ArtifactKinds(), ArtifactsPerHour: 20, Seizures: 2, Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	all := p.Intervals()
	// None during a seizure or the 10 s before it.
	for _, s := range p.Seizures() {
		for _, iv := range all {
			if !iv.Seizure && iv.Text != TextBlink && iv.Text != TextMuscle && iv.Start < s.End && iv.End > s.Start-10*time.Second {
				t.Errorf("%q at [%v, %v) overlaps the seizure at [%v, %v) or the 10 s before it", iv.Text, iv.Start, iv.End, s.Start, s.End)
			}
		}
	}
	for _, tt := range tests {
		var got []acquire.Interval
		for _, iv := range all {
			if iv.Text == tt.kind.Text() {
				got = append(got, iv)
			}
		}
		// 20 an hour, less the time the artifacts themselves take.
		lo := 10
		if tt.kind == ArtifactSweat {
			lo = 5
		}
		if len(got) < lo || len(got) > 60 {
			t.Errorf("%s: %d in 2 h at 20 an hour", tt.kind, len(got))
		}
		for i, iv := range got {
			if d := iv.End - iv.Start; d < tt.min-10*time.Millisecond || d > tt.max+3*time.Second {
				t.Errorf("%s at %v lasts %v, want %v..%v", tt.kind, iv.Start, d, tt.min, tt.max)
			}
			if iv.Seizure || strings.Contains(iv.Text, "seizure") {
				t.Errorf("%s at %v: %q marked as seizure", tt.kind, iv.Start, iv.Text)
			}
			if i > 0 && iv.Start < got[i-1].End {
				t.Errorf("%s at %v overlaps the one before", tt.kind, iv.Start)
			}
		}
	}
	// The rate changes how many, and a kind's events do not depend on
	// which other kinds are listed.
	q, err := New(Config{Duration: 2 * time.Hour, ArtifactKinds: []ArtifactKind{ArtifactSweat}, ArtifactsPerHour: 20, Seizures: 2, Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	var a, b []acquire.Interval
	for _, iv := range all {
		if iv.Text == ArtifactSweat.Text() {
			a = append(a, iv)
		}
	}
	for _, iv := range q.Intervals() {
		if iv.Text == ArtifactSweat.Text() {
			b = append(b, iv)
		}
	}
	if !slices.Equal(a, b) {
		t.Errorf("sweat alone at %v, with the other kinds at %v", b, a)
	}
}

// artifactRecording is a 23-channel recording at 256 Hz of one artifact
// kind, 60 an hour, and its part isolated.
func artifactRecording(t *testing.T, k ArtifactKind, d time.Duration, seed uint64) (*Patient, [][]float64, [][]float64) {
	t.Helper()
	cfg := Config{Channels: 23, Duration: d, ArtifactKinds: []ArtifactKind{k}, ArtifactsPerHour: 60, Accelerometer: true, Seed: seed}
	plain := cfg
	plain.ArtifactKinds = nil
	return isolate(t, cfg, plain)
}

func TestChewingIsTemporalEMGAtTheChewingRate(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	p, _, d := artifactRecording(t, ArtifactChewing, 5*time.Minute, 7)
	temporal := []string{"F7-T7", "T7-P7", "F8-T8", "T8-P8"}
	inner := []string{"Fp1-F3", "F3-C3", "C3-P3", "P3-O1", "Fp2-F4", "F4-C4", "C4-P4", "P4-O2", "Fz-Cz", "Cz-Pz", "C3-Cz", "Cz-C4"}
	ivs := p.Intervals()
	events := drawn(p, ArtifactChewing)
	if len(ivs) < 2 || len(events) != len(ivs) {
		t.Fatalf("%d chewing artifacts, %d events", len(ivs), len(events))
	}
	for i, iv := range ivs {
		from, to := iv.Start.Seconds(), iv.End.Seconds()
		for _, l := range inner {
			if r := rms(slice(d[channel(t, p, l)], 256, from, to)); r != 0 {
				t.Errorf("chewing at %v reaches %s (%.2f µV RMS)", iv.Start, l, r)
			}
		}
		// The EMG's envelope (4 ms bins) peaks at the chewing rate.
		best, share := 0.0, 0.0
		var rate float64
		for _, l := range temporal {
			seg := slice(d[channel(t, p, l)], 256, from, to)
			s := welch(seg, 256, 256)
			if r := rms(seg); r > best {
				best, share = r, s.band(20, 0.45*256)*(0.45*256-20)/(s.band(0, 128)*128)
				rate = welch(envelope(seg, 1), 256, 1024).peak(0.5, 5)
			}
		}
		hz := events[i].hz
		t.Logf("chewing at %v for %.0f s: %.0f µV RMS, %.0f %% above 20 Hz, bursts at %.2f Hz (chewing at %.2f Hz)", iv.Start, to-from, best, 100*share, rate, hz)
		if best < 10 || share < 0.9 || !(math.Abs(rate-hz) <= 0.25) || hz < 1 || hz > 2 {
			t.Errorf("chewing at %v: %.1f µV RMS, %.0f %% of it above 20 Hz, bursts at %.2f Hz; want EMG bursts at the chewing rate, %.2f Hz", iv.Start, best, 100*share, rate, hz)
		}
	}
}

func TestPattingAndRockingAreRhythmicAndWidespread(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	for _, k := range []ArtifactKind{ArtifactPatting, ArtifactRocking} {
		p, _, d := artifactRecording(t, k, 5*time.Minute, 8)
		ivs := p.Intervals()
		if len(ivs) < 2 {
			t.Fatalf("%s: %d artifacts", k, len(ivs))
		}
		lo, hi := 1.0, 2.0
		if k == ArtifactPatting {
			lo, hi = 1.5, 3
		}
		for _, iv := range ivs {
			if iv.End == 5*time.Minute {
				continue // cut short by the end
			}
			from, to := iv.Start.Seconds()+1, iv.End.Seconds()-1
			reached, inBand := 0, 0
			var accel float64
			for c := range 23 {
				seg := slice(d[c], 256, from, to)
				if rms(seg) > 3 {
					reached++
				}
				if f := welch(seg, 256, 1024).peak(0.3, 30); f >= lo-0.25 && f <= hi+0.25 {
					inBand++
				}
			}
			for c := 23; c < 26; c++ {
				accel = max(accel, rms(slice(d[c], 256, from, to)))
			}
			t.Logf("%s at %v: on %d/23 channels, peak in %g–%g Hz on %d; accelerometer %.3f g RMS", k, iv.Start, reached, lo, hi, inBand, accel)
			if reached < 20 || inBand < 20 || accel < 0.005 {
				t.Errorf("%s at %v: on %d channels, in band on %d, accelerometer %.3f g", k, iv.Start, reached, inBand, accel)
			}
		}
	}
}

func TestElectrodePopsStayOnOneElectrode(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	p, _, d := artifactRecording(t, ArtifactElectrodePops, 5*time.Minute, 9)
	ivs := p.Intervals()
	if len(ivs) < 2 {
		t.Fatalf("%d runs of pops", len(ivs))
	}
	for _, iv := range ivs {
		from, to := iv.Start.Seconds(), iv.End.Seconds()
		var hit []string
		steps := 0
		for c := range 23 {
			seg := slice(d[c], 256, from, to)
			if rms(seg) == 0 {
				continue
			}
			hit = append(hit, p.Info().Channels[c].Label)
			// A step: at least 25 µV within 20 ms (5 samples).
			if n := countSteps(seg, 5, 25); n > steps {
				steps = n
			}
			if end := math.Abs(seg[len(seg)-1]); end > 10 {
				t.Errorf("pops at %v still %.1f µV off on %s at their end", iv.Start, end, p.Info().Channels[c].Label)
			}
		}
		shared := commonElectrode(hit)
		t.Logf("pops at %v for %.1f s: %d steps on %v (electrode %s)", iv.Start, to-from, steps, hit, shared)
		if shared == "" || len(hit) > 3 || steps < 2 {
			t.Errorf("pops at %v: %d steps on %v; want repeated steps on the derivations of one electrode", iv.Start, steps, hit)
		}
	}
}

// drawn replays the events of artifact kind k of p.
func drawn(p *Patient, k ArtifactKind) []event {
	var out []event
	for _, m := range p.mimics {
		if m.ev.art != k {
			continue
		}
		for e := m.ev0; e.cur.start < p.total; e.advance() {
			out = append(out, e.cur)
		}
	}
	return out
}

// countSteps counts the rises of at least amp within span samples,
// separated by at least span samples.
func countSteps(x []float64, span int, amp float64) int {
	n := 0
	for i := span; i < len(x); i++ {
		if math.Abs(x[i]-x[i-span]) >= amp {
			n++
			i += 4 * span
		}
	}
	return n
}

// commonElectrode returns the electrode every bipolar label "A-B" of
// labels names, or "".
func commonElectrode(labels []string) string {
	if len(labels) == 0 {
		return ""
	}
	a, b, _ := strings.Cut(labels[0], "-")
	for _, e := range []string{a, b} {
		all := true
		for _, l := range labels {
			x, y, _ := strings.Cut(l, "-")
			all = all && (x == e || y == e)
		}
		if all {
			return e
		}
	}
	return ""
}

func TestSweatIsSlowLargeAndLong(t *testing.T) {
	skipShortKinds(t)
	t.Parallel()
	p, _, d := artifactRecording(t, ArtifactSweat, 12*time.Minute, 10)
	ivs := p.Intervals()
	if len(ivs) < 2 {
		t.Fatalf("%d sweat artifacts", len(ivs))
	}
	for _, iv := range ivs {
		if iv.End == 12*time.Minute {
			continue // cut short by the end
		}
		from, to := iv.Start.Seconds(), iv.End.Seconds()
		largest, slow := 0.0, 1.0
		for c := range 23 {
			seg := slice(d[c], 256, from, to)
			if rms(seg) < 5 {
				continue
			}
			for _, v := range seg {
				largest = max(largest, math.Abs(v))
			}
			// Welch with 64 s segments: bins of 1/64 Hz.
			s := welch(seg, 256, 64*256)
			below := 0.0
			total := 0.0
			for i, v := range s.p {
				total += v
				if float64(i)/64 < 0.5 {
					below += v
				}
			}
			slow = min(slow, below/total)
		}
		t.Logf("sweat at %v for %.0f s: up to %.0f µV, at least %.1f %% of the power below 0.5 Hz", iv.Start, to-from, largest, 100*slow)
		if to-from < 60 || largest < 50 || slow < 0.9 {
			t.Errorf("sweat at %v: %.0f s, %.0f µV, %.2f of the power below 0.5 Hz", iv.Start, to-from, largest, slow)
		}
	}
}
