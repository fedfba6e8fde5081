package pipeline

import (
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
	p := newPipeline(t, src, features.Config{}, m, Config{Learning: Learning{Mode: LearnAnnotations}}, nil, Hooks{})
	runAll(t, p)
	return m
}

func TestFeedbackConfirmsAlerts(t *testing.T) {
	for _, verdict := range []bool{true, false} {
		src := newPatient(t, 8, 20*time.Minute, 3, 12)
		rec := &recorder{Model: trained(t)}
		sink := &confirmer{verdict: verdict}
		p := newPipeline(t, src, features.Config{}, rec, Config{Learning: Learning{Mode: LearnFeedback}}, []alert.Sink{sink}, Hooks{})
		sink.labels = p.Labels()
		runAll(t, p)
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
		if st.LearnedPos+st.LearnedNeg != learned {
			t.Errorf("verdict %v: learned %d positive and %d negative windows", verdict, st.LearnedPos, st.LearnedNeg)
		}
		// An alert's span holds the windows that raised it, above the
		// threshold: a confirmation agrees with them (counted, not
		// learned), a rejection corrects them (learned).
		if verdict && st.Agreed == 0 || !verdict && learned == 0 {
			t.Errorf("verdict %v: learned %d windows, %d agreed", verdict, learned, st.Agreed)
		}
		// Each alert is judged as soon as it is raised: the windows
		// labelled are those from its onset to its detection.
		var want int64
		for _, e := range sink.alerts {
			want += int64((e.DetectedOffset - e.OnsetOffset - 2*time.Second) / time.Second)
		}
		if n := learned + st.Agreed; n < want/2 || n > want+int64(len(sink.alerts))*2 {
			t.Errorf("labelled %d windows (%d learned) for alerts spanning about %d", n, learned, want)
		}
	}
}

// acks is a sink that keeps the acknowledgements of labels.
type acks struct {
	collect
	acks []alert.Ack
}

func (c *acks) Ack(a alert.Ack) error { c.acks = append(c.acks, a); return nil }

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
		relab   int64    // windows a correction took over
		acks    []string // in the order sent: text each ack's reason or note contains ("" for none)
	}{
		{name: "seizure interval", learn: Learning{Mode: LearnFeedback, LearnAgreed: true},
			labels:  map[int64]alert.Label{100: {Start: at(30 * s), End: at(60 * s), Seizure: true}},
			wantPos: 31, applied: 1, acks: []string{""}}, // windows [k, k+2) s with k = 29..59 overlap it by at least half
		{name: "non-seizure interval", learn: Learning{Mode: LearnFeedback, LearnAgreed: true},
			labels:  map[int64]alert.Label{100: {Start: at(10 * s), End: at(20 * s), Seizure: false}},
			wantNeg: 11, applied: 1},
		{name: "a correction within the grace period replaces the label", learn: Learning{Mode: LearnFeedback, LearnAgreed: true},
			labels: map[int64]alert.Label{100: {Start: at(10 * s), End: at(20 * s), Seizure: false, By: "bob"},
				130: {Start: at(10 * s), End: at(21 * s), Seizure: true, By: "alice", Sender: "clinician-alice"}},
			wantPos: 12, applied: 2, relab: 11, acks: []string{"", `replaces the non-seizure label by "bob" on 11 windows`}},
		{name: "a contradicting label after the grace period is refused", learn: Learning{Mode: LearnFeedback, LearnAgreed: true},
			labels: map[int64]alert.Label{100: {Start: at(10 * s), End: at(20 * s), Seizure: false, By: "bob"},
				200: {Start: at(10 * s), End: at(21 * s), Seizure: true, By: "alice"}},
			wantNeg: 11, applied: 1, unused: 1, acks: []string{"", `contradicts the non-seizure label by "bob" on 11 windows, final since`}},
		{name: "an agreeing label after the grace period learns only new windows", learn: Learning{Mode: LearnFeedback, LearnAgreed: true},
			labels: map[int64]alert.Label{100: {Start: at(10 * s), End: at(20 * s), Seizure: false},
				200: {Start: at(10 * s), End: at(30 * s), Seizure: false}},
			wantNeg: 21, applied: 2},
		{name: "adjacent labels do not contradict", learn: Learning{Mode: LearnFeedback, LearnAgreed: true},
			labels: map[int64]alert.Label{100: {Start: at(10 * s), End: at(20 * s), Seizure: false},
				200: {Start: at(20 * s), End: at(30 * s), Seizure: true}},
			wantNeg: 11, wantPos: 10, applied: 2}, // the window [19, 21) keeps the first label
		{name: "an interval longer than max_interval is refused", learn: Learning{Mode: LearnFeedback, LearnAgreed: true, MaxInterval: time.Minute},
			labels: map[int64]alert.Label{100: {Start: at(10 * s), End: at(71 * s), Seizure: true}},
			unused: 1, acks: []string{"an interval of 1m1s is longer than learning.max_interval 1m0s"}},
		{name: "an interval of max_interval is applied", learn: Learning{Mode: LearnFeedback, LearnAgreed: true, MaxInterval: time.Minute},
			labels:  map[int64]alert.Label{100: {Start: at(10 * s), End: at(70 * s), Seizure: true}},
			wantPos: 61, applied: 1},
		{name: "a pending label is learned when the run ends", learn: Learning{Mode: LearnFeedback, LearnAgreed: true},
			labels:  map[int64]alert.Label{290: {Start: at(100 * s), End: at(150 * s), Seizure: true}},
			wantPos: 51, applied: 1},
		{name: "a pending window leaving the buffer is learned", learn: Learning{Mode: LearnFeedback, LearnAgreed: true, Buffer: time.Minute, Grace: 30 * s},
			labels:  map[int64]alert.Label{100: {Start: at(60 * s), End: at(90 * s), Seizure: true}},
			wantPos: 31, applied: 1},
		{name: "unknown alert", learn: Learning{Mode: LearnFeedback, LearnAgreed: true},
			labels: map[int64]alert.Label{100: {AlertID: "00000000-0000-4000-8000-000000000000", Seizure: true}},
			unused: 1, acks: []string{"no recent alert"}},
		{name: "older than the buffer", learn: Learning{Mode: LearnFeedback, LearnAgreed: true, Buffer: time.Minute},
			labels: map[int64]alert.Label{150: {Start: at(10 * s), End: at(20 * s), Seizure: true}},
			unused: 1, acks: []string{"covers no window still in the buffer"}},
		{name: "negative horizon", learn: Learning{Mode: LearnFeedback, LearnAgreed: true, NegativeHorizon: 2 * time.Minute, Buffer: 3 * time.Minute},
			wantNeg: 299 - 120},
		{name: "labels beat the horizon", learn: Learning{Mode: LearnFeedback, LearnAgreed: true, NegativeHorizon: 2 * time.Minute, Buffer: 3 * time.Minute},
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
			sink := &acks{}
			p = newPipeline(t, src, features.Config{}, rec, Config{Learning: tt.learn, Artifact: noArtifacts}, []alert.Sink{sink}, hooks)
			runAll(t, p)
			st := p.Stats()
			if st.LearnedPos != tt.wantPos || st.LearnedNeg != tt.wantNeg || st.LabelsApplied != tt.applied || st.LabelsUnused != tt.unused || st.Relabelled != tt.relab {
				t.Errorf("learned %d+ %d-, labels applied %d unused %d, %d windows relabelled; want %d+ %d-, %d, %d, %d",
					st.LearnedPos, st.LearnedNeg, st.LabelsApplied, st.LabelsUnused, st.Relabelled, tt.wantPos, tt.wantNeg, tt.applied, tt.unused, tt.relab)
			}
			if len(sink.acks) != len(tt.labels) {
				t.Fatalf("%d acks for %d labels", len(sink.acks), len(tt.labels))
			}
			for i, want := range tt.acks {
				a := sink.acks[i]
				text := a.Reason + a.Note
				if (want == "") != (text == "") || !strings.Contains(text, want) {
					t.Errorf("ack %d: reason %q, note %q; want one containing %q", i, a.Reason, a.Note, want)
				}
				if a.Applied && (a.FinalAt.IsZero() || a.Windows == 0) {
					t.Errorf("ack %d applied without final_at or windows: %+v", i, a)
				}
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
	p := newPipeline(t, src, features.Config{}, trained(t), Config{Learning: Learning{Mode: LearnOff}}, []alert.Sink{sink}, Hooks{})
	sink.labels = p.Labels()
	runAll(t, p)
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

// A label's windows are learned when its grace period is over, counted in
// the recording's time from the window at which the label arrives.
func TestFeedbackGracePeriod(t *testing.T) {
	for _, grace := range []time.Duration{10 * time.Second, time.Minute} {
		src := newPatient(t, 4, 5*time.Minute, 0, 4)
		var p *Pipeline
		windows, learnedAt, pendingAt := int64(0), int64(0), int64(0)
		const sendAt = 100
		hooks := Hooks{Window: func(st Stats) {
			windows++
			if st.LearnedPos > 0 && learnedAt == 0 {
				learnedAt = windows
			}
			if windows == sendAt+int64(grace/time.Second)-1 {
				pendingAt = st.LearnedPos
			}
			if windows == sendAt {
				p.Labels() <- alert.Label{Start: p.wall0.Add(30 * time.Second), End: p.wall0.Add(60 * time.Second), Seizure: true}
			}
		}}
		p = newPipeline(t, src, features.Config{}, newModel(t, src, features.Config{}, "UOB"),
			Config{Learning: Learning{Mode: LearnFeedback, Grace: grace}, Artifact: noArtifacts}, nil, hooks)
		runAll(t, p)
		// Taken at the next window (sendAt+1), learned grace later.
		if want := sendAt + 1 + int64(grace/time.Second); learnedAt != want || pendingAt != 0 {
			t.Errorf("grace %v: learned at window %d (want %d); %d windows learned at window %d", grace, learnedAt, want, pendingAt, sendAt+int64(grace/time.Second)-1)
		}
		if st := p.Stats(); st.LearnedPos != 31 {
			t.Errorf("grace %v: %d windows learned, want 31", grace, st.LearnedPos)
		}
	}
}

// The poisoning of the issue: one valid seizure interval covering the
// whole one-hour buffer taught the model some 3600 windows of normal EEG
// as seizure. It is refused now, saying why; an interval of
// max_interval is learned on at most that many windows.
func TestFeedbackOneIntervalCannotPoisonTheBuffer(t *testing.T) {
	tests := []struct {
		name    string
		span    time.Duration // the interval ends at the window it is sent at
		applied bool
		maxPos  int64
	}{
		{"the whole buffer", time.Hour, false, 0},
		{"just over max_interval", DefaultMaxInterval + time.Second, false, 0},
		{"max_interval", DefaultMaxInterval, true, int64(DefaultMaxInterval/time.Second) + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := newPatient(t, 4, 62*time.Minute, 0, 4)
			sink := &acks{}
			var p *Pipeline
			windows := int64(0)
			const sendAt = 3660 // an hour of windows is buffered
			hooks := Hooks{Window: func(Stats) {
				if windows++; windows == sendAt {
					end := p.wall0.Add(time.Duration(sendAt+1) * time.Second)
					p.Labels() <- alert.Label{Start: end.Add(-tt.span), End: end, Seizure: true, From: "mqtt", By: "mallory"}
				}
			}}
			p = newPipeline(t, src, features.Config{}, newModel(t, src, features.Config{}, "UOB"),
				Config{Learning: Learning{Mode: LearnFeedback}, Artifact: noArtifacts}, []alert.Sink{sink}, hooks)
			runAll(t, p)
			st := p.Stats()
			if len(sink.acks) != 1 || sink.acks[0].Applied != tt.applied {
				t.Fatalf("acks %+v", sink.acks)
			}
			if a := sink.acks[0]; !tt.applied && !strings.Contains(a.Reason, "longer than learning.max_interval") {
				t.Errorf("refused with reason %q", a.Reason)
			}
			if st.LearnedPos > tt.maxPos || (tt.applied && st.LearnedPos < tt.maxPos-2) {
				t.Errorf("%d windows learned as seizure, want at most %d", st.LearnedPos, tt.maxPos)
			}
		})
	}
}
