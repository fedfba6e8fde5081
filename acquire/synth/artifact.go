package synth

import (
	"math"
	"math/rand/v2"
)

// Artifact kinds.
const (
	kindBlink = iota
	kindMuscle
	kindMimic // one of the ArtifactKinds (events.art)
)

// event is one artifact: samples [start, end), an amplitude in µV and, for
// muscle, the side (−1 left, +1 right, 0 both). The artifacts that mimic
// seizures add a rate, a time constant and two uniform draws whose use
// depends on the kind (mimic.go), and a seed for per-channel draws.
type event struct {
	start, end int64
	amp, side  float64
	hz, tau    float64
	u1, u2     float64
	seed       uint64
}

// events draws the artifacts of one kind in order, from their own random
// stream, so that a fresh copy replays exactly the events the generator
// uses (Intervals relies on this).
type events struct {
	rng     rand.PCG
	kind    int
	rate    float64 // samples per second
	meanGap float64 // mean samples from one event's end to the next start; 0: none
	art     ArtifactKind
	cur     event
}

func newEvents(seed uint64, kind int, perMinute, rate float64) events {
	e := events{kind: kind, rate: rate}
	purpose := streamBlink
	if kind == kindMuscle {
		purpose = streamMuscle
	}
	e.rng = newStream(seed, purpose)
	if perMinute > 0 {
		e.meanGap = mul(60/perMinute, rate)
	}
	e.cur = event{start: math.MaxInt64, end: math.MaxInt64}
	if e.meanGap > 0 {
		e.cur = event{}
		e.advance()
	}
	return e
}

// advance replaces cur by the next event. Gaps are uniform on 0.2 to 1.8
// times the mean, so events never overlap and never come in bursts.
func (e *events) advance() {
	r := &e.rng
	gap := int64(mul(e.meanGap, between(r, 0.2, 1.8)))
	var seconds float64
	next := event{start: e.cur.end + gap}
	switch e.kind {
	case kindMimic:
		seconds = next.drawMimic(r, e.art)
	case kindBlink:
		seconds = between(r, 0.2, 0.4)
		next.amp = between(r, 100, 300)
	default:
		seconds = between(r, 1, 5)
		next.amp = between(r, 15, 45)
		switch u := uniform(r); {
		case u < 0.4:
			next.side = -1
		case u < 0.8:
			next.side = 1
		}
	}
	next.end = next.start + max(int64(mul(seconds, e.rate)), 1)
	e.cur = next
}

// at returns the event in progress at sample n, if any, after advancing
// past the events that ended before n: samples are asked in order.
func (e *events) at(n int64) (event, bool) {
	for n >= e.cur.end {
		e.advance()
	}
	return e.cur, n >= e.cur.start
}

// blinkShape is a blink's deflection at fraction v of its length: a smooth
// bump (4v(1−v))², 1 at the middle.
func blinkShape(v float64) float64 {
	b := mul(4*v, 1-v)
	return mul(b, b)
}

// addBlink adds the blink in progress at sample n, if any.
func (p *Patient) addBlink(n int64, x []float64) {
	e, ok := p.blink.at(n)
	if !ok {
		return
	}
	v := (float64(n-e.start) + 0.5) / float64(e.end-e.start)
	a := mul(e.amp, blinkShape(v))
	for c, g := range p.blinkGain {
		x[c] += mul(g, a)
	}
}

// biquad is a band-pass filter (RBJ cookbook, constant peak gain) in
// transposed direct form II, shared coefficients, one state per channel.
type biquad struct {
	b0, b2, a1, a2 float64 // b1 = 0
	scale          float64 // makes the output unit-variance for unit white input
}

func newBiquad(centre, q, rate float64) biquad {
	w := centre / rate
	alpha := sin2pi(w) / (2 * q)
	a0 := 1 + alpha
	f := biquad{b0: alpha / a0, b2: -alpha / a0, a1: -2 * cos2pi(w) / a0, a2: (1 - alpha) / a0, scale: 1}
	var z [2]float64
	f.scale = unitScale(1<<16, func(x float64) float64 { return f.step(&z, x) })
	return f
}

// unitScale returns the gain that makes a filter's output unit-variance
// for unit white input: 1/√E, E the energy of its impulse response, the
// filter (step, from a zero state) run for n samples, by which it has
// died out.
func unitScale(n int, step func(x float64) float64) float64 {
	energy := 0.0
	for i := 0; i < n; i++ {
		x := 0.0
		if i == 0 {
			x = 1
		}
		y := step(x)
		energy += mul(y, y)
	}
	return 1 / math.Sqrt(energy)
}

func (f *biquad) step(z *[2]float64, x float64) float64 {
	y := mul(f.b0, x) + z[0]
	z[0] = -mul(f.a1, y) + z[1]
	z[1] = mul(f.b2, x) - mul(f.a2, y)
	return mul(y, f.scale)
}

// addMuscle adds the muscle burst in progress at sample n, if any:
// band-passed noise (20–70 Hz at 256 Hz) on the temporal channels of its
// side, with 0.1 s ramps.
func (p *Patient) addMuscle(n int64, x []float64) {
	e, ok := p.muscle.at(n)
	if !ok {
		return
	}
	ramp := mul(0.1, p.rate)
	env := min(float64(n-e.start)+0.5, float64(e.end-n)-0.5, ramp) / ramp
	a := mul(e.amp, env)
	for c := range x {
		var g float64
		switch e.side {
		case -1:
			g = p.muscleLeft[c]
		case 1:
			g = p.muscleRight[c]
		default:
			g = max(p.muscleLeft[c], p.muscleRight[c])
		}
		if g == 0 {
			continue
		}
		y := p.emg.step(&p.emgState[c], normal(&p.noise))
		x[c] += mul(mul(g, a), y)
	}
}
