package alert

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// DetectorConfig sets the decision rule. Zero values mean the defaults.
type DetectorConfig struct {
	// Threshold: a window is positive when its score is above it
	// (default 0.5). A whole-vector model's score is the ensemble's
	// normalised vote, whose own decision boundary is 0.5; a per-channel
	// model's is a calibrated probability, and the model file carries the
	// threshold chosen on its training data (the day-one model's is
	// 0.787), which the daemon and replay use unless configured.
	Threshold float64
	// K and N: an event starts when at least K of the last N usable or
	// unusable windows are positive. With the default 2 s windows every
	// 1 s, 3 of 4 asks for about 3 s of seizure-like activity: isolated
	// positive windows (an artifact, a sharp transient) do not alert,
	// while the delay stays a few seconds — clinical seizures last tens of
	// seconds.
	K, N int
	// Quiet ends an event after this long without a positive window
	// (default 10 s): a brief lull inside a seizure does not split it.
	Quiet time.Duration
	// Refractory: after an event ends, no new event starts for this long
	// (default 60 s), so one seizure with a ragged end raises one alert.
	// Positive windows during it are counted as suppressed.
	Refractory time.Duration
}

// Detector defaults.
const (
	DefaultThreshold  = 0.5
	DefaultK          = 3
	DefaultN          = 4
	DefaultQuiet      = 10 * time.Second
	DefaultRefractory = 60 * time.Second
	maxN              = 1024
)

// ErrDetectorConfig is wrapped by every DetectorConfig validation error.
var ErrDetectorConfig = errors.New("alert: invalid detector config")

// withDefaults fills zero values and validates, naming the field.
func (c DetectorConfig) withDefaults() (DetectorConfig, error) {
	c.Threshold = cmp.Or(c.Threshold, DefaultThreshold)
	c.K = cmp.Or(c.K, DefaultK)
	c.N = cmp.Or(c.N, DefaultN)
	c.Quiet = cmp.Or(c.Quiet, DefaultQuiet)
	c.Refractory = cmp.Or(c.Refractory, DefaultRefractory)
	switch {
	case !(c.Threshold > 0 && c.Threshold < 1):
		return c, &DetectorConfigError{"Threshold", c.Threshold, "want a score in (0, 1)"}
	case c.N < 1 || c.N > maxN:
		return c, &DetectorConfigError{"N", c.N, fmt.Sprintf("want 1..%d", maxN)}
	case c.K < 1 || c.K > c.N:
		return c, &DetectorConfigError{"K", c.K, fmt.Sprintf("want 1..n (%d)", c.N)}
	case c.Quiet < 0:
		return c, &DetectorConfigError{"Quiet", c.Quiet, "want a duration >= 0"}
	case c.Refractory < 0:
		return c, &DetectorConfigError{"Refractory", c.Refractory, "want a duration >= 0"}
	}
	return c, nil
}

// DetectorConfigError says which field of a DetectorConfig is wrong, with
// what value and why; callers that present the rule under other names
// (ictald's TOML keys) map Field, never the message.
type DetectorConfigError struct {
	Field  string // the DetectorConfig field ("Threshold")
	Value  any
	Reason string
}

func (e *DetectorConfigError) Error() string {
	return fmt.Sprintf("%v: %s %v: %s", ErrDetectorConfig, strings.ToLower(e.Field), e.Value, e.Reason)
}

// Unwrap returns ErrDetectorConfig.
func (e *DetectorConfigError) Unwrap() error { return ErrDetectorConfig }

// Detector applies the decision rule to a stream of window scores. It
// works in offsets from the start of the recording; the pipeline turns
// them into wall-clock times. A Detector is used by one goroutine.
type Detector struct {
	cfg DetectorConfig
	// ring of the last N windows
	starts   []time.Duration
	positive []bool
	next     int
	filled   int

	active          bool
	onset, detected time.Duration
	lastPositiveEnd time.Duration
	maxScore        float64
	ended           bool          // an event has ended (refractoryUntil valid)
	refractoryUntil time.Duration // no new event before this offset
	suppressed      int
}

// NewDetector returns a detector for cfg.
func NewDetector(cfg DetectorConfig) (*Detector, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Detector{cfg: c, starts: make([]time.Duration, c.N), positive: make([]bool, c.N)}, nil
}

// Config returns the effective configuration.
func (d *Detector) Config() DetectorConfig { return d.cfg }

// Decision is what one window changed.
type Decision struct {
	Positive bool // the window itself was positive
	// Started: an event began with this window. Onset is the start of the
	// first positive window among the K that triggered it, Detected the
	// end of this window.
	Started         bool
	Onset, Detected time.Duration
	// Ended: the current event ended; End is the end of its last positive
	// window. A window can end one event (its quiet period elapsed) and,
	// only with a zero refractory period, start the next.
	Ended bool
	End   time.Duration
	// Score is the event's highest window score so far (when Started,
	// Ended or Active).
	Score float64
	// Active: an event is in progress after this window.
	Active bool
}

// Positive reports whether a usable window's score counts towards an
// event: above the threshold (NaN never does).
func (d *Detector) Positive(score float64) bool {
	return score > d.cfg.Threshold && !math.IsNaN(score)
}

// Window feeds the next window, [start, end) in offsets from the start of
// the recording, with its score; usable is false for a window gated by
// signal quality, which counts as negative. Windows must come in order.
func (d *Detector) Window(start, end time.Duration, score float64, usable bool) Decision {
	pos := usable && d.Positive(score)
	var dec Decision
	dec.Positive = pos
	d.starts[d.next], d.positive[d.next] = start, pos
	d.next = (d.next + 1) % d.cfg.N
	if d.filled < d.cfg.N {
		d.filled++
	}
	if d.active {
		if pos {
			d.lastPositiveEnd = end
			d.maxScore = math.Max(d.maxScore, score)
		} else if end-d.lastPositiveEnd >= d.cfg.Quiet {
			d.active = false
			d.ended = true
			d.refractoryUntil = d.lastPositiveEnd + d.cfg.Refractory
			dec.Ended, dec.End, dec.Score = true, d.lastPositiveEnd, d.maxScore
		}
	}
	if !d.active && pos {
		var count int
		var first time.Duration
		found := false
		// Walk the ring from oldest to newest.
		for i := 0; i < d.filled; i++ {
			j := (d.next - d.filled + i + d.cfg.N) % d.cfg.N
			if d.positive[j] {
				count++
				if !found {
					first, found = d.starts[j], true
				}
			}
		}
		if count >= d.cfg.K {
			if d.ended && end <= d.refractoryUntil {
				d.suppressed++
			} else {
				d.active = true
				d.onset, d.detected = first, end
				d.lastPositiveEnd = end
				d.maxScore = score
				dec.Started, dec.Onset, dec.Detected = true, first, end
				dec.Score = score
			}
		}
	}
	dec.Active = d.active
	if d.active {
		dec.Score = d.maxScore
	}
	return dec
}

// Suppressed returns how many windows completed the K-of-N rule during a
// refractory period without starting an event.
func (d *Detector) Suppressed() int { return d.suppressed }

// Active reports whether an event is in progress, and its onset.
func (d *Detector) Active() (bool, time.Duration) { return d.active, d.onset }

// Flush ends an event in progress at the end of a recording, as if its
// quiet period had elapsed.
func (d *Detector) Flush() Decision {
	if !d.active {
		return Decision{}
	}
	d.active = false
	d.ended = true
	d.refractoryUntil = d.lastPositiveEnd + d.cfg.Refractory
	return Decision{Ended: true, End: d.lastPositiveEnd, Score: d.maxScore}
}
