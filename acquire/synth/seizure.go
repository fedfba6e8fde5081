package synth

import (
	"math"
	"sort"
	"time"
)

// Seizure describes one simulated seizure.
type Seizure struct {
	// Kind is the seizure's kind.
	Kind SeizureKind
	// Start and End bound the ictal discharge, from the recording's start.
	Start, End time.Duration
	// Tonic is how long the tonic phase of a tonic–clonic seizure lasts
	// from Start (the clonic phase takes the rest); zero for other kinds.
	Tonic time.Duration
	// Focus lists the one or two channels where the discharge begins (for
	// the generalised kinds, where it is strongest).
	Focus []int
	// StartHz and EndHz are the discharge's fundamental frequency at onset
	// and at the end; it moves smoothly between them, wandering by about
	// ±0.3 Hz. For a tonic–clonic seizure they are the tonic phase's
	// recruiting rhythm and the last clonic bursts' rate.
	StartHz, EndHz float64
	// Reached lists the channels the discharge reaches before it ends, in
	// the order it reaches them (the focus first).
	Reached []int
	// Arrivals gives, for each channel of Reached, when the discharge
	// reaches it, from Start.
	Arrivals []time.Duration
}

// seizure is a scheduled seizure and the parameters that make it unlike
// the others.
type seizure struct {
	onset, end, postEnd int64 // samples
	focus               []int
	f0, f1              float64 // Hz at onset and end
	ratio               float64 // discharge RMS over background RMS at the focus, at full strength
	s0, s1              float64 // share of spike-and-wave in the waveform at onset and end
	radius              float64 // how far it spreads (scalp units, the head's radius is 1)
	spread              float64 // samples it takes to reach radius
	phase0              float64
	post                int64   // nominal post-ictal samples
	depth               float64 // post-ictal suppression of the background, 0..1
	deltaHz             float64 // post-ictal slowing
	polarity            uint64  // seeds each channel's polarity

	kind SeizureKind
	k    kindParams // the parameters of the kinds other than rhythmic
}

// Recruitment: a channel joins over rampSeconds; the whole discharge fades
// out over the last fadeSeconds (or a tenth of the seizure).
const (
	rampSeconds = 2.0
	fadeSeconds = 3.0
)

// schedule draws the seizures of cfg (with defaults filled in).
func schedule(cfg Config, total int64, sites []site) []seizure {
	r := newStream(cfg.Seed, streamSchedule)
	kr := newStream(cfg.Seed, streamKind)
	rate := float64(cfg.Rate)
	toSamples := func(d time.Duration) int64 { return durationSamples(d, cfg.Rate) }
	minD, maxD := toSamples(cfg.SeizureMin), toSamples(cfg.SeizureMax)
	gap := toSamples(SeizureGap)
	sz := make([]seizure, cfg.Seizures)
	for i := range sz {
		s := &sz[i]
		s.kind = cfg.SeizureKinds[i%len(cfg.SeizureKinds)]
		uDur := uniform(&r)
		dur := minD + int64(mul(float64(maxD-minD), uDur))
		switch s.kind {
		case SeizureRhythmic:
		case SeizureTonicClonic:
			s.k.tonic = int64(mul(between(&kr, tonicMin.Seconds(), tonicMax.Seconds()), rate))
			dur = s.k.tonic + int64(mul(between(&kr, clonicMin.Seconds(), clonicMax.Seconds()), rate))
		default:
			lo, hi := s.kind.durations(cfg)
			dur = toSamples(lo) + int64(mul(float64(toSamples(hi)-toSamples(lo)), uDur))
		}
		uOnset := uniform(&r)
		if len(cfg.Onsets) > 0 {
			s.onset = toSamples(cfg.Onsets[i])
		} else {
			slot := total / int64(len(sz))
			s.onset = int64(i)*slot + gap/2 + int64(mul(float64(slot-dur-gap), uOnset))
		}
		s.end = s.onset + dur
		s.focus = []int{int(mul(float64(len(sites)), uniform(&r)))}
		if uniform(&r) < 0.5 && len(sites) > 1 {
			s.focus = append(s.focus, nearest(sites, s.focus[0]))
		}
		lowHz, highHz := between(&r, 3, 5), between(&r, 6, 8)
		if uniform(&r) < 0.6 {
			s.f0, s.f1 = lowHz, highHz
		} else {
			s.f0, s.f1 = highHz, lowHz
		}
		s.ratio = between(&r, 5, 8)
		s.s0 = between(&r, 0.05, 0.3)
		s.s1 = between(&r, 0.35, 0.7)
		s.radius = between(&r, 0.7, 2.2)
		s.spread = mul(between(&r, 10, 20), rate)
		s.phase0 = uniform(&r)
		s.post = int64(mul(between(&r, 20, 60), rate))
		s.depth = between(&r, 0.4, 0.7)
		s.deltaHz = between(&r, 1, 2)
		s.polarity = r.Uint64()
		if s.kind != SeizureRhythmic {
			s.drawKind(&kr, rate)
		}
		if s.kind.generalised() {
			s.focus = []int{strongest(s.kind, sites)}
		}
	}
	for i := range sz {
		s := &sz[i]
		s.postEnd = min(s.end+s.post, total)
		if i+1 < len(sz) {
			s.postEnd = min(s.postEnd, sz[i+1].onset)
		}
	}
	return sz
}

// nearest returns the channel whose centre is closest to channel i's (the
// lowest index among equals).
func nearest(sites []site, i int) int {
	best, bestD := -1, math.Inf(1)
	for j, s := range sites {
		if j == i {
			continue
		}
		if d := dist(s.mid(), sites[i].mid()); d < bestD {
			best, bestD = j, d
		}
	}
	return best
}

// distance returns how far channel c is from the seizure's focus.
func (s *seizure) distance(sites []site, c int) float64 {
	d := math.Inf(1)
	for _, f := range s.focus {
		d = min(d, dist(sites[c].mid(), sites[f].mid()))
	}
	return d
}

// delay returns the samples after onset at which the discharge reaches
// channel c, or −1 if it never spreads that far.
func (s *seizure) delay(sites []site, c int) int64 {
	if s.kind.generalised() {
		return 0
	}
	d := s.distance(sites, c)
	if d > s.radius {
		return -1
	}
	return int64(mul(d/s.radius, s.spread))
}

// layout prepares the per-channel state of seizure i: when the discharge
// reaches each channel, with what gain (weaker and lagging further from
// the focus, polarity depending on the derivation) and how strong the
// post-ictal slowing is there.
func (p *Patient) layout(i int) {
	s := &p.sz[i]
	if s.kind != SeizureRhythmic {
		p.layoutKind(s)
		return
	}
	for c := range p.sites {
		p.szDelay[c] = s.delay(p.sites, c)
		if p.szDelay[c] < 0 {
			p.szGain[c], p.szLag[c], p.szDelta[c] = 0, 0, 0
			continue
		}
		near := 1 - mul(0.5, s.distance(p.sites, c)/s.radius)
		g := mul(mul(s.ratio, math.Sqrt2), mul(p.level[c], near))
		if splitmix64(s.polarity+uint64(c))&1 == 1 {
			g = -g
		}
		p.szGain[c] = g
		p.szLag[c] = mul(0.08, s.distance(p.sites, c))
		p.szDelta[c] = mul(mul(1.2, math.Sqrt2), mul(p.level[c], near))
	}
	p.szPhase = s.phase0
	p.deltaPhase = 0
}

// addSeizure adds the ictal discharge at sample n (inside seizure p.si).
// The rhythm's frequency glides from f0 to f1; its amplitude grows from
// 30 % to full strength over the first 30 % of the seizure; spike-and-wave
// complexes take a growing share of the waveform.
func (p *Patient) addSeizure(n int64, x []float64) {
	s := &p.sz[p.si]
	t := n - s.onset
	length := s.end - s.onset
	u := float64(t) / float64(length)
	smooth := mul(mul(u, u), 3-mul(2, u))
	f := s.f0 + mul(s.f1-s.f0, smooth) + mul(0.3, p.ictalJitter.step(normal(&p.noise)))
	p.szPhase += f / p.rate
	if p.szPhase >= 1 {
		p.szPhase--
	}
	grow := 0.3 + mul(0.7, min(u/0.3, 1))
	fade := min(mul(fadeSeconds, p.rate), float64(length)/10)
	g := mul(grow, min(float64(s.end-n)/fade, 1))
	spiky := s.s0 + mul(s.s1-s.s0, u)
	for c, d := range p.szDelay {
		if d < 0 || t < d {
			continue
		}
		r := min(mul(float64(t-d), p.invRamp), 1)
		ph := p.szPhase + p.szLag[c]
		sine := sineWave.at(ph)
		w := sine + mul(spiky, spikeWave.at(ph)-sine)
		x[c] += mul(mul(p.szGain[c], mul(g, r)), w)
	}
}

// addPostictal suppresses the background of the channels the seizure
// reached and adds delta slowing, both fading out over the post-ictal
// period.
func (p *Patient) addPostictal(n int64, x []float64) {
	s := &p.sz[p.si]
	left := 1 - float64(n-s.end)/float64(s.post)
	if s.kind == SeizureTonicClonic {
		p.tilt = mul(s.k.tilt, left)
	}
	keep := 1 - mul(s.depth, left)
	p.deltaPhase += s.deltaHz / p.rate
	if p.deltaPhase >= 1 {
		p.deltaPhase--
	}
	slow := mul(left, sineWave.at(p.deltaPhase))
	length := s.end - s.onset
	for c, d := range p.szDelay {
		if d < 0 || d >= length {
			continue
		}
		x[c] = mul(x[c], keep) + mul(p.szDelta[c], slow)
	}
}

// Seizures describes the patient's seizures in order.
func (p *Patient) Seizures() []Seizure {
	out := make([]Seizure, len(p.sz))
	for i := range p.sz {
		s := &p.sz[i]
		z := Seizure{
			Kind:    s.kind,
			Start:   p.stamp(s.onset),
			End:     p.stamp(s.end),
			Focus:   append([]int(nil), s.focus...),
			StartHz: s.f0,
			EndHz:   s.f1,
		}
		if s.kind == SeizureTonicClonic {
			z.Tonic = p.stamp(s.k.tonic)
		}
		delays := make([]int64, len(p.sites))
		for c := range p.sites {
			delays[c] = s.delay(p.sites, c)
			if delays[c] >= 0 && delays[c] < s.end-s.onset {
				z.Reached = append(z.Reached, c)
			}
		}
		sort.SliceStable(z.Reached, func(a, b int) bool { return delays[z.Reached[a]] < delays[z.Reached[b]] })
		for _, c := range z.Reached {
			z.Arrivals = append(z.Arrivals, p.stamp(delays[c]))
		}
		out[i] = z
	}
	return out
}

// stampFor converts a sample count to a duration at rate, exactly
// (truncated to the nanosecond).
func stampFor(n int64, rate int) time.Duration {
	r := int64(rate)
	return time.Duration(n/r)*time.Second + time.Duration(n%r*int64(time.Second)/r)
}

// durationSamples is the number of whole samples at rate in d.
func durationSamples(d time.Duration, rate int) int64 {
	r := int64(rate)
	return int64(d/time.Second)*r + int64(d%time.Second)*r/int64(time.Second)
}
