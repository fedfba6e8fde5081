package synth

import (
	"math"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

func artifacts(p *Patient, text string) []acquire.Interval {
	var out []acquire.Interval
	for _, iv := range p.Intervals() {
		if iv.Text == text {
			out = append(out, iv)
		}
	}
	return out
}

func TestArtifactRatesAndLabels(t *testing.T) {
	tests := []struct {
		name           string
		blinks, muscle float64
		wantB, wantM   int // expected counts over 20 minutes
		tolB, tolM     int
	}{
		{"none", 0, 0, 0, 0, 0, 0},
		{"blinks only", 6, 0, 120, 0, 25, 0},
		{"both", 12, 2, 240, 40, 40, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(Config{Duration: 20 * time.Minute, BlinksPerMinute: tt.blinks, MusclePerMinute: tt.muscle, Seizures: 2, Seed: 8})
			if err != nil {
				t.Fatal(err)
			}
			b, m := artifacts(p, "artifact: blink"), artifacts(p, "artifact: muscle")
			if d := len(b) - tt.wantB; d < -tt.tolB || d > tt.tolB {
				t.Errorf("%d blinks, want %d±%d", len(b), tt.wantB, tt.tolB)
			}
			if d := len(m) - tt.wantM; d < -tt.tolM || d > tt.tolM {
				t.Errorf("%d muscle bursts, want %d±%d", len(m), tt.wantM, tt.tolM)
			}
			all := p.Intervals()
			for i, iv := range all {
				if iv.Seizure != (iv.Text == "seizure") {
					t.Errorf("interval %d %q: Seizure %v", i, iv.Text, iv.Seizure)
				}
				if iv.End <= iv.Start || iv.End > 20*time.Minute {
					t.Errorf("interval %d %q: [%v, %v)", i, iv.Text, iv.Start, iv.End)
				}
				if i > 0 && iv.Start < all[i-1].Start {
					t.Errorf("interval %d starts at %v, before interval %d (%v)", i, iv.Start, i-1, all[i-1].Start)
				}
			}
			for _, iv := range b {
				// 0.2 to 0.4 s, truncated to whole samples.
				if d := iv.End - iv.Start; d < 200*time.Millisecond-time.Second/256 || d > 400*time.Millisecond {
					t.Errorf("blink at %v lasts %v", iv.Start, d)
				}
			}
		})
	}
}

func TestBlinksAreLargeFrontalDeflections(t *testing.T) {
	p, x := record(t, Config{Channels: 23, Duration: 5 * time.Minute, BlinksPerMinute: 10, Seed: 12})
	fp, occ := channel(t, p, "Fp1-F7"), channel(t, p, "P7-O1")
	blinks := artifacts(p, "artifact: blink")
	if len(blinks) < 30 {
		t.Fatalf("only %d blinks", len(blinks))
	}
	// The deflection: the mean over the blink's middle third against the
	// mean of the half second before.
	deflection := func(c int, iv acquire.Interval) float64 {
		from, to := iv.Start.Seconds(), iv.End.Seconds()
		mid, third := (from+to)/2, (to-from)/6
		return mean(slice(x[c], 256, mid-third, mid+third)) - mean(slice(x[c], 256, from-0.5, from))
	}
	var frontal, occipital float64
	for _, iv := range blinks {
		df := deflection(fp, iv)
		if df < 50 || df > 350 {
			t.Errorf("blink at %v: Fp1-F7 deflects by %.0f µV, want 50..350", iv.Start, df)
		}
		frontal += df / float64(len(blinks))
		occipital += deflection(occ, iv) / float64(len(blinks))
	}
	// Averaged over the blinks, the background cancels out.
	if frontal < 120 || math.Abs(occipital) > 10 {
		t.Errorf("mean blink deflection %.0f µV on Fp1-F7 and %.0f µV on P7-O1; want > 120 and within ±10", frontal, occipital)
	}
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func TestMuscleBurstsAreTemporalAndBroadband(t *testing.T) {
	p, x := record(t, Config{Channels: 23, Duration: 10 * time.Minute, MusclePerMinute: 3, Seed: 13})
	temporal := []int{channel(t, p, "F7-T7"), channel(t, p, "F8-T8")}
	central := channel(t, p, "Cz-Pz")
	bursts := artifacts(p, "artifact: muscle")
	if len(bursts) < 15 {
		t.Fatalf("only %d muscle bursts", len(bursts))
	}
	for _, iv := range bursts {
		from, to := iv.Start.Seconds()+0.2, iv.End.Seconds()-0.2
		if to-from < 0.5 {
			continue
		}
		gain := func(c int) float64 {
			seg := slice(x[c], 256, from, to)
			pre := slice(x[c], 256, iv.Start.Seconds()-4, iv.Start.Seconds())
			return welch(seg, 256, 128).band(30, 70) / welch(pre, 256, 128).band(30, 70)
		}
		best := max(gain(temporal[0]), gain(temporal[1]))
		if best < 5 {
			t.Errorf("burst at %v: 30–70 Hz power on the temporal channels rises only %.1f×", iv.Start, best)
		}
		if g := gain(central); g > 2 {
			t.Errorf("burst at %v: 30–70 Hz power on Cz-Pz rises %.1f×", iv.Start, g)
		}
	}
}
