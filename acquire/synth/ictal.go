package synth

import (
	"math"
	"math/rand/v2"
)

// kindParams holds what the seizure kinds other than rhythmic add to a
// seizure (doc.go gives the values and their sources).
type kindParams struct {
	// The discharge (lvfa-onset, low-amplitude, delta, absence): at u = 0,
	// knee and 1 (u the fraction of the seizure elapsed) its frequency
	// (Hz, interpolated in log), strength (RMS over the background's) and
	// share of spike-and-wave; between the nodes a smoothstep.
	knee          float64
	hz, amp, spk  [3]float64
	lnHz          [2]float64 // ln(hz[1]/hz[0]), ln(hz[2]/hz[1])
	wander        float64    // Hz of slow frequency wander
	atten         float64    // background attenuation at onset, gone by the knee
	ramp          float64    // seconds a channel takes to join at full strength
	fade          float64    // seconds of fade-out at the end
	frontal       bool       // generalised with a frontal maximum (absence)
	tonic         int64      // samples of tonic phase (gtcs)
	emg           float64    // EMG RMS in µV at full gain (gtcs)
	recruit       float64    // strength of the tonic phase's recruiting rhythm (gtcs)
	slow          float64    // strength of the clonic slow waves (gtcs)
	jerk, tilt    float64    // accelerometer: g per clonic jerk, posture change in turns (gtcs)
	axis          [3]float64 // direction of the jerks (gtcs)
	clonic0, clon float64    // clonic rate at the start (Hz), ln of its fall over the clonic phase
}

// ln5 is ln 5: the clonic bursts slow from 5 Hz to 1 Hz.
const ln5 = 1.6094379124341003

// drawKind draws the parameters of a seizure of a kind other than
// rhythmic from kr, after schedule has drawn the common ones (which it
// overrides where the kind says otherwise).
func (s *seizure) drawKind(kr *rand.PCG, rate float64) {
	k := &s.k
	k.ramp, k.fade, k.wander = rampSeconds, fadeSeconds, 0.3
	switch s.kind {
	case SeizureLVFAOnset:
		// Beta (LVFA ≥ 13 Hz) slowing to theta within 30 s, then to
		// delta; low voltage at onset on an attenuated background,
		// growing as it slows; wide spread.
		k.hz = [3]float64{between(kr, 15, 25), between(kr, 5, 8), between(kr, 2, 3.5)}
		k.amp = [3]float64{between(kr, 0.6, 1.2), between(kr, 4, 7), between(kr, 3, 5)}
		k.spk = [3]float64{0, between(kr, 0.1, 0.3), between(kr, 0.4, 0.7)}
		k.knee = between(kr, 0.25, 0.4)
		k.atten = between(kr, 0.3, 0.6)
		s.radius = between(kr, 1.2, 2.5)
		s.spread = mul(between(kr, 10, 25), rate)
	case SeizureLowAmplitude:
		hz := between(kr, 5, 8)
		k.hz = [3]float64{hz, mul(hz, between(kr, 0.8, 1)), mul(hz, between(kr, 0.6, 0.8))}
		a := between(kr, 1.2, 2)
		k.amp = [3]float64{mul(a, 0.6), a, a}
		k.spk = [3]float64{0, between(kr, 0, 0.1), between(kr, 0.05, 0.2)}
		k.knee = between(kr, 0.2, 0.4)
		s.radius = between(kr, 0.4, 1)
		s.spread = mul(between(kr, 10, 20), rate)
		s.post = int64(mul(between(kr, 10, 30), rate))
		s.depth = between(kr, 0.1, 0.3)
	case SeizureDelta:
		hz := between(kr, 2, 3.5)
		k.hz = [3]float64{hz, mul(hz, between(kr, 0.85, 1)), between(kr, 1.5, 2.5)}
		a := between(kr, 3, 6)
		k.amp = [3]float64{mul(a, 0.4), a, mul(a, between(kr, 0.7, 1))}
		k.spk = [3]float64{between(kr, 0.1, 0.3), between(kr, 0.2, 0.5), between(kr, 0.2, 0.5)}
		k.knee = between(kr, 0.2, 0.35)
		k.wander = 0.4
		s.radius = between(kr, 0.8, 1.8)
		s.spread = mul(between(kr, 10, 20), rate)
	case SeizureAbsence:
		// Generalised, frontally predominant 3 Hz spike-and-wave, faster
		// at onset, abrupt at both ends, no post-ictal change.
		k.hz = [3]float64{between(kr, 3.5, 4), between(kr, 3, 3.5), between(kr, 2.5, 3)}
		a := between(kr, 5, 8)
		k.amp = [3]float64{a, a, mul(a, between(kr, 0.8, 1))}
		k.spk = [3]float64{between(kr, 0.8, 1), between(kr, 0.8, 1), between(kr, 0.7, 0.9)}
		k.knee = 0.3
		k.ramp, k.fade, k.wander = 0.25, 0.25, 0.1
		k.frontal = true
		s.post = 0
	case SeizureTonicClonic:
		k.emg = between(kr, 50, 150)
		k.recruit = between(kr, 2, 3)
		k.slow = between(kr, 2, 4)
		k.jerk = between(kr, 0.3, 1.5)
		k.tilt = between(kr, 0.03, 0.08)
		// A direction for the jerks: uniform on the sphere.
		z := between(kr, -1, 1)
		rxy := math.Sqrt(1 - mul(z, z))
		az := uniform(kr)
		k.axis = [3]float64{mul(rxy, cos2pi(az)), mul(rxy, sin2pi(az)), z}
		k.clonic0, k.clon = 5, ln5
		s.f0, s.f1 = between(kr, 9, 11), 1
		s.post = int64(mul(between(kr, 30, 90), rate))
		s.depth = between(kr, 0.85, 0.95)
		s.deltaHz = between(kr, 0.8, 1.5)
		return
	}
	// No component may reach 0.45 × the rate (lvfa-onset at 64 Hz).
	k.hz[0] = min(k.hz[0], mul(0.3, rate))
	k.lnHz = [2]float64{lnm(k.hz[1] / k.hz[0]), lnm(k.hz[2] / k.hz[1])}
	s.f0, s.f1 = k.hz[0], k.hz[2]
}

// node interpolates v at u from the nodes at 0, knee and 1 with a
// smoothstep between them, in log where ln is given.
func (k *kindParams) node(u float64) (seg int, w float64) {
	if u < k.knee {
		w = u / k.knee
	} else {
		seg, w = 1, (u-k.knee)/(1-k.knee)
	}
	w = min(max(w, 0), 1)
	return seg, mul(mul(w, w), 3-mul(2, w))
}

func (k *kindParams) freq(u float64) float64 {
	seg, w := k.node(u)
	return mul(k.hz[seg], expm(mul(w, k.lnHz[seg])))
}

func (k *kindParams) lerp(v *[3]float64, u float64) float64 {
	seg, w := k.node(u)
	return v[seg] + mul(w, v[seg+1]-v[seg])
}

// frontalCentre is where an absence's field is strongest (between Fz and
// the frontal poles), and frontalWidth2 its width².
var frontalCentre = point{0, 0.6}

const frontalWidth2 = 0.8

// layoutKind prepares the per-channel state of a seizure of a kind other
// than rhythmic, as layout does for rhythmic: the focal kinds spread as
// rhythmic does; an absence reaches every channel at once, strongest
// frontally (half as strong at the back), each derivation's polarity that
// of the field's gradient along it; a tonic–clonic seizure reaches every
// channel at once.
func (p *Patient) layoutKind(s *seizure) {
	k := &s.k
	front := func(q point) float64 { return field(q, frontalWidth2, frontalCentre) }
	top := 0.0
	for _, st := range p.sites {
		top = max(top, front(st.mid()))
	}
	for c, st := range p.sites {
		p.szDelay[c] = s.delay(p.sites, c)
		p.szLag[c] = 0
		if p.szDelay[c] < 0 {
			p.szGain[c], p.szDelta[c] = 0, 0
			continue
		}
		near := 1.0
		negative := splitmix64(s.polarity+uint64(c))&1 == 1
		switch {
		case k.frontal:
			near = 0.5 + mul(0.5, front(st.mid())/top)
			negative = st.derive(front) < 0
		case !s.kind.generalised():
			near = 1 - mul(0.5, s.distance(p.sites, c)/s.radius)
			p.szLag[c] = mul(0.08, s.distance(p.sites, c))
		}
		g := mul(math.Sqrt2, mul(p.level[c], near))
		if negative {
			g = -g
		}
		p.szGain[c] = g
		p.szDelta[c] = mul(mul(1.2, math.Sqrt2), mul(p.level[c], near))
		if s.kind == SeizureTonicClonic {
			// Post-ictal generalised suppression: flat at first, the
			// slowing small.
			p.szDelta[c] = mul(mul(0.3, math.Sqrt2), p.level[c])
		}
	}
	if s.kind == SeizureTonicClonic {
		for c := range p.sites {
			// Scalp muscles everywhere, temporalis and frontalis most.
			m := max(p.muscleLeft[c], p.muscleRight[c])
			p.emgGain[c] = mul(0.4+mul(0.6, m), between(&p.ictalNoise, 0.8, 1.2))
			p.tcState[c] = chainState{}
		}
		p.clonicPhase, p.jerkScale = 0, 1
	}
	p.kindInvRamp = 1 / mul(k.ramp, p.rate)
	p.szPhase = s.phase0
	p.deltaPhase = 0
}

// strongest returns the channel where a generalised seizure of kind k is
// strongest: for an absence the one nearest the frontal maximum, for a
// tonic–clonic seizure the first with the most muscle.
func strongest(k SeizureKind, sites []site) int {
	best, bestV := 0, math.Inf(-1)
	for c, st := range sites {
		v := field(st.mid(), frontalWidth2, frontalCentre)
		if k == SeizureTonicClonic {
			v = max(muscleGain(st, -1), muscleGain(st, 1))
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// addDischarge adds the discharge of an lvfa-onset, low-amplitude, delta
// or absence seizure at sample n. Its frequency, strength and spike share
// follow the kind's nodes; each channel joins over k.ramp seconds after
// its delay, and the background of the channels reached is attenuated by
// k.atten at onset, recovering by the knee.
func (p *Patient) addDischarge(n int64, x []float64) {
	s := &p.sz[p.si]
	k := &s.k
	t := n - s.onset
	length := s.end - s.onset
	u := float64(t) / float64(length)
	f := max(k.freq(u)+mul(k.wander, p.kindJitter.step(normal(&p.ictalNoise))), 0.5)
	p.szPhase += f / p.rate
	if p.szPhase >= 1 {
		p.szPhase--
	}
	fade := min(mul(k.fade, p.rate), float64(length)/10)
	g := mul(k.lerp(&k.amp, u), min(float64(s.end-n)/fade, 1))
	spiky := k.lerp(&k.spk, u)
	att := 0.0
	if k.atten > 0 && u < k.knee {
		att = mul(k.atten, 1-u/k.knee)
	}
	h := maxHarmonics
	if hc := int(mul(harmonicCap, p.rate) / f); hc < h {
		h = max(hc, 1)
	}
	spikes := &p.spikes[h]
	for c, d := range p.szDelay {
		if d < 0 || t < d {
			continue
		}
		r := min(mul(float64(t-d), p.kindInvRamp), 1)
		ph := p.szPhase + p.szLag[c]
		sine := sineWave.at(ph)
		w := sine + mul(spiky, spikes.at(ph)-sine)
		if att > 0 {
			x[c] = mul(x[c], 1-mul(att, r))
		}
		x[c] += mul(mul(p.szGain[c], mul(g, r)), w)
	}
}

// addTonicClonic adds a generalised tonic–clonic seizure at sample n.
// Tonic phase: broadband EMG on every channel (most on the temporal ones),
// reaching full strength in half a second, over a generalised 9–11 Hz
// recruiting rhythm that grows from 1 to k.recruit times the background;
// the accelerometer tilts (posture) and trembles. Clonic phase: EMG
// bursts of constant length (0.2 s, at most half a period) whose rate
// falls exponentially from 5 to 1 Hz, so the silent periods grow, each
// followed by a generalised slow wave; each burst jerks the accelerometer.
func (p *Patient) addTonicClonic(n int64, x []float64) {
	s := &p.sz[p.si]
	k := &s.k
	t := n - s.onset
	end := min(float64(s.end-n)/mul(0.5, p.rate), 1) // the last half second fades
	p.tilt = mul(k.tilt, min(float64(t)/mul(1.5, p.rate), 1))
	var emg, eeg float64
	if t < k.tonic {
		ut := float64(t) / float64(k.tonic)
		emg = min(float64(t)/mul(0.5, p.rate), 1)
		f := s.f0 + mul(0.3, p.kindJitter.step(normal(&p.ictalNoise)))
		p.szPhase += f / p.rate
		if p.szPhase >= 1 {
			p.szPhase--
		}
		eeg = mul(1+mul(k.recruit-1, ut), sineWave.at(p.szPhase))
		for i := range p.accelAdd {
			p.accelAdd[i] += mul(mul(0.03, emg), normal(&p.ictalNoise))
		}
	} else {
		uc := float64(t-k.tonic) / float64(s.end-s.onset-k.tonic)
		period := 1 / mul(k.clonic0, expm(-mul(uc, k.clon))) // seconds
		p.clonicPhase += 1 / mul(period, p.rate)
		if p.clonicPhase >= 1 {
			p.clonicPhase--
			p.jerkScale = between(&p.ictalNoise, 0.8, 1.2)
		}
		pos := mul(p.clonicPhase, period)
		burst := min(0.2, period/2)
		if pos < burst {
			v := pos / burst
			emg = mul(p.jerkScale, 0.5-mul(0.5, cos2pi(v)))
			jerk := mul(mul(k.jerk, p.jerkScale), sin2pi(v))
			for i := range p.accelAdd {
				p.accelAdd[i] += mul(jerk, k.axis[i])
			}
		} else {
			v := (pos - burst) / (period - burst)
			eeg = -mul(k.slow, sin2pi(mul(0.5, v)))
		}
	}
	emg, eeg = mul(mul(emg, end), k.emg), mul(eeg, end)
	for c := range x {
		y := p.emgFilter.step(&p.tcState[c], normal(&p.ictalNoise))
		x[c] += mul(mul(p.emgGain[c], emg), y) + mul(p.szGain[c], eeg)
	}
}
