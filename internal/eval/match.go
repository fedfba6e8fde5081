// Package eval scores detections against reference seizures.
package eval

import (
	"sort"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
)

// Tolerances of the event matching, SzCORE's (Dan et al. 2025): a
// detection counts for a seizure if it overlaps the seizure extended by
// PreTolerance before its onset and PostTolerance after its end.
const (
	PreTolerance  = 30 * time.Second
	PostTolerance = 60 * time.Second
)

// SeizureResult is one reference seizure and whether it was detected.
type SeizureResult struct {
	Start, End time.Duration
	Detected   bool
	// Delay is the time from the seizure's onset to the detection (the
	// first matching alert's detection time); negative when the alert came
	// before the annotated onset, within the tolerance.
	Delay time.Duration
	Alert string // ID of the first matching alert
}

// Summary is an event-based comparison of alerts with reference seizures.
type Summary struct {
	Seizures       []SeizureResult
	Detected       int
	FalseAlarms    int // alerts that match no seizure
	Duration       time.Duration
	FalseAlarmsPer float64 // false alarms per 24 h
	Sensitivity    float64 // detected / seizures (NaN-free: 0 with no seizure)
	MedianDelay    time.Duration
}

// Match compares events (their offsets from the recording start) with the
// seizure intervals of a recording of the given duration.
func Match(seizures []acquire.Interval, events []alert.Event, duration time.Duration) Summary {
	var sz []acquire.Interval
	for _, s := range seizures {
		if s.Seizure {
			sz = append(sz, s)
		}
	}
	sort.Slice(sz, func(i, j int) bool { return sz[i].Start < sz[j].Start })
	s := Summary{Duration: duration}
	used := make([]bool, len(events))
	for _, z := range sz {
		r := SeizureResult{Start: z.Start, End: z.End}
		lo, hi := z.Start-PreTolerance, z.End+PostTolerance
		for i, e := range events {
			end := e.EndOffset
			if end == 0 {
				end = e.DetectedOffset
			}
			if e.OnsetOffset < hi && end > lo {
				used[i] = true
				if !r.Detected || e.DetectedOffset-z.Start < r.Delay {
					r.Detected, r.Delay, r.Alert = true, e.DetectedOffset-z.Start, e.ID
				}
			}
		}
		if r.Detected {
			s.Detected++
		}
		s.Seizures = append(s.Seizures, r)
	}
	for _, u := range used {
		if !u {
			s.FalseAlarms++
		}
	}
	if len(sz) > 0 {
		s.Sensitivity = float64(s.Detected) / float64(len(sz))
	}
	if duration > 0 {
		s.FalseAlarmsPer = float64(s.FalseAlarms) / duration.Hours() * 24
	}
	var delays []time.Duration
	for _, r := range s.Seizures {
		if r.Detected {
			delays = append(delays, r.Delay)
		}
	}
	if n := len(delays); n > 0 {
		sort.Slice(delays, func(i, j int) bool { return delays[i] < delays[j] })
		if n%2 == 1 {
			s.MedianDelay = delays[n/2]
		} else {
			s.MedianDelay = (delays[n/2-1] + delays[n/2]) / 2
		}
	}
	return s
}
