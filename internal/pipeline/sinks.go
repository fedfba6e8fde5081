package pipeline

import (
	"log/slog"

	"github.com/ictal/ictal/alert"
)

// sinks hands what the pipeline produces to its sinks: every sink takes
// alerts, and the optional interfaces (alert.EventEnder, StatusSink,
// ScoreSink, EvidenceSink, AckSink) are found once, when the pipeline is built, so a window costs
// no type assertion. A sink's error is counted and logged, never fatal:
// the other sinks and detection go on.
type sinks struct {
	all    []alert.Sink
	ends   []alert.EventEnder
	status []alert.StatusSink
	scores []alert.ScoreSink
	// evidence and acks take alerts' EEG and feedback acknowledgements.
	evidence []alert.EvidenceSink
	acks     []alert.AckSink
	log      *slog.Logger
	errors   *int64 // Stats.SinkErrors
}

func newSinks(all []alert.Sink, log *slog.Logger, errors *int64) sinks {
	s := sinks{all: all, log: log, errors: errors}
	for _, k := range all {
		if e, ok := k.(alert.EventEnder); ok {
			s.ends = append(s.ends, e)
		}
		if st, ok := k.(alert.StatusSink); ok {
			s.status = append(s.status, st)
		}
		if sc, ok := k.(alert.ScoreSink); ok {
			s.scores = append(s.scores, sc)
		}
		if ev, ok := k.(alert.EvidenceSink); ok {
			s.evidence = append(s.evidence, ev)
		}
		if a, ok := k.(alert.AckSink); ok {
			s.acks = append(s.acks, a)
		}
	}
	return s
}

func (s *sinks) alert(e *alert.Event) {
	for _, k := range s.all {
		s.check("alert", k.Alert(e))
	}
}

func (s *sinks) eventEnd(e *alert.Event) {
	for _, k := range s.ends {
		s.check("event end", k.EventEnd(e))
	}
}

func (s *sinks) state(st alert.Status) {
	for _, k := range s.status {
		s.check("status", k.Status(st))
	}
}

func (s *sinks) score(sc alert.Score) {
	for _, k := range s.scores {
		s.check("score", k.Score(sc))
	}
}

func (s *sinks) ack(a alert.Ack) {
	for _, k := range s.acks {
		s.check("feedback ack", k.Ack(a))
	}
}

func (s *sinks) check(what string, err error) {
	if err == nil {
		return
	}
	*s.errors++
	if n := *s.errors; n < 10 || n%1000 == 0 {
		s.log.Warn("sink failed", slog.String("message", what), slog.Any("err", err), slog.Int64("errors", n))
	}
}
