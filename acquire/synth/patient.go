package synth

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/ictal/ictal/acquire"
)

// ErrClosed is returned by ReadFrame after Close.
var ErrClosed = errors.New("synth: patient closed")

// warmUp is how long the background runs before the first frame, so that
// the slow filters start in their stationary state.
const warmUp = 8 * time.Second

// Patient is a simulated patient: an acquire.Source of EEG frames and an
// acquire.Labeled list of its seizures and artifacts. Its state is
// O(channels); frames are generated as they are read.
type Patient struct {
	cfg   Config
	info  acquire.Info
	rate  float64
	total int64 // frames in the recording
	n     int64 // next frame
	done  bool

	sites []site
	sigma []float64 // RMS of the pink background per channel, µV
	level []float64 // RMS of the whole background (pink and alpha) per channel, µV

	noise  rand.PCG
	pink   pinkBank  // the channels' own sources, then the shared ones
	shared []float64 // this frame's shared source values
	own    []float64 // per channel: gain of its own source
	mix    []float64 // per channel × shared source: gain
	alphaG []float64 // per channel: gain of the alpha rhythm
	alpha  alphaSource

	sz                     []seizure
	si, laidOut            int
	szDelay                []int64
	szGain, szLag, szDelta []float64
	szPhase, deltaPhase    float64
	invRamp                float64
	ictalJitter            slowNoise

	blink, muscle           events
	blink0, muscle0         events // initial copies, replayed by Intervals
	blinkGain               []float64
	muscleLeft, muscleRight []float64
	emg                     biquad
	emgState                [][2]float64

	// The seizure kinds other than rhythmic (ictal.go), from their own
	// random stream so that they leave the background untouched.
	ictalNoise             rand.PCG
	kindJitter             slowNoise
	kindInvRamp            float64
	spikes                 *[maxHarmonics + 1]waveTable
	emgFilter              chain
	emgGain                []float64
	tcState                []chainState
	clonicPhase, jerkScale float64

	mimics     []mimic // ArtifactKinds, in order
	mimicNoise rand.PCG

	// The accelerometer (accel.go): what the seizures and artifacts add
	// this frame, and the posture's tilt in turns.
	accel      bool
	accelNoise rand.PCG
	accelLP    chain
	accelZ     [3]chainState
	accelAdd   [3]float64
	tilt       float64
}

// New returns the simulated patient cfg describes, or an error wrapping
// ErrConfig that names the bad field.
func New(cfg Config) (*Patient, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	nc := cfg.Channels
	p := &Patient{
		cfg:     cfg,
		rate:    float64(cfg.Rate),
		total:   durationSamples(cfg.Duration, cfg.Rate),
		laidOut: -1,
	}
	p.info = acquire.Info{Channels: make([]acquire.Channel, nc, nc+len(accelLabels)), Rate: p.rate, Start: cfg.Start}
	p.sites = make([]site, nc)
	for i, l := range cfg.Labels {
		p.info.Channels[i] = acquire.Channel{Label: l, Unit: "uV", Rate: p.rate}
		p.sites[i] = siteOf(i, l)
	}
	if cfg.Accelerometer {
		p.accel = true
		for _, l := range accelLabels {
			p.info.Channels = append(p.info.Channels, acquire.Channel{Label: l, Unit: AccelUnit, Rate: p.rate})
		}
	}

	// Per-patient and per-channel traits.
	geo := newStream(cfg.Seed, streamGeometry)
	p.sigma = make([]float64, nc)
	alphas := make([]float64, nc+len(sharedSources))
	for c := range nc {
		p.sigma[c] = between(&geo, 18, 30)
		alphas[c] = between(&geo, 1.5, 1.9)
	}
	for s := range sharedSources {
		alphas[nc+s] = sharedAlpha
	}
	p.pink = newPinkBank(p.rate, alphas)
	p.spatial()
	p.alpha = alphaSource{
		hz:     between(&geo, 8.5, 11),
		amp:    between(&geo, 15, 30),
		rate:   p.rate,
		jitter: newSlowNoise(0.3, p.rate),
		env:    newSlowNoise(0.2, p.rate),
	}
	p.noise = newStream(cfg.Seed, streamNoise)
	// The alpha envelope e has mean 0.8 and standard deviation 0.55 (the
	// clamp aside), so the rhythm adds (amp·gain)²·E[e²]/2 of variance.
	p.level = make([]float64, nc)
	for c := range nc {
		a := mul(p.alpha.amp, p.alphaG[c])
		p.level[c] = math.Sqrt(mul(p.sigma[c], p.sigma[c]) + mul(mul(a, a), (0.8*0.8+0.55*0.55)/2))
	}

	p.events(cfg)

	scratch := make([]float64, nc)
	var acc [3]float64
	for range durationSamples(warmUp, cfg.Rate) {
		p.background(scratch)
		if p.accel {
			p.addAccel(acc[:])
		}
	}
	return p, nil
}

// spatial sets how each channel sees the regional background sources,
// its own noise, the alpha rhythm, blinks and the muscles of either side.
// It draws nothing from the random streams.
func (p *Patient) spatial() {
	nc := len(p.sites)
	p.shared = make([]float64, len(sharedSources))
	p.own = make([]float64, nc)
	p.mix = make([]float64, nc*len(sharedSources))
	p.alphaG = make([]float64, nc)
	p.blinkGain = make([]float64, nc)
	p.muscleLeft = make([]float64, nc)
	p.muscleRight = make([]float64, nc)
	for c, st := range p.sites {
		// Background: √(1−share) of the channel's own noise plus √share
		// of the regional sources near it, weighted by proximity and
		// normalised so the variance is σ².
		m := p.mix[c*len(sharedSources) : (c+1)*len(sharedSources)]
		ss := 0.0
		for s, src := range sharedSources {
			m[s] = field(st.mid(), sharedWidth2, src)
			ss += mul(m[s], m[s])
		}
		k := mul(math.Sqrt(sharedShare/ss), p.sigma[c])
		for s := range m {
			m[s] = mul(m[s], k)
		}
		p.own[c] = mul(math.Sqrt(1-sharedShare), p.sigma[c])
		p.alphaG[c] = alphaGain(st)
		p.blinkGain[c] = blinkGain(st)
		p.muscleLeft[c] = muscleGain(st, -1)
		p.muscleRight[c] = muscleGain(st, 1)
	}
}

// events schedules the seizures, blinks and muscle bursts and sets up
// their per-channel state.
func (p *Patient) events(cfg Config) {
	nc := len(p.sites)
	p.sz = schedule(cfg, p.total, p.sites)
	p.szDelay = make([]int64, nc)
	p.szGain = make([]float64, nc)
	p.szLag = make([]float64, nc)
	p.szDelta = make([]float64, nc)
	p.invRamp = 1 / mul(rampSeconds, p.rate)
	p.ictalJitter = newSlowNoise(0.5, p.rate)

	p.blink = newEvents(cfg.Seed, kindBlink, cfg.BlinksPerMinute, p.rate)
	p.muscle = newEvents(cfg.Seed, kindMuscle, cfg.MusclePerMinute, p.rate)
	p.blink0, p.muscle0 = p.blink, p.muscle
	p.emg = newBiquad(min(40, mul(0.3, p.rate)), 0.8, p.rate)
	p.emgState = make([][2]float64, nc)

	p.ictalNoise = newStream(cfg.Seed, streamIctal)
	p.kindJitter = newSlowNoise(0.5, p.rate)
	for _, k := range cfg.SeizureKinds {
		switch k {
		case SeizureRhythmic:
		case SeizureTonicClonic:
			// Surface EMG: 20 Hz up, most power below 400 Hz (doc.go).
			p.emgFilter = bandNoise(20, 400, p.rate)
			p.emgGain = make([]float64, nc)
			p.tcState = make([]chainState, nc)
		default:
			p.spikes = spikeHarmonics()
		}
	}
	p.mimicNoise = newStream(cfg.Seed, streamMimicNoise)
	for _, k := range cfg.ArtifactKinds {
		p.mimics = append(p.mimics, newMimic(cfg.Seed, k, cfg.ArtifactsPerHour, p.rate, nc))
	}
	if cfg.Accelerometer {
		p.accelNoise = newStream(cfg.Seed, streamAccel)
		p.accelLP = lowPass(accelBand, p.rate)
	}
}

// Info describes the channels (labelled as configured, in µV; then, with
// Config.Accelerometer, "Accel X", "Accel Y" and "Accel Z" in g), the rate
// and the start time.
func (p *Patient) Info() acquire.Info {
	info := p.info
	info.Channels = append([]acquire.Channel(nil), p.info.Channels...)
	return info
}

// Config returns the patient's configuration with the defaults filled in.
func (p *Patient) Config() Config {
	c := p.cfg
	c.Labels = append([]string(nil), c.Labels...)
	c.Onsets = append([]time.Duration(nil), c.Onsets...)
	c.SeizureKinds = append([]SeizureKind(nil), c.SeizureKinds...)
	c.ArtifactKinds = append([]ArtifactKind(nil), c.ArtifactKinds...)
	return c
}

// Frames returns the number of frames in the recording.
func (p *Patient) Frames() int64 { return p.total }

// ReadFrame fills f with the next frame. Seq is the sample index and Time
// is exactly Seq/Rate seconds (truncated to the nanosecond). It returns
// io.EOF after the last frame, an error wrapping acquire.ErrFrameSize if
// f.Samples does not have one element per channel, and ErrClosed after
// Close. It allocates nothing.
func (p *Patient) ReadFrame(f *acquire.Frame) error {
	if p.done {
		return ErrClosed
	}
	if len(f.Samples) != len(p.info.Channels) {
		return fmt.Errorf("synth: frame has %d samples for %d channels: %w", len(f.Samples), len(p.info.Channels), acquire.ErrFrameSize)
	}
	n := p.n
	if n >= p.total {
		return io.EOF
	}
	x := f.Samples[:len(p.sites)]
	p.tilt = 0
	p.background(x)
	for p.si < len(p.sz) && n >= p.sz[p.si].postEnd {
		p.si++
	}
	if p.si < len(p.sz) && n >= p.sz[p.si].onset {
		if p.laidOut != p.si {
			p.layout(p.si)
			p.laidOut = p.si
		}
		switch s := &p.sz[p.si]; {
		case n >= s.end:
			p.addPostictal(n, x)
		case s.kind == SeizureRhythmic:
			p.addSeizure(n, x)
		case s.kind == SeizureTonicClonic:
			p.addTonicClonic(n, x)
		default:
			p.addDischarge(n, x)
		}
	}
	p.addBlink(n, x)
	p.addMuscle(n, x)
	p.addMimics(n, x)
	if p.accel {
		p.addAccel(f.Samples[len(p.sites):])
	}
	p.accelAdd = [3]float64{}
	f.Reset()
	f.Seq = uint64(n)
	f.Time = p.stamp(n)
	p.n++
	return nil
}

// background writes one frame of background EEG (pink noise with a shared
// regional part, and the alpha rhythm) into x.
func (p *Patient) background(x []float64) {
	nc := len(x)
	for s := range p.shared {
		p.shared[s] = p.pink.step(nc+s, normal(&p.noise))
	}
	a := p.alpha.next(&p.noise)
	ns := len(p.shared)
	for c := range x {
		v := mul(p.own[c], p.pink.step(c, normal(&p.noise)))
		for s, m := range p.mix[c*ns : (c+1)*ns] {
			v += mul(m, p.shared[s])
		}
		x[c] = v + mul(p.alphaG[c], a)
	}
}

// Close ends the recording; ReadFrame then returns ErrClosed.
func (p *Patient) Close() error {
	p.done = true
	return nil
}

func (p *Patient) stamp(n int64) time.Duration { return stampFor(n, p.cfg.Rate) }

// String describes the patient briefly.
func (p *Patient) String() string {
	return fmt.Sprintf("synth patient seed %d: %d channels at %d Hz, %v, %d seizures",
		p.cfg.Seed, len(p.sites), p.cfg.Rate, p.stamp(p.total), len(p.sz))
}
