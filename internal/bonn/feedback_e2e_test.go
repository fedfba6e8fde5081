package bonn

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/datadir"
	"github.com/ictal/ictal/internal/eval"
	"github.com/ictal/ictal/internal/pipeline"
)

// splice writes a spliced recording of the given half of segs.
func splice(t *testing.T, segs []Segment, odd bool, cfg ConcatConfig) string {
	t.Helper()
	var half []Segment
	for i, s := range segs {
		if (i%2 == 0) == odd {
			half = append(half, s)
		}
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("rec-%v.edf", odd))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Start = t0
	if _, err := Concat(f, half, cfg); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// replay runs the recording at path through the pipeline.
func replay(t *testing.T, path string, model classifier.Model, mode string, sinks ...alert.Sink) (pipeline.Stats, []acquire.Interval) {
	t.Helper()
	r, err := edf.OpenReplay(path, edf.ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := pipeline.New(r, features.Config{}, model, pipeline.Config{Learning: pipeline.Learning{Mode: mode}}, sinks, pipeline.Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := sinks[len(sinks)-1].(*Clinician); ok {
		c.Attach(p.Labels())
	}
	if err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return p.Stats(), r.Intervals()
}

// TestClinicianEndToEnd trains a model on a spliced recording of real
// Bonn EEG and replays another with the simulated clinician: its labels
// are applied, the pipeline counts what the clinician was told, and the
// parts add up to the whole recording.
func TestClinicianEndToEnd(t *testing.T) {
	segs, err := Load(datadir.Path(t, "data", "eeg", "bonn"), Sets...)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ConcatConfig{Duration: 30 * time.Minute, SeizureRate: 0.2, Seed: 1}
	train := splice(t, segs, true, cfg)
	cfg.Seed = 2
	test := splice(t, segs, false, cfg)
	d, err := features.Config{Channels: 1, Rate: Rate}.Dim()
	if err != nil {
		t.Fatal(err)
	}
	model, err := classifier.New(classifier.Config{Algorithm: classifier.UOB, Learner: classifier.LearnerNB, Features: d, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	replay(t, train, model, pipeline.LearnAnnotations, &alert.EventLog{})
	log := &alert.EventLog{}
	var c *Clinician
	{
		r, err := edf.OpenReplay(test, edf.ReplayConfig{})
		if err != nil {
			t.Fatal(err)
		}
		c = NewClinician(r.Intervals(), 0)
		r.Close()
	}
	st, ivs := replay(t, test, model, pipeline.LearnFeedback, log, c)
	c.Finish(st.SignalTime)
	var sent, applied, refused, marks int
	for _, dec := range c.Decisions() {
		if dec.Sent {
			sent++
			if !dec.Acked {
				t.Errorf("no answer to %+v", dec)
			}
		}
		if dec.Applied {
			applied++
		} else if dec.Acked {
			refused++
		}
		if dec.Kind == Mark {
			marks++
		}
	}
	if applied == 0 || int64(applied) != st.LabelsApplied || int64(refused) != st.LabelsUnused || sent != applied+refused {
		t.Errorf("clinician: %d sent, %d applied, %d refused; pipeline: %d applied, %d unused", sent, applied, refused, st.LabelsApplied, st.LabelsUnused)
	}
	if st.LearnedPos+st.LearnedNeg == 0 {
		t.Error("nothing learned from the labels")
	}
	dur := st.SignalTime
	parts := Split(ivs, log.Events(), c.Decisions(), dur)
	var all Part
	for _, p := range parts {
		all.Add(p)
	}
	whole := eval.Match(ivs, log.Events(), dur)
	alerts := len(log.Events())
	if all.Seizures != len(whole.Seizures) || all.Detected != whole.Detected || all.FalseAlarms != whole.FalseAlarms ||
		all.Sent != sent || all.Applied != applied || all.Refused != refused || all.Confirmed+all.Rejected+all.Unsent < alerts || all.Marked != marks {
		t.Errorf("parts add up to %+v; eval: %d seizures, %d detected, %d false alarms; %d alerts, %d marks", all, len(whole.Seizures), whole.Detected, whole.FalseAlarms, alerts, marks)
	}
	if whole.Detected+marks+all.Unsent < len(whole.Seizures) {
		t.Errorf("%d seizures, %d detected, %d marked: a missed one went unmarked", len(whole.Seizures), whole.Detected, marks)
	}
	t.Logf("%d seizures, %d alerts; labels %d sent, %d applied, %d refused; learned %d+%d", len(whole.Seizures), alerts, sent, applied, refused, st.LearnedPos, st.LearnedNeg)
}
