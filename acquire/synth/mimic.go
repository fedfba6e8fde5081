package synth

import (
	"math/rand/v2"
	"time"
)

// mimic is one kind of ArtifactKinds: its events and the per-channel
// state of the one in progress.
type mimic struct {
	ev, ev0 events // the events; ev0 the initial copy Intervals replays
	started int64  // start of the event laid out; −1 before the first
	skip    bool   // the event laid out overlaps a seizure: left out
	gain    []float64
	z       []chainState // per channel: chewing's EMG, pops' low-pass
	slow    []slowNoise  // per channel: sweat
	filt    chain
	phase   float64
	level   float64 // pops: the electrode's offset, µV
	next    int64   // pops: the sample of the next pop
	decay   float64 // pops: the offset's decay per sample
}

// newMimic returns the events of artifact kind k (the idx-th of
// artifactKinds) at perHour, each kind from its own random stream.
func newMimic(seed uint64, k ArtifactKind, perHour, rate float64, channels int) mimic {
	idx := 0
	for i, a := range artifactKinds {
		if a.kind == k {
			idx = i
		}
	}
	e := events{kind: kindMimic, art: k, rate: rate, rng: newStream(seed, streamMimic+uint64(idx))}
	e.meanGap = mul(3600/perHour, rate)
	e.cur = event{}
	e.advance()
	m := mimic{ev: e, ev0: e, started: -1, gain: make([]float64, channels)}
	switch k {
	case ArtifactChewing:
		m.filt = bandNoise(20, 200, rate)
		m.z = make([]chainState, channels)
	case ArtifactElectrodePops:
		m.filt = lowPass(500, rate)
		m.z = make([]chainState, channels)
	case ArtifactSweat:
		m.slow = make([]slowNoise, channels)
	}
	return m
}

// drawMimic draws the parameters of one artifact of kind k and returns
// its length in seconds (doc.go gives the values and their sources).
func (e *event) drawMimic(r *rand.PCG, k ArtifactKind) float64 {
	var seconds float64
	switch k {
	case ArtifactChewing:
		seconds = between(r, 5, 30)
		e.hz = between(r, 1, 2)
		e.amp = between(r, 30, 100)
		e.side = 1
		if uniform(r) < 0.5 {
			e.side = -1
		}
		e.u1 = between(r, 0.5, 1)     // the other side's share
		e.tau = between(r, 0.3, 0.45) // the burst's share of a chewing cycle
	case ArtifactPatting:
		seconds = between(r, 10, 60)
		e.hz = between(r, 1.5, 3)
		e.amp = between(r, 30, 120)
		e.u1 = between(r, 0.02, 0.1) // g per pat
	case ArtifactRocking:
		seconds = between(r, 10, 60)
		e.hz = between(r, 1, 2)
		e.amp = between(r, 30, 100)
		e.u1 = between(r, 0.05, 0.2) // g of sway
	case ArtifactElectrodePops:
		e.tau = between(r, 0.2, 1)
		seconds = max(between(r, 5, 30), mul(5, e.tau)+2)
		e.amp = between(r, 50, 300)
		e.u1 = uniform(r) // which channel's first electrode
		e.side = 1
		if uniform(r) < 0.5 {
			e.side = -1
		}
	case ArtifactSweat:
		seconds = between(r, 60, 300)
		e.hz = between(r, 0.08, 0.2) // corner of the drift
		e.amp = between(r, 50, 200)
		e.u1, e.u2 = between(r, -0.8, 0.8), between(r, -0.8, 0.8) // centre
	}
	e.seed = r.Uint64()
	return seconds
}

// hash01 is a uniform draw on [0, 1) for channel c of an event.
func hash01(seed uint64, c int) float64 {
	return float64(splitmix64(seed+uint64(c))>>11) * 0x1p-53
}

// patCentre is where patting jolts the electrodes most (the forehead).
var patCentre = point{0, 0.8}

// seizureMargin is how long before a seizure no artifact of ArtifactKinds
// may be.
const seizureMargin = 10 * time.Second

// nearSeizure reports whether event e overlaps a seizure, the
// seizureMargin before it or its post-ictal period: such artifacts are
// left out, so that an alert during one is a false alarm and one during a
// seizure a detection.
func (p *Patient) nearSeizure(e event) bool {
	margin := durationSamples(seizureMargin, p.cfg.Rate)
	for i := range p.sz {
		if e.start < p.sz[i].postEnd && e.end > p.sz[i].onset-margin {
			return true
		}
	}
	return false
}

// layout prepares the per-channel gains of event e.
func (m *mimic) layout(p *Patient, e event) {
	m.phase, m.level, m.next = 0, 0, e.start
	for c := range m.z {
		m.z[c] = chainState{}
	}
	sign := func(c int) float64 {
		if splitmix64(e.seed^uint64(c)<<32)&1 == 1 {
			return -1
		}
		return 1
	}
	switch m.ev.art {
	case ArtifactChewing:
		for c := range m.gain {
			own, other := p.muscleRight[c], p.muscleLeft[c]
			if e.side < 0 {
				own, other = other, own
			}
			m.gain[c] = max(own, mul(e.u1, other))
		}
	case ArtifactPatting:
		for c, st := range p.sites {
			g := 0.3 + mul(0.7, field(st.mid(), 0.5, patCentre))
			m.gain[c] = mul(mul(g, 0.7+mul(0.6, hash01(e.seed, c))), sign(c))
		}
	case ArtifactRocking:
		for c := range p.sites {
			m.gain[c] = mul(0.4+mul(0.6, hash01(e.seed, c)), sign(c))
		}
	case ArtifactElectrodePops:
		pos := p.sites[min(int(mul(e.u1, float64(len(p.sites)))), len(p.sites)-1)].a
		for c, st := range p.sites {
			switch pos {
			case st.a:
				m.gain[c] = 1
			case st.b:
				m.gain[c] = -1
			default:
				m.gain[c] = 0
			}
		}
		m.decay = expm(-1 / mul(e.tau, p.rate))
	case ArtifactSweat:
		centre := point{e.u1, e.u2}
		for c, st := range p.sites {
			m.gain[c] = field(st.mid(), 0.5, centre)
			m.slow[c] = newSlowNoise(e.hz, p.rate)
		}
	}
}

// addMimics adds the artifacts of ArtifactKinds in progress at sample n.
func (p *Patient) addMimics(n int64, x []float64) {
	for i := range p.mimics {
		m := &p.mimics[i]
		e, ok := m.ev.at(n)
		if !ok {
			continue
		}
		if m.started != e.start {
			m.started, m.skip = e.start, p.nearSeizure(e)
			if !m.skip {
				m.layout(p, e)
			}
		}
		if !m.skip {
			m.add(p, e, n, x)
		}
	}
}

// add adds event e of m at sample n.
func (m *mimic) add(p *Patient, e event, n int64, x []float64) {
	ramp := min(mul(0.5, p.rate), float64(e.end-e.start)/4)
	env := min(float64(n-e.start)+0.5, float64(e.end-n)-0.5, ramp) / ramp
	m.phase += e.hz / p.rate
	if m.phase >= 1 {
		m.phase--
	}
	switch m.ev.art {
	case ArtifactChewing:
		// Jaw-closing bursts: a Hann-shaped EMG envelope over the first
		// e.tau of each chewing cycle.
		b := 0.0
		if m.phase < e.tau {
			b = 0.5 - mul(0.5, cos2pi(m.phase/e.tau))
		}
		a := mul(mul(e.amp, env), b)
		for c, g := range m.gain {
			if g == 0 {
				continue
			}
			y := m.filt.step(&m.z[c], normal(&p.mimicNoise))
			x[c] += mul(mul(g, a), y)
		}
	case ArtifactPatting:
		// One smooth pulse a pat (a fifth of a cycle each side of its
		// peak), the head jolted forward.
		pulse := mul(mul(e.amp, env), bump(m.phase, 0.5, 0.2))
		for c, g := range m.gain {
			x[c] += mul(g, pulse)
		}
		p.accelAdd[0] += mul(mul(e.u1, env), bump(m.phase, 0.5, 0.2))
	case ArtifactRocking:
		w := sineWave.at(m.phase) + mul(0.25, sineWave.at(mul(2, m.phase)))
		a := mul(mul(e.amp, env), w)
		for c, g := range m.gain {
			x[c] += mul(g, a)
		}
		p.accelAdd[1] += mul(mul(e.u1, env), sineWave.at(m.phase))
		p.accelAdd[2] += mul(mul(mul(0.3, e.u1), env), sineWave.at(mul(2, m.phase)))
	case ArtifactElectrodePops:
		// Steps at irregular intervals, none in the last 5τ, each
		// decaying with time constant τ, low-passed like any edge.
		if n >= m.next && float64(e.end-n) > mul(mul(5, e.tau), p.rate) {
			m.level += mul(mul(e.side, e.amp), between(&p.mimicNoise, 0.7, 1.3))
			m.next = n + int64(mul(between(&p.mimicNoise, 0.2, 2), p.rate))
		}
		for c, g := range m.gain {
			if g != 0 {
				x[c] += m.filt.step(&m.z[c], mul(g, m.level))
			}
		}
		m.level = mul(m.level, m.decay)
	case ArtifactSweat:
		// Raised-cosine ramps over a fifth of the length at each end.
		length := float64(e.end - e.start)
		v := min(float64(n-e.start)/mul(0.2, length), float64(e.end-n)/mul(0.2, length), 1)
		a := mul(e.amp, 0.5-mul(0.5, cos2pi(mul(0.5, v))))
		for c, g := range m.gain {
			if g < 0.05 {
				continue
			}
			x[c] += mul(mul(g, a), m.slow[c].step(normal(&p.mimicNoise)))
		}
	}
}
