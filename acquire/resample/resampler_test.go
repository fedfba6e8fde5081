package resample

import (
	"math"
	"math/rand/v2"
	"testing"
)

// mustRate parses s or fails the test.
func mustRate(t testing.TB, s string) Rate {
	t.Helper()
	r, err := ParseRate(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// mustNew returns a Resampler of channels channels from one rate to
// another, written as ParseRate reads them.
func mustNew(t testing.TB, from, to string, channels int) *Resampler {
	t.Helper()
	rs, err := New(mustRate(t, from), mustRate(t, to), channels)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// resample runs x (one channel) through rs, popping after every push.
func resample(rs *Resampler, x []float64) []float64 {
	var out []float64
	dst := make([]float64, 1)
	for _, v := range x {
		rs.Push([]float64{v})
		for rs.Pop(dst) {
			out = append(out, dst[0])
		}
	}
	rs.End()
	for rs.Pop(dst) {
		out = append(out, dst[0])
	}
	return out
}

// sine returns n samples at rate fs of a·sin(2πft + phi).
func sine(n int, fs, f, a, phi float64) []float64 {
	x := make([]float64, n)
	for k := range x {
		x[k] = a * math.Sin(2*math.Pi*f*float64(k)/fs+phi)
	}
	return x
}

// fit returns the amplitude and phase of the sine of frequency f that
// best fits y[lo:hi] (samples at rate fs, y[k] at k/fs) in the least
// squares sense, with the RMS of what the sine and a constant leave.
func fit(y []float64, fs, f float64, lo, hi int) (amp, phi, resid float64) {
	// Normal equations for y ≈ s·sin + c·cos + d.
	var a [3][4]float64
	for k := lo; k < hi; k++ {
		w := 2 * math.Pi * f * float64(k) / fs
		v := [3]float64{math.Sin(w), math.Cos(w), 1}
		for i := range 3 {
			for j := range 3 {
				a[i][j] += v[i] * v[j]
			}
			a[i][3] += v[i] * y[k]
		}
	}
	for p := range 3 { // Gauss–Jordan
		for i := range 3 {
			if i == p {
				continue
			}
			m := a[i][p] / a[p][p]
			for j := range 4 {
				a[i][j] -= m * a[p][j]
			}
		}
	}
	s, c, d := a[0][3]/a[0][0], a[1][3]/a[1][1], a[2][3]/a[2][2]
	ss := 0.0
	for k := lo; k < hi; k++ {
		w := 2 * math.Pi * f * float64(k) / fs
		e := y[k] - s*math.Sin(w) - c*math.Cos(w) - d
		ss += e * e
	}
	return math.Hypot(s, c), math.Atan2(c, s), math.Sqrt(ss / float64(hi-lo))
}

// db is 20·log10(x).
func db(x float64) float64 { return 20 * math.Log10(x) }

// ratios are the conversions every property is tested on, with whether
// the polyphase bank serves them.
var ratios = []struct {
	from, to  string
	polyphase bool
}{
	{"256", "250", true},
	{"250", "256", true},
	{"256", "100", true},
	{"100", "256", true},
	{"173.61", "256", false},
	{"20485/118", "256", false}, // 4097 samples per 23.6-s EDF record
	{"250", "1000", true},
	{"512", "128", true},
	{"2048", "100", true},
	{"1000", "173.61", false},
}

// A sine in the passband (up to 0.45·min(from, to)) comes out with its
// amplitude within 0.1 dB, at its time (its phase at output k is the
// input's at k/to seconds), and with nothing else: what the sine does not
// explain, images of upsampling included, is 60 dB below it.
func TestPassband(t *testing.T) {
	for _, tt := range ratios {
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			rs := mustNew(t, tt.from, tt.to, 1)
			if rs.Polyphase() != tt.polyphase {
				t.Errorf("%v: polyphase %v, want %v", rs, rs.Polyphase(), tt.polyphase)
			}
			fi, fo := rs.from.Hz(), rs.to.Hz()
			fmin := min(fi, fo)
			var worstGain, worstShift, worstResid float64 = 0, 0, -math.MaxFloat64
			defer func() {
				t.Logf("%v: worst gain %+.4f dB, shift %.2g output samples, residual %.1f dB", rs, worstGain, worstShift, worstResid)
			}()
			for _, rel := range []float64{0.01, 0.1, 0.3, 0.45} {
				f := rel * fmin
				const a, phi = 100.0, 0.7
				n := int(20 * fi)
				rs.Reset()
				y := resample(rs, sine(n, fi, f, a, phi))
				if want := rs.OutputFrames(int64(n)); int64(len(y)) != want {
					t.Fatalf("%v Hz: %d outputs from %d inputs, want %d", f, len(y), n, want)
				}
				edge := int(float64(rs.Taps())*fo/fi) + 2
				amp, ph, resid := fit(y, fo, f, edge, len(y)-edge)
				g := db(amp / a)
				if math.Abs(g) > 0.1 {
					t.Errorf("%.4g Hz: gain %.4f dB", f, g)
				}
				shift := math.Remainder(ph-phi, 2*math.Pi) / (2 * math.Pi * f) * fo // output samples
				if math.Abs(shift) > 0.01 {
					t.Errorf("%.4g Hz: shifted by %.4f output samples", f, shift)
				}
				r := db(resid * math.Sqrt2 / a)
				if r > -60 {
					t.Errorf("%.4g Hz: residual %.1f dB", f, r)
				}
				if math.Abs(g) > math.Abs(worstGain) {
					worstGain = g
				}
				worstShift, worstResid = max(worstShift, math.Abs(shift)), max(worstResid, r)
			}
		})
	}
}

// A sine at or above the new Nyquist frequency is removed by at least
// 60 dB before it can alias. Cosine and sine inputs together measure the
// gain whatever the phase at which the alias lands.
func TestStopband(t *testing.T) {
	for _, tt := range ratios {
		rs := mustNew(t, tt.from, tt.to, 1)
		fi, fo := rs.from.Hz(), rs.to.Hz()
		if fo >= fi {
			continue
		}
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			worst := -math.MaxFloat64
			defer func() { t.Logf("%v: stopband gain at most %.1f dB", rs, worst) }()
			for _, rel := range []float64{0.5, 0.51, 0.6, 0.75, 1, 1.5, 2.5, 4.5} {
				f := rel * fo
				if f >= fi/2 {
					continue
				}
				n := int(20 * fi)
				rs.Reset()
				ys := resample(rs, sine(n, fi, f, 1, 0))
				rs.Reset()
				yc := resample(rs, sine(n, fi, f, 1, math.Pi/2))
				edge := int(float64(rs.Taps())*fo/fi) + 2
				ss := 0.0
				for k := edge; k < len(ys)-edge; k++ {
					ss += ys[k]*ys[k] + yc[k]*yc[k]
				}
				g := db(math.Sqrt(ss / float64(len(ys)-2*edge)))
				if g > -60 {
					t.Errorf("%.4g Hz (%.3g × the output rate): gain %.1f dB", f, rel, g)
				}
				worst = max(worst, g)
			}
		})
	}
}

// noise returns n samples at rate fs of a sum of 200 sines of random
// frequency below fmax, phase and amplitude: band-limited noise.
func noise(n int, fs, fmax float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, n)
	for range 200 {
		f, phi, a := rng.Float64()*fmax, rng.Float64()*2*math.Pi, rng.NormFloat64()
		for k := range x {
			x[k] += a * math.Sin(2*math.Pi*f*float64(k)/fs+phi)
		}
	}
	return x
}

// Noise band-limited to 40 Hz at 256 Hz, taken to 100 Hz and back,
// comes back as it was: the error is 60 dB below the signal.
func TestRoundTrip(t *testing.T) {
	tests := []struct{ a, b string }{{"256", "100"}, {"256", "173.61"}, {"250", "1000"}}
	for _, tt := range tests {
		t.Run(tt.a+"↔"+tt.b, func(t *testing.T) {
			down, up := mustNew(t, tt.a, tt.b, 1), mustNew(t, tt.b, tt.a, 1)
			fs := down.from.Hz()
			x := noise(int(30*fs), fs, 0.4*min(fs, down.to.Hz()), 3)
			y := resample(up, resample(down, x))
			if len(y) < len(x) || len(y) > len(x)+2 { // ⌈⌈n·L/M⌉·M/L⌉
				t.Fatalf("%d samples back from %d", len(y), len(x))
			}
			edge := 2 * (down.Taps() + up.Taps())
			var se, sx float64
			for k := edge; k < len(x)-edge; k++ {
				se += (y[k] - x[k]) * (y[k] - x[k])
				sx += x[k] * x[k]
			}
			e := 10 * math.Log10(se/sx)
			if e > -60 {
				t.Errorf("round trip error %.1f dB", e)
			}
			t.Logf("round trip error %.1f dB", e)
		})
	}
}

// A brief event (a Gaussian pulse, σ = 20 ms) at t seconds is at t seconds
// after resampling: its centroid within 0.01 output sample, its largest
// sample the one nearest t.
func TestEventTime(t *testing.T) {
	for _, tt := range ratios {
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			rs := mustNew(t, tt.from, tt.to, 1)
			fi, fo := rs.from.Hz(), rs.to.Hz()
			sigma := max(0.02, 4/min(fi, fo))
			const t0 = 3.217
			x := make([]float64, int(8*fi))
			for k := range x {
				d := (float64(k)/fi - t0) / sigma
				x[k] = 50 * math.Exp(-d*d/2)
			}
			y := resample(rs, x)
			var m0, m1 float64
			peak := 0
			for k, v := range y {
				m0 += v
				m1 += v * float64(k)
				if v > y[peak] {
					peak = k
				}
			}
			if at := m1 / m0; math.Abs(at-t0*fo) > 0.01 {
				t.Errorf("centroid at output sample %.4f, want %.4f", at, t0*fo)
			}
			if want := int(math.Round(t0 * fo)); peak != want {
				t.Errorf("peak at output sample %d, want %d", peak, want)
			}
		})
	}
}

// A constant, however large, comes out exactly, to the last output and
// at both ends: there is no ringing from the edges or from phase to phase.
func TestConstant(t *testing.T) {
	for _, tt := range ratios {
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			rs := mustNew(t, tt.from, tt.to, 1)
			x := make([]float64, 3*rs.Taps()+7)
			for k := range x {
				x[k] = -187654.25
			}
			y := resample(rs, x)
			if int64(len(y)) != rs.OutputFrames(int64(len(x))) {
				t.Fatalf("%d outputs, want %d", len(y), rs.OutputFrames(int64(len(x))))
			}
			for k, v := range y {
				if math.Abs(v-x[0]) > 1e-9*math.Abs(x[0]) {
					t.Fatalf("output %d: %v", k, v)
				}
			}
		})
	}
}

// OutputFrames is ⌈n·L/M⌉: the outputs within the input's duration.
func TestOutputFrames(t *testing.T) {
	tests := []struct {
		from, to string
		n, want  int64
	}{
		{"256", "100", 10496, 4100}, // 41 s
		{"256", "100", 10497, 4101},
		{"256", "100", 1, 1},
		{"256", "100", 0, 0},
		{"100", "256", 4100, 10496},
		{"173.61", "256", 17361, 25600},
		{"250", "1000", 3, 12},
		{"512", "128", 5, 2},
	}
	for _, tt := range tests {
		rs := mustNew(t, tt.from, tt.to, 1)
		if got := rs.OutputFrames(tt.n); got != tt.want {
			t.Errorf("%s→%s: %d inputs give %d outputs, want %d", tt.from, tt.to, tt.n, got, tt.want)
		}
	}
}

// Popping after every push, pushing everything before popping (buf
// grows), several channels at once, and a Reset Resampler all give the
// same outputs, bit for bit.
func TestStreaming(t *testing.T) {
	for _, tt := range ratios {
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			rs := mustNew(t, tt.from, tt.to, 1)
			fi := rs.from.Hz()
			a, b := noise(int(5*fi), fi, 0.3*fi, 1), noise(int(5*fi), fi, 0.3*fi, 2)
			ya := resample(rs, a)
			rs.Reset()
			if again := resample(rs, a); !equal(again, ya) {
				t.Error("after Reset: different outputs")
			}
			rs.Reset()
			yb := resample(rs, b)

			two := mustNew(t, tt.from, tt.to, 2)
			for k := range a {
				two.Push([]float64{a[k], b[k]})
			}
			two.End()
			var y2a, y2b []float64
			dst := make([]float64, 2)
			for two.Pop(dst) {
				y2a, y2b = append(y2a, dst[0]), append(y2b, dst[1])
			}
			if !equal(y2a, ya) || !equal(y2b, yb) {
				t.Errorf("two channels pushed at once differ from each alone (%d, %d outputs; want %d, %d)", len(y2a), len(y2b), len(ya), len(yb))
			}
		})
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// The interpolated coefficients (Smith's table) agree with the exact
// polyphase bank to within the table's error.
func TestInterpolatedMatchesPolyphase(t *testing.T) {
	for _, tt := range ratios {
		if !tt.polyphase {
			continue
		}
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			bank := mustNew(t, tt.from, tt.to, 1)
			interp := mustNew(t, tt.from, tt.to, 1)
			interp.bank, interp.table, interp.coef = nil, prototypeTable(), make([]float64, interp.Taps())
			fi := bank.from.Hz()
			x := noise(int(5*fi), fi, 0.5*fi, 4)
			yb, yi := resample(bank, x), resample(interp, x)
			if len(yb) != len(yi) {
				t.Fatalf("%d and %d outputs", len(yb), len(yi))
			}
			var se, sy float64
			for k := range yb {
				se += (yb[k] - yi[k]) * (yb[k] - yi[k])
				sy += yb[k] * yb[k]
			}
			e := 10 * math.Log10(se/sy)
			if e > -90 {
				t.Errorf("interpolated differs from the bank by %.1f dB", e)
			}
			t.Logf("interpolated differs from the bank by %.1f dB", e)
		})
	}
}

// Push and Pop allocate nothing, with the bank and with interpolation.
func TestNoAllocs(t *testing.T) {
	for _, tt := range ratios {
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			rs := mustNew(t, tt.from, tt.to, 8)
			in, out := make([]float64, 8), make([]float64, 8)
			k := 0
			step := func() {
				for c := range in {
					in[c] = math.Sin(float64(k + c))
				}
				k++
				rs.Push(in)
				for rs.Pop(out) {
				}
			}
			for range 10 * rs.Taps() { // past the first compaction
				step()
			}
			if a := testing.AllocsPerRun(1000, step); a != 0 {
				t.Errorf("%v allocations per frame", a)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name     string
		from, to Rate
		channels int
		want     string
	}{
		{"no channels", Rate{256, 1}, Rate{100, 1}, 0, "0 channels"},
		{"zero input rate", Rate{0, 1}, Rate{100, 1}, 1, "input"},
		{"negative output rate", Rate{256, 1}, Rate{-100, 1}, 1, "output"},
		{"not in lowest terms", Rate{256, 1}, Rate{200, 2}, 1, "lowest terms"},
		{"denominator too large", Rate{256, 1}, Rate{1, MaxDen + 1}, 1, "denominator"},
		{"filter too long", Rate{MaxNum, 1}, Rate{1, MaxDen}, 1, "too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.from, tt.to, tt.channels)
			if err == nil || !contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// The filter's response, computed from its coefficients for every output
// phase (or 25 of them when there are more) on a grid of 601
// frequencies: an input e^{2πift} becomes G·e^{2πift} at each output
// instant, with |G − 1| at most 5e-4 (gain within 0.005 dB, and the error
// of phase and the images together 66 dB down) through the passband, and |G| at least 60 dB down
// from the new Nyquist frequency to the input's when downsampling.
func TestFrequencyResponse(t *testing.T) {
	for _, tt := range ratios {
		t.Run(tt.from+"→"+tt.to, func(t *testing.T) {
			rs := mustNew(t, tt.from, tt.to, 1)
			fi, fo := rs.from.Hz(), rs.to.Hz()
			fmin := min(fi, fo)
			phases := min(rs.l, 25)
			var worstPass, worstStop float64
			for q := range phases {
				r := q * rs.l / phases
				frac := float64(r) / float64(rs.l)
				c := rs.interpolate(frac)
				if rs.bank != nil {
					c = rs.bank[int(r)*rs.Taps() : int(r+1)*rs.Taps()]
				}
				for k := 0; k <= 600; k++ {
					f := float64(k) / 600 * fi / 2
					if f > pass*fmin && (f < stop*fmin || fo >= fi) {
						continue
					}
					var re, im float64
					for j, v := range c {
						w := 2 * math.Pi * f / fi * (float64(j-rs.half+1) - frac)
						re += v * math.Cos(w)
						im += v * math.Sin(w)
					}
					if f <= pass*fmin {
						worstPass = max(worstPass, math.Hypot(re-1, im))
					} else {
						worstStop = max(worstStop, math.Hypot(re, im))
					}
				}
			}
			t.Logf("%v: passband |G−1| ≤ %.2g, stopband |G| ≤ %.1f dB", rs, worstPass, db(worstStop))
			if worstPass > 5e-4 {
				t.Errorf("passband |G−1| up to %.2g", worstPass)
			}
			if fo < fi && db(worstStop) > -60 {
				t.Errorf("stopband |G| up to %.1f dB", db(worstStop))
			}
		})
	}
}
