package pipeline

import (
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/features"
)

// TestDetectsSyntheticSeizures runs an hour of a simulated patient with
// eight seizures through the pipeline, learning prequentially from its
// annotations, and checks the later seizures are detected with few false
// alarms.
func TestDetectsSyntheticSeizures(t *testing.T) {
	src := newPatient(t, 8, 60*time.Minute, 8, 3)
	m := newModel(t, src, features.Config{}, "UOB")
	sink := &collect{}
	p := newPipeline(t, src, features.Config{}, m, Config{Learning: Learning{Mode: LearnAnnotations}}, []alert.Sink{sink}, Hooks{})
	runAll(t, p)
	st := p.Stats()
	t.Logf("stats %+v", st)
	sz := src.Seizures()
	detected, late := 0, 0
	for i, s := range sz {
		hit := false
		for _, e := range sink.alerts {
			if e.OnsetOffset < s.End && e.DetectedOffset+time.Minute > s.Start {
				hit = true
				t.Logf("seizure %d [%v, %v] detected at %v (delay %v), channels %v", i, s.Start, s.End, e.DetectedOffset, e.DetectedOffset-s.Start, e.Channels)
			}
		}
		if hit {
			detected++
			if i >= 2 {
				late++
			}
		} else {
			t.Logf("seizure %d [%v, %v] missed", i, s.Start, s.End)
		}
	}
	fa := len(sink.alerts) - detected
	t.Logf("%d of %d seizures detected, %d alerts, %d false", detected, len(sz), len(sink.alerts), fa)
	if late < len(sz)-3 {
		t.Errorf("after two seizures of learning only %d of %d later seizures were detected", late, len(sz)-2)
	}
	if fa > 2 {
		t.Errorf("%d false alarms in an hour", fa)
	}
}
