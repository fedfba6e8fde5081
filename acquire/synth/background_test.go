package synth

import (
	"testing"
	"time"
)

// quiet is a seizure- and artifact-free recording of the 23-channel montage.
func quiet(t *testing.T, seed uint64) (*Patient, [][]float64) {
	t.Helper()
	return record(t, Config{Channels: 23, Duration: 4 * time.Minute, Seed: seed})
}

func TestBackgroundSpectrumFallsWithFrequency(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		p, x := quiet(t, seed)
		for c, ch := range p.Info().Channels {
			s := welch(x[c], 256, 512)
			delta, beta, gamma := s.band(1, 4), s.band(13, 30), s.band(30, 70)
			if !(delta > beta && beta > gamma) {
				t.Errorf("seed %d %s: power density 1–4 Hz %.3g, 13–30 Hz %.3g, 30–70 Hz %.3g µV²/Hz; want falling",
					seed, ch.Label, delta, beta, gamma)
			}
			// 1/f^α with α in 1.5..1.9: beta (≈20 Hz) is 20 to 150
			// times below delta (≈2 Hz), not flat and not a cliff.
			if r := delta / beta; r < 8 || r > 300 {
				t.Errorf("seed %d %s: delta/beta density ratio %.1f, want a 1/f-like slope", seed, ch.Label, r)
			}
			if r := rms(x[c]); r < 10 || r > 60 {
				t.Errorf("seed %d %s: background RMS %.1f µV, want tens of µV", seed, ch.Label, r)
			}
		}
	}
}

func TestAlphaPeaksOnPosteriorChannels(t *testing.T) {
	tests := []struct {
		label string
		peak  bool
	}{
		{"P7-O1", true}, {"P3-O1", true}, {"P4-O2", true}, {"P8-O2", true},
		{"Fp1-F7", false}, {"Fp1-F3", false}, {"Fp2-F8", false}, {"F3-C3", false},
	}
	for _, seed := range []uint64{1, 2, 3} {
		p, x := quiet(t, seed)
		for _, tt := range tests {
			s := welch(x[channel(t, p, tt.label)], 256, 512)
			f := s.peak(6, 14)
			// Density at the alpha peak against the flanks of the band.
			rise := s.band(f-0.5, f+1) / max(s.band(5.5, 6.5), s.band(14, 15))
			got := f >= 8 && f <= 12 && rise > 2
			if got != tt.peak {
				t.Errorf("seed %d %s: peak %.1f Hz standing %.2f× above its flanks; want alpha peak %v", seed, tt.label, f, rise, tt.peak)
			}
		}
	}
}

func TestNeighbouringChannelsCorrelate(t *testing.T) {
	p, x := quiet(t, 4)
	ch := func(l string) []float64 { return x[channel(t, p, l)] }
	tests := []struct {
		a, b     string
		min, max float64
	}{
		{"Fp1-F7", "Fp1-F3", 0.3, 1}, // neighbours
		{"F7-T7", "T7-FT9", 0.3, 1},
		{"C4-P4", "T8-P8", 0.2, 1},
		{"F7-T7", "F8-T8", -0.15, 0.15}, // far apart
		{"Fp1-F7", "P8-O2", -0.15, 0.15},
		{"T7-P7", "FT10-T8", -0.15, 0.15},
	}
	for _, tt := range tests {
		if r := correlation(ch(tt.a), ch(tt.b)); r < tt.min || r > tt.max {
			t.Errorf("correlation(%s, %s) = %.2f, want %.2f..%.2f", tt.a, tt.b, r, tt.min, tt.max)
		}
	}
}
