package features

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// scipyChain250 is the magnitude response of the default chain at 250 Hz —
// 2nd-order Butterworth high-pass at 0.5 Hz, 4th-order Butterworth
// low-pass at 70 Hz, two notch sections 3 Hz wide at 50 Hz and two at
// 60 Hz (the harmonics, 100 and 120 Hz, are left to the low-pass: see
// HarmonicRejection) — computed independently with SciPy 1.10.1 (Debian's
// python3-scipy):
//
//	hp = signal.butter(2, 0.5, 'highpass', fs=250, output='sos')
//	lp = signal.butter(4, 70, 'lowpass', fs=250, output='sos')
//	ns = [signal.iirnotch(f, f/3.0, fs=250) for f in (50, 60)]
//	|H(f)| = |sosfreqz(hp)| · |sosfreqz(lp)| · Π |freqz(b, a)|² at f
var scipyChain250 = []struct{ f, mag float64 }{
	{0.1, 0.03996702896},
	{0.5, 0.7071062676},
	{1, 0.9701441859},
	{2, 0.9980424852},
	{10, 0.9996875312},
	{30, 0.9946742054},
	{47, 0.7912598841},
	{48.5, 0.4922403565},
	{49.85, 0.009625128205},
	{50, 0},
	{50.15, 0.00958411979},
	{51.5, 0.4770419659},
	{53, 0.7507524715},
	{57, 0.7385639255},
	{58.5, 0.4627598502},
	{59.85, 0.009093839352},
	{59.93, 0.001994524624}, // where the Cyton recording's hum is
	{60, 0},
	{60.15, 0.00906991267},
	{61.5, 0.4518846692},
	{63, 0.707670892},
	{69, 0.7180504123},
	{70, 0.6880984677},
	{90, 0.1038386823},
	{99.7, 0.02500798297},
	{100, 0.0237649314},
	{119.7, 4.225759139e-05},
	{120, 3.345029672e-05},
}

func newCond(t testing.TB, c Conditioning, fs float64, channels int) *conditioner {
	t.Helper()
	k, err := newConditioner(c, fs, channels)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestConditioningMagnitudeMatchesSciPy(t *testing.T) {
	k := newCond(t, Conditioning{}, 250, 1)
	if got, want := k.notches, []float64{50, 60}; !equalFloats(got, want) {
		t.Fatalf("notches %v, want %v", got, want)
	}
	for _, tt := range scipyChain250 {
		h := complex(1, 0)
		for _, q := range k.stages {
			h *= q.response(tt.f, 250)
		}
		if got := abs(h); math.Abs(got-tt.mag) > 1e-7 {
			t.Errorf("|H(%g Hz)| = %.10g, SciPy gives %.10g", tt.f, got, tt.mag)
		}
	}
}

// TestMainsRejection proves the guarantee MainsRejection and
// HarmonicRejection state: with the default low-pass (or a lower one), at
// every rate, the chain attenuates each mains frequency by at least
// MainsRejection and each harmonic below 0.49 × rate by at least
// HarmonicRejection, everywhere within ±MainsTolerance (checked on a grid
// ten times finer than the one the design uses). It also pins how many
// sections that takes, and checks that every section has b2 = b0, which
// the filter loops rely on.
func TestMainsRejection(t *testing.T) {
	tests := []struct {
		rate     float64
		c        Conditioning
		sections int // -1: not pinned
	}{
		{128, Conditioning{}, 7}, // low-pass lowered to 57.6 Hz
		{173.61, Conditioning{}, 7},
		{200, Conditioning{}, 7},
		{250, Conditioning{}, 7},
		{256, Conditioning{}, 7}, // was 9: notches at 100 and 120 Hz too
		{300, Conditioning{}, 8},
		{500, Conditioning{}, 9},
		{512, Conditioning{}, 9}, // was 14: every harmonic up to 250 Hz
		{1000, Conditioning{}, 9},
		{1024, Conditioning{}, 9},
		{2048, Conditioning{}, 9},
		{4096, Conditioning{}, 9},
		{512, Conditioning{Mains: "50"}, 6},
		{512, Conditioning{Mains: "60"}, 6},
		{1000, Conditioning{Mains: "50"}, 6},
		{512, Conditioning{LowPass: 40}, 7},
		{256, Conditioning{HighPass: -1}, 6},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%g Hz %+v", tt.rate, tt.c), func(t *testing.T) {
			k := newCond(t, tt.c, tt.rate, 1)
			if tt.sections >= 0 && len(k.stages) != tt.sections {
				t.Errorf("%d sections (notches %v), want %d", len(k.stages), k.notches, tt.sections)
			}
			for i, q := range k.stages {
				if q.b2 != q.b0 {
					t.Errorf("section %d: b2 = %g, b0 = %g: the filter loops take b0·x for b2·x", i, q.b2, q.b0)
				}
			}
			mains := []float64{50, 60}
			switch tt.c.Mains {
			case "50":
				mains = mains[:1]
			case "60":
				mains = mains[1:]
			}
			for _, m := range mains {
				for h := m; h < 0.49*tt.rate; h += m {
					want := HarmonicRejection
					if h == m {
						want = MainsRejection
					}
					least := math.Inf(1)
					for i := -200; i <= 200; i++ {
						f := h * (1 + MainsTolerance*float64(i)/200)
						g := complex(1, 0)
						for _, q := range k.stages {
							g *= q.response(f, tt.rate)
						}
						least = math.Min(least, -20*math.Log10(abs(g)))
					}
					if least < want {
						t.Errorf("%g Hz ± %g %%: attenuated by %.2f dB, want at least %g", h, 100*MainsTolerance, least, want)
					}
				}
			}
		})
	}
}

// TestHarmonicsThroughTheLoop runs the hum the guarantee is about through
// the filter loop itself: a 100 Hz harmonic 0.25 % off (as the Cyton's
// hum is 0.12 % off 60 Hz) at 256 Hz, with no notch of its own, and the
// fundamental as far off, leave no more than HarmonicRejection and
// MainsRejection allow.
func TestHarmonicsThroughTheLoop(t *testing.T) {
	const fs = 256
	for _, tt := range []struct {
		f, want float64 // Hz, dB
	}{
		{50 * (1 - MainsTolerance), MainsRejection},
		{60 * (1 + MainsTolerance), MainsRejection},
		{100 * (1 - MainsTolerance), HarmonicRejection},
		{100 * (1 + MainsTolerance), HarmonicRejection},
		{120 * (1 - MainsTolerance), HarmonicRejection},
	} {
		k := newCond(t, Conditioning{}, fs, 1)
		peak := 0.0
		for i := 0; i < 40*fs; i++ {
			y := filter1(k, 100*math.Sin(2*math.Pi*tt.f*float64(i)/fs))
			if i >= 30*fs {
				peak = math.Max(peak, math.Abs(y))
			}
		}
		if limit := 100 * math.Pow(10, -tt.want/20); peak > limit {
			t.Errorf("%.3f Hz sine of 100 µV comes out at %.3f µV, want at most %.3f (%g dB down)", tt.f, peak, limit, tt.want)
		}
	}
}

// TestFilterLoopsBits: the loops (up to three sections per pass, b0·x
// standing in for b2·x; on amd64 also the AVX loop, four channels at a
// time, on a copy or in place beside padding lanes of NaN) give the same bits as the textbook transposed direct form II with
// all five products, one section at a time, for chains of every length
// from 1 to 9 sections (every grouping into passes), on channel counts
// that fill the vector loop's groups of four and that leave 1, 2 or 3
// lanes of padding.
func TestFilterLoopsBits(t *testing.T) {
	chains := []struct {
		c    Conditioning
		rate float64
	}{
		{Conditioning{LowPass: -1, Mains: "off"}, 256},              // 1: high-pass
		{Conditioning{HighPass: -1, Mains: "off"}, 256},             // 2: low-pass
		{Conditioning{Mains: "off"}, 256},                           // 3
		{Conditioning{HighPass: -1, LowPass: -1, Mains: "50"}, 256}, // 2 + 100 Hz
		{Conditioning{HighPass: -1, Mains: "50"}, 256},              // 4
		{Conditioning{Mains: "50"}, 256},                            // 5
		{Conditioning{HighPass: -1}, 256},                           // 6
		{Conditioning{}, 256},                                       // 7
		{Conditioning{}, 300},                                       // 8
		{Conditioning{}, 512},                                       // 9
		{Conditioning{LowPass: -1}, 512},                            // 12
	}
	loops := []struct {
		name string
		run  func(k *conditioner, x []float64)
	}{
		{"frame", func(k *conditioner, x []float64) { k.frame(x, allTrue(len(x)), false) }},
		{"frame in place, NaN padding", func(k *conditioner, x []float64) {
			// The Extractor's frame: capacity padded, the padding
			// lanes holding anything at all.
			p := make([]float64, paddedChannels(len(x)))
			for i := len(x); i < len(p); i++ {
				p[i] = math.NaN()
			}
			copy(p, x)
			k.frame(p[:len(x)], allTrue(len(x)), false)
			copy(x, p)
		}},
		{"filterGo", func(k *conditioner, x []float64) { k.filterGo(x) }},
	}
	seen := map[int]bool{}
	for _, loop := range loops {
		for _, channels := range []int{1, 4, 5, 23} {
			for _, tt := range chains {
				k := newCond(t, tt.c, tt.rate, channels)
				seen[len(k.stages)] = true
				if name, bits := textbookBits(k, channels, loop.run); name != "" {
					t.Fatalf("%s, %v, %d channels, %d sections: %s", loop.name, tt.c, channels, len(k.stages), bits)
				}
			}
		}
	}
	for n := 1; n <= 9; n++ {
		if !seen[n] {
			t.Errorf("no chain of %d sections tested", n)
		}
	}
}

// allTrue returns n true values.
func allTrue(n int) []bool {
	ok := make([]bool, n)
	for i := range ok {
		ok[i] = true
	}
	return ok
}

// textbookBits feeds 2000 frames of a deterministic signal (amplitudes
// from a few µV to 10⁵ µV) through run after priming k's state with
// the first, and filters the same frames by the textbook form from the
// primed state. It returns "" when every output has the textbook's bits,
// else where the first differs and both values.
func textbookBits(k *conditioner, channels int, run func(*conditioner, []float64)) (where, values string) {
	n := len(k.stages)
	s1, s2 := make([]float64, n*channels), make([]float64, n*channels)
	x := make([]float64, channels)
	for i := 0; i < 2000; i++ {
		for ch := range x {
			scale := math.Pow(10, float64(ch%6)) // µV to 10⁵ µV
			x[ch] = scale * (50*math.Sin(float64(i*(ch+3))/11) + float64((i*7919+ch*104729)%997) - 498)
		}
		want := slices.Clone(x)
		if i == 0 {
			k.frame(x, allTrue(channels), false) // primes the state
			for j := range n {
				copy(s1[j*channels:(j+1)*channels], k.s1[j*k.stride:])
				copy(s2[j*channels:(j+1)*channels], k.s2[j*k.stride:])
			}
			continue
		}
		for ch := range want {
			v := want[ch]
			for j, q := range k.stages {
				a, b := &s1[j*channels+ch], &s2[j*channels+ch]
				y := float64(q.b0*v) + *a
				*a = float64(q.b1*v) - float64(q.a1*y) + *b
				*b = float64(q.b2*v) - float64(q.a2*y)
				v = y
			}
			want[ch] = v
		}
		run(k, x)
		for ch := range x {
			if math.Float64bits(x[ch]) != math.Float64bits(want[ch]) {
				return fmt.Sprintf("frame %d, channel %d", i, ch), fmt.Sprintf("%v, textbook form %v", x[ch], want[ch])
			}
		}
	}
	return "", ""
}

// TestConditioningFiltersSines runs sines through the filter loop itself
// (not the coefficients' response) and checks the steady-state amplitude
// against the same independent values.
func TestConditioningFiltersSines(t *testing.T) {
	const fs = 250
	for _, tt := range scipyChain250 {
		if tt.f < 1 {
			continue // settling at 0.1–0.5 Hz takes minutes of signal
		}
		k := newCond(t, Conditioning{}, fs, 1)
		peak := 0.0
		for i := 0; i < 60*fs; i++ {
			y := filter1(k, 100*math.Sin(2*math.Pi*tt.f*float64(i)/fs))
			if i >= 50*fs { // after 50 s: every transient has decayed
				peak = math.Max(peak, math.Abs(y))
			}
		}
		// The peak of a sampled sine undershoots its amplitude by at most
		// 1 − cos(π f/fs).
		want := 100 * tt.mag
		if tol := 100*tt.mag*(1-math.Cos(math.Pi*tt.f/fs)) + 1e-3; math.Abs(peak-want) > tol+0.01*want {
			t.Errorf("%g Hz sine of 100 µV comes out at %.4f µV, want %.4f", tt.f, peak, want)
		}
	}
}

// pushPeak pushes frame into e n times and returns the largest magnitude
// then in its ring.
func pushPeak(e *Extractor, frame []float64, n int) float64 {
	worst := 0.0
	for range n {
		e.Push(frame)
	}
	for _, v := range e.ring {
		worst = math.Max(worst, math.Abs(v))
	}
	return worst
}

// TestConditioningStartsWithoutTransient: a Cyton's channels start at a
// DC offset of tens of millivolts. With the state primed from the first
// sample, a 60 mV offset gives no output at all; an unprimed high-pass
// (zero state) would start with a 60 mV step decaying over seconds, and
// every window of the first few would be nothing but that.
func TestConditioningStartsWithoutTransient(t *testing.T) {
	const fs, offset = 250.0, 60000.0 // µV
	e, err := New(Config{Channels: 2, Rate: fs})
	if err != nil {
		t.Fatal(err)
	}
	if worst := pushPeak(e, []float64{offset, -offset}, 4*fs); worst > 1e-6 {
		t.Fatalf("a constant 60 mV input gives up to %g µV after conditioning, want ~0", worst)
	}

	// The same step into zero state, to show what priming prevents.
	k := newCond(t, Conditioning{}, fs, 1)
	k.primed[0] = true // state left at zero
	unprimed := 0.0
	for i := 0; i < 2*fs; i++ {
		unprimed = math.Max(unprimed, math.Abs(filter1(k, offset)))
	}
	if unprimed < 1000 {
		t.Fatalf("unprimed filter peaks at %g µV on a 60 mV step; the test no longer shows what priming prevents", unprimed)
	}

	// After a gap (Reset) the offset may differ: the filters prime again.
	e.Reset()
	if worst := pushPeak(e, []float64{offset + 5000, -offset - 5000}, 2*fs); worst > 1e-6 {
		t.Fatalf("after Reset, a new 65 mV offset gives up to %g µV, want ~0", worst)
	}

	// A real step within the recording does go through (and decays).
	k = newCond(t, Conditioning{}, fs, 1)
	filter1(k, 0)
	edge := 0.0
	for i := 0; i < 10; i++ {
		edge = math.Max(edge, filter1(k, offset))
	}
	if edge < 0.5*offset {
		t.Fatalf("a 60 mV step inside the recording peaks at %g µV: the high-pass must pass a step's edge", edge)
	}
}

// TestConditioningInvalidSamplesHold: a NaN must not reach the filters'
// state, or every later sample of the channel would be NaN.
func TestConditioningInvalidSamplesHold(t *testing.T) {
	e, err := New(Config{Channels: 1, Rate: 256})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, e.Dim())
	for i := 0; i < 5*256; i++ {
		v := 20 * math.Sin(float64(i)/10)
		if i == 300 {
			v = math.NaN()
		}
		if e.Push([]float64{v}) {
			for j, f := range e.Vector(x) {
				if math.IsNaN(f) || math.IsInf(f, 0) {
					t.Fatalf("frame %d: feature %d is %g", i, j, f)
				}
			}
		}
	}
	if e.Invalid() != 0 {
		t.Fatalf("Invalid = %d after the bad sample left the window", e.Invalid())
	}
}

func TestConditioningConfig(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    Conditioning
		rate float64
		want string // error substring, "" for none
		desc string // description substring
	}{
		{"default at 250 Hz", Conditioning{}, 250, "", "notch [50 60] Hz"},
		{"default at 512 Hz", Conditioning{}, 512, "", "notch [50 100 60 120] Hz"},
		{"default at 1024 Hz", Conditioning{}, 1024, "", "notch [50 100 60 120] Hz"},
		{"no low-pass: every harmonic", Conditioning{LowPass: -1}, 256, "", "notch [50 100 60 120] Hz"},
		{"default at 173.61 Hz (Bonn)", Conditioning{}, 173.61, "", "notch [50 60] Hz"},
		{"default at 125 Hz lowers the low-pass", Conditioning{}, 125, "", "lowpass 56.25 Hz"},
		{"60 Hz only", Conditioning{Mains: "60"}, 512, "", "notch [60 120] Hz"},
		{"no filters at all", Conditioning{HighPass: -1, LowPass: -1, Mains: "off"}, 256, "", "none"},
		{"bad mains", Conditioning{Mains: "55"}, 256, `Conditioning.Mains "55"`, ""},
		{"low-pass above Nyquist", Conditioning{LowPass: 200}, 256, "Conditioning.LowPass 200 Hz", ""},
		{"low-pass below high-pass", Conditioning{HighPass: 5, LowPass: 4}, 256, "not above the high-pass", ""},
		{"NaN high-pass", Conditioning{HighPass: math.NaN()}, 256, "Conditioning.HighPass NaN", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(Config{Channels: 1, Rate: tt.rate, Conditioning: tt.c})
			if tt.want != "" {
				var ce *ConfigError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err = %v, want a ConfigError containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(e.Conditioning(), tt.desc) {
				t.Fatalf("Conditioning() = %q, want it to contain %q", e.Conditioning(), tt.desc)
			}
		})
	}
	if s := (Conditioning{Off: true}).String(); s != "off" {
		t.Fatalf("String of Off = %q", s)
	}
	if s := (Conditioning{}).String(); s != "highpass 0.5 Hz, lowpass 70 Hz, mains both, harmonics 25 dB" {
		t.Fatalf("String of the default = %q", s)
	}
}

func TestConditioningAllocatesNothing(t *testing.T) {
	e, err := New(Config{Channels: 8, Rate: 250})
	if err != nil {
		t.Fatal(err)
	}
	frame := make([]float64, 8)
	i := 0
	if n := testing.AllocsPerRun(1000, func() {
		for c := range frame {
			frame[c] = 30000 + 50*math.Sin(float64(i+c)/7)
		}
		i++
		e.Push(frame)
	}); n != 0 {
		t.Fatalf("Push with conditioning allocates %v times per frame", n)
	}
}

// filter1 passes one sample through a one-channel conditioner.
func filter1(k *conditioner, v float64) float64 {
	x, ok := []float64{v}, []bool{true}
	k.frame(x, ok, false)
	return x[0]
}

// BenchmarkCondition is the cost of the default chain at 256 Hz
// (high-pass, four notch sections at 50 and 60 Hz, two low-pass sections)
// on a 23-channel frame, reported per sample.
func BenchmarkCondition(b *testing.B) {
	const channels = 23
	k := newCond(b, Conditioning{}, 256, channels)
	x, ok := make([]float64, channels), make([]bool, channels)
	for c := range ok {
		ok[c] = true
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for c := range x {
			x[c] += float64((i + c) & 1023)
		}
		k.frame(x, ok, false)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/channels, "ns/sample")
	b.ReportMetric(float64(len(k.stages)), "sections")
}

func abs(z complex128) float64 { return math.Hypot(real(z), imag(z)) }

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestConditionedIsWhatTheWindowHolds: Conditioned returns each frame as
// the extractor stores it: DC offset and 50 Hz hum removed, a 10 Hz
// rhythm kept, an invalid sample 0.
func TestConditionedIsWhatTheWindowHolds(t *testing.T) {
	const fs = 250.0
	e, err := New(Config{Channels: 2, Rate: fs, Conditioning: Conditioning{Mains: "50"}})
	if err != nil {
		t.Fatal(err)
	}
	peak := 0.0
	for i := 0; i < 20*fs; i++ {
		ti := float64(i) / fs
		e.Push([]float64{30000 + 200*math.Sin(2*math.Pi*50*ti) + 40*math.Sin(2*math.Pi*10*ti), math.NaN()})
		y := e.Conditioned()
		if y[1] != 0 {
			t.Fatalf("frame %d: invalid sample conditioned to %g, want 0", i, y[1])
		}
		if i >= 10*fs {
			peak = math.Max(peak, math.Abs(y[0]))
		}
	}
	if peak < 38 || peak > 42 {
		t.Errorf("30 mV offset + 200 µV of 50 Hz + 40 µV of 10 Hz conditioned to a peak of %.2f µV, want about 40", peak)
	}
}

// TestMainsAboveNyquist: at the slow rates of ambulatory and older
// clinical recorders (100 Hz: Sleep-EDF) a mains frequency lies at or
// above the Nyquist frequency. Its notch goes where the hum lands, the
// alias (60 Hz at 100 Hz lands at 40 Hz), or is the first-order notch at
// Nyquist (50 Hz at 100 Hz, 60 Hz at 120 Hz), whose second-order design
// has a pole on the unit circle. Before, detmath's cosine of an angle
// beyond π gave NaN coefficients below 120 Hz, and every conditioned
// sample, so every feature and score, was NaN: the detector was blind
// there and nothing said so.
func TestMainsAboveNyquist(t *testing.T) {
	for _, rate := range []float64{100, 101, 110, 119, 120, 125, 128} {
		t.Run(fmt.Sprintf("%g Hz", rate), func(t *testing.T) {
			k := newCond(t, Conditioning{}, rate, 1)
			for i, q := range k.stages {
				if !finite(q.b0) || !finite(q.b1) || !finite(q.a1) || !finite(q.a2) {
					t.Fatalf("section %d: %+v", i, q)
				}
				if !(math.Abs(q.a2) < 1 && math.Abs(q.a1) < 1+q.a2) {
					t.Errorf("section %d %+v: a pole on or outside the unit circle", i, q)
				}
				if q.b2 != q.b0 {
					t.Errorf("section %d: b2 = %g, b0 = %g: the filter loops take b0·x for b2·x", i, q.b2, q.b0)
				}
			}
			for _, m := range []float64{50, 60} {
				a := alias(m, rate)
				least := math.Inf(1)
				for i := -200; i <= 200; i++ {
					f := min(a*(1+MainsTolerance*float64(i)/200), rate/2)
					g := complex(1, 0)
					for _, q := range k.stages {
						g *= q.response(f, rate)
					}
					least = math.Min(least, -20*math.Log10(abs(g)))
				}
				if least < MainsRejection {
					t.Errorf("%g Hz mains, at %g Hz: attenuated by %.2f dB, want at least %g", m, a, least, MainsRejection)
				}
			}
			// Through the filter loop: ten minutes of hum and noise stay
			// finite and the hum is gone.
			rng := rand.New(rand.NewPCG(1, 2))
			peak := 0.0
			for i := 0; i < int(600*rate); i++ {
				tt := float64(i) / rate
				x := 50*math.Sin(2*math.Pi*50*tt) + 50*math.Sin(2*math.Pi*60*tt+1) + 10*math.Sin(2*math.Pi*10*tt) + rng.NormFloat64()
				y := filter1(k, x)
				if !finite(y) {
					t.Fatalf("sample %d: %v", i, y)
				}
				if i > int(590*rate) {
					peak = math.Max(peak, math.Abs(y))
				}
			}
			if peak > 20 {
				t.Errorf("a 10 µV 10 Hz sine under 50 µV of each hum comes out peaking at %.1f µV", peak)
			}
		})
	}
}
