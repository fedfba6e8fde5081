package features

import (
	"fmt"
	"math"
	"math/cmplx"
	"slices"
	"strings"

	"github.com/ictal/ictal/internal/detmath"
)

// Conditioning defaults. A 0.5 Hz high-pass is the clinical EEG "low
// frequency filter" setting (ACNS Guideline 1, 2016, gives 0.5–1 Hz); a
// 70 Hz low-pass the clinical "high frequency filter" (ACNS: no lower than
// 70 Hz for routine recordings); both mains frequencies are notched unless
// the site says which it has, because a notch at the absent one costs
// nothing a seizure detector needs.
const (
	DefaultHighPass = 0.5    // Hz
	DefaultLowPass  = 70.0   // Hz, lowered to MaxLowPassFraction × Rate when the rate is too low
	DefaultMains    = "both" // "50", "60", "both" or "off"
	// MaxLowPassFraction bounds the low-pass cut-off as a fraction of the
	// sample rate (0.45: below Nyquist with room for the filter's
	// transition band, where the bilinear transform's warping is modest).
	MaxLowPassFraction = 0.45
	// NotchBandwidth is the −3 dB width, in Hz, of each notch section.
	// The notch at the mains frequency has two identical sections: it is
	// −3 dB 1.55 × as wide (4.7 Hz) and attenuates by at least 40 dB
	// within ±0.15 Hz of the mains frequency. That tolerance is needed:
	// the hum lands where the amplifier's sample clock puts it, not at
	// exactly 50 or 60 Hz — on the OpenBCI Cyton recording in
	// ../shared/data/eeg/openbci it is at 59.93 Hz, 0.12 % off, where a
	// single section 2 Hz wide removed only 23 dB of a hum 40 dB above the
	// EEG and left it the strongest component of every window.
	NotchBandwidth = 3.0
	// MainsTolerance is how far, as a fraction of its frequency, the hum
	// of a mains frequency or harmonic may lie from its nominal value and
	// still be rejected as MainsRejection and HarmonicRejection say:
	// ±0.25 %, twice the Cyton's 0.12 %.
	MainsTolerance = 0.0025
	// MainsRejection is the least attenuation, in dB, at each mains
	// frequency within ±MainsTolerance (two notch sections there: 43.5 dB
	// at 50 Hz and 40.5 to 41.4 dB at 60 Hz, depending on the rate).
	MainsRejection = 40.0
	// HarmonicRejection is the least attenuation, in dB, at each harmonic
	// of a notched mains frequency below 0.49 × Rate, within
	// ±MainsTolerance, with the default low-pass (or a lower one): a
	// harmonic gets a notch section of its own only where the other
	// sections give less. At 250 and 256 Hz the low-pass alone gives 30 dB
	// at 100 Hz and over 70 dB at 120 Hz, so the default chain has 7
	// sections (it had 9: a notch at every harmonic); at 512 Hz, 100 and
	// 120 Hz are notched and the chain has 9 (it had 14). A harmonic
	// 40 dB above the EEG, as strong as the Cyton's hum, would remain
	// at most 15 dB above it, above 70 Hz, where no spectral band looks.
	HarmonicRejection = 25.0
)

// maxNotchFraction: a mains harmonic is notched only below this fraction
// of the sample rate (a notch right at Nyquist is degenerate).
const maxNotchFraction = 0.49

// Conditioning configures the filters that every channel passes through
// before it is windowed: a causal high-pass (removes the electrodes' DC
// offsets and slow drift), mains notches and a low-pass (removes muscle
// and converter noise above the EEG bands). The zero value is the
// default, on: 0.5 Hz high-pass, 70 Hz low-pass, notches at 50 and 60 Hz
// and at those of their harmonics below 0.49 × Rate that the low-pass
// does not reject by HarmonicRejection.
//
// The filters are second-order sections (biquads) designed by the
// bilinear transform with pre-warped corner frequencies: a 2nd-order
// Butterworth high-pass, a 4th-order Butterworth low-pass (two sections)
// and notches (Orfanidis, Introduction to Signal Processing, 1996, §11.3:
// a zero pair on the unit circle and a −3 dB width of NotchBandwidth): two
// sections at each mains frequency, where the hum is strongest, and one at
// a harmonic only where the low-pass and the other notches reject it by
// less than HarmonicRejection (see MainsRejection, HarmonicRejection and
// MainsTolerance for what is guaranteed). They run in transposed direct
// form II in float64, and their state is set, on the first sample of each channel
// (and again after Extractor.Reset, i.e. after a gap), to the steady state
// for a constant input equal to that sample: a DC offset of tens of
// millivolts then gives no transient at all, instead of a decaying step
// that rings through the first windows.
type Conditioning struct {
	// Off passes samples through unfiltered (the behaviour before
	// conditioning existed; for recordings filtered elsewhere).
	Off bool
	// HighPass is the high-pass corner in Hz: 0 means DefaultHighPass, a
	// negative value none.
	HighPass float64
	// LowPass is the low-pass corner in Hz: 0 means DefaultLowPass (or
	// MaxLowPassFraction × Rate if that is lower), a negative value none.
	LowPass float64
	// Mains selects the notches: "50", "60", "both" or "off"; "" means
	// DefaultMains.
	Mains string
}

// String describes the conditioning for a model's provenance and logs:
// "off", or e.g. "highpass 0.5 Hz, lowpass 70 Hz, mains both, harmonics 25 dB".
// It describes c as given, with defaults applied but not the rate's
// limits; a resolved conditioning (see Extractor.Conditioning) gives the
// exact filters.
func (c Conditioning) String() string {
	if c.Off {
		return "off"
	}
	if c.HighPass == 0 {
		c.HighPass = DefaultHighPass
	}
	if c.LowPass == 0 {
		c.LowPass = DefaultLowPass
	}
	if c.Mains == "" {
		c.Mains = DefaultMains
	}
	var parts []string
	if c.HighPass > 0 {
		parts = append(parts, fmt.Sprintf("highpass %g Hz", c.HighPass))
	}
	if c.LowPass > 0 {
		parts = append(parts, fmt.Sprintf("lowpass %g Hz", c.LowPass))
	}
	mains := "mains " + c.Mains
	if c.Mains != "off" {
		// Since harmonics are notched only where the low-pass does not
		// reject them (HarmonicRejection): the filters differ from those
		// of models made before, which notched every harmonic, so such
		// models are refused (modelfile.Meta.Check compares this string).
		mains += fmt.Sprintf(", harmonics %g dB", HarmonicRejection)
	}
	parts = append(parts, mains)
	return strings.Join(parts, ", ")
}

// biquad holds one second-order section's coefficients, normalised so
// that a0 = 1: y = b0·x + b1·x₋₁ + b2·x₋₂ − a1·y₋₁ − a2·y₋₂.
type biquad struct{ b0, b1, b2, a1, a2 float64 }

// dcGain is the section's gain at 0 Hz.
func (q biquad) dcGain() float64 { return (q.b0 + q.b1 + q.b2) / (1 + q.a1 + q.a2) }

// response is the section's complex frequency response at f Hz for rate
// fs.
func (q biquad) response(f, fs float64) complex128 {
	w := 2 * math.Pi * f / fs
	z1 := complex(math.Cos(w), -math.Sin(w)) // e^{-jω}
	z2 := z1 * z1
	return (complex(q.b0, 0) + complex(q.b1, 0)*z1 + complex(q.b2, 0)*z2) /
		(1 + complex(q.a1, 0)*z1 + complex(q.a2, 0)*z2)
}

// The designs below use detmath's tangent and cosine and round every
// product that feeds a sum (float64(·)), so that the coefficients, and
// with them every conditioned sample, are the same bits on every
// platform (see internal/detmath).

// butterworthQ returns the Q of each second-order section of an
// even-order Butterworth filter: 1 / (2 cos θk), θk = (2k+1)π / (2·order).
func butterworthQ(order int) []float64 {
	q := make([]float64, order/2)
	for k := range q {
		_, c := detmath.SinCos(float64(2*k+1) * math.Pi / float64(2*order))
		q[k] = 1 / (2 * c)
	}
	return q
}

// lowpass is a second-order low-pass section with corner fc and quality q
// (bilinear transform, corner pre-warped: K = tan(π fc/fs)).
func lowpass(fc, q, fs float64) biquad {
	k := detmath.Tan(math.Pi * fc / fs)
	kk := float64(k * k)
	n := 1 / (1 + k/q + kk)
	return biquad{b0: kk * n, b1: 2 * kk * n, b2: kk * n, a1: 2 * (kk - 1) * n, a2: ((1 - k/q) + kk) * n}
}

// highpass is the high-pass counterpart of lowpass.
func highpass(fc, q, fs float64) biquad {
	k := detmath.Tan(math.Pi * fc / fs)
	kk := float64(k * k)
	n := 1 / (1 + k/q + kk)
	return biquad{b0: n, b1: -2 * n, b2: n, a1: 2 * (kk - 1) * n, a2: ((1 - k/q) + kk) * n}
}

// notch is a second-order notch at f0 with −3 dB width bw (Orfanidis
// eq. 11.3.7: β = tan(Δω/2), gain 1/(1+β)).
func notch(f0, bw, fs float64) biquad {
	g := 1 / (1 + detmath.Tan(math.Pi*bw/fs))
	_, c := detmath.SinCos(2 * math.Pi * f0 / fs)
	return biquad{b0: g, b1: -2 * g * c, b2: g, a1: -2 * g * c, a2: 2*g - 1}
}

// alias returns the frequency in [0, fs/2] at which a tone of f Hz
// appears when sampled at fs Hz: a mains frequency above the Nyquist
// frequency (60 Hz at 100 Hz, which appears at 40 Hz) is notched there.
// The amplifier's anti-alias filter attenuates it before sampling; what
// passes it lands at the alias.
func alias(f, fs float64) float64 {
	a := math.Mod(f, fs)
	if a > fs/2 {
		a = fs - a
	}
	return a
}

// nyquistNotch returns the notch at the Nyquist frequency fs/2, where a
// mains frequency falls at some rates (50 Hz at 100 Hz, 60 Hz at 120 Hz).
// There notch's second-order design is degenerate: its zeros and one of
// its poles meet at z = −1, on the unit circle. At ω0 = π the notch is of
// first order, H(z) = g(1 + z⁻¹)/(1 + (2g−1)z⁻¹), g = 1/(1 + tan(π bw/fs))
// (Orfanidis, Introduction to Signal Processing, §11.3); the section
// returned is its square, which stands for the two sections a mains
// frequency gets elsewhere and keeps b2 = b0 for the filter loops.
func nyquistNotch(bw, fs float64) biquad {
	g := 1 / (1 + detmath.Tan(math.Pi*bw/fs))
	r := 2*g - 1 // the pole, at z = −r
	gg := float64(g * g)
	return biquad{b0: gg, b1: 2 * gg, b2: gg, a1: 2 * r, a2: float64(r * r)}
}

// conditioner is the resolved filter chain of a Conditioning at a rate,
// with per-channel state. It is owned by an Extractor.
type conditioner struct {
	desc    string
	stages  []biquad
	s1, s2  []float64 // stages × stride, stage-major: the sections' state
	stride  int       // channels rounded up to a multiple of simdLanes
	primed  []bool    // per channel: state set from a first sample
	all     bool      // every channel is primed
	held    []float64 // per channel: last valid input, fed in place of an invalid one
	notches []float64 // mains frequencies notched, Hz

	// For the vector loop (filterSIMD): each section's b0, b1, a1 and a2,
	// each repeated simdLanes times, and a frame padded to stride.
	coef []float64
	xp   []float64
}

// simdLanes is the number of channels the vector loop filters at once
// (four float64 in a 256-bit register). The state is laid out for it on
// every platform; the padding channels stay zero.
const simdLanes = 4

// paddedChannels is channels rounded up to a multiple of simdLanes.
func paddedChannels(channels int) int {
	return (channels + simdLanes - 1) / simdLanes * simdLanes
}

// newConditioner resolves c at rate fs for channels channels, or returns
// nil when c.Off. It fails, naming the field, for settings the rate cannot
// honour.
func newConditioner(c Conditioning, fs float64, channels int) (*conditioner, error) {
	if c.Off {
		return nil, nil
	}
	hp, lp := c.HighPass, c.LowPass
	if hp == 0 {
		hp = DefaultHighPass
	}
	if lp == 0 {
		lp = min(DefaultLowPass, MaxLowPassFraction*fs)
	}
	if math.IsNaN(hp) || math.IsInf(hp, 0) || hp > 0 && hp >= MaxLowPassFraction*fs {
		return nil, configErr("Conditioning.HighPass", "%g Hz: must be finite and below %g Hz at %g Hz", c.HighPass, MaxLowPassFraction*fs, fs)
	}
	if math.IsNaN(lp) || math.IsInf(lp, 0) || lp > MaxLowPassFraction*fs {
		return nil, configErr("Conditioning.LowPass", "%g Hz: must be finite and at most %g Hz (%g × the %g Hz rate)", c.LowPass, MaxLowPassFraction*fs, MaxLowPassFraction, fs)
	}
	if hp > 0 && lp > 0 && lp <= hp {
		return nil, configErr("Conditioning.LowPass", "%g Hz is not above the high-pass corner %g Hz", lp, hp)
	}
	var mains []float64
	switch c.Mains {
	case "50":
		mains = []float64{50}
	case "60":
		mains = []float64{60}
	case "both", "":
		mains = []float64{50, 60}
	case "off":
	default:
		return nil, configErr("Conditioning.Mains", "%q: want 50, 60, both or off", c.Mains)
	}
	k := &conditioner{}
	var parts []string
	if hp > 0 {
		k.stages = append(k.stages, highpass(hp, math.Sqrt2/2, fs))
		parts = append(parts, fmt.Sprintf("highpass %g Hz (Butterworth, order 2)", hp))
	}
	var low []biquad
	if lp > 0 {
		for _, q := range butterworthQ(4) {
			low = append(low, lowpass(lp, q, fs))
		}
	}
	k.stages = append(k.stages, k.mainsNotches(mains, low, fs)...)
	if len(k.notches) > 0 {
		parts = append(parts, fmt.Sprintf("notch %v Hz (sections %g Hz wide, two at the mains frequency, one at a harmonic the other sections reject by less than %g dB)", k.notches, NotchBandwidth, HarmonicRejection))
	}
	if lp > 0 {
		k.stages = append(k.stages, low...)
		parts = append(parts, fmt.Sprintf("lowpass %g Hz (Butterworth, order 4)", lp))
	}
	if len(parts) == 0 {
		parts = append(parts, "none")
	}
	k.desc = strings.Join(parts, ", ")
	k.stride = paddedChannels(channels)
	k.s1 = make([]float64, k.stride*len(k.stages))
	k.s2 = make([]float64, k.stride*len(k.stages))
	k.primed = make([]bool, channels)
	k.held = make([]float64, channels)
	k.xp = make([]float64, k.stride)
	for _, q := range k.stages {
		for _, c := range [...]float64{q.b0, q.b1, q.a1, q.a2} {
			for range simdLanes {
				k.coef = append(k.coef, c)
			}
		}
	}
	return k, nil
}

// mainsNotches returns the notch sections for the mains frequencies
// mains at rate fs, with the low-pass sections low that follow them, and
// records their frequencies in k.notches: two sections at each mains
// frequency, then one at each harmonic below maxNotchFraction × fs that
// the chain so far (the low-pass, the other notches) rejects by less than
// HarmonicRejection somewhere within ±MainsTolerance of it. Harmonics are
// taken in increasing order, so a notch at one counts for the next.
func (k *conditioner) mainsNotches(mains []float64, low []biquad, fs float64) []biquad {
	fund := make([][]biquad, len(mains)) // each mains frequency's sections
	var chain []biquad
	for i, m := range mains {
		switch a := alias(m, fs); {
		case a == fs/2:
			fund[i] = []biquad{nyquistNotch(NotchBandwidth, fs)}
		default:
			q := notch(a, NotchBandwidth, fs)
			fund[i] = []biquad{q, q}
		}
		chain = append(chain, fund[i]...)
	}
	chain = append(chain, low...)
	var harm []float64
	for f := 2.0; ; f++ { // harmonic number, for every mains frequency at once
		below := false // some harmonic f·m lies below maxNotchFraction × fs
		for _, m := range mains {
			h := f * m
			if h >= maxNotchFraction*fs {
				continue
			}
			below = true
			if !slices.Contains(harm, h) && rejection(chain, h, fs) < HarmonicRejection {
				harm = append(harm, h)
				chain = append(chain, notch(h, NotchBandwidth, fs))
			}
		}
		if !below {
			break
		}
	}
	// In the order of mains: each frequency, then its harmonics (one
	// common to both mains frequencies goes with the first).
	var out []biquad
	for i, m := range mains {
		k.notches = append(k.notches, m)
		out = append(out, fund[i]...)
		for _, h := range harm {
			if math.Mod(h, m) == 0 && !slices.Contains(k.notches, h) {
				k.notches = append(k.notches, h)
				out = append(out, notch(h, NotchBandwidth, fs))
			}
		}
	}
	return out
}

// rejection returns the least attenuation, in dB, of the sections chain
// at rate fs over f·(1 ± MainsTolerance), sampled at 41 frequencies. It
// uses math's sine and cosine, which may differ in the last bit between
// platforms: a rate at which a harmonic's rejection lay within rounding
// of HarmonicRejection could get its notch on one and not on another.
// The rates TestMainsRejection checks have a decibel or more of margin
// (the least: 1.1 dB, 120 Hz at 500 Hz), and it pins their sections on
// every platform cross/test runs.
func rejection(chain []biquad, f, fs float64) float64 {
	least := math.Inf(1)
	for i := -20; i <= 20; i++ {
		g := f * (1 + MainsTolerance*float64(i)/20)
		h := complex(1, 0)
		for _, q := range chain {
			h *= q.response(g, fs)
		}
		least = math.Min(least, -20*math.Log10(cmplx.Abs(h)))
	}
	return least
}

// reset forgets every channel's state: the next sample of each primes it
// again.
func (k *conditioner) reset() { clear(k.primed); k.all = false }

// prime sets channel c's state to the steady state of a constant input x.
// For one section in transposed direct form II, a constant input x and
// output y = G·x (G its DC gain) are a fixed point when
// s2 = b2·x − a2·y and s1 = b1·x − a1·y + s2.
func (k *conditioner) prime(c int, x float64) {
	n := k.stride
	for i, q := range k.stages {
		y := q.dcGain() * x
		s2 := float64(q.b2*x) - float64(q.a2*y)
		k.s1[i*n+c], k.s2[i*n+c] = float64(q.b1*x)-float64(q.a1*y)+s2, s2
		x = y
	}
	k.primed[c] = true
}

// frame filters one frame in place, one sample per channel. ok[c] false
// (the sample was NaN, infinite or absurd) feeds the channel's last valid
// input instead, so one bad sample cannot poison the filters' state; bad
// says whether any ok[c] is false. The filtering itself is filter: the
// vector loop where the processor has one (filterSIMD), filterGo
// elsewhere, with the same bits. The vector loop filters x in place when
// its capacity reaches paddedChannels(len(x)), overwriting the padding
// lanes x[len(x):cap(x)] (the Extractor's frame is allocated so); for a
// shorter capacity it works on a copy.
func (k *conditioner) frame(x []float64, ok []bool, bad bool) {
	n := len(k.primed)
	x, ok = x[:n], ok[:n]
	if bad {
		for c := range x {
			if ok[c] {
				k.held[c] = x[c]
			} else {
				x[c] = k.held[c]
			}
		}
	} else {
		copy(k.held, x)
	}
	if !k.all {
		for c := range x {
			if !k.primed[c] {
				k.prime(c, x[c])
			}
		}
		k.all = true
	}
	k.filter(x)
}

// filterGo runs the chain over the frame x (one sample per channel) in
// Go, section by section over the channels: the channels are independent,
// so the processor overlaps their arithmetic. Three sections per pass
// over the channels, so that each one's output stays in a register for
// the next; the one or two left over one at a time.
func (k *conditioner) filterGo(x []float64) {
	i := 0
	for ; i+3 <= len(k.stages); i += 3 {
		k.frame3(x, i)
	}
	for ; i < len(k.stages); i++ {
		k.frame1(x, i)
	}
}

// The loops below use that every section has b2 = b0 (its zeros lie on
// the unit circle: a double zero at 0 Hz, at Nyquist, or a pair at the
// notch frequency), so b0·x serves for b2·x: four products per sample
// and section instead of five, the same bits. float64(·) rounds each
// product, so no platform fuses a multiply-add and the output is the same
// bits everywhere (cross/golden_test.go).

// frame1 runs section i over every channel's sample x[c].
func (k *conditioner) frame1(x []float64, i int) {
	n := k.stride
	q := &k.stages[i]
	b0, b1, a1, a2 := q.b0, q.b1, q.a1, q.a2
	s1, s2 := k.s1[i*n:(i+1)*n], k.s2[i*n:(i+1)*n]
	s1, s2 = s1[:len(x)], s2[:len(x)] // no bounds checks below
	for c, v := range x {
		p := float64(b0 * v)
		y := p + s1[c]
		s1[c] = float64(b1*v) - float64(a1*y) + s2[c]
		s2[c] = p - float64(a2*y)
		x[c] = y
	}
}

// frame3 runs sections i, i+1 and i+2 over every channel's sample x[c]
// in one pass.
func (k *conditioner) frame3(x []float64, i int) {
	n := k.stride
	q, r, s := &k.stages[i], &k.stages[i+1], &k.stages[i+2]
	s1, s2 := k.s1[i*n:(i+1)*n], k.s2[i*n:(i+1)*n]
	t1, t2 := k.s1[(i+1)*n:(i+2)*n], k.s2[(i+1)*n:(i+2)*n]
	u1, u2 := k.s1[(i+2)*n:(i+3)*n], k.s2[(i+2)*n:(i+3)*n]
	s1, s2, t1, t2 = s1[:len(x)], s2[:len(x)], t1[:len(x)], t2[:len(x)]
	u1, u2 = u1[:len(x)], u2[:len(x)]
	for c, v := range x {
		p := float64(q.b0 * v)
		y := p + s1[c]
		s1[c] = float64(q.b1*v) - float64(q.a1*y) + s2[c]
		s2[c] = p - float64(q.a2*y)
		p = float64(r.b0 * y)
		z := p + t1[c]
		t1[c] = float64(r.b1*y) - float64(r.a1*z) + t2[c]
		t2[c] = p - float64(r.a2*z)
		p = float64(s.b0 * z)
		w := p + u1[c]
		u1[c] = float64(s.b1*z) - float64(s.a1*w) + u2[c]
		u2[c] = p - float64(s.a2*w)
		x[c] = w
	}
}
