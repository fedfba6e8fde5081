package alert

import "slices"

// EventLog is a Sink that keeps what a run produced, in memory, for the
// offline tools and the demo's summary: every event (as it was when it
// ended, or when the run stopped if it was still going on) and, when
// Scores is set, every window's score. It is for bounded runs over
// recordings; a live monitor has no use for it.
type EventLog struct {
	// Scores keeps the window scores too (one Score per window).
	Scores bool

	events []Event
	open   map[string]int // index in events of the events still going on, by ID
	scores []Score
}

// Alert implements Sink.
func (l *EventLog) Alert(e *Event) error {
	if l.open == nil {
		l.open = make(map[string]int)
	}
	ev := *e
	ev.Channels = slices.Clone(e.Channels)
	l.open[e.ID] = len(l.events)
	l.events = append(l.events, ev)
	return nil
}

// EventEnd implements EventEnder: the event's final state replaces the one
// at its alert. An end without an alert (the log was added late) is kept
// as an event of its own.
func (l *EventLog) EventEnd(e *Event) error {
	ev := *e
	ev.Channels = slices.Clone(e.Channels)
	if i, ok := l.open[e.ID]; ok {
		l.events[i] = ev
		delete(l.open, e.ID)
		return nil
	}
	l.events = append(l.events, ev)
	return nil
}

// Score implements ScoreSink; it keeps the score only when Scores is set.
func (l *EventLog) Score(s Score) error {
	if l.Scores {
		l.scores = append(l.scores, s)
	}
	return nil
}

// Events returns the events in the order they were detected. The slice is
// the log's own; it changes as the run goes on.
func (l *EventLog) Events() []Event { return l.events }

// WindowScores returns the window scores kept (Scores set), in order.
func (l *EventLog) WindowScores() []Score { return l.scores }
