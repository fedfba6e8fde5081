package resample

import (
	"math"
	"strconv"
	"testing"
)

// BenchmarkResample streams frames through a Resampler, popping after
// every push, and reports the time per output sample (one channel of one
// output frame) as ns/out-sample; ns/op is per input frame.
func BenchmarkResample(b *testing.B) {
	tests := []struct {
		from, to string
		channels int
	}{
		{"256", "100", 23},   // CHB-MIT to Sleep-EDF's rate (polyphase)
		{"256", "250", 8},    // polyphase, 125 phases
		{"250", "1000", 8},   // upsampling
		{"173.61", "256", 1}, // Bonn to a common rate (interpolated)
		{"173.61", "256", 23},
	}
	for _, tt := range tests {
		b.Run(tt.from+"→"+tt.to+"/"+strconv.Itoa(tt.channels)+"ch", func(b *testing.B) {
			rs := mustNew(b, tt.from, tt.to, tt.channels)
			in, out := make([]float64, tt.channels), make([]float64, tt.channels)
			k, outs := 0, 0
			b.ReportAllocs()
			for b.Loop() {
				for c := range in {
					in[c] = math.Sin(0.01 * float64(k+c))
				}
				k++
				rs.Push(in)
				for rs.Pop(out) {
					outs++
				}
			}
			if outs > 0 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(outs*tt.channels), "ns/out-sample")
			}
		})
	}
}
