package synth

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

// FuzzNew checks that any configuration is either rejected with an error
// wrapping ErrConfig or yields a patient whose first frames are finite,
// correctly stamped and whose intervals lie inside the recording.
func FuzzNew(f *testing.F) {
	f.Add(8, 256, int64(30*time.Minute), 2, int64(0), int64(30*time.Second), int64(90*time.Second), 6.0, 0.5, uint64(1))
	f.Add(23, 256, int64(time.Minute), 0, int64(5*time.Second), int64(20*time.Second), int64(20*time.Second), 30.0, 6.0, uint64(42))
	f.Add(64, 4096, int64(time.Second), 0, int64(0), int64(0), int64(0), 60.0, 10.0, uint64(0))
	f.Add(1, 64, int64(3*time.Minute), 1, int64(0), int64(10*time.Second), int64(10*time.Second), 0.0, 0.0, uint64(1<<63))
	f.Fuzz(func(t *testing.T, channels, rate int, duration int64, seizures int, onset, smin, smax int64, blinks, muscle float64, seed uint64) {
		// Keep each case cheap: the recording is bounded, not the config.
		if time.Duration(duration) > 2*time.Hour || seizures > 100 {
			return
		}
		cfg := Config{Channels: channels, Rate: rate, Duration: time.Duration(duration), Seizures: seizures,
			SeizureMin: time.Duration(smin), SeizureMax: time.Duration(smax),
			BlinksPerMinute: blinks, MusclePerMinute: muscle, Seed: seed}
		if onset != 0 {
			cfg.Onsets = []time.Duration{time.Duration(onset)}
		}
		p, err := New(cfg)
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("error %v does not wrap ErrConfig", err)
			}
			return
		}
		info := p.Info()
		end := stampFor(p.Frames(), int(info.Rate))
		for _, iv := range p.Intervals() {
			if iv.Start < 0 || iv.End > end || iv.End <= iv.Start {
				t.Fatalf("interval %+v outside [0, %v)", iv, end)
			}
		}
		fr := acquire.NewFrame(len(info.Channels))
		for i := range min(p.Frames(), 512) {
			if err := p.ReadFrame(fr); err != nil {
				t.Fatalf("frame %d: %v", i, err)
			}
			if fr.Seq != uint64(i) || fr.Time != stampFor(i, int(info.Rate)) {
				t.Fatalf("frame %d stamped %d at %v", i, fr.Seq, fr.Time)
			}
			for c, v := range fr.Samples {
				if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 5000 {
					t.Fatalf("frame %d channel %d: %v µV", i, c, v)
				}
			}
		}
	})
}
