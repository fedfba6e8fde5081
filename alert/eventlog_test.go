package alert

import (
	"testing"
	"time"
)

func TestEventLog(t *testing.T) {
	l := &EventLog{Scores: true}
	e := &Event{ID: "a", OnsetOffset: time.Second, DetectedOffset: 3 * time.Second, Score: 0.8, Channels: []string{"T7"}}
	if err := l.Alert(e); err != nil {
		t.Fatal(err)
	}
	e.Channels[0] = "overwritten" // the pipeline reuses its event
	if c := l.Events()[0].Channels[0]; c != "T7" {
		t.Errorf("channel %q: the log shares the pipeline's slice", c)
	}
	b := &Event{ID: "b", OnsetOffset: 60 * time.Second, DetectedOffset: 62 * time.Second}
	l.Alert(b)
	end := *e
	end.Channels = []string{"T7"}
	end.End, end.EndOffset, end.Score = time.Unix(9, 0), 9*time.Second, 0.95
	l.EventEnd(&end)
	l.EventEnd(&Event{ID: "unknown", EndOffset: time.Minute})
	l.Score(Score{Offset: time.Second, Score: 0.5, Usable: true})

	got := l.Events()
	if len(got) != 3 || got[0].ID != "a" || got[0].EndOffset != 9*time.Second || got[0].Score != 0.95 ||
		got[1].ID != "b" || !got[1].End.IsZero() || got[2].ID != "unknown" {
		t.Fatalf("events %+v", got)
	}
	if s := l.WindowScores(); len(s) != 1 || s[0].Score != 0.5 {
		t.Errorf("scores %+v", s)
	}
	quiet := &EventLog{}
	quiet.Score(Score{Score: 1})
	if len(quiet.WindowScores()) != 0 {
		t.Error("scores kept without Scores set")
	}
}
