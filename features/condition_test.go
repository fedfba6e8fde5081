package features

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// scipyChain250 is the magnitude response of the default chain at 250 Hz —
// 2nd-order Butterworth high-pass at 0.5 Hz, 4th-order Butterworth
// low-pass at 70 Hz, notches 3 Hz wide at 50, 100, 60 and 120 Hz, with
// two sections at 50 and 60 Hz —
// computed independently with SciPy 1.10.1 (Debian's python3-scipy):
//
//	hp = signal.butter(2, 0.5, 'highpass', fs=250, output='sos')
//	lp = signal.butter(4, 70, 'lowpass', fs=250, output='sos')
//	ns = [signal.iirnotch(f, f/3.0, fs=250) for f in (50, 100, 60, 120)]
//	|H(f)| = |sosfreqz(hp)| · |sosfreqz(lp)| · Π |freqz(b, a)|^k at f,
//	k = 2 for 50 and 60 Hz, 1 for 100 and 120 Hz
var scipyChain250 = []struct{ f, mag float64 }{
	{0.1, 0.03996702886},
	{0.5, 0.7071062233},
	{1, 0.9701439428},
	{2, 0.9980414846},
	{10, 0.9996621751},
	{30, 0.9944221837},
	{47, 0.7906636301},
	{48.5, 0.4918362089},
	{49.85, 0.009616596833},
	{50, 0},
	{50.15, 0.009575479591},
	{51.5, 0.4765779467},
	{53, 0.7499581561},
	{57, 0.7375866842},
	{58.5, 0.4620938003},
	{59.85, 0.009079715937},
	{59.93, 0.001991412937}, // where the Cyton recording's hum is
	{60, 0},
	{60.15, 0.009055585357},
	{61.5, 0.4511139449},
	{63, 0.7063554883},
	{69, 0.7161428692},
	{70, 0.6861528459},
	{90, 0.1020388006},
	{99.7, 0.004843687074},
	{100, 0},
	{119.7, 8.056039724e-06},
	{120, 0},
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
	if got, want := k.notches, []float64{50, 100, 60, 120}; !equalFloats(got, want) {
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
		{"default at 250 Hz", Conditioning{}, 250, "", "notch [50 100 60 120] Hz"},
		{"default at 173.61 Hz (Bonn)", Conditioning{}, 173.61, "", "notch [50 60] Hz"},
		{"default at 125 Hz lowers the low-pass", Conditioning{}, 125, "", "lowpass 56.25 Hz"},
		{"60 Hz only", Conditioning{Mains: "60"}, 512, "", "notch [60 120 180 240] Hz"},
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
	if s := (Conditioning{}).String(); s != "highpass 0.5 Hz, lowpass 70 Hz, mains both" {
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
// (high-pass, four notches, two low-pass sections) on a 23-channel frame,
// reported per sample.
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
