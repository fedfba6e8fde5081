package synth

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ictal/ictal/acquire"
)

// Defaults and limits of a Config.
const (
	DefaultChannels   = 8
	DefaultRate       = 256
	DefaultDuration   = 30 * time.Minute
	DefaultSeizureMin = 30 * time.Second
	DefaultSeizureMax = 90 * time.Second

	// MinRate and MaxRate bound Config.Rate in Hz (MaxRate covers the
	// ADS1299's 16 kHz).
	MinRate = 64
	MaxRate = 16384
	// ShortestSeizure and LongestSeizure bound a seizure's duration.
	ShortestSeizure = 10 * time.Second
	LongestSeizure  = 30 * time.Minute
	// SeizureGap is the room each seizure placed by count needs beyond its
	// own duration: half before, half after (post-ictal recovery and an
	// interictal stretch).
	SeizureGap = 60 * time.Second
	// MaxBlinksPerMinute and MaxMusclePerMinute bound the artifact rates.
	MaxBlinksPerMinute = 60
	MaxMusclePerMinute = 10
	// DefaultArtifactsPerHour is the rate of each kind of ArtifactKinds
	// when ArtifactsPerHour is zero; MaxArtifactsPerHour bounds it.
	DefaultArtifactsPerHour = 6
	MaxArtifactsPerHour     = 120
)

// DefaultStart is the wall-clock time of the first frame when Config.Start
// is zero. It does not depend on the seed.
var DefaultStart = time.Date(2024, time.January, 1, 8, 0, 0, 0, time.UTC)

// ErrConfig is wrapped by every error New returns for a bad Config; the
// message names the field.
var ErrConfig = errors.New("synth: invalid config")

// Config describes a simulated patient. A zero Channels, Rate, Duration,
// SeizureMin, SeizureMax or Start selects the default; a zero Seizures,
// BlinksPerMinute or MusclePerMinute means none. DefaultConfig fills in
// typical artifact rates.
type Config struct {
	// Channels is the number of EEG channels, 1 to acquire.MaxChannels;
	// zero selects len(Labels), or DefaultChannels without labels.
	Channels int
	// Labels names the channels; empty selects DefaultLabels(Channels). A
	// label "A-B" naming two 10–20 electrodes (e.g. "Fp1-F7", optionally
	// prefixed "EEG ") places the channel there; other labels are placed
	// on a spiral over the scalp.
	Labels []string
	// Rate is the sampling rate in Hz, MinRate to MaxRate.
	Rate int
	// Duration is the length of the recording, at least one second,
	// truncated to a whole number of samples.
	Duration time.Duration
	// Start is the wall-clock time of the first frame (Info().Start).
	Start time.Time
	// Seizures is how many seizures are placed at seeded times: the
	// recording is cut into that many equal slots and each seizure falls
	// at a random place in its slot, at least SeizureGap/2 from the slot's
	// ends. With Onsets it must be 0 or len(Onsets).
	Seizures int
	// Onsets places the seizures at these times from the start instead
	// (ascending; each must end, after the longest a seizure of its kinds
	// may last — SeizureMax with the default kind —, before the next
	// begins and before the recording ends).
	Onsets []time.Duration
	// SeizureMin and SeizureMax bound each focal seizure's seeded
	// duration, within ShortestSeizure and LongestSeizure.
	SeizureMin, SeizureMax time.Duration
	// BlinksPerMinute is the mean rate of eye blinks.
	BlinksPerMinute float64
	// MusclePerMinute is the mean rate of muscle (EMG) bursts.
	MusclePerMinute float64
	// SeizureKinds gives the seizures their kinds in turn: seizure i is
	// of kind SeizureKinds[i mod len(SeizureKinds)]. Empty selects
	// SeizureRhythmic alone, the kind of earlier versions (the same seed
	// then gives the same samples as before kinds existed). A kind may
	// repeat. The focal kinds last SeizureMin to SeizureMax; an absence
	// lasts 5–15 s and a tonic–clonic seizure 40–80 s whatever they say.
	SeizureKinds []SeizureKind
	// ArtifactKinds lists the artifacts that mimic seizures to add, each
	// kind at most once, each at ArtifactsPerHour.
	ArtifactKinds []ArtifactKind
	// ArtifactsPerHour is the mean rate of each kind of ArtifactKinds;
	// zero selects DefaultArtifactsPerHour.
	ArtifactsPerHour float64
	// Accelerometer adds three channels after the EEG, "Accel X", "Accel
	// Y" and "Accel Z" in g (unit "g", which acquire.ChooseEEG leaves
	// out): gravity on Z, sensor noise, the jerks of tonic–clonic seizures
	// and the sway of rocking and patting.
	Accelerometer bool
	// Seed selects the patient: its background, alpha rhythm, seizure
	// times, foci and rhythms and its artifacts. The same seed gives
	// bit-identical samples on every architecture.
	Seed uint64
}

// DefaultConfig returns the configuration of the default patient: 8
// channels at 256 Hz for 30 minutes, two seizures of 30 to 90 s, six blinks
// and half a muscle burst a minute, seed 1.
func DefaultConfig() Config {
	return Config{
		Channels:        DefaultChannels,
		Rate:            DefaultRate,
		Duration:        DefaultDuration,
		Seizures:        2,
		SeizureMin:      DefaultSeizureMin,
		SeizureMax:      DefaultSeizureMax,
		BlinksPerMinute: 6,
		MusclePerMinute: 0.5,
		Seed:            1,
	}
}

// ConfigError says which field of a Config is wrong and why; callers
// that present the configuration under other names (ictald's TOML keys)
// map Field, never the message. It wraps ErrConfig.
type ConfigError struct {
	Field  string // "Rate", "Labels"
	Reason string // the value and what is wrong with it
}

func (e *ConfigError) Error() string { return ErrConfig.Error() + ": " + e.Field + ": " + e.Reason }

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

func fieldErr(field, format string, args ...any) error {
	return &ConfigError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// withDefaults returns cfg with defaults filled in, or an error naming the
// first bad field.
func (cfg Config) withDefaults() (Config, error) {
	c, err := cfg.withMontage()
	if err != nil {
		return c, err
	}
	if c.Rate == 0 {
		c.Rate = DefaultRate
	}
	if c.Rate < MinRate || c.Rate > MaxRate {
		return c, fieldErr("Rate", "%d Hz is outside %d..%d Hz", c.Rate, MinRate, MaxRate)
	}
	if c.Duration == 0 {
		c.Duration = DefaultDuration
	}
	if c.Duration < time.Second {
		return c, fieldErr("Duration", "%v is shorter than 1s", c.Duration)
	}
	if c.Start.IsZero() {
		c.Start = DefaultStart
	}
	if c, err = c.withSeizures(); err != nil {
		return c, err
	}
	if err := checkRate("BlinksPerMinute", c.BlinksPerMinute, MaxBlinksPerMinute); err != nil {
		return c, err
	}
	if err := checkRate("MusclePerMinute", c.MusclePerMinute, MaxMusclePerMinute); err != nil {
		return c, err
	}
	return c.withArtifactKinds()
}

// withArtifactKinds checks ArtifactKinds and fills in ArtifactsPerHour.
func (cfg Config) withArtifactKinds() (Config, error) {
	c := cfg
	c.ArtifactKinds = append([]ArtifactKind(nil), c.ArtifactKinds...)
	for i, k := range c.ArtifactKinds {
		name := fmt.Sprintf("ArtifactKinds[%d]", i)
		if k.About() == "" {
			return c, fieldErr(name, "unknown kind %q (kinds: %s)", k, joinKinds(ArtifactKinds()))
		}
		if j := slices.Index(c.ArtifactKinds, k); j < i {
			return c, fieldErr(name, "%q repeats ArtifactKinds[%d]", k, j)
		}
	}
	if err := checkRate("ArtifactsPerHour", c.ArtifactsPerHour, MaxArtifactsPerHour); err != nil {
		return c, err
	}
	if c.ArtifactsPerHour == 0 {
		c.ArtifactsPerHour = DefaultArtifactsPerHour
	}
	return c, nil
}

// longestSeizure is the longest a seizure of any of cfg's kinds may last
// (SeizureMax with the default kind).
func (cfg Config) longestSeizure() time.Duration {
	var d time.Duration
	for _, k := range cfg.SeizureKinds {
		_, hi := k.durations(cfg)
		d = max(d, hi)
	}
	return d
}

// withMontage fills in and checks the channel count and labels.
func (cfg Config) withMontage() (Config, error) {
	c := cfg
	if c.Channels < 0 || c.Channels > acquire.MaxChannels {
		return c, fieldErr("Channels", "%d is outside 1..%d", c.Channels, acquire.MaxChannels)
	}
	switch {
	case len(c.Labels) == 0:
		if c.Channels == 0 {
			c.Channels = DefaultChannels
		}
		c.Labels = DefaultLabels(c.Channels)
	case c.Channels == 0:
		c.Channels = len(c.Labels)
		if c.Channels > acquire.MaxChannels {
			return c, fieldErr("Labels", "%d labels, more than %d channels", c.Channels, acquire.MaxChannels)
		}
		c.Labels = append([]string(nil), c.Labels...)
	case len(c.Labels) != c.Channels:
		return c, fieldErr("Labels", "%d labels for %d channels", len(c.Labels), c.Channels)
	default:
		c.Labels = append([]string(nil), c.Labels...)
	}
	for i, l := range c.Labels {
		if l == "" {
			return c, fieldErr(fmt.Sprintf("Labels[%d]", i), "empty label")
		}
		for j := range i {
			if c.Labels[j] == l {
				return c, fieldErr(fmt.Sprintf("Labels[%d]", i), "%q repeats Labels[%d]", l, j)
			}
		}
	}
	return c, nil
}

// withSeizures fills in and checks the seizures' count, onsets and
// durations (after Duration).
func (cfg Config) withSeizures() (Config, error) {
	c := cfg
	if c.SeizureMin == 0 {
		c.SeizureMin = DefaultSeizureMin
	}
	if c.SeizureMax == 0 {
		c.SeizureMax = max(DefaultSeizureMax, c.SeizureMin)
	}
	if c.SeizureMin < ShortestSeizure || c.SeizureMin > LongestSeizure {
		return c, fieldErr("SeizureMin", "%v is outside %v..%v", c.SeizureMin, ShortestSeizure, LongestSeizure)
	}
	if c.SeizureMax < c.SeizureMin || c.SeizureMax > LongestSeizure {
		return c, fieldErr("SeizureMax", "%v is outside SeizureMin (%v)..%v", c.SeizureMax, c.SeizureMin, LongestSeizure)
	}
	if c.Seizures < 0 {
		return c, fieldErr("Seizures", "%d is negative", c.Seizures)
	}
	if len(c.SeizureKinds) == 0 {
		c.SeizureKinds = []SeizureKind{SeizureRhythmic}
	} else {
		c.SeizureKinds = append([]SeizureKind(nil), c.SeizureKinds...)
	}
	for i, k := range c.SeizureKinds {
		if k.About() == "" {
			return c, fieldErr(fmt.Sprintf("SeizureKinds[%d]", i), "unknown kind %q (kinds: %s)", k, joinKinds(SeizureKinds()))
		}
	}
	longest := c.longestSeizure()
	if len(c.Onsets) > 0 {
		if c.Seizures != 0 && c.Seizures != len(c.Onsets) {
			return c, fieldErr("Seizures", "%d does not match the %d Onsets", c.Seizures, len(c.Onsets))
		}
		c.Seizures = len(c.Onsets)
		c.Onsets = append([]time.Duration(nil), c.Onsets...)
		for i, o := range c.Onsets {
			name := fmt.Sprintf("Onsets[%d]", i)
			switch {
			case o < 0:
				return c, fieldErr(name, "%v is negative", o)
			case o+longest > c.Duration:
				return c, fieldErr(name, "a seizure at %v may last %v, past the end of the recording (%v)", o, longest, c.Duration)
			case i > 0 && c.Onsets[i-1]+longest >= o:
				return c, fieldErr(name, "a seizure at %v begins before the one at %v (lasting up to %v) may have ended", o, c.Onsets[i-1], longest)
			}
		}
	} else if c.Seizures > 0 {
		if fit := int64(c.Duration / (longest + SeizureGap)); int64(c.Seizures) > fit {
			return c, fieldErr("Seizures", "%d seizures of up to %v, each with %v around it, do not fit in Duration (%v): at most %d",
				c.Seizures, longest, SeizureGap, c.Duration, fit)
		}
	}
	return c, nil
}

func checkRate(field string, v, limit float64) error {
	if math.IsNaN(v) || v < 0 || v > limit {
		return fieldErr(field, "%v is outside 0..%v", v, limit)
	}
	return nil
}
