package features

import (
	"fmt"
	"math"
	"slices"

	"github.com/ictal/ictal/internal/detmath"
)

// MaxSample is the largest magnitude, in µV, Push accepts as a sample
// (1 kV: no electrode measures that). NaN, ±Inf and larger magnitudes are
// replaced (by the channel's last valid sample when conditioning is on, by
// 0 when it is off) and counted by Invalid, so that every feature stays
// finite.
const MaxSample = 1e9

// maxSampleBits is MaxSample's bits: a float64 x ≥ 0 (or NaN) exceeds
// MaxSample exactly when its bits do.
var maxSampleBits = math.Float64bits(MaxSample)

// Extractor turns a stream of frames into feature vectors over sliding
// windows. It keeps the last Window of samples of every channel in a ring
// buffer; Push adds a frame and says when a window is complete, Vector
// computes that window's features. Neither allocates. An Extractor is used
// by one goroutine at a time.
type Extractor struct {
	cfg     resolved
	n       int // samples per window
	names   []string
	dim     int
	needFFT bool
	cond    *conditioner // nil: Conditioning.Off
	in      []float64    // the frame being pushed, conditioned in place; its capacity is padded for the conditioner's vector loop (paddedChannels)
	ok      []bool       // per channel: the sample being pushed is valid

	// ring holds Channels rings of n samples, channel-major: channel c's
	// slot h is ring[c·stride+h]. The stride, n plus a cache line, keeps
	// a frame's stores (one per channel) out of a single cache set when n
	// is a power of two. Push stores each sample once; Vector copies a
	// channel's window, oldest first, into win.
	ring    []float64
	stride  int
	win     []float64
	invalid []bool // per ring slot: the frame had a replaced sample
	nBad    int    // number of true entries in invalid
	head    int    // ring slot of the next frame
	count   int64  // frames pushed since New or Reset
	windows int64  // windows completed since New or Reset
	nextEnd int64  // value of count at which the next window completes

	spec    *spectrum // nil when no feature needs it
	hann    []float64 // the spectrum's window, or 1s
	x       []float64 // windowed, mean-removed samples: the spectrum's input or scratch
	perChan []float64 // Channels × numFeatures, every feature of every channel
	steps   []float64 // Channels: the largest sample-to-sample change in the window
	// newer holds, per channel, the sums of the newer half of the window
	// of the last Vector call (see blockSums), which ended at frame
	// newerEnd (-1: none since New or Reset). When windows overlap by
	// half, the next window's older half is that one.
	newer    []blockSums
	newerEnd int64
	scratch  []float64 // Channels values, for medians
}

// New returns an Extractor for cfg, with its buffers and FFT plan built.
// An invalid cfg gives an error wrapping ErrConfig that names the field.
func New(cfg Config) (*Extractor, error) {
	r, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	e := &Extractor{
		cfg:     r,
		n:       r.n,
		stride:  r.n + 8,
		ring:    make([]float64, r.Channels*(r.n+8)),
		win:     make([]float64, r.n),
		invalid: make([]bool, r.n),
		perChan: make([]float64, r.Channels*numFeatures),
		steps:   make([]float64, r.Channels),
		newer:   make([]blockSums, r.Channels),
		scratch: make([]float64, r.Channels),
		in:      make([]float64, r.Channels, paddedChannels(r.Channels)),
		ok:      make([]bool, r.Channels),
	}
	if e.cond, err = newConditioner(r.Conditioning, r.Rate, r.Channels); err != nil {
		return nil, err
	}
	e.needFFT = r.Summaries
	for _, f := range r.Features {
		e.needFFT = e.needFFT || f.spectral()
	}
	if e.needFFT {
		if e.spec, err = newSpectrum(r.n, r.Rate); err != nil {
			return nil, fmt.Errorf("%w (Window %v, Rate %g Hz)", err, r.Window, r.Rate)
		}
		e.hann, e.x = e.spec.hann, e.spec.input()
	} else {
		e.hann, e.x = make([]float64, r.n), make([]float64, r.n)
		for k := range e.hann {
			e.hann[k] = 1
		}
	}
	e.names = make([]string, 0, r.Channels*len(r.Features)+numSummaries)
	for c := 0; c < r.Channels; c++ {
		label := fmt.Sprintf("ch%d", c)
		if r.Labels != nil {
			label = r.Labels[c]
		}
		for _, f := range r.Features {
			e.names = append(e.names, label+"/"+f.String())
		}
	}
	if r.Summaries {
		e.names = append(e.names, summaryNames[:]...)
	}
	e.dim = len(e.names)
	e.Reset()
	return e, nil
}

// Dim returns the length of the feature vectors.
func (e *Extractor) Dim() int { return e.dim }

// Index returns where channel c's feature f stands in the feature
// vectors, or -1 when f is not among Config.Features (or c is out of
// range). Channel c's features come in Config.Features order, after those
// of channels 0 to c−1.
func (e *Extractor) Index(c int, f Feature) int {
	if c < 0 || c >= e.cfg.Channels {
		return -1
	}
	for i, g := range e.cfg.Features {
		if g == f {
			return c*len(e.cfg.Features) + i
		}
	}
	return -1
}

// Names returns the name of every element of the feature vectors, in
// order: "label/feature" for each channel (label from Config.Labels, else
// "ch0", "ch1", …) and the feature's String, then the summaries
// ("max/line_length", …). The slice is a copy.
func (e *Extractor) Names() []string { return slices.Clone(e.names) }

// Measure returns channel c's feature f in the window of the last Vector
// call, whether or not f is among Config.Features: every feature of every
// channel is computed, for signal-quality and artifact rules. The spectral
// ones (band powers, relative powers, spectral edge) are computed only
// when Spectral reports true, and read 0 otherwise. It panics for c or f
// out of range.
func (e *Extractor) Measure(c int, f Feature) float64 {
	if f >= numFeatures {
		panic(fmt.Sprintf("features: Measure of %v", f))
	}
	return e.perChan[c*numFeatures+int(f)]
}

// Spectral reports whether Vector computes the window's spectrum (some
// configured feature or Summaries needs it), and so whether Measure's
// spectral features are meaningful.
func (e *Extractor) Spectral() bool { return e.needFFT }

// MaxStep returns the largest sample-to-sample change of channel c, in µV,
// in the window of the last Vector call, after conditioning: electrode
// pops and movement show as steps no cortical potential makes.
func (e *Extractor) MaxStep(c int) float64 { return e.steps[c] }

// Conditioning describes the filters every channel passes through, as
// resolved for the rate ("highpass 0.5 Hz (Butterworth, order 2), notch
// [50 60] Hz …" at 256 Hz, "… notch [50 100 60 120] Hz …" at 512 Hz), or
// "off".
func (e *Extractor) Conditioning() string {
	if e.cond == nil {
		return "off"
	}
	return e.cond.desc
}

// Window returns the number of samples per window: Config.Window × Rate,
// rounded. The window that completes at frame i spans frames i−Window()+1
// to i.
func (e *Extractor) Window() int { return e.n }

// Reset forgets every frame pushed, as after a gap in the signal: the next
// window completes Window after the next frame.
func (e *Extractor) Reset() {
	if e.cond != nil {
		e.cond.reset()
	}
	clear(e.invalid)
	e.nBad = 0
	e.head = 0
	e.count = 0
	e.windows = 0
	e.nextEnd = int64(e.n)
	e.newerEnd = -1
}

// Push adds one frame, one sample per channel in µV, and reports whether
// it completes a window: the first time after Window worth of frames, then
// every Step. Window k (from 0) ends at frame round(Window×Rate) +
// round(k×Step×Rate), so non-integer rates do not drift. Each sample
// passes through the conditioning filters (Config.Conditioning) before it
// is stored. A sample that is not finite or exceeds MaxSample in
// magnitude is replaced (see MaxSample and Invalid). Push panics if len(samples) is not Config.Channels: that is a
// programming error, not bad data.
func (e *Extractor) Push(samples []float64) (ready bool) {
	if len(samples) != e.cfg.Channels {
		panic(fmt.Sprintf("features: Push got %d samples, want %d (Config.Channels)", len(samples), e.cfg.Channels))
	}
	h := e.head
	in := e.in[:len(samples)]
	// ok is filled only when some sample is bad.
	bad := loadFrame(in, samples)
	if bad {
		for c, v := range in {
			e.ok[c] = math.Abs(v) <= MaxSample
			if !e.ok[c] {
				in[c] = 0
			}
		}
	}
	if e.cond != nil {
		e.cond.frame(in, e.ok, bad)
	}
	storeFrame(e.ring, h, e.stride, in)
	if e.invalid[h] {
		e.nBad--
	}
	e.invalid[h] = bad
	if bad {
		e.nBad++
	}
	if h++; h == e.n {
		h = 0
	}
	e.head = h
	e.count++
	if e.count != e.nextEnd {
		return false
	}
	e.windows++
	e.nextEnd = int64(e.n) + int64(math.Round(float64(e.windows)*e.cfg.step))
	return true
}

// loadFrameGo copies samples into in and reports whether any is NaN,
// infinite or beyond MaxSample in magnitude, with one integer maximum per
// sample in the loop that copies them: |v|'s bits order as |v| does, and
// NaN's and ±Inf's lie above MaxSample's.
func loadFrameGo(in, samples []float64) (bad bool) {
	in = in[:len(samples)]
	var top uint64
	for c, v := range samples {
		in[c] = v
		top = max(top, math.Float64bits(v)&^(1<<63))
	}
	return top > maxSampleBits
}

// storeFrameGo stores the frame in into the ring, channel c's sample at
// ring[i+c·stride].
func storeFrameGo(ring []float64, i, stride int, in []float64) {
	for _, v := range in {
		ring[i] = v
		i += stride
	}
}

// Conditioned returns the frame last pushed as it was stored: each
// channel's sample in µV after the conditioning filters (0 where the input
// was invalid). The slice is the Extractor's own and changes with the next
// Push: copy what you keep.
func (e *Extractor) Conditioned() []float64 { return e.in[:len(e.in):len(e.in)] }

// Invalid returns how many frames of the current window had at least one
// sample replaced by 0 because it was NaN, infinite or beyond MaxSample.
// A caller may discard a vector whose window has any.
func (e *Extractor) Invalid() int { return e.nBad }

// Vector writes the features of the current window (the last Window of
// frames pushed) into dst and returns it; call it when Push returns true.
// Every element is finite. Vector panics if len(dst) is not Dim() or if
// fewer than Window frames were pushed since New or Reset: both are
// programming errors (the gonum convention for destination slices).
func (e *Extractor) Vector(dst []float64) []float64 {
	if len(dst) != e.dim {
		panic(fmt.Sprintf("features: Vector destination has length %d, want Dim() = %d", len(dst), e.dim))
	}
	if e.count < int64(e.n) {
		panic(fmt.Sprintf("features: Vector called after %d frames, before the first window of %d is complete", e.count, e.n))
	}
	// The older half of this window is the newer half of the last one's
	// when the windows overlap by exactly half (an even Window, a Step of
	// half of it) and no Reset came between.
	h := e.n / 2
	reuse := e.n%2 == 0 && e.newerEnd == e.count-int64(h)
	for c := 0; c < e.cfg.Channels; c++ {
		e.channel(e.perChan[c*numFeatures:(c+1)*numFeatures], c, reuse)
	}
	e.newerEnd = e.count
	i := 0
	for c := 0; c < e.cfg.Channels; c++ {
		all := e.perChan[c*numFeatures : (c+1)*numFeatures]
		for _, f := range e.cfg.Features {
			dst[i] = all[f]
			i++
		}
	}
	if e.cfg.Summaries {
		e.summarize(dst[i : i+numSummaries])
	}
	return dst
}

// window returns channel c's current window, oldest sample first, in
// e.win.
func (e *Extractor) window(c int) []float64 {
	ring := e.ring[c*e.stride : c*e.stride+e.n]
	copy(e.win, ring[e.head:])
	copy(e.win[e.n-e.head:], ring[:e.head])
	return e.win
}

// channel computes every feature of channel c's window into out
// (numFeatures long, indexed by Feature); reuse says that e.newer[c]
// holds the sums of the window's older half.
func (e *Extractor) channel(out []float64, c int, reuse bool) {
	w := e.window(c)
	h := e.n / 2
	var older blockSums
	if reuse {
		older = e.newer[c]
	} else {
		older.of(w[:h])
	}
	e.newer[c].of(w[h:])
	s := join(&older, &e.newer[c], w, h)

	var tf timeFeatures
	computeTime(&tf, w, &s, e.cfg.Rate, e.hann, e.x)
	e.steps[c] = tf.maxStep
	// detmath.Log, not math.Log: the same bits on every architecture
	// (math.Log is assembly on amd64 and fusable Go on arm64).
	out[LineLength] = detmath.Log(tf.lineLength + AmplitudeFloor)
	out[RMS] = detmath.Log(math.Sqrt(tf.variance) + AmplitudeFloor)
	out[HjorthMobility] = tf.mobility
	out[HjorthComplexity] = tf.complexity
	out[ZeroCrossings] = tf.crossings
	out[TeagerEnergy] = detmath.Log(tf.teager + PowerFloor)

	var sf spectralFeatures
	if e.needFFT {
		e.spec.compute(&sf)
	}
	for b := 0; b < numBands; b++ {
		out[DeltaPower+Feature(b)] = detmath.Log(sf.band[b] + PowerFloor)
		rel := 0.0
		if !tf.flat && sf.total > 0 {
			rel = sf.band[b] / sf.total
		}
		out[DeltaRel+Feature(b)] = rel
	}
	out[SpectralEdge] = 0
	if !tf.flat {
		out[SpectralEdge] = sf.edge
	}
}
