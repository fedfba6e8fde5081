package features

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// readyFrames pushes frames frames and returns the 1-based frame counts at
// which Push reported a complete window.
func readyFrames(e *Extractor, channels, frames int) []int {
	var got []int
	frame := make([]float64, channels)
	for k := 1; k <= frames; k++ {
		frame[0] = float64(k)
		if e.Push(frame) {
			got = append(got, k)
		}
	}
	return got
}

func TestWindowsCompleteAfterWindowThenEveryStep(t *testing.T) {
	tests := []struct {
		name   string
		cfg    Config
		frames int
		want   []int
	}{
		{"defaults at 256 Hz: 2 s then every 1 s", Config{Channels: 2, Rate: 256}, 1300, []int{512, 768, 1024, 1280}},
		{"step equal to window: no overlap", Config{Channels: 1, Rate: 256, Step: 2 * time.Second}, 1600, []int{512, 1024, 1536}},
		{"step longer than window: gaps", Config{Channels: 1, Rate: 256, Window: time.Second, Step: 3 * time.Second}, 2000, []int{256, 1024, 1792}},
		{"quarter-second step at 250 Hz", Config{Channels: 1, Rate: 250, Step: 250 * time.Millisecond}, 700, []int{500, 563, 625, 688}}, // 62.5 rounds up
		// 2 s at 173.61 Hz is 347.22 samples, rounded to 347; steps of
		// 173.61 samples are rounded from the start, so they do not drift:
		// 347+174, 347+347, 347+521, 347+694.
		{"Bonn rate 173.61 Hz: no drift", Config{Channels: 1, Rate: 173.61}, 1100, []int{347, 521, 694, 868, 1041}},
		{"fewer frames than a window", Config{Channels: 1, Rate: 256}, 511, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := readyFrames(e, tt.cfg.Channels, tt.frames); !slices.Equal(got, tt.want) {
				t.Errorf("windows completed at frames %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStepsDoNotDriftOverAnHour(t *testing.T) {
	e, err := New(Config{Channels: 1, Rate: 173.61})
	if err != nil {
		t.Fatal(err)
	}
	frames := int(math.Round(3600 * 173.61))
	got := readyFrames(e, 1, frames)
	// Window k ends at 347 + round(173.61·k): after an hour the last one
	// is within half a sample of where exact time puts it.
	last := got[len(got)-1]
	k := len(got) - 1
	if want := 347 + int(math.Round(173.61*float64(k))); last != want {
		t.Errorf("window %d ended at frame %d, want %d", k, last, want)
	}
	if k != 3598 {
		t.Errorf("%d steps in an hour after the first window, want 3598", k)
	}
}

func TestResetStartsOver(t *testing.T) {
	e, err := New(Config{Channels: 1, Rate: 256})
	if err != nil {
		t.Fatal(err)
	}
	readyFrames(e, 1, 700)
	e.Reset()
	if got := readyFrames(e, 1, 800); !slices.Equal(got, []int{512, 768}) {
		t.Errorf("after Reset windows completed at %v, want [512 768]", got)
	}
}

func TestVectorDescribesTheLastWindowOnly(t *testing.T) {
	// A 10 Hz burst followed by 2 s of 2 Hz: after the 2 Hz part fills a
	// window, nothing of the burst may remain, even though the ring has
	// wrapped around. (Conditioning off: a filter's memory of the burst
	// is the filter's business, tested in condition_test.go.)
	e, err := New(Config{Channels: 1, Rate: 256, Conditioning: Conditioning{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	frame := make([]float64, 1)
	k := 0
	push := func(s signal, frames int) {
		for i := 0; i < frames; i++ {
			frame[0] = s(float64(k) / 256)
			e.Push(frame)
			k++
		}
	}
	push(sine(100, 10), 700)
	push(sine(20, 2), 512)
	x := e.Vector(make([]float64, e.Dim()))
	if x[DeltaRel] < 0.95 {
		t.Errorf("delta_rel = %.4f, want > 0.95: the window still holds the 10 Hz burst", x[DeltaRel])
	}
	if got, want := unlog(x[RMS], AmplitudeFloor), 20/math.Sqrt2; math.Abs(got-want) > 1e-9*want {
		t.Errorf("rms = %v, want %v", got, want)
	}
}

func TestInvalidSamplesAreZeroedAndCounted(t *testing.T) {
	e, err := New(Config{Channels: 3, Rate: 256, Summaries: true})
	if err != nil {
		t.Fatal(err)
	}
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 2 * MaxSample, -2 * MaxSample}
	frame := make([]float64, 3)
	dst := make([]float64, e.Dim())
	for k := 0; k < 512; k++ {
		for c := range frame {
			frame[c] = 50 * math.Sin(2*math.Pi*10*float64(k)/256+float64(c))
		}
		if k%100 == 7 { // frames 7, 107, 207, 307, 407, 507
			frame[k%3] = bad[(k/100)%len(bad)]
		}
		e.Push(frame)
	}
	if got := e.Invalid(); got != 6 {
		t.Errorf("Invalid() = %d, want 6", got)
	}
	checkFinite(t, e.Names(), e.Vector(dst))
	// Those frames leave the window as clean ones arrive.
	for k := 0; k < 400; k++ {
		frame[0], frame[1], frame[2] = 1, 2, 3
		e.Push(frame)
	}
	if got := e.Invalid(); got != 2 {
		t.Errorf("after 400 clean frames Invalid() = %d, want 2 (frames 407 and 507)", got)
	}
	e.Reset()
	if got := e.Invalid(); got != 0 {
		t.Errorf("after Reset Invalid() = %d, want 0", got)
	}
}

// TestPushValidityBoundary: Push judges samples by their bits (|v| ≤
// MaxSample); the boundary and the odd values fall where they should. One
// frame carries them all, one per channel; one bad sample makes the
// frame count once in Invalid.
func TestPushValidityBoundary(t *testing.T) {
	valid := []float64{MaxSample, -MaxSample, math.Copysign(0, -1), math.SmallestNonzeroFloat64}
	invalid := []float64{
		math.Nextafter(MaxSample, math.Inf(1)), math.Nextafter(-MaxSample, math.Inf(-1)),
		math.NaN(), math.Float64frombits(0xfff8000000000001), // a NaN with the sign bit
		math.Inf(1), math.Inf(-1),
	}
	all := append(slices.Clone(valid), invalid...)
	e, err := New(Config{Channels: len(all), Rate: 256, Conditioning: Conditioning{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	e.Push(all)
	for c, v := range all {
		want := v
		if c >= len(valid) {
			want = 0
		}
		if got := e.Conditioned()[c]; math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%v stored as %v, want %v", v, got, want)
		}
	}
	if e.Invalid() != 1 {
		t.Errorf("Invalid() = %d after one frame with bad samples, want 1", e.Invalid())
	}
	// Each value alone in a frame of valid ones: only the bad ones make a
	// frame count.
	frame := make([]float64, len(all))
	for c, v := range all {
		clear(frame)
		frame[len(frame)-1] = v
		e.Push(frame)
		if want := 1 + max(0, c+1-len(valid)); e.Invalid() != want {
			t.Errorf("after a frame with %v: Invalid() = %d, want %d", v, e.Invalid(), want)
		}
	}
}

func TestMisuseIsAProgrammingErrorThatPanics(t *testing.T) {
	newE := func() *Extractor {
		e, err := New(Config{Channels: 2, Rate: 256})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	full := func() *Extractor {
		e := newE()
		readyFrames(e, 2, 512)
		return e
	}
	tests := []struct {
		name string
		call func()
		want string
	}{
		{"Push with too few samples", func() { newE().Push(make([]float64, 1)) }, "Push got 1 samples, want 2"},
		{"Vector into a short slice", func() { full().Vector(make([]float64, 3)) }, "destination has length 3, want Dim() = 34"},
		{"Vector before the first window", func() {
			e := newE()
			readyFrames(e, 2, 511)
			e.Vector(make([]float64, e.Dim()))
		}, "after 511 frames, before the first window of 512"},
		{"Vector right after Reset", func() {
			e := full()
			e.Reset()
			e.Vector(make([]float64, e.Dim()))
		}, "after 0 frames"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if !strings.Contains(msg, tt.want) {
					t.Errorf("panic %v, want one saying %q", r, tt.want)
				}
			}()
			tt.call()
		})
	}
}

func TestSummariesAreMaxAndMedianOverChannels(t *testing.T) {
	// Three channels: 2 Hz; 2 Hz and 10 Hz in equal parts; 20 Hz. Line
	// length and δ+θ share then order the channels 0 < 1 < 2 and
	// 2 < 1 < 0, and channel 1 holds both medians.
	cfg := Config{Channels: 3, Rate: 256, Summaries: true}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sig := []signal{sine(10, 2), sum(sine(10, 2), sine(10, 10)), sine(30, 20)}
	frame := make([]float64, 3)
	for k := 0; k < 512; k++ {
		for c, s := range sig {
			frame[c] = s(float64(k) / 256)
		}
		e.Push(frame)
	}
	x := e.Vector(make([]float64, e.Dim()))
	per := func(c int, f Feature) float64 { return x[c*int(numFeatures)+int(f)] }
	sums := x[3*numFeatures:]
	ll := []float64{per(0, LineLength), per(1, LineLength), per(2, LineLength)}
	if sums[0] != ll[2] || sums[1] != ll[1] {
		t.Errorf("max, median line length = %v, %v; want %v, %v", sums[0], sums[1], ll[2], ll[1])
	}
	dt := func(c int) float64 { return per(c, DeltaRel) + per(c, ThetaRel) }
	if sums[2] != dt(0) || sums[3] != dt(1) {
		t.Errorf("max, median δ+θ = %v, %v; want %v, %v", sums[2], sums[3], dt(0), dt(1))
	}
	if !(ll[0] < ll[1] && ll[1] < ll[2] && dt(0) > dt(1) && dt(1) > dt(2)) {
		t.Errorf("line lengths %v and δ+θ %v, %v, %v are not in the expected order", ll, dt(0), dt(1), dt(2))
	}
}

func TestMaxMedian(t *testing.T) {
	tests := []struct {
		name     string
		in       []float64
		max, med float64
	}{
		{"one value", []float64{3}, 3, 3},
		{"odd count", []float64{5, 1, 3}, 5, 3},
		{"even count averages the middle two", []float64{4, 1, 2, 8}, 8, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mx, md := maxMedian(slices.Clone(tt.in))
			if mx != tt.max || md != tt.med {
				t.Errorf("maxMedian(%v) = %v, %v; want %v, %v", tt.in, mx, md, tt.max, tt.med)
			}
		})
	}
}

func TestPushAndVectorDoNotAllocate(t *testing.T) {
	for _, cfg := range []Config{
		{Channels: 23, Rate: 256, Summaries: true},
		{Channels: 1, Rate: 173.61},
		{Channels: 8, Rate: 250, Features: []Feature{LineLength, HjorthComplexity}},
	} {
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		frame := make([]float64, cfg.Channels)
		dst := make([]float64, e.Dim())
		k := 0
		allocs := testing.AllocsPerRun(2000, func() {
			for c := range frame {
				frame[c] = 30 * math.Sin(float64(k)*0.3+float64(c))
			}
			k++
			if e.Push(frame) {
				e.Vector(dst)
			}
		})
		if allocs != 0 {
			t.Errorf("%d channels at %g Hz: Push+Vector allocate %v times per frame, want 0", cfg.Channels, cfg.Rate, allocs)
		}
		if k < 2000 || e.windows < 3 {
			t.Fatalf("only %d frames and %d windows measured", k, e.windows)
		}
	}
}
