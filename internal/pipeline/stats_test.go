package pipeline

import (
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/features"
)

// The counters a metrics endpoint exports besides the window counts: the
// signal processed, the lag behind a clock, and the late-label buffer's
// fill, as the Window hook sees them.
func TestStatsSignalLagAndBuffer(t *testing.T) {
	tests := []struct {
		name        string
		mode        string
		tick        time.Duration // the clock's advance per reading
		wantCap     int
		wantLagSign int
	}{
		{"feedback, pipeline ahead of its clock", LearnFeedback, 0, 11, -1},
		{"feedback, pipeline behind its clock", LearnFeedback, 5 * time.Second, 11, 1},
		{"annotations: no buffer", LearnAnnotations, 0, 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := newPatient(t, 4, 30*time.Second, 0, 1)
			var seen []Stats
			p := newPipeline(t, src, features.Config{}, newModel(t, src, features.Config{}, "UOB"),
				Config{Learning: Learning{Mode: tt.mode, Buffer: 10 * time.Second}}, []alert.Sink{&collect{}},
				Hooks{Window: func(s Stats) { seen = append(seen, s) }})
			t0 := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
			clock := t0
			p.now = func() time.Time { clock = clock.Add(tt.tick); return clock }
			runAll(t, p)
			if len(seen) != 29 {
				t.Fatalf("%d windows of a 30 s recording, want 29", len(seen))
			}
			for i, s := range seen {
				if want := time.Duration(i+2) * time.Second; s.SignalTime != want { // 2 s windows, 1 s step
					t.Errorf("window %d: signal time %v, want %v", i, s.SignalTime, want)
				}
				// Run read the clock once, each window once more.
				if want := time.Duration(i+1)*tt.tick - s.SignalTime; s.Lag != want {
					t.Errorf("window %d: lag %v, want %v", i, s.Lag, want)
				}
				if s.Lag*time.Duration(tt.wantLagSign) <= 0 {
					t.Errorf("window %d: lag %v has the wrong sign", i, s.Lag)
				}
				if s.BufferCap != tt.wantCap || s.Buffered > s.BufferCap || s.Buffered > int(s.Usable) {
					t.Errorf("window %d: buffer %d of %d, %d usable windows; want capacity %d", i, s.Buffered, s.BufferCap, s.Usable, tt.wantCap)
				}
			}
			if last := seen[len(seen)-1]; tt.wantCap > 0 && last.Buffered != tt.wantCap {
				t.Errorf("after %d usable windows the buffer holds %d, want it full (%d)", last.Usable, last.Buffered, tt.wantCap)
			}
		})
	}
}
