package pipeline

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/features/artifact"
)

// Learning modes.
const (
	// LearnOff scores only; the model never changes.
	LearnOff = "off"
	// LearnAnnotations is prequential test-then-train on an annotated
	// recording: each window is scored, then learned at once with its
	// label from the source's intervals (acquire.Labeled). For replay and
	// training.
	LearnAnnotations = "annotations"
	// LearnFeedback keeps recent windows in a buffer and learns them when
	// labels arrive later (clinician feedback: confirmed or rejected
	// alerts, marked intervals), optionally learning windows older than
	// NegativeHorizon that no seizure label covers as negatives. For live
	// monitoring.
	LearnFeedback = "feedback"
)

// Learning configures how the model learns.
type Learning struct {
	Mode string
	// Buffer is how far back a late label can reach: the buffer keeps the
	// vectors of the windows of the last Buffer (default 1 h).
	Buffer time.Duration
	// NegativeHorizon, when positive, learns every buffered window older
	// than it that no label has covered as a negative (LearnFeedback
	// only). Off by default: see the package documentation for the risk.
	NegativeHorizon time.Duration
	// MinOverlap is the fraction of a window that must lie inside a
	// labelled interval for the window to take the label (default 0.5).
	// A window overlapping a seizure by less is not learned at all: it is
	// neither clearly ictal nor clearly not.
	MinOverlap float64
	// MaxInterval bounds an interval a clinician labels (default 5 min,
	// or Buffer if shorter);
	// a longer one is refused, so that one message cannot relabel the
	// whole buffer. Verdicts on alerts are not bounded by it: an alert's
	// span is the detector's, not the sender's.
	MaxInterval time.Duration
	// Grace is how long a label stays pending before its windows are
	// learned (default 60 s, or half the Buffer if that is shorter). A
	// label arriving within it replaces an
	// earlier one on the windows it covers; after it, a label is final
	// and a contradicting one is refused.
	Grace time.Duration
	// LearnAgreed also learns the labelled windows on which the detector
	// already agreed with the label: a window scored above the threshold
	// (alert.Detector.Positive) and labelled a seizure, or not above it
	// and labelled not. Off
	// by default: a label teaches the model its mistakes only (the
	// windows of a rejected alert that crossed the threshold, those of a
	// missed seizure below it, the part of a confirmed seizure it scored
	// below it), for a confirmed alert's span also holds the windows it
	// was right about, and learning them made the model alarm more
	// (package documentation).
	LearnAgreed bool
}

// Quality configures signal-quality gating.
type Quality struct {
	// FlatMicrovolts: a channel whose samples stay within this of each
	// other for a whole window is flat (default 0.5 µV: a live electrode
	// varies by tens of µV within a window; a dead input or a stuck
	// converter does not).
	FlatMicrovolts float64
}

// Config configures a Pipeline.
type Config struct {
	Site, Bed string
	Detector  alert.DetectorConfig
	Learning  Learning
	Quality   Quality
	// Artifact configures artifact rejection (on by default): a window
	// judged muscle, eye or electrode artifact is neither scored nor
	// learned, and the state artifact is published.
	Artifact artifact.Config
	// Motor configures the motor-seizure detector (on by default, with
	// artifact rejection: it sees EMG through the muscle rule).
	Motor Motor
	// CheckpointEvery is the wall-clock interval between calls of
	// Hooks.Checkpoint (default 5 min); Run also calls it when it ends.
	CheckpointEvery time.Duration
	// TopChannels is how many channels an alert names (default 3; in
	// per-channel scoring at most Scoring.TopK, the channels that drove
	// the score).
	TopChannels int
	// Scoring says how features become scores: one model for the whole
	// vector (the zero value) or one model for every channel.
	Scoring Scoring
	// Rules, when set, delivers new decision rules (the daemon sends one
	// on SIGHUP). The pipeline takes one per window and applies it at
	// once, or when the event in progress ends.
	Rules <-chan alert.DetectorConfig
}

// Defaults.
const (
	// DefaultMode is the learning mode of an empty Learning.Mode, here and
	// in ictald's configuration: live monitoring learns from clinicians'
	// feedback; replay and training say which mode they run.
	DefaultMode       = LearnFeedback
	DefaultBuffer     = time.Hour
	DefaultMinOverlap = 0.5
	// DefaultMaxInterval: seizures last seconds to a few minutes; one
	// going on for 5 min is status epilepticus (the ILAE's t1 for a
	// tonic-clonic seizure), which the detector alerts on and a
	// clinician confirms as a whole; an interval label is for a seizure
	// the monitor missed or a stretch it got wrong. 5 min is 300 windows
	// at a 1 s step, a twelfth of the default buffer.
	DefaultMaxInterval = 5 * time.Minute
	// DefaultGrace: long enough for a clinician to see the
	// acknowledgement of a mistaken click on the ward board (it arrives
	// within a second) and send the correction; short enough that a
	// label is learned long before the next checkpoint (5 min) and well
	// inside the buffer.
	DefaultGrace = time.Minute
	// MaxBufferBytes bounds all the late-label buffer holds: its windows
	// (one per step of learning.buffer), each a record of 120 bytes on
	// 64-bit platforms and a vector of features × 4 bytes (single
	// precision). 16 MiB holds the default hour at a 1 s step for 64
	// channels of 17 features (16.1 MB; 23 channels take 6.1 MB; one
	// channel at most 24h47m), and keeps a mistyped buffer (days) from
	// asking for gigabytes on a board whose unit caps ictald at
	// MemoryMax=128M.
	MaxBufferBytes         = 16 << 20
	DefaultFlatMicrovolts  = 0.5
	DefaultCheckpointEvery = 5 * time.Minute
	DefaultTopChannels     = 3
)

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("pipeline: invalid config")

// ConfigError says which setting of a Config is wrong, with what value and
// why. Field names the setting as the daemon's configuration file groups
// it ("learning.mode"): the pipeline's Config mirrors those sections.
type ConfigError struct {
	Field  string
	Value  any
	Reason string
}

func (e *ConfigError) Error() string {
	if s, ok := e.Value.(string); ok {
		return fmt.Sprintf("%v: %s %q: %s", ErrConfig, e.Field, s, e.Reason)
	}
	return fmt.Sprintf("%v: %s %v: %s", ErrConfig, e.Field, e.Value, e.Reason)
}

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

// Validate checks c, naming the first bad field as the daemon's
// configuration file spells it.
func (c Config) Validate() error {
	_, err := c.withDefaults()
	return err
}

func (c Config) withDefaults() (Config, error) {
	var err error
	if c.Scoring, err = c.Scoring.withDefaults(); err != nil {
		return c, err
	}
	if c.Motor, err = c.Motor.withDefaults(); err != nil {
		return c, err
	}
	if c.Learning.Mode == "" {
		c.Learning.Mode = DefaultMode
	}
	if c.Learning.Buffer == 0 {
		c.Learning.Buffer = DefaultBuffer
	}
	if c.Learning.MinOverlap == 0 {
		c.Learning.MinOverlap = DefaultMinOverlap
	}
	if c.Learning.MaxInterval == 0 { // a short buffer shortens the defaults
		c.Learning.MaxInterval = min(DefaultMaxInterval, c.Learning.Buffer)
	}
	if c.Learning.Grace == 0 {
		c.Learning.Grace = min(DefaultGrace, c.Learning.Buffer/2)
	}
	if c.Quality.FlatMicrovolts == 0 {
		c.Quality.FlatMicrovolts = DefaultFlatMicrovolts
	}
	if c.CheckpointEvery == 0 {
		c.CheckpointEvery = DefaultCheckpointEvery
	}
	if c.TopChannels == 0 {
		c.TopChannels = DefaultTopChannels
	}
	switch {
	case c.Learning.Mode != LearnOff && c.Learning.Mode != LearnAnnotations && c.Learning.Mode != LearnFeedback:
		return c, &ConfigError{"learning.mode", c.Learning.Mode, "want off, annotations or feedback"}
	case c.Learning.Buffer < 0 || c.Learning.Buffer > 7*24*time.Hour:
		return c, &ConfigError{"learning.buffer", c.Learning.Buffer, "want 0 to 7 days"}
	case c.Learning.NegativeHorizon < 0:
		return c, &ConfigError{"learning.negative_horizon", c.Learning.NegativeHorizon, "want >= 0"}
	case c.Learning.NegativeHorizon > c.Learning.Buffer:
		return c, &ConfigError{"learning.negative_horizon", c.Learning.NegativeHorizon, fmt.Sprintf("exceeds learning.buffer %v: windows would leave the buffer before they are old enough", c.Learning.Buffer)}
	case !(c.Learning.MinOverlap > 0 && c.Learning.MinOverlap <= 1):
		return c, &ConfigError{"learning.min_overlap", c.Learning.MinOverlap, "want (0, 1]"}
	case c.Learning.MaxInterval < 0:
		return c, &ConfigError{"learning.max_interval", c.Learning.MaxInterval, "want > 0 (0: the default, 5m)"}
	case c.Learning.MaxInterval > c.Learning.Buffer:
		return c, &ConfigError{"learning.max_interval", c.Learning.MaxInterval, fmt.Sprintf("exceeds learning.buffer %v: no longer label could find its windows", c.Learning.Buffer)}
	case c.Learning.Grace <= 0 || c.Learning.Grace > 10*time.Minute:
		return c, &ConfigError{"learning.grace", c.Learning.Grace, "want 0 to 10m (0: the default, 1m)"}
	case c.Learning.Grace >= c.Learning.Buffer:
		return c, &ConfigError{"learning.grace", c.Learning.Grace, fmt.Sprintf("not below learning.buffer %v: windows would leave the buffer before their label is final", c.Learning.Buffer)}
	case !(c.Quality.FlatMicrovolts > 0) || math.IsInf(c.Quality.FlatMicrovolts, 1):
		return c, &ConfigError{"quality.flat_microvolts", c.Quality.FlatMicrovolts, "want a finite number > 0"}
	case c.CheckpointEvery < time.Second:
		return c, &ConfigError{"checkpoint.every", c.CheckpointEvery, "want at least 1s"}
	case c.TopChannels < 0:
		return c, &ConfigError{"top_channels", c.TopChannels, "want >= 0"}
	}
	return c, nil
}
