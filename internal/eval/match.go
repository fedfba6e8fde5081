package eval

import (
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
)

// FromIntervals returns the seizure intervals among ivs as reference
// events.
func FromIntervals(ivs []acquire.Interval) []Event {
	var out []Event
	for _, iv := range ivs {
		if iv.Seizure {
			out = append(out, Event{Start: iv.Start, End: iv.End})
		}
	}
	return out
}

// FromAlerts returns the detector's events as hypothesis events: from the
// onset of the first triggering window to the end of the last positive
// one, raised at the detection time. An event still going on (no end)
// lasts until the end of the recording.
func FromAlerts(events []alert.Event, duration time.Duration) []Event {
	out := make([]Event, 0, len(events))
	for _, e := range events {
		end := e.EndOffset
		if end == 0 {
			end = max(duration, e.DetectedOffset)
		}
		out = append(out, Event{Start: e.OnsetOffset, End: end, Detected: e.DetectedOffset, Kind: alert.KindOrDefault(e.Kind)})
	}
	return out
}

// Match scores a detector's alerts against the seizure intervals of a
// recording of the given duration with SzCORE's parameters.
func Match(seizures []acquire.Interval, events []alert.Event, duration time.Duration) Summary {
	return Events(FromIntervals(seizures), FromAlerts(events, duration), duration, DefaultParams())
}
