package features

import (
	"fmt"
	"math"
	"testing"
)

// benchExtractor returns an extractor for channels at rate, filled with a
// full window of EEG-like noise (sum of incommensurate tones, different
// per channel).
func benchExtractor(b *testing.B, channels int, rate float64, summaries bool) (*Extractor, []float64) {
	e, err := New(Config{Channels: channels, Rate: rate, Summaries: summaries})
	if err != nil {
		b.Fatal(err)
	}
	frame := make([]float64, channels)
	for k := 0; k < e.Window(); k++ {
		eegFrame(frame, k, rate)
		e.Push(frame)
	}
	return e, frame
}

// eegFrame fills frame with sample k of a synthetic multichannel signal.
func eegFrame(frame []float64, k int, rate float64) {
	t := float64(k) / rate
	for c := range frame {
		p := float64(c)
		frame[c] = 40*math.Sin(2*math.Pi*1.7*t+p) + 20*math.Sin(2*math.Pi*(9.3+0.1*p)*t) +
			8*math.Sin(2*math.Pi*21.1*t+2*p) + 3*math.Sin(2*math.Pi*41.9*t+3*p)
	}
}

// BenchmarkWindow measures Vector: every feature of one window.
func BenchmarkWindow(b *testing.B) {
	for _, bc := range []struct {
		channels  int
		rate      float64
		summaries bool
	}{
		{23, 256, false},
		{23, 256, true},
		{1, 256, false},
		{23, 173.61, false},
		{8, 250, false},
		{8, 500, false},
	} {
		name := fmt.Sprintf("ch=%d/n=%d", bc.channels, int(math.Round(2*bc.rate)))
		if bc.summaries {
			name += "/summaries"
		}
		b.Run(name, func(b *testing.B) {
			e, _ := benchExtractor(b, bc.channels, bc.rate, bc.summaries)
			dst := make([]float64, e.Dim())
			b.ReportAllocs()
			for b.Loop() {
				e.Vector(dst)
			}
		})
	}
}

// BenchmarkPush measures the cost per frame of 23 channels at 256 Hz, all
// features and the summaries, with the default 2-s window and 1-s step,
// amortised: Push every frame and Vector whenever a window completes (one
// frame in 256).
func BenchmarkPush(b *testing.B) {
	const channels, rate = 23, 256
	e, _ := benchExtractor(b, channels, rate, true)
	// A second of precomputed frames, so that generating them is not
	// measured.
	frames := make([][]float64, rate)
	for k := range frames {
		frames[k] = make([]float64, channels)
		eegFrame(frames[k], k, rate)
	}
	dst := make([]float64, e.Dim())
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		if e.Push(frames[k]) {
			e.Vector(dst)
		}
		if k++; k == len(frames) {
			k = 0
		}
	}
	perFrame := b.Elapsed().Seconds() / float64(b.N)
	// How many times faster than real time a core turns frames into
	// vectors: a 256-Hz frame arrives every 3.9 ms.
	b.ReportMetric(1/(perFrame*rate), "x_realtime")
}
