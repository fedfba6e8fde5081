package features

import (
	"errors"
	"fmt"
	"math"
)

// Baseline expresses each channel's features relative to that channel's
// own recent background: z = (g(v) − m) / s, where g makes a feature's
// distribution closer to a Gaussian (the logit of a relative band power,
// the logarithm of a frequency or a count; the log features are left as
// they are), and m and s are a robust running location and scale of g(v)
// over the background windows the caller chooses to Update with (usable,
// no artifact, no seizure event in progress).
//
// The statistics start from population values (Population: a median and
// a scale per feature, from the windows a generic model was trained on),
// so a new patient is scored from the first window, and move to the
// patient's own as windows arrive: the step size is 1/(Prior + n) for the
// n-th update, so the population counts as Prior windows, and never falls
// below 1/Horizon, so the baseline keeps following a background that
// drifts over Horizon windows. Each update is a Huber step: a window
// further than Clip scales from the location moves it as one Clip scales
// away would, so a burst of spikes cannot drag the baseline up.
//
// Normalise and Update allocate nothing. A Baseline is used by one
// goroutine at a time; State and Restore carry it through a checkpoint.
type Baseline struct {
	feats []Feature
	ch    int
	loc   []float64 // channel-major, ch × len(feats)
	scale []float64
	n     []float64 // updates per channel
	pop   Population
}

// Population is the starting point of a Baseline: for each per-channel
// feature, the location (median) and scale of g(v) over background
// windows of the population a generic model learned from.
type Population struct {
	Features []string  `json:"features"` // Feature names, in vector order
	Location []float64 `json:"location"`
	Scale    []float64 `json:"scale"`
}

// Baseline tuning: the population counts as Prior windows; the step never
// falls below 1/Horizon (5 min at a 1 s step); Huber's clip in scales.
const (
	BaselinePrior   = 30
	BaselineHorizon = 300
	BaselineClip    = 3.0
	// minScale keeps s positive for a feature that does not vary (a flat
	// channel's relative powers), in the units of g.
	minScale = 1e-3
	// gauss is 1/E|u| for a standard normal u: it turns a mean absolute
	// deviation into a standard deviation.
	gauss = 1.2533141373155003
)

// Transform returns g(v) for feature f: the logit of a relative power
// (clamped to [1e-4, 1−1e-4]), log(v + 1e-3) of a Hjorth parameter, the
// zero-crossing rate or the spectral edge, and v itself for the features
// that are logarithms already.
func Transform(f Feature, v float64) float64 {
	switch f {
	case DeltaRel, ThetaRel, AlphaRel, BetaRel, GammaRel:
		q := min(max(v, 1e-4), 1-1e-4)
		return math.Log(q / (1 - q))
	case HjorthMobility, HjorthComplexity, ZeroCrossings, SpectralEdge:
		return math.Log(max(v, 0) + 1e-3)
	}
	return v
}

// NewBaseline returns a baseline for channels channels of the features
// feats (a vector holds, per channel, feats in order, as an Extractor
// without Summaries makes it), starting every channel at pop.
func NewBaseline(channels int, feats []Feature, pop Population) (*Baseline, error) {
	if channels < 1 || len(feats) == 0 {
		return nil, fmt.Errorf("features: baseline of %d channels × %d features", channels, len(feats))
	}
	if err := pop.check(feats); err != nil {
		return nil, err
	}
	b := &Baseline{feats: feats, ch: channels, pop: pop,
		loc: make([]float64, channels*len(feats)), scale: make([]float64, channels*len(feats)), n: make([]float64, channels)}
	for c := 0; c < channels; c++ {
		copy(b.loc[c*len(feats):], pop.Location)
		copy(b.scale[c*len(feats):], pop.Scale)
	}
	return b, nil
}

// check validates a population for the features feats.
func (p Population) check(feats []Feature) error {
	if len(p.Features) != len(feats) || len(p.Location) != len(feats) || len(p.Scale) != len(feats) {
		return fmt.Errorf("features: population of %d features (%d locations, %d scales) for %d features",
			len(p.Features), len(p.Location), len(p.Scale), len(feats))
	}
	for i, f := range feats {
		if p.Features[i] != f.String() {
			return fmt.Errorf("features: population feature %d is %q, want %q", i, p.Features[i], f)
		}
		if !finite(p.Location[i]) || !finite(p.Scale[i]) || p.Scale[i] < minScale {
			return fmt.Errorf("features: population %s: location %v, scale %v (want finite, scale ≥ %g)", f, p.Location[i], p.Scale[i], minScale)
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Standard returns the population of windows: the median and a robust
// scale (1.4826 × the median absolute deviation, at least minScale) of
// g(v) of every feature over every channel of every window. Windows are
// vectors of channels × len(feats) features.
func Standard(feats []Feature, channels int, windows [][]float64) (Population, error) {
	if len(windows) == 0 {
		return Population{}, errors.New("features: no windows for a population")
	}
	p := Population{Location: make([]float64, len(feats)), Scale: make([]float64, len(feats))}
	vals := make([]float64, 0, len(windows)*channels)
	for i, f := range feats {
		p.Features = append(p.Features, f.String())
		vals = vals[:0]
		for _, w := range windows {
			if len(w) != channels*len(feats) {
				return Population{}, fmt.Errorf("features: a window of %d features, want %d", len(w), channels*len(feats))
			}
			for c := 0; c < channels; c++ {
				vals = append(vals, Transform(f, w[c*len(feats)+i]))
			}
		}
		_, med := maxMedian(vals)
		for j, v := range vals {
			vals[j] = math.Abs(v - med)
		}
		_, mad := maxMedian(vals)
		p.Location[i], p.Scale[i] = med, max(1.4826*mad, minScale)
	}
	return p, nil
}

// Normalise writes z = (g(v) − m)/s for every channel and feature of the
// vector v into dst (both channels × features long) and returns dst.
func (b *Baseline) Normalise(dst, v []float64) []float64 {
	nf := len(b.feats)
	for c := 0; c < b.ch; c++ {
		for i, f := range b.feats {
			k := c*nf + i
			dst[k] = (Transform(f, v[k]) - b.loc[k]) / b.scale[k]
		}
	}
	return dst
}

// Update takes the background window v into channel c's statistics.
// Its products are rounded on their own (float64(…)), so no platform
// fuses a multiply-add: the statistics have the same bits everywhere.
func (b *Baseline) Update(c int, v []float64) {
	nf := len(b.feats)
	b.n[c]++
	a := max(1/(BaselinePrior+b.n[c]), 1.0/BaselineHorizon)
	for i, f := range b.feats {
		k := c*nf + i
		s := b.scale[k]
		u := (Transform(f, v[k]) - b.loc[k]) / s
		u = min(max(u, -BaselineClip), BaselineClip)
		b.loc[k] += float64(a * s * u)
		if u < 0 {
			u = -u
		}
		b.scale[k] = max(s+float64(a*(float64(gauss*u*s)-s)), minScale)
	}
}

// Windows returns how many windows channel c's statistics have taken in.
func (b *Baseline) Windows(c int) int { return int(b.n[c]) }

// Location returns feature i's location on channel c, in the units of g.
func (b *Baseline) Location(c, i int) float64 { return b.loc[c*len(b.feats)+i] }

// BaselineState is a Baseline's statistics, for a checkpoint.
type BaselineState struct {
	Features []string `json:"features"`
	Channels int      `json:"channels"`
	// Labels optionally names the channels (the pipeline sets them, and
	// starts a montage whose labels differ from the population instead).
	Labels   []string  `json:"labels,omitempty"`
	Location []float64 `json:"location"` // channel-major
	Scale    []float64 `json:"scale"`
	Windows  []float64 `json:"windows"` // per channel
}

// State returns a copy of the statistics.
func (b *Baseline) State() BaselineState {
	s := BaselineState{Channels: b.ch, Location: append([]float64(nil), b.loc...),
		Scale: append([]float64(nil), b.scale...), Windows: append([]float64(nil), b.n...)}
	for _, f := range b.feats {
		s.Features = append(s.Features, f.String())
	}
	return s
}

// Restore replaces the statistics with a saved state of the same channels
// and features; a state that does not fit, or holds a non-finite number,
// a scale below the floor or a negative count, is refused and the
// baseline is left unchanged.
func (b *Baseline) Restore(s BaselineState) error {
	nf := len(b.feats)
	if s.Channels != b.ch || len(s.Features) != nf || len(s.Location) != b.ch*nf || len(s.Scale) != b.ch*nf || len(s.Windows) != b.ch {
		return fmt.Errorf("features: baseline state of %d channels × %d features does not fit %d × %d", s.Channels, len(s.Features), b.ch, nf)
	}
	for i, f := range b.feats {
		if s.Features[i] != f.String() {
			return fmt.Errorf("features: baseline state feature %d is %q, want %q", i, s.Features[i], f)
		}
	}
	for k := range s.Location {
		if !finite(s.Location[k]) || !finite(s.Scale[k]) || s.Scale[k] < minScale {
			return fmt.Errorf("features: baseline state element %d: location %v, scale %v", k, s.Location[k], s.Scale[k])
		}
	}
	for _, n := range s.Windows {
		if !finite(n) || n < 0 {
			return fmt.Errorf("features: baseline state window count %v", n)
		}
	}
	copy(b.loc, s.Location)
	copy(b.scale, s.Scale)
	copy(b.n, s.Windows)
	return nil
}
