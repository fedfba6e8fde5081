package eval

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkEventsDay scores a day with 20 seizures and 200 detections.
func BenchmarkEventsDay(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var ref, hyp []Event
	for i := range 20 {
		t := time.Duration(i)*72*time.Minute + time.Duration(rng.IntN(600))*time.Second
		ref = append(ref, Event{Start: t, End: t + 60*time.Second})
	}
	for range 200 {
		t := time.Duration(rng.Int64N(int64(24 * time.Hour)))
		hyp = append(hyp, Event{Start: t, End: t + time.Duration(5+rng.IntN(60))*time.Second})
	}
	b.ReportAllocs()
	for b.Loop() {
		Events(ref, hyp, 24*time.Hour, DefaultParams())
		Samples(ref, hyp, 24*time.Hour)
	}
}
