package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/ictal/ictal/alert"
)

// jsonLine holds the fields of `ictal replay` lines that scoring uses.
type jsonLine struct {
	Type       string    `json:"type"`
	ID         string    `json:"id"`
	Onset      time.Time `json:"onset"`
	DetectedAt time.Time `json:"detected_at"`
	End        time.Time `json:"end"`
	Start      time.Time `json:"start"`
	Duration   float64   `json:"duration_s"`
	Kind       string    `json:"kind"`
}

// ReadJSONL parses the JSON lines printed by `ictal replay` (and the
// daemon's JSON-lines sink): "alert" lines open events, "end" lines close
// them by id, a "summary" or "file" line gives the recording's start and
// duration_s. An alert's optional "kind" must be one of the contract's
// (alert.CheckKind) and is carried in Event.Kind (alert.KindSeizure when
// absent).
// Other types (status, score) are skipped. Times are wall
// clock; they become offsets from the summary's start or, without one,
// from origin. An alert without an end lasts until the end of the
// recording. name is used in errors.
func ReadJSONL(r io.Reader, name string, origin time.Time) (Recording, error) {
	var rec Recording
	type open struct {
		onset, detected, end time.Time
		kind                 string
	}
	var order []string
	events := map[string]*open{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line := 0
	errf := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s: %w", name, line, fmt.Sprintf(format, a...), ErrFormat)
	}
	start := origin
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		var l jsonLine
		if err := json.Unmarshal(b, &l); err != nil {
			return rec, errf("%v", err)
		}
		switch l.Type {
		case "alert", "end":
			if l.ID == "" {
				return rec, errf("%s line without an id", l.Type)
			}
			if l.Onset.IsZero() || l.DetectedAt.IsZero() {
				return rec, errf("%s line without onset or detected_at", l.Type)
			}
			if l.DetectedAt.Before(l.Onset) {
				return rec, errf("detected_at %s before onset %s", l.DetectedAt.Format(time.RFC3339Nano), l.Onset.Format(time.RFC3339Nano))
			}
			e, seen := events[l.ID]
			if l.Type == "alert" {
				if seen {
					return rec, errf("alert %s appears twice", l.ID)
				}
				if err := alert.CheckKind(l.Kind); err != nil {
					return rec, errf("alert %s: %v", l.ID, err)
				}
				events[l.ID] = &open{onset: l.Onset, detected: l.DetectedAt, kind: alert.KindOrDefault(l.Kind)}
				order = append(order, l.ID)
				continue
			}
			if !seen {
				return rec, errf("end of event %s that was never alerted", l.ID)
			}
			if l.End.Before(l.Onset) {
				return rec, errf("event %s ends at %s, before its onset", l.ID, l.End.Format(time.RFC3339Nano))
			}
			e.end = l.End
		case "summary", "file":
			if l.Duration < 0 || math.IsNaN(l.Duration) || l.Duration > 1e9 {
				return rec, errf("duration_s %v", l.Duration)
			}
			rec.Duration = time.Duration(math.Round(l.Duration * float64(time.Second)))
			if !l.Start.IsZero() {
				start = l.Start
			}
			rec.Start = l.Start
		case "":
			return rec, errf("no \"type\"")
		}
	}
	if err := sc.Err(); err != nil {
		return rec, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	for _, id := range order {
		e := events[id]
		ev := Event{Start: e.onset.Sub(start), Detected: e.detected.Sub(start), Kind: e.kind}
		if e.end.IsZero() {
			ev.End = max(rec.Duration, ev.Detected)
		} else {
			ev.End = e.end.Sub(start)
		}
		rec.Events = append(rec.Events, ev)
	}
	return rec, nil
}
