package pipeline

import (
	"log/slog"
	"time"

	"github.com/ictal/ictal/alert"
)

// events turns the detector's window decisions into seizure events: it
// raises an alert when a run of positive windows completes, keeps the
// event's peak score, ends it, remembers recent alerts so feedback can
// name them, and swaps in new decision rules without cutting an event
// short.
type events struct {
	det   *alert.Detector
	next  *alert.Detector // a new rule, waiting for the event in progress to end
	rules <-chan alert.DetectorConfig

	cur    *alert.Event // in progress
	recent []alertRecord
	// kind is the alerts' kind ("": alert.KindSeizure); channels, when
	// set, names an alert's channels instead of rank.
	kind     string
	channels func(x []float64) []string

	site, bed, algorithm string
	rank                 *ranking
	sinks                *sinks
	log                  *slog.Logger
	wall                 func(time.Duration) time.Time
	onAlert              func(*alert.Event) // after the sinks; may be nil
	count                *int64             // Stats.Events
	suppressed           *int64             // Stats.Suppressed, of detectors replaced
}

// alertRecord remembers an alert so feedback can refer to it by ID.
type alertRecord struct {
	id         string
	onset, end time.Duration // end 0 while in progress
}

const maxAlertRecords = 256

// window takes one window's score (usable false: gated, not scored) and
// returns whether an event is in progress after it.
func (ev *events) window(start, end time.Duration, score float64, usable bool, x []float64) (active bool) {
	if len(ev.rules) > 0 || ev.next != nil {
		ev.reconfigure()
	}
	dec := ev.det.Window(start, end, score, usable)
	if dec.Ended && ev.cur != nil {
		ev.end(dec.End, dec.Score)
	}
	if dec.Started {
		ev.start(dec, x)
	} else if dec.Active && ev.cur != nil {
		ev.cur.Score = dec.Score
	}
	return dec.Active
}

// reconfigure takes a new decision rule from rules, if one is waiting,
// and swaps the detector when no event is in progress. An invalid rule is
// logged and ignored: the current one stays.
func (ev *events) reconfigure() {
	select {
	case d := <-ev.rules:
		det, err := alert.NewDetector(d)
		if err != nil {
			ev.log.Error("new decision rule rejected; the current one stays", slog.Any("err", err))
			break
		}
		ev.next = det
	default:
	}
	if ev.next != nil && ev.cur == nil {
		*ev.suppressed += int64(ev.det.Suppressed())
		ev.det, ev.next = ev.next, nil
		c := ev.det.Config()
		ev.log.Info("decision rule reloaded", slog.Float64("threshold", c.Threshold), slog.Int("k", c.K), slog.Int("n", c.N),
			slog.Duration("quiet", c.Quiet), slog.Duration("refractory", c.Refractory))
	}
}

func (ev *events) start(dec alert.Decision, x []float64) {
	*ev.count++
	e := &alert.Event{
		ID: alert.NewID(), Site: ev.site, Bed: ev.bed,
		Onset: ev.wall(dec.Onset), DetectedAt: ev.wall(dec.Detected),
		OnsetOffset: dec.Onset, DetectedOffset: dec.Detected,
		Score: dec.Score, Algorithm: ev.algorithm, Kind: ev.kind,
	}
	if ev.channels != nil {
		e.Channels = ev.channels(x)
	} else {
		e.Channels = ev.rank.channels(x)
	}
	ev.cur = e
	ev.remember(alertRecord{id: e.ID, onset: dec.Onset})
	what := "seizure detected"
	if ev.kind == alert.KindMotor {
		what = "motor seizure detected"
	}
	ev.log.Info(what, slog.String("id", e.ID), slog.Duration("onset", dec.Onset), slog.Float64("score", dec.Score))
	ev.sinks.alert(e)
	if ev.onAlert != nil {
		ev.onAlert(e)
	}
}

func (ev *events) end(end time.Duration, score float64) {
	e := ev.cur
	ev.cur = nil
	e.End, e.EndOffset, e.Score = ev.wall(end), end, score
	for i := range ev.recent {
		if ev.recent[i].id == e.ID {
			ev.recent[i].end = end
		}
	}
	ev.sinks.eventEnd(e)
}

// flush ends the event in progress at the end of the recording.
func (ev *events) flush() {
	if dec := ev.det.Flush(); dec.Ended && ev.cur != nil {
		ev.end(dec.End, dec.Score)
	}
}

func (ev *events) remember(r alertRecord) {
	if len(ev.recent) == maxAlertRecords {
		copy(ev.recent, ev.recent[1:])
		ev.recent = ev.recent[:maxAlertRecords-1]
	}
	ev.recent = append(ev.recent, r)
}

// span returns the interval of the recent alert id, up to now if it is
// still going on.
func (ev *events) span(id string, now time.Duration) (a, b time.Duration, ok bool) {
	for _, r := range ev.recent {
		if r.id == id {
			a, b, ok = r.onset, r.end, true
			if b == 0 {
				b = now
			}
		}
	}
	return a, b, ok
}
