package pipeline

import (
	"testing"
	"time"

	"github.com/ictal/ictal/features/artifact"
	"github.com/ictal/ictal/internal/record"
)

// TestSteadyStateAllocsRecording is TestSteadyStateAllocs with a session
// recorder among the sinks: recording every frame (and every record, with
// its header count) allocates nothing either. Artifact gating is off: its
// changes of state are rare events that allocate (in the pipeline, and in
// the recorder, which annotates them), and this test is about frames.
func TestSteadyStateAllocsRecording(t *testing.T) {
	src := newPatient(t, 8, 30*time.Minute, 0, 5)
	rec, err := record.New(record.Config{Dir: t.TempDir(), Site: "s", Bed: "b"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	sink := &countingSink{}
	p := newPipeline(t, src, defaultFeatures, newModel(t, src, defaultFeatures, "UOB"), Config{Learning: Learning{Mode: LearnAnnotations}, Artifact: artifact.Config{Off: true}}, []alertSink{sink, rec}, Hooks{})
	if len(p.frames) != 1 {
		t.Fatalf("%d frame sinks, want the recorder", len(p.frames))
	}
	// Eleven minutes past the hour: no hourly file starts during the test.
	p.wall0 = time.Date(2026, 11, 26, 10, 11, 0, 0, time.UTC)
	p.lastCkpt = p.now()
	p.beginFrames()
	allocs := allocsPerWindow(t, p)
	if allocs != 0 {
		t.Errorf("%v allocations per window of 256 frames with a recorder", allocs)
	}
	if st := rec.Stats(); st.Records < 100 || st.Files != 1 {
		t.Errorf("recorder stats %+v", st)
	}
}
