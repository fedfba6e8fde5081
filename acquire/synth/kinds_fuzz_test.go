package synth

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

// FuzzKinds checks that any lists of kinds, rate and artifact rate are
// either refused (by the parsers, or by New with an error wrapping
// ErrConfig) or give a patient whose samples are finite and bounded: EEG
// within ±5000 µV, the accelerometer within ±8 g.
func FuzzKinds(f *testing.F) {
	f.Add("lvfa-onset,gtcs", "chewing,sweat", 100, 30.0, true, uint64(1))
	f.Add("absence,delta,low-amplitude", "electrode-pops,patting,rocking", 16384, 120.0, false, uint64(2))
	f.Add("gtcs", "rocking", 64, 0.0, true, uint64(3))
	f.Fuzz(func(t *testing.T, seizures, artifacts string, rate int, perHour float64, accel bool, seed uint64) {
		sk, err := ParseSeizureKinds(seizures)
		if err != nil {
			return
		}
		ak, err := ParseArtifactKinds(artifacts)
		if err != nil {
			return
		}
		p, err := New(Config{Channels: 3, Rate: rate, Duration: 150 * time.Second, Onsets: []time.Duration{30 * time.Second},
			SeizureKinds: sk, ArtifactKinds: ak, ArtifactsPerHour: perHour, Accelerometer: accel, Seed: seed})
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("error %v does not wrap ErrConfig", err)
			}
			return
		}
		f := acquire.NewFrame(len(p.Info().Channels))
		// The whole recording up to 1000 Hz; above, the first 4096 frames
		// and the seizure's first 4096.
		onset := durationSamples(30*time.Second, rate)
		for i := int64(0); i < p.Frames(); i++ {
			if err := p.ReadFrame(f); err != nil {
				t.Fatalf("frame %d: %v", i, err)
			}
			if rate > 1000 && i == 4096 {
				for ; i < onset-1; i++ {
					p.ReadFrame(f)
				}
			}
			if rate > 1000 && i > onset+4096 {
				break
			}
			for c, v := range f.Samples {
				limit := 5000.0
				if c >= 3 {
					limit = 8
				}
				if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > limit {
					t.Fatalf("frame %d channel %d: %v", i, c, v)
				}
			}
		}
	})
}
