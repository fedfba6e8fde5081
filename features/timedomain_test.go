package features

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
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

// laneInputs returns inputs of n samples for TestTimeLanesBits, by name:
// EEG-like, huge (squares near 1e300), tiny (squares subnormal or 0),
// subnormal, signed zeros, constant (every y = +0 after the mean),
// alternating signs, around a level by the smallest steps, and
// magnitudes from 1e-300 to 1e150 mixed.
func laneInputs(n int, r *rand.Rand) []laneInput {
	gens := []struct {
		name string
		gen  func(i int) float64
	}{
		{"EEG", func(int) float64 { return 100 * r.NormFloat64() }},
		{"huge", func(int) float64 { return 1e150 * r.NormFloat64() }},
		{"tiny", func(int) float64 { return 1e-160 * r.NormFloat64() }},
		{"subnormal", func(int) float64 { return float64(r.IntN(9)-4) * math.SmallestNonzeroFloat64 }},
		{"signed zero", func(int) float64 { return math.Copysign(0, float64(r.IntN(2))-0.5) }},
		{"constant", func(int) float64 { return 0.5 }},
		{"alternating", func(i int) float64 { return float64(1-2*(i&1)) * (1 + r.Float64()) }},
		{"around 3", func(int) float64 { return math.Nextafter(3, float64(r.IntN(3))+2) }},
		{"mixed", func(int) float64 { return r.NormFloat64() * math.Pow(10, float64(r.IntN(451)-300)) }},
	}
	in := make([]laneInput, len(gens))
	for k, g := range gens {
		in[k] = laneInput{g.name, make([]float64, n)}
		for i := range in[k].x {
			in[k].x[i] = g.gen(i)
		}
	}
	return in
}

// laneInput is a named input of TestTimeLanesBits.
type laneInput struct {
	name string
	x    []float64
}

// textbookLanes computes sumLanes' lanes of x as documented, one lane
// at a time: lane j takes the terms i ≡ j (mod 4) in increasing i,
// starting from the terms of i = 0 and 1, else from 0.
func textbookLanes(x []float64) sumLanes {
	var l sumLanes
	for j := range 4 {
		for i := j; i < len(x); i += 4 {
			if i < 2 {
				l.sum[j] = x[i]
			} else {
				l.sum[j] += x[i]
			}
			if i < 1 {
				continue
			}
			d := x[i] - x[i-1]
			if i == 1 {
				l.absDiff[j], l.maxStep[j], l.diffSq[j] = math.Abs(d), math.Abs(d), float64(d*d)
				continue
			}
			l.absDiff[j] += math.Abs(d)
			l.maxStep[j] = max(l.maxStep[j], math.Abs(d))
			l.diffSq[j] += float64(d * d)
			dd := d - (x[i-1] - x[i-2])
			l.diff2Sq[j] += float64(dd * dd)
			l.teager[j] += float64(x[i-1]*x[i-1]) - float64(x[i-2]*x[i])
		}
	}
	return l
}

// sameBits says whether a and b hold the same bits.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
}

// lanesDiffer returns which of the lanes' fields differ in some bit
// between got and want, "" if none.
func lanesDiffer(got, want *sumLanes) string {
	g := [][4]float64{got.sum, got.absDiff, got.maxStep, got.diffSq, got.diff2Sq, got.teager}
	w := [][4]float64{want.sum, want.absDiff, want.maxStep, want.diffSq, want.diff2Sq, want.teager}
	for k, name := range []string{"sum", "absDiff", "maxStep", "diffSq", "diff2Sq", "teager"} {
		if !sameBits(g[k][:], w[k][:]) {
			return fmt.Sprintf("%s: %v, want %v", name, g[k], w[k])
		}
	}
	return ""
}

// TestTimeLanesBits checks that the time-domain sums and computeTime's
// pass have, lane by lane, the bits of their definition: blockSums.of's
// lanes those computed one lane at a time as sumLanes documents and
// those of the Go loop (sumLanes.addGo); centre's (the AVX loop on
// amd64) those of centreGo, and its crossings and output, with the
// window's mean, 0, and a mean equal to a sample. Every length from 2 to
// 300 and some up to 4097, at an even and an odd offset in memory, on
// every input of laneInputs.
func TestTimeLanesBits(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 4))
	lengths := []int{347, 512, 513, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 3001, 4097}
	for n := 300; n >= 2; n-- {
		lengths = append(lengths, n)
	}
	hann := make([]float64, 4097)
	for i := range hann {
		hann[i] = r.Float64()
	}
	buf := make([]float64, 4098)
	want, got := make([]float64, 4097), make([]float64, 4097)
	for _, n := range lengths {
		for _, in := range laneInputs(n, r) {
			for off := range 2 {
				x := buf[off : off+n]
				copy(x, in.x)
				where := fmt.Sprintf("%s, n = %d, offset %d", in.name, n, off)

				tb := textbookLanes(x)
				var s blockSums
				s.of(x)
				if math.Float64bits(s.sum) != math.Float64bits(fold(&tb.sum)) {
					t.Fatalf("%s: blockSums.of's sum %v, lanes folded %v", where, s.sum, fold(&tb.sum))
				}
				var lGo, lAny sumLanes
				for _, l := range []*sumLanes{&lGo, &lAny} {
					d := x[1] - x[0]
					l.sum[0], l.sum[1] = x[0], x[1]
					l.absDiff[1], l.maxStep[1], l.diffSq[1] = math.Abs(d), math.Abs(d), float64(d*d)
				}
				lGo.addGo(x, 2)
				lAny.add(x)
				if diff := lanesDiffer(&lGo, &tb); diff != "" {
					t.Fatalf("%s: addGo's lanes differ from the layout's, %s", where, diff)
				}
				if diff := lanesDiffer(&lAny, &lGo); diff != "" {
					t.Fatalf("%s: add's lanes differ from addGo's, %s", where, diff)
				}

				for _, mean := range []float64{s.sum / float64(n), 0, x[n/2]} {
					var sqGo, sqAny [4]float64
					cGo := centreGo(&sqGo, x, hann[:n], want[:n], mean, 0)
					cAny := centre(&sqAny, x, hann[:n], got[:n], mean)
					crossings := 0
					for i := 1; i < n; i++ {
						if (x[i]-mean >= 0) != (x[i-1]-mean >= 0) {
							crossings++
						}
					}
					if cGo != crossings || cAny != crossings {
						t.Fatalf("%s, mean %v: centreGo counts %d crossings, centre %d, want %d", where, mean, cGo, cAny, crossings)
					}
					if !sameBits(sqAny[:], sqGo[:]) || !sameBits(got[:n], want[:n]) {
						t.Fatalf("%s, mean %v: centre's sums of squares %v, centreGo's %v (or their outputs differ)", where, mean, sqAny, sqGo)
					}
				}
			}
		}
	}
}
