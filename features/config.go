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

// MinRate is the lowest sampling rate supported, in Hz: that of
// ambulatory and older clinical recorders and of Sleep-EDF. Every feature
// band lies below its Nyquist frequency (50 Hz) but the top of γ, which
// ends at min(70 Hz, fs/2); the conditioning's low-pass (45 Hz there) and
// its mains notches, at a mains frequency's alias when it lies above
// Nyquist, are designed for every rate from it up (TestMainsAboveNyquist).
// Below it the γ band would all but vanish and the day-one model, trained
// at 173.61 Hz, would score what it never saw: a slower source is
// refused, not scored.
const MinRate = 100.0

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

// ConfigError says which field of a Config is wrong and why, in the
// spirit of json.UnmarshalTypeError: callers that present the
// configuration under other names map Field, never the message.
type ConfigError struct {
	Field  string // "Window", "Labels[3]"
	Reason string // the value and what is wrong with it
}

func (e *ConfigError) Error() string { return ErrConfig.Error() + ": " + e.Field + " " + e.Reason }

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

func configErr(field, format string, args ...any) error {
	return &ConfigError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Config describes the signal and the features to extract from it.
type Config struct {
	// Channels is the number of samples in every frame pushed (≥ 1).
	Channels int
	// Labels optionally names the channels ("Fp1-F7"), for Names. When nil
	// the channels are called "ch0", "ch1", …; otherwise it has one
	// non-empty, distinct label per channel.
	Labels []string
	// Rate is the sampling rate in Hz, shared by all channels: at least
	// MinRate.
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
	// Conditioning filters every channel before it is windowed; the zero
	// value is on with the defaults (see Conditioning).
	Conditioning Conditioning
}

// Dim returns the length of the feature vectors an Extractor built from c
// makes — Channels × len(Features) plus the summaries — without building
// one. It fails as New would for an invalid c.
func (c Config) Dim() (int, error) {
	r, err := c.withDefaults()
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

// withDefaults applies defaults and checks c, naming the offending field.
func (c Config) withDefaults() (resolved, error) {
	r := resolved{Config: c}
	if c.Channels < 1 {
		return r, configErr("Channels", "%d: need at least 1", c.Channels)
	}
	if c.Labels != nil {
		if len(c.Labels) != c.Channels {
			return r, configErr("Labels", "has %d entries for %d Channels", len(c.Labels), c.Channels)
		}
		seen := make(map[string]int, len(c.Labels))
		for i, l := range c.Labels {
			if l == "" {
				return r, configErr(fmt.Sprintf("Labels[%d]", i), "is empty")
			}
			if j, dup := seen[l]; dup {
				return r, configErr(fmt.Sprintf("Labels[%d]", i), "%q repeats Labels[%d]", l, j)
			}
			seen[l] = i
		}
	}
	if math.IsNaN(c.Rate) || math.IsInf(c.Rate, 0) || c.Rate < MinRate {
		return r, configErr("Rate", "%g Hz: the lowest rate supported is %g Hz", c.Rate, MinRate)
	}
	if r.Window == 0 {
		r.Window = DefaultWindow
	}
	if r.Step == 0 {
		r.Step = DefaultStep
	}
	if r.Window < 0 {
		return r, configErr("Window", "%v is negative", r.Window)
	}
	if r.Step < 0 {
		return r, configErr("Step", "%v is negative", r.Step)
	}
	n := math.Round(r.Window.Seconds() * c.Rate)
	if n > MaxWindowSamples {
		return r, configErr("Window", "%v at %g Hz is %.0f samples, more than %d", r.Window, c.Rate, n, MaxWindowSamples)
	}
	r.n = int(n)
	if r.n < minWindowSamples {
		return r, configErr("Window", "%v at %g Hz is %d samples, need at least %d", r.Window, c.Rate, r.n, minWindowSamples)
	}
	if int64(c.Channels)*int64(r.n) > MaxBufferSamples {
		return r, configErr("Channels", "%d × Window %v at %g Hz is %d samples, more than %d", c.Channels, r.Window, c.Rate, int64(c.Channels)*int64(r.n), MaxBufferSamples)
	}
	r.step = r.Step.Seconds() * c.Rate
	if r.step < 1 {
		return r, configErr("Step", "%v at %g Hz is %.3g samples, less than one", r.Step, c.Rate, r.step)
	}
	if r.step > MaxWindowSamples {
		return r, configErr("Step", "%v at %g Hz is %.0f samples, more than %d", r.Step, c.Rate, r.step, MaxWindowSamples)
	}
	if r.Features == nil {
		r.Features = AllFeatures()
	}
	if len(r.Features) == 0 && !r.Summaries {
		return r, configErr("Features", "is empty and Summaries is off: no features")
	}
	var seen [numFeatures]bool
	for i, f := range r.Features {
		if f >= numFeatures {
			return r, configErr(fmt.Sprintf("Features[%d]", i), "is %v, not a feature", f)
		}
		if seen[f] {
			return r, configErr(fmt.Sprintf("Features[%d]", i), "%v is listed twice", f)
		}
		seen[f] = true
	}
	if _, err := newConditioner(c.Conditioning, c.Rate, 0); err != nil {
		return r, err
	}
	// Copy so that the caller's slices cannot change the extractor later.
	r.Features = append([]Feature(nil), r.Features...)
	if r.Labels != nil {
		r.Labels = append([]string(nil), r.Labels...)
	}
	return r, nil
}
