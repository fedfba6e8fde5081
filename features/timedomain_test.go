package features

import (
	"io"
	"math"
	"slices"
	"testing"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/openbci"
	"github.com/ictal/ictal/internal/datadir"
)

// twoPassTime is the textbook computation that computeTime replaces: the
// mean first, then every sum over the mean-removed samples.
func twoPassTime(w []float64, rate float64) timeFeatures {
	n := len(w)
	var sum float64
	for _, v := range w {
		sum += v
	}
	mean := sum / float64(n)
	y := make([]float64, n)
	for i, v := range w {
		y[i] = v - mean
	}
	var sumSq, absDiff, maxStep, diffSq, diff2Sq, tk float64
	crossings := 0
	for i := range y {
		sumSq += y[i] * y[i]
		if i >= 1 {
			d := y[i] - y[i-1]
			absDiff += math.Abs(d)
			maxStep = math.Max(maxStep, math.Abs(d))
			diffSq += d * d
			if (y[i] >= 0) != (y[i-1] >= 0) {
				crossings++
			}
		}
		if i >= 2 {
			dd := y[i] - 2*y[i-1] + y[i-2]
			diff2Sq += dd * dd
			tk += y[i-1]*y[i-1] - y[i-2]*y[i]
		}
	}
	seconds := float64(n-1) / rate
	toHz := rate / (2 * math.Pi)
	v0, v1, v2 := sumSq/float64(n), diffSq/float64(n-1), diff2Sq/float64(n-2)
	tf := timeFeatures{variance: v0, lineLength: absDiff / seconds, maxStep: maxStep}
	if v0 < flatVariance {
		tf.flat = true
		return tf
	}
	tf.crossings = float64(crossings) / seconds
	m0 := math.Sqrt(v1 / v0)
	tf.mobility = m0 * toHz
	tf.complexity = math.Sqrt(v2/v1) / m0
	tf.teager = max(tk, 0) / float64(n-2) * toHz * toHz
	return tf
}

// relErr is |got − want| relative to |want| (absolute below 1e-300).
func relErr(got, want float64) float64 {
	return math.Abs(got-want) / max(math.Abs(want), 1e-300)
}

// TestTimeSumsOnRecordings compares the time-domain features of every
// window of real recordings, computed from half-window sums and the
// Teager–Kaiser energy's mean correction (blockSums, join, computeTime),
// with the two-pass textbook computation, with conditioning on and off.
// Off, the OpenBCI Cyton's channels carry DC offsets of tens of
// millivolts, the worst case for the raw Teager sum (see computeTime).
// The largest relative error seen is logged; 1e-10 bounds it with room
// (measured: 6.2e-13, the Cyton's Teager energy unconditioned; 3e-15 for
// every other feature and for every conditioned one).
func TestTimeSumsOnRecordings(t *testing.T) {
	type recording struct {
		name   string
		rate   float64
		frames [][]float64
	}
	var recs []recording
	f, err := openbci.OpenFile(datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cyton := recording{name: "OpenBCI Cyton", rate: f.Info().Rate}
	for {
		fr := acquire.NewFrame(len(f.Info().Channels))
		if err := f.ReadFrame(fr); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		cyton.frames = append(cyton.frames, fr.Samples)
	}
	recs = append(recs, cyton)
	for _, set := range []string{"S", "F", "Z"} {
		r := recording{name: "Bonn " + set + "001", rate: bonnRate}
		for _, v := range readBonn(t, set, 1) {
			r.frames = append(r.frames, []float64{v})
		}
		recs = append(recs, r)
	}
	const tol = 1e-10
	for _, r := range recs {
		for _, off := range []bool{false, true} {
			channels := len(r.frames[0])
			e, err := New(Config{Channels: channels, Rate: r.rate, Conditioning: Conditioning{Off: off}})
			if err != nil {
				t.Fatal(err)
			}
			ones := slices.Repeat([]float64{1}, e.n)
			out := make([]float64, e.n)
			var worst [7]float64 // variance, line length, mobility, complexity, Teager, crossings, max step
			windows := 0
			for _, fr := range r.frames {
				if !e.Push(fr) {
					continue
				}
				windows++
				for c := 0; c < channels; c++ {
					w := e.window(c)
					h := e.n / 2
					var a, b blockSums
					a.of(w[:h])
					b.of(w[h:])
					s := join(&a, &b, w, h)
					var got timeFeatures
					computeTime(&got, w, &s, r.rate, ones, out)
					want := twoPassTime(w, r.rate)
					if got.flat != want.flat {
						t.Fatalf("%s, conditioning off=%v, window %d, channel %d: flat %v, two-pass %v", r.name, off, windows, c, got.flat, want.flat)
					}
					for i, p := range [][2]float64{
						{got.variance, want.variance}, {got.lineLength, want.lineLength},
						{got.mobility, want.mobility}, {got.complexity, want.complexity},
						{got.teager, want.teager}, {got.crossings, want.crossings}, {got.maxStep, want.maxStep},
					} {
						worst[i] = max(worst[i], relErr(p[0], p[1]))
					}
				}
			}
			t.Logf("%s, conditioning off=%v, %d windows: largest relative error: variance %.1e, line length %.1e, mobility %.1e, complexity %.1e, Teager %.1e, crossings %.1e, max step %.1e",
				r.name, off, windows, worst[0], worst[1], worst[2], worst[3], worst[4], worst[5], worst[6])
			for i, v := range worst {
				if v > tol {
					t.Errorf("%s, conditioning off=%v: feature %d's relative error %.2e > %g", r.name, off, i, v, tol)
				}
			}
		}
	}
}

// TestVectorReusesHalfWindowExactly checks that a window whose older half
// comes from the last window's sums (windows overlapping by half, Vector
// at every one) has the same bits as one computed from scratch (Vector
// at every third window only, so no half is reused), with and without
// conditioning, and with a step that is not half the window.
func TestVectorReusesHalfWindowExactly(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"2 s every 1 s at 256 Hz", Config{Channels: 3, Rate: 256}},
		{"2 s every 1 s at 256 Hz, conditioning off", Config{Channels: 3, Rate: 256, Conditioning: Conditioning{Off: true}}},
		{"2 s every 0.5 s at 250 Hz", Config{Channels: 2, Rate: 250, Step: 500e6}},
		{"2 s every 1 s at 173.61 Hz (odd window)", Config{Channels: 1, Rate: bonnRate}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			every, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			third, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			frame := make([]float64, tt.cfg.Channels)
			x, y := make([]float64, every.Dim()), make([]float64, third.Dim())
			compared := 0
			for k := 0; k < 20*every.Window(); k++ {
				eegFrame(frame, k, tt.cfg.Rate)
				frame[0] += float64(k%7) - 3 // not a sum of tones only
				ready := every.Push(frame)
				if third.Push(frame) != ready {
					t.Fatal("windows complete at different frames")
				}
				if !ready {
					continue
				}
				every.Vector(x)
				if every.windows%3 == 0 {
					third.Vector(y)
					compared++
					for i := range x {
						if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
							t.Fatalf("window %d, %s: %v reusing a half, %v from scratch", every.windows, every.names[i], x[i], y[i])
						}
					}
				}
			}
			if compared < 5 {
				t.Fatalf("compared %d windows", compared)
			}
		})
	}
}
