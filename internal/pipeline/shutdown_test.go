package pipeline

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/checkpoint"
)

// cancelOnLearn wraps a model and cancels a context on its k-th Learn.
type cancelOnLearn struct {
	classifier.Model
	k, calls int
	cancel   context.CancelFunc
}

func (c *cancelOnLearn) Learn(x []float64, pos bool) error {
	c.calls++
	if c.calls == c.k {
		c.cancel()
	}
	return c.Model.Learn(x, pos)
}

// TestCancelStopsLearningBufferedWindows checks that a label covering a
// long stretch of the buffer does not hold up shutdown: once Run's context
// is done the pipeline learns no further buffered window (it stops between
// windows, also when the recording's end would learn what is pending),
// and a label still queued is refused with a reason instead of applied.
func TestCancelStopsLearningBufferedWindows(t *testing.T) {
	src := newPatient(t, 4, 5*time.Minute, 0, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const k = 5
	m := &cancelOnLearn{Model: newModel(t, src, features.Config{}, "UOB"), k: k, cancel: cancel}
	sink := &confirmer{}
	var p *Pipeline
	windows := 0
	hooks := Hooks{Window: func(Stats) {
		windows++
		switch windows {
		case 200: // covers 200 buffered windows, final a second after it is applied in window 201
			p.Labels() <- alert.Label{Start: p.wall0, End: p.wall0.Add(200 * time.Second), Seizure: false, From: "test"}
		case 202: // learning it was cancelled on its k-th window: this one finds the pipeline stopping
			p.Labels() <- alert.Label{Start: p.wall0.Add(250 * time.Second), End: p.wall0.Add(260 * time.Second), Seizure: true, From: "test"}
		}
	}}
	p = newPipeline(t, src, features.Config{}, m, Config{Learning: Learning{Mode: LearnFeedback, Buffer: 10 * time.Minute, Grace: time.Second, LearnAgreed: true},
		Artifact: noArtifacts}, []alert.Sink{sink}, hooks)
	if err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if m.calls != k {
		t.Errorf("%d windows learned, want %d: learning went on after cancellation", m.calls, k)
	}
	if windows != 202 {
		t.Errorf("%d windows processed, want 202: Run went on after cancellation", windows)
	}
	if len(sink.acks) != 2 {
		t.Fatalf("%d acks, want 2", len(sink.acks))
	}
	if a := sink.acks[0]; a.Windows < 190 || !a.Applied {
		t.Errorf("first label's ack %+v, want about 200 windows applied", a)
	}
	if a := sink.acks[1]; a.Applied || !strings.Contains(a.Reason, "shutting down") {
		t.Errorf("second label's ack %+v, want refused as shutting down", a)
	}
}

// TestFinalCheckpointAfterCancelWhileLearning is the shutdown path of
// ictald under SIGTERM with the costliest configuration validation
// accepts: SBO1 of qda members, as many as the work bound allows, with the
// smallest C, so that every positive makes each member's synthetic draws
// hit their cap. Cancelled while learning (just after a positive), Run
// returns having written a final checkpoint through internal/checkpoint
// that loads and holds exactly the model's final state, before the
// recording's end.
func TestFinalCheckpointAfterCancelWhileLearning(t *testing.T) {
	src := newPatient(t, 2, 20*time.Minute, 4, 7)
	info := src.Info()
	fcfg := features.Config{Channels: len(info.Channels), Rate: info.Rate}
	ext, err := features.New(fcfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg := classifier.Config{Algorithm: classifier.SBO1, Learner: classifier.LearnerQDA, Features: ext.Dim(), C: 1.0 / classifier.MaxCost, Members: classifier.MaxMembers, Seed: 1}
	var model classifier.Model
	for ; cfg.Members > 0; cfg.Members /= 2 { // the most members the work bound allows
		if model, err = classifier.New(cfg); err == nil {
			break
		}
	}
	if model == nil {
		t.Fatalf("no valid member count: %v", err)
	}
	path := filepath.Join(t.TempDir(), "model.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hooks := Hooks{
		Checkpoint: func(m classifier.Model) error {
			b, err := m.MarshalBinary()
			if err != nil {
				return err
			}
			return checkpoint.Save(path, b)
		},
		Window: func(st Stats) {
			if st.LearnedPos >= 2 {
				cancel()
			}
		},
	}
	p := newPipeline(t, src, features.Config{}, model, Config{Learning: Learning{Mode: LearnAnnotations}, Artifact: noArtifacts, CheckpointEvery: 24 * time.Hour}, nil, hooks)
	if err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if st.LearnedPos < 2 {
		t.Fatalf("learned %d positives: the recording never reached the cancellation", st.LearnedPos)
	}
	if total := int64(20 * time.Minute / time.Second); st.Windows >= total-2 {
		t.Errorf("%d windows of about %d processed: Run did not stop on cancellation", st.Windows, total)
	}
	if st.Checkpoints != 1 || st.CheckpointErrs != 0 {
		t.Fatalf("%d checkpoints, %d failed; want the final one", st.Checkpoints, st.CheckpointErrs)
	}
	data, err := checkpoint.Load(path, 64<<20)
	if err != nil {
		t.Fatalf("final checkpoint: %v", err)
	}
	restored, err := classifier.Load(data)
	if err != nil {
		t.Fatalf("final checkpoint does not load: %v", err)
	}
	if restored.Config() != model.Config() {
		t.Errorf("checkpoint config %+v, model %+v", restored.Config(), model.Config())
	}
	if final, _ := model.MarshalBinary(); !bytes.Equal(data, final) {
		t.Error("the final checkpoint is not the model's final state")
	}
	t.Logf("%s with %d qda members at d = %d: %d windows, %d+ %d- learned before cancellation", cfg.Algorithm, cfg.Members, cfg.Features, st.Windows, st.LearnedPos, st.LearnedNeg)
}
