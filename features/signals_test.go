package features

import (
	"math"
	"testing"
)

// TestBandsOfSines checks that a pure sine puts almost all its power in its
// band, that the band power is A²/2 (Parseval with the Hann correction)
// and that the spectral edge sits at the tone.
//
// Tolerances: for a tone on a bin (whole number of cycles in the window)
// the Hann window leaks into the two neighbouring bins only, all inside
// the band, and Σw²x²/Σw² is exactly A²/2, so the power is exact to
// rounding (1e-9). Off a bin, Σw²x²/Σw² differs from A²/2 by the Hann
// window's transform at twice the tone's frequency, below 1e-4 for tones
// many bins from 0 Hz, and the leakage beyond a band edge ≥ 1 Hz away
// falls as the sixth power of the distance in bins (Hann side lobes
// decay as 1/k³ in amplitude): 1 % covers both. The spectral edge of a
// tone is within one bin (0.5 Hz) of it.
func TestBandsOfSines(t *testing.T) {
	tests := []struct {
		name     string
		rate     float64
		freq     float64
		amp      float64
		band     Feature // the band power feature that should hold the tone
		powerTol float64
	}{
		{"10 Hz on a bin at 256 Hz is alpha", 256, 10, 50, AlphaPower, 1e-9},
		{"10.3 Hz off a bin at 256 Hz is alpha", 256, 10.3, 50, AlphaPower, 0.01},
		{"2 Hz at 256 Hz is delta", 256, 2, 100, DeltaPower, 1e-9},
		{"6 Hz at 256 Hz is theta", 256, 6, 30, ThetaPower, 1e-9},
		{"20 Hz at 256 Hz is beta", 256, 20, 10, BetaPower, 1e-9},
		{"40 Hz at 256 Hz is gamma", 256, 40, 5, GammaPower, 1e-9},
		{"10 Hz at 173.61 Hz is alpha", 173.61, 10, 50, AlphaPower, 0.01},
		{"2 Hz at 173.61 Hz is delta", 173.61, 2, 50, DeltaPower, 0.01},
		{"40 Hz at 250 Hz is gamma", 250, 40, 5, GammaPower, 1e-9},
		{"10 Hz at 500 Hz is alpha", 500, 10, 50, AlphaPower, 1e-9},
		{"25 Hz at 500 Hz is beta", 500, 25, 20, BetaPower, 1e-9},
		// 1 Hz inside a band edge, off the bin grid: the Hann main lobe
		// (±2 bins, ±1 Hz) just fits and the side lobes leak < 1 %.
		{"9.03 Hz, 1 Hz above alpha's lower edge, at 256 Hz", 256, 9.03, 50, AlphaPower, 0.01},
		{"11.97 Hz, 1 Hz below alpha's upper edge, at 173.61 Hz", 173.61, 11.97, 50, AlphaPower, 0.01},
		{"28.95 Hz, 1 Hz below beta's upper edge, at 250 Hz", 250, 28.95, 50, BetaPower, 0.01},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := firstVector(t, Config{Channels: 1, Rate: tt.rate}, sine(tt.amp, tt.freq))
			rel := x[DeltaRel+(tt.band-DeltaPower)]
			if rel <= 0.95 {
				t.Errorf("%v = %.4f, want > 0.95", DeltaRel+(tt.band-DeltaPower), rel)
			}
			var sumRel float64
			for b := DeltaRel; b <= GammaRel; b++ {
				sumRel += x[b]
			}
			if math.Abs(sumRel-1) > 1e-12 {
				t.Errorf("relative powers add up to %v, want 1", sumRel)
			}
			want := tt.amp * tt.amp / 2
			if got := unlog(x[tt.band], PowerFloor); math.Abs(got-want) > tt.powerTol*want {
				t.Errorf("%v = %.6g µV², want A²/2 = %.6g within %g", tt.band, got, want, tt.powerTol)
			}
			if got := x[SpectralEdge]; math.Abs(got-tt.freq) > 0.5 {
				t.Errorf("spectral edge = %.3f Hz, want %g ± 0.5", got, tt.freq)
			}
		})
	}
}

// TestTimeDomainOfSines checks RMS, zero crossings, Hjorth parameters and
// Teager–Kaiser energy against their closed forms for sampled sines.
func TestTimeDomainOfSines(t *testing.T) {
	tests := []struct {
		name       string
		rate, freq float64
		amp        float64
	}{
		{"10 Hz at 256 Hz", 256, 10, 40},
		{"3 Hz at 256 Hz", 256, 3, 80},
		{"40 Hz at 256 Hz", 256, 40, 5},
		{"10 Hz at 250 Hz", 250, 10, 40},
		{"20 Hz at 500 Hz", 500, 20, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := firstVector(t, Config{Channels: 1, Rate: tt.rate}, sine(tt.amp, tt.freq))
			// Each tone makes a whole number of cycles in 2 s, so the
			// window's mean is 0 and its mean square exactly A²/2.
			if got, want := unlog(x[RMS], AmplitudeFloor), tt.amp/math.Sqrt2; math.Abs(got-want) > 1e-9*want {
				t.Errorf("rms = %.9g, want A/√2 = %.9g", got, want)
			}
			// Crossings fall at every half period: 2f per second, give
			// or take one over the window's (n−1)/fs seconds.
			seconds := 2 - 1/tt.rate
			if got, want := x[ZeroCrossings], 2*tt.freq; math.Abs(got-want) > 1/seconds+1e-9 {
				t.Errorf("zero crossings = %.4f /s, want 2f = %g", got, want)
			}
			// The exact discrete expectation. With Ω = 2πf/fs and x[k] =
			// A·sin(Ωk+φ): Δx[k] = 2A·sin(Ω/2)·cos(Ωk+φ+Ω/2) for k < n−1 and
			// Δ²x[k] = −4A·sin²(Ω/2)·sin(Ωk+φ+Ω) for k < n−2, whose mean
			// squares meanSin2 gives in closed form. Mobility in Hz then
			// tends to fs·sin(πf/fs)/π and complexity to 1 as n grows.
			n := int(math.Round(2 * tt.rate))
			omega := 2 * math.Pi * tt.freq / tt.rate
			h := math.Sin(omega / 2)
			v0 := meanSin2(n, omega, phase)
			v1 := 4 * h * h * (1 - meanSin2(n-1, omega, phase+omega/2))
			v2 := 16 * h * h * h * h * meanSin2(n-2, omega, phase+omega)
			m0 := math.Sqrt(v1 / v0)
			wantMob := m0 * tt.rate / (2 * math.Pi)
			if got := x[HjorthMobility]; math.Abs(got-wantMob) > 1e-9*wantMob {
				t.Errorf("mobility = %.9f Hz, want %.9f", got, wantMob)
			}
			if limit := tt.rate * h / math.Pi; math.Abs(wantMob-limit) > 5e-3*limit {
				t.Errorf("exact mobility %.5f Hz is not near its limit fs·sin(πf/fs)/π = %.5f", wantMob, limit)
			}
			wantCx := math.Sqrt(v2/v1) / m0
			if got := x[HjorthComplexity]; math.Abs(got-wantCx) > 1e-9 {
				t.Errorf("complexity = %.9f, want %.9f", got, wantCx)
			}
			if math.Abs(wantCx-1) > 5e-3 {
				t.Errorf("exact complexity %.5f is not near 1", wantCx)
			}
			// x[i]² − x[i−1]x[i+1] = A²sin²(Ω) exactly, for every i.
			s := math.Sin(2 * math.Pi * tt.freq / tt.rate)
			toHz := tt.rate / (2 * math.Pi)
			wantTK := tt.amp * tt.amp * s * s * toHz * toHz
			if got := unlog(x[TeagerEnergy], PowerFloor); math.Abs(got-wantTK) > 1e-9*wantTK {
				t.Errorf("teager energy = %.6g, want %.6g", got, wantTK)
			}
		})
	}
}

// meanSin2 returns the mean of sin²(Ωk+θ) over k = 0 … count−1, from
// Σcos(2Ωk+2θ) = sin(count·Ω)·cos(2θ+(count−1)Ω)/sin(Ω).
func meanSin2(count int, omega, theta float64) float64 {
	c := float64(count)
	return 0.5 - math.Sin(c*omega)*math.Cos(2*theta+(c-1)*omega)/(2*c*math.Sin(omega))
}

// TestLineLengthOfRamp compares the line length with a hand computation.
func TestLineLengthOfRamp(t *testing.T) {
	tests := []struct {
		name  string
		rate  float64
		slope float64 // µV per sample
	}{
		{"rising 0.5 µV per sample at 256 Hz", 256, 0.5},
		{"falling 2 µV per sample at 256 Hz", 256, -2},
		{"rising 1 µV per sample at 500 Hz", 500, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := firstVector(t, Config{Channels: 1, Rate: tt.rate},
				func(sec float64) float64 { return 100 + tt.slope*math.Round(sec*tt.rate) })
			// n−1 steps of |slope| µV over (n−1)/fs seconds: |slope|·fs µV/s.
			want := math.Abs(tt.slope) * tt.rate
			if got := unlog(x[LineLength], AmplitudeFloor); math.Abs(got-want) > 1e-9*want {
				t.Errorf("line length = %.9g µV/s, want %.9g", got, want)
			}
			// The mean-removed ramp crosses zero once.
			if got, want := x[ZeroCrossings], 1/(2-1/tt.rate); math.Abs(got-want) > 1e-9 {
				t.Errorf("zero crossings = %v, want %v", got, want)
			}
		})
	}
}

// TestFlatWindowsAreFinite checks the floors: flat lines, all zeros and
// lines at a large offset give finite features with the documented values.
func TestFlatWindowsAreFinite(t *testing.T) {
	tests := []struct {
		name  string
		value float64
	}{
		{"all zero", 0},
		{"constant 0.1 µV", 0.1},
		{"constant offset -187500 µV", -187500},
		{"constant 1e9 µV", MaxSample},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Channels: 2, Rate: 256, Summaries: true}
			x := firstVector(t, cfg, func(float64) float64 { return tt.value })
			for c := 0; c < 2; c++ {
				ch := x[c*int(numFeatures) : (c+1)*int(numFeatures)]
				for f := Feature(0); f < numFeatures; f++ {
					want := 0.0
					switch f {
					case LineLength, RMS:
						want = math.Log(AmplitudeFloor)
					case DeltaPower, ThetaPower, AlphaPower, BetaPower, GammaPower, TeagerEnergy:
						want = math.Log(PowerFloor)
					}
					if math.Abs(ch[f]-want) > 1e-6 {
						t.Errorf("channel %d %v = %v, want %v", c, f, ch[f], want)
					}
				}
			}
		})
	}
}
