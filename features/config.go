package features

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Default window geometry: a vector describes the last 2 s and one is
// produced every second.
const (
	DefaultWindow = 2 * time.Second
	DefaultStep   = time.Second
)

// MaxWindowSamples bounds Window × Rate and Step × Rate, so that a
// mistyped configuration cannot make New allocate gigabytes.
const MaxWindowSamples = 1 << 20

// MaxBufferSamples bounds Channels × Window × Rate, the samples the ring
// buffers hold (512 MiB of float64), so that sizes fit a 32-bit int and a
// mistyped channel count fails in New rather than in make.
const MaxBufferSamples = 1 << 26

// minWindowSamples is the shortest window the time-domain features are
// defined on (Hjorth complexity needs second differences of two points).
const minWindowSamples = 4

// ErrConfig is wrapped by every error New returns for an invalid Config.
var ErrConfig = errors.New("features: invalid config")

// Config describes the signal and the features to extract from it.
type Config struct {
	// Channels is the number of samples in every frame pushed (≥ 1).
	Channels int
	// Labels optionally names the channels ("Fp1-F7"), for Names. When nil
	// the channels are called "ch0", "ch1", …; otherwise it has one
	// non-empty, distinct label per channel.
	Labels []string
	// Rate is the sampling rate in Hz, shared by all channels. It must
	// exceed 60 Hz so that the γ band (from 30 Hz) is not empty.
	Rate float64
	// Window is the span a vector describes; 0 means DefaultWindow.
	// Window × Rate is rounded to a whole number of samples, and the
	// window must be long enough for every band to hold a spectral bin
	// (about 0.6 s at least).
	Window time.Duration
	// Step is the time between consecutive vectors; 0 means DefaultStep.
	// Step × Rate must be at least one sample. Step ≥ Window gives windows
	// that do not overlap (Step > Window skips the samples in between).
	Step time.Duration
	// Features lists the per-channel features, in the order they appear
	// for each channel. Nil means AllFeatures(); an empty, non-nil slice
	// means none (then Summaries must be set).
	Features []Feature
	// Summaries appends four cross-channel features after the per-channel
	// ones: the maximum and the median over channels of the line length
	// feature and of the relative δ+θ power.
	Summaries bool
}

// Dim returns the length of the feature vectors an Extractor built from c
// makes — Channels × len(Features) plus the summaries — without building
// one. It fails as New would for an invalid c.
func (c Config) Dim() (int, error) {
	r, err := c.resolve()
	if err != nil {
		return 0, err
	}
	d := r.Channels * len(r.Features)
	if r.Summaries {
		d += numSummaries
	}
	return d, nil
}

// resolved is a validated Config with defaults applied and derived sizes.
type resolved struct {
	Config
	n    int     // samples per window
	step float64 // samples per step (not necessarily whole)
}

// resolve applies defaults and checks c, naming the offending field.
func (c Config) resolve() (resolved, error) {
	r := resolved{Config: c}
	if c.Channels < 1 {
		return r, fmt.Errorf("%w: Channels %d: need at least 1", ErrConfig, c.Channels)
	}
	if c.Labels != nil {
		if len(c.Labels) != c.Channels {
			return r, fmt.Errorf("%w: Labels has %d entries for %d Channels", ErrConfig, len(c.Labels), c.Channels)
		}
		seen := make(map[string]int, len(c.Labels))
		for i, l := range c.Labels {
			if l == "" {
				return r, fmt.Errorf("%w: Labels[%d] is empty", ErrConfig, i)
			}
			if j, dup := seen[l]; dup {
				return r, fmt.Errorf("%w: Labels[%d] %q repeats Labels[%d]", ErrConfig, i, l, j)
			}
			seen[l] = i
		}
	}
	if math.IsNaN(c.Rate) || math.IsInf(c.Rate, 0) || c.Rate <= 2*bandEdges[4] {
		return r, fmt.Errorf("%w: Rate %g Hz: must be a finite rate above %g Hz (the γ band starts at %g Hz)",
			ErrConfig, c.Rate, 2*bandEdges[4], bandEdges[4])
	}
	if r.Window == 0 {
		r.Window = DefaultWindow
	}
	if r.Step == 0 {
		r.Step = DefaultStep
	}
	if r.Window < 0 {
		return r, fmt.Errorf("%w: Window %v is negative", ErrConfig, r.Window)
	}
	if r.Step < 0 {
		return r, fmt.Errorf("%w: Step %v is negative", ErrConfig, r.Step)
	}
	n := math.Round(r.Window.Seconds() * c.Rate)
	if n > MaxWindowSamples {
		return r, fmt.Errorf("%w: Window %v at %g Hz is %.0f samples, more than %d", ErrConfig, r.Window, c.Rate, n, MaxWindowSamples)
	}
	r.n = int(n)
	if r.n < minWindowSamples {
		return r, fmt.Errorf("%w: Window %v at %g Hz is %d samples, need at least %d", ErrConfig, r.Window, c.Rate, r.n, minWindowSamples)
	}
	if int64(c.Channels)*int64(r.n) > MaxBufferSamples {
		return r, fmt.Errorf("%w: Channels %d × Window %v at %g Hz is %d samples, more than %d",
			ErrConfig, c.Channels, r.Window, c.Rate, int64(c.Channels)*int64(r.n), MaxBufferSamples)
	}
	r.step = r.Step.Seconds() * c.Rate
	if r.step < 1 {
		return r, fmt.Errorf("%w: Step %v at %g Hz is %.3g samples, less than one", ErrConfig, r.Step, c.Rate, r.step)
	}
	if r.step > MaxWindowSamples {
		return r, fmt.Errorf("%w: Step %v at %g Hz is %.0f samples, more than %d", ErrConfig, r.Step, c.Rate, r.step, MaxWindowSamples)
	}
	if r.Features == nil {
		r.Features = AllFeatures()
	}
	if len(r.Features) == 0 && !r.Summaries {
		return r, fmt.Errorf("%w: Features is empty and Summaries is off: no features", ErrConfig)
	}
	var seen [numFeatures]bool
	for i, f := range r.Features {
		if f >= numFeatures {
			return r, fmt.Errorf("%w: Features[%d] is %v, not a feature", ErrConfig, i, f)
		}
		if seen[f] {
			return r, fmt.Errorf("%w: Features[%d] %v is listed twice", ErrConfig, i, f)
		}
		seen[f] = true
	}
	// Copy so that the caller's slices cannot change the extractor later.
	r.Features = append([]Feature(nil), r.Features...)
	if r.Labels != nil {
		r.Labels = append([]string(nil), r.Labels...)
	}
	return r, nil
}
