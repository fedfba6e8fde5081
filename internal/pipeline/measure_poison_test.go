package pipeline

import (
	"os"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
)

// TestMeasureFeedbackPoisoning measures what one seizure label over
// normal EEG costs a trained model (opt-in: ICTAL_MEASURE=1, some 15 s):
// a UOB model trained on a simulated recording is given one label of
// span none, max_interval or the whole hour (as before max_interval
// existed), learned in LearnFeedback, and then scored on another
// recording; it logs the window-level (sample) precision and recall.
// Measured at 2026-11 (seeds as below): none 0.875 / 0.910; 5 min (252
// windows learned) 0.705 / 0.918; 1 h (2995 windows) 0.085 / 0.927.
func TestMeasureFeedbackPoisoning(t *testing.T) {
	if os.Getenv("ICTAL_MEASURE") == "" {
		t.Skip("a measurement: set ICTAL_MEASURE=1")
	}
	base := trained(t)
	blob, err := base.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	eval := func(m classifier.Model) (prec, rec float64, fp, tp int) {
		src := newPatient(t, 8, 60*time.Minute, 4, 77)
		sink := &collect{}
		p := newPipeline(t, src, features.Config{}, m, Config{Learning: Learning{Mode: LearnOff}}, []alert.Sink{sink}, Hooks{})
		runAll(t, p)
		set := newIntervalSet(src.Intervals())
		pos := 0
		for _, s := range sink.scores {
			ov := set.overlap(s.Offset-2*time.Second, s.Offset)
			inside := ov >= time.Second
			if inside {
				pos++
			}
			if s.Usable && s.Score > 0.5 {
				if inside {
					tp++
				} else {
					fp++
				}
			}
		}
		return float64(tp) / float64(tp+fp), float64(tp) / float64(pos), fp, tp
	}
	for _, span := range []time.Duration{0, DefaultMaxInterval, time.Hour} {
		m, err := classifier.Load(blob)
		if err != nil {
			t.Fatal(err)
		}
		if span > 0 {
			src := newPatient(t, 8, 62*time.Minute, 0, 21)
			var p *Pipeline
			w := int64(0)
			hooks := Hooks{Window: func(Stats) {
				if w++; w == 3660 {
					end := p.wall0.Add(3661 * time.Second)
					p.Labels() <- alert.Label{Start: end.Add(-span), End: end, Seizure: true}
				}
			}}
			p = newPipeline(t, src, features.Config{}, m, Config{Learning: Learning{Mode: LearnFeedback, MaxInterval: time.Hour, Grace: time.Second}}, nil, hooks)
			runAll(t, p)
			t.Logf("span %v: learned %d positives", span, p.Stats().LearnedPos)
		}
		prec, rec, fp, tp := eval(m)
		t.Logf("span %v: sample precision %.3f recall %.3f (tp %d fp %d)", span, prec, rec, tp, fp)
	}
}
