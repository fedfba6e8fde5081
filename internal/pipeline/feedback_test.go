package pipeline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
)

// confirmer is a sink that confirms (or rejects) every alert through the
// pipeline's label channel, as a clinician's feedback would.
type confirmer struct {
	collect
	labels  chan<- alert.Label
	verdict bool
	acks    []alert.Ack
}

func (c *confirmer) Ack(a alert.Ack) error { c.acks = append(c.acks, a); return nil }

func (c *confirmer) Alert(e *alert.Event) error {
	c.collect.Alert(e)
	c.labels <- alert.Label{AlertID: e.ID, Seizure: c.verdict, From: "test"}
	return nil
}

// trained returns a UOB model trained prequentially on a first simulated
// recording, as `ictal train` would.
func trained(t *testing.T) classifier.Model {
	t.Helper()
	src := newPatient(t, 8, 30*time.Minute, 5, 11)
	m := newModel(t, src, features.Config{}, "UOB")
	p, err := New(src, features.Config{}, m, Config{Learning: Learning{Mode: LearnAnnotations}}, nil, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFeedbackConfirmsAlerts(t *testing.T) {
	for _, verdict := range []bool{true, false} {
		src := newPatient(t, 8, 20*time.Minute, 3, 12)
		rec := &recorder{Model: trained(t)}
		sink := &confirmer{verdict: verdict}
		p, err := New(src, features.Config{}, rec, Config{Learning: Learning{Mode: LearnFeedback}}, []alert.Sink{sink}, Hooks{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sink.labels = p.Labels()
		if err := p.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		st := p.Stats()
		if len(sink.alerts) == 0 {
			t.Fatal("no alert to confirm")
		}
		if st.LabelsApplied != int64(len(sink.alerts)) {
			t.Errorf("%d labels applied for %d alerts", st.LabelsApplied, len(sink.alerts))
		}
		if len(sink.acks) != len(sink.alerts) {
			t.Fatalf("%d acks for %d labels", len(sink.acks), len(sink.alerts))
		}
		for i, a := range sink.acks {
			if !a.Applied || a.AlertID != sink.alerts[i].ID || a.Windows == 0 || a.At.IsZero() {
				t.Errorf("ack %d: %+v", i, a)
			}
		}
		learned := st.LearnedPos
		if !verdict {
			learned = st.LearnedNeg
		}
		if learned == 0 || st.LearnedPos+st.LearnedNeg != learned {
			t.Errorf("verdict %v: learned %d positive and %d negative windows", verdict, st.LearnedPos, st.LearnedNeg)
		}
		// Each alert is confirmed as soon as it is raised: the windows
		// learned are those from its onset to its detection.
		var want int64
		for _, e := range sink.alerts {
			want += int64((e.DetectedOffset - e.OnsetOffset - 2*time.Second) / time.Second)
		}
		if learned < want/2 || learned > want+int64(len(sink.alerts))*2 {
			t.Errorf("learned %d windows for alerts spanning about %d", learned, want)
		}
	}
}

func TestFeedbackIntervalsAndHorizon(t *testing.T) {
	s := time.Second
	tests := []struct {
		name    string
		learn   Learning
		labels  map[int64]alert.Label // window number at which to send, offsets as durations from start via wall()
		wantPos int64
		wantNeg int64
		applied int64
		unused  int64
	}{
		{name: "seizure interval", learn: Learning{Mode: LearnFeedback},
			labels:  map[int64]alert.Label{100: {Start: at(30 * s), End: at(60 * s), Seizure: true}},
			wantPos: 31, applied: 1}, // windows [k, k+2) s with k = 29..59 overlap it by at least half
		{name: "non-seizure interval", learn: Learning{Mode: LearnFeedback},
			labels:  map[int64]alert.Label{100: {Start: at(10 * s), End: at(20 * s), Seizure: false}},
			wantNeg: 11, applied: 1},
		{name: "a window is learned once", learn: Learning{Mode: LearnFeedback},
			labels:  map[int64]alert.Label{100: {Start: at(10 * s), End: at(20 * s), Seizure: false}, 101: {Start: at(10 * s), End: at(21 * s), Seizure: true}},
			wantNeg: 11, wantPos: 1, applied: 2},
		{name: "unknown alert", learn: Learning{Mode: LearnFeedback},
			labels: map[int64]alert.Label{100: {AlertID: "00000000-0000-4000-8000-000000000000", Seizure: true}},
			unused: 1},
		{name: "older than the buffer", learn: Learning{Mode: LearnFeedback, Buffer: time.Minute},
			labels: map[int64]alert.Label{150: {Start: at(10 * s), End: at(20 * s), Seizure: true}},
			unused: 1},
		{name: "negative horizon", learn: Learning{Mode: LearnFeedback, NegativeHorizon: 2 * time.Minute, Buffer: 3 * time.Minute},
			wantNeg: 299 - 120},
		{name: "labels beat the horizon", learn: Learning{Mode: LearnFeedback, NegativeHorizon: 2 * time.Minute, Buffer: 3 * time.Minute},
			labels:  map[int64]alert.Label{60: {Start: at(10 * s), End: at(40 * s), Seizure: true}},
			wantPos: 31, wantNeg: 299 - 120 - 31, applied: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := newPatient(t, 4, 5*time.Minute, 0, 4)
			rec := &recorder{Model: newModel(t, src, features.Config{}, "UOB")}
			var p *Pipeline
			windows := int64(0)
			hooks := Hooks{Window: func(Stats) {
				windows++
				if l, ok := tt.labels[windows]; ok {
					if !l.Start.IsZero() {
						l.Start, l.End = p.wall0.Add(l.Start.Sub(epoch)), p.wall0.Add(l.End.Sub(epoch))
					}
					p.Labels() <- l
				}
			}}
			var err error
			p, err = New(src, features.Config{}, rec, Config{Learning: tt.learn, Artifact: noArtifacts}, nil, hooks, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			st := p.Stats()
			if st.LearnedPos != tt.wantPos || st.LearnedNeg != tt.wantNeg || st.LabelsApplied != tt.applied || st.LabelsUnused != tt.unused {
				t.Errorf("learned %d+ %d-, labels applied %d unused %d; want %d+ %d-, %d, %d",
					st.LearnedPos, st.LearnedNeg, st.LabelsApplied, st.LabelsUnused, tt.wantPos, tt.wantNeg, tt.applied, tt.unused)
			}
		})
	}
}

// epoch anchors the test's label times; they are shifted onto the
// pipeline's clock when sent.
var epoch = time.Unix(0, 0)

func at(d time.Duration) time.Time { return epoch.Add(d) }

// A monitor that does not learn from feedback answers every label with a
// refusal that says so.
func TestFeedbackRefusedWhenNotLearning(t *testing.T) {
	src := newPatient(t, 8, 20*time.Minute, 3, 12)
	sink := &confirmer{verdict: true}
	p, err := New(src, features.Config{}, trained(t), Config{Learning: Learning{Mode: LearnOff}}, []alert.Sink{sink}, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sink.labels = p.Labels()
	if err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(sink.alerts) == 0 || len(sink.acks) != len(sink.alerts) {
		t.Fatalf("%d alerts, %d acks", len(sink.alerts), len(sink.acks))
	}
	for _, a := range sink.acks {
		if a.Applied || a.Windows != 0 || !strings.Contains(a.Reason, "learning.mode off") {
			t.Errorf("ack %+v", a)
		}
	}
	if st := p.Stats(); st.LearnedPos+st.LearnedNeg != 0 || st.LabelsUnused != int64(len(sink.alerts)) {
		t.Errorf("stats %+v", st)
	}
}
