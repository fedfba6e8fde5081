package resample

import (
	"fmt"
	"math"
	"math/bits"
)

// Bounds on the polyphase bank: a ratio whose reduced numerator L is at
// most maxPhases, and whose bank (L rows of Taps coefficients) holds at
// most maxBank values, is filtered from the bank; any other ratio is
// interpolated from the prototype's table.
const (
	maxPhases = 1024
	maxBank   = 1 << 20
)

// maxHalf bounds the filter's half-length in input frames (a Resampler
// holds about four times as many samples per channel): a downsampling
// ratio of at most about 1:23700.
const maxHalf = 1 << 20

// Resampler converts a stream of frames (one sample per channel at each
// instant) from one rate to another. Push one input frame, then Pop every
// output frame that frame made ready; End marks the end of the input and
// lets Pop return the last ones. Output frame n is the signal at n/to
// seconds from the first input frame, exactly: the filter is symmetric
// about each output instant, so there is no group delay to undo. Before
// the first frame and after the last the signal is taken to hold its
// first and last values (not zero), so a DC offset does not ring at the
// ends. A Resampler is used by one goroutine at a time.
type Resampler struct {
	from, to Rate
	l, m     int64 // to/from = l/m in lowest terms
	mq, mr   int64 // m = mq·l + mr: the input frames between outputs
	rc       float64
	half     int       // H: the output at position i+f uses input frames i−H+1 … i+H
	bank     []float64 // polyphase: l rows of 2H coefficients; nil when interpolating
	table    []float64 // interpolating: the prototype, tableDensity per zero crossing
	coef     []float64 // interpolating: the coefficients of the output being computed
	chans    int
	buf      [][]float64 // buf[c][k] is channel c of input frame base+k
	n        int         // frames held in buf
	base     int64       // index of buf[·][0]; negative while the first frame's copies are held
	i, r     int64       // the next output's position: input frame i + r/l
	in       int64       // input frames pushed
	ended    bool
}

// New returns a Resampler of channels channels from one rate to another.
// Rates must be in lowest terms within MaxNum and MaxDen (as ParseRate
// and RateOf return them).
func New(from, to Rate, channels int) (*Resampler, error) {
	if err := from.valid(); err != nil {
		return nil, fmt.Errorf("resample: input %w", err)
	}
	if err := to.valid(); err != nil {
		return nil, fmt.Errorf("resample: output %w", err)
	}
	if channels < 1 {
		return nil, fmt.Errorf("resample: %d channels: want at least 1", channels)
	}
	// to/from = (to.Num·from.Den)/(to.Den·from.Num); each product is at
	// most MaxNum·MaxDen = 1e17, within int64.
	l, m := to.Num*from.Den, to.Den*from.Num
	g := gcd(l, m)
	l, m = l/g, m/g
	rho := min(1, float64(l)/float64(m)) // fmin / from
	rs := &Resampler{from: from, to: to, l: l, m: m, mq: m / l, mr: m % l, rc: (pass + stop) * rho, chans: channels}
	h := math.Ceil(float64(zeroCrossings) / rs.rc)
	if h > maxHalf {
		return nil, fmt.Errorf("resample: %v Hz to %v Hz: a filter of %.0f taps is too long (at most %d: a ratio of at most about 1:%d)", from, to, 2*h, 2*maxHalf, int(maxHalf*(pass+stop)/float64(zeroCrossings)))
	}
	rs.half = int(h)
	taps := 2 * rs.half
	if l <= maxPhases && l*int64(taps) <= maxBank {
		rs.bank = make([]float64, int(l)*taps)
		for p := range int(l) {
			row := rs.bank[p*taps : (p+1)*taps]
			f := float64(p) / float64(l)
			for j := range row {
				row[j] = prototype((float64(j-rs.half+1) - f) * rs.rc)
			}
			normalise(row)
		}
	} else {
		rs.table = prototypeTable()
		rs.coef = make([]float64, taps)
	}
	rs.buf = make([][]float64, channels)
	for c := range rs.buf {
		rs.buf[c] = make([]float64, 2*taps+16)
	}
	rs.Reset()
	return rs, nil
}

// Reset forgets every frame pushed, so that the Resampler starts a new
// stream at the same rates. It allocates nothing.
func (rs *Resampler) Reset() {
	rs.n, rs.base, rs.i, rs.r, rs.in, rs.ended = 0, 0, 0, 0, 0, false
}

// Taps returns the length of the filter in input frames.
func (rs *Resampler) Taps() int { return 2 * rs.half }

// Latency returns how many input frames past an output's instant must
// have been pushed before Pop returns it (before End).
func (rs *Resampler) Latency() int { return rs.half }

// Ratio returns to/from in lowest terms, L/M: L output frames for every M
// input frames.
func (rs *Resampler) Ratio() (l, m int64) { return rs.l, rs.m }

// Polyphase reports whether the filter's coefficients come from a
// precomputed polyphase bank (a ratio with a small numerator) rather than
// being interpolated from the prototype's table for each output.
func (rs *Resampler) Polyphase() bool { return rs.bank != nil }

// String describes the conversion, e.g. "256 Hz → 100 Hz, polyphase
// 25/64, 228 taps".
func (rs *Resampler) String() string {
	kind := "polyphase"
	if rs.bank == nil {
		kind = "interpolated"
	}
	return fmt.Sprintf("%v Hz → %v Hz, %s %d/%d, %d taps", rs.from, rs.to, kind, rs.l, rs.m, 2*rs.half)
}

// Push adds one input frame (one sample per channel; the Resampler copies
// it). Pop every ready output before the next Push and the Resampler
// holds about two filter lengths of input, whatever the stream's length,
// and allocates nothing; frames pushed without popping are kept until
// their outputs are popped. A frame of the wrong length, or a Push after
// End, is a programmer error: it panics.
func (rs *Resampler) Push(frame []float64) {
	if len(frame) != rs.chans {
		panic(fmt.Sprintf("resample: Push: frame of %d samples for %d channels", len(frame), rs.chans))
	}
	if rs.ended {
		panic("resample: Push after End")
	}
	if rs.in == 0 {
		// Frames −(H−1) … −1 hold the first frame's values.
		rs.base = -int64(rs.half - 1)
		for range rs.half - 1 {
			rs.append(frame)
		}
	}
	rs.append(frame)
	rs.in++
}

// End marks the end of the input: the frames after the last hold its
// values, and Pop returns the outputs up to the last input frame's
// instant, ⌈inputs·L/M⌉ in all (OutputFrames).
func (rs *Resampler) End() {
	if rs.ended || rs.in == 0 {
		rs.ended = true
		return
	}
	rs.ended = true
	for range rs.half {
		rs.room()
		for _, b := range rs.buf {
			b[rs.n] = b[rs.n-1]
		}
		rs.n++
	}
}

// append adds one frame at the end of buf.
func (rs *Resampler) append(frame []float64) {
	rs.room()
	for c, v := range frame {
		rs.buf[c][rs.n] = v
	}
	rs.n++
}

// room makes buf hold at least one more frame: it drops the frames no
// output still needs, or grows buf when every frame is still needed.
func (rs *Resampler) room() {
	if rs.n < len(rs.buf[0]) {
		return
	}
	drop := min(rs.i-int64(rs.half)+1-rs.base, int64(rs.n))
	if drop > 0 {
		for _, b := range rs.buf {
			copy(b, b[drop:rs.n])
		}
		rs.n -= int(drop)
		rs.base += drop
		return
	}
	for c, b := range rs.buf {
		rs.buf[c] = append(b[:rs.n], make([]float64, len(b))...)
	}
}

// Ready reports whether Pop would return a frame.
func (rs *Resampler) Ready() bool {
	if rs.ended {
		return rs.i < rs.in
	}
	return rs.in > 0 && rs.i+int64(rs.half) < rs.base+int64(rs.n)
}

// Pop writes the next output frame into dst (one sample per channel) and
// reports true, or reports false when the input pushed so far does not
// determine it yet (or, after End, when every output has been returned).
// It allocates nothing. A dst of the wrong length panics.
func (rs *Resampler) Pop(dst []float64) bool {
	if len(dst) != rs.chans {
		panic(fmt.Sprintf("resample: Pop: frame of %d samples for %d channels", len(dst), rs.chans))
	}
	if !rs.Ready() {
		return false
	}
	taps := 2 * rs.half
	var c []float64
	if rs.bank != nil {
		c = rs.bank[int(rs.r)*taps : int(rs.r+1)*taps]
	} else {
		c = rs.interpolate(float64(rs.r) / float64(rs.l))
	}
	k := int(rs.i - int64(rs.half) + 1 - rs.base)
	for ch, b := range rs.buf {
		dst[ch] = dot(c, b[k:k+taps])
	}
	rs.i += rs.mq
	if rs.r += rs.mr; rs.r >= rs.l {
		rs.r -= rs.l
		rs.i++
	}
	return true
}

// interpolate fills rs.coef with the filter's coefficients for an output
// f (0 ≤ f < 1) input frames after an input frame, by linear
// interpolation in the prototype's table (Smith's method), normalised.
func (rs *Resampler) interpolate(f float64) []float64 {
	t := rs.table
	last := len(t) - 1
	for j := range rs.coef {
		x := math.Abs((float64(j-rs.half+1)-f)*rs.rc) * tableDensity
		k := int(x)
		if k >= last {
			rs.coef[j] = 0
			continue
		}
		rs.coef[j] = t[k] + (x-float64(k))*(t[k+1]-t[k])
	}
	normalise(rs.coef)
	return rs.coef
}

// dot returns Σ a[j]·b[j]; b must be at least as long as a.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(a); j += 4 {
		s0 += a[j] * b[j]
		s1 += a[j+1] * b[j+1]
		s2 += a[j+2] * b[j+2]
		s3 += a[j+3] * b[j+3]
	}
	for ; j < len(a); j++ {
		s0 += a[j] * b[j]
	}
	return (s0 + s1) + (s2 + s3)
}

// OutputFrames returns the number of output frames n input frames give
// once End is called: the outputs whose instants k/to fall within the
// input's duration n/from (⌊k·M/L⌋ < n), ⌈n·L/M⌉ of them.
func (rs *Resampler) OutputFrames(n int64) int64 {
	if n <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(n), uint64(rs.l))
	if hi >= uint64(rs.m) {
		return math.MaxInt64
	}
	q, rem := bits.Div64(hi, lo, uint64(rs.m))
	if rem != 0 {
		q++
	}
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}
