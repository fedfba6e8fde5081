package synth

import "sync"

// The seizure and artifact kinds keep their power below 0.45 × the rate,
// as a recorder's anti-alias filter would: broadband parts (EMG, the edges
// of electrode pops, the accelerometer) pass a fourth-order Butterworth
// low-pass whose corner is at most bandEdge × the rate (−53 dB at 0.45 ×
// the rate, falling to nothing at Nyquist), and spike-and-wave complexes
// are summed from their harmonics below 0.4 × the rate only (a margin
// for the frequency's wander).
const (
	bandEdge    = 0.3
	harmonicCap = 0.4
)

// section is one second-order section (RBJ cookbook) in transposed direct
// form II; its state is kept by the caller.
type section struct{ b0, b1, b2, a1, a2 float64 }

func (f *section) step(z *[2]float64, x float64) float64 {
	y := mul(f.b0, x) + z[0]
	z[0] = mul(f.b1, x) - mul(f.a1, y) + z[1]
	z[1] = mul(f.b2, x) - mul(f.a2, y)
	return y
}

// lowSection and highSection are the RBJ low- and high-pass sections at
// corner Hz with quality q.
func lowSection(corner, q, rate float64) section {
	w := corner / rate
	c := cos2pi(w)
	alpha := sin2pi(w) / (2 * q)
	a0 := 1 + alpha
	return section{b0: (1 - c) / 2 / a0, b1: (1 - c) / a0, b2: (1 - c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0}
}

func highSection(corner, q, rate float64) section {
	w := corner / rate
	c := cos2pi(w)
	alpha := sin2pi(w) / (2 * q)
	a0 := 1 + alpha
	return section{b0: (1 + c) / 2 / a0, b1: -(1 + c) / a0, b2: (1 + c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0}
}

// Quality factors of the two sections of a fourth-order Butterworth
// filter, 1/(2cos(π/8)) and 1/(2cos(3π/8)), and of a second-order one.
const (
	butterQ1 = 0.5411961001461969
	butterQ2 = 1.3065629648763766
	butterQ  = 0.7071067811865476
)

// chain is a cascade of sections with a gain; its per-channel state is a
// []chainState.
type chain struct {
	s     []section
	scale float64
}

// chainState is one channel's state of a chain of up to three sections.
type chainState [3][2]float64

func (f *chain) step(z *chainState, x float64) float64 {
	for i := range f.s {
		x = f.s[i].step(&z[i], x)
	}
	return mul(x, f.scale)
}

// lowPass returns a fourth-order Butterworth low-pass at min(corner,
// bandEdge × rate) with unit gain at DC.
func lowPass(corner, rate float64) chain {
	corner = min(corner, mul(bandEdge, rate))
	return chain{s: []section{lowSection(corner, butterQ1, rate), lowSection(corner, butterQ2, rate)}, scale: 1}
}

// bandNoise returns a filter that turns unit white noise into unit-variance
// noise band-limited to lo..min(hi, bandEdge × rate) Hz: a second-order
// Butterworth high-pass at lo, then lowPass(hi).
func bandNoise(lo, hi, rate float64) chain {
	f := lowPass(hi, rate)
	f.s = append([]section{highSection(lo, butterQ, rate)}, f.s...)
	var z chainState
	f.scale = unitScale(1<<17, func(x float64) float64 { return f.step(&z, x) })
	return f
}

// maxHarmonics is the number of harmonics of the band-limited
// spike-and-wave tables: the spike (a sixth of a cycle wide) keeps less
// than 1 % of its amplitude beyond the 16th.
const maxHarmonics = 24

// spikeHarmonics returns the spike-and-wave complex of spikeWave summed
// from its first h harmonics, for h = 1..maxHarmonics (index h), built
// once. Harmonic k's coefficients are the table's discrete Fourier
// coefficients; sines come from sineWave's exact grid points.
var spikeHarmonics = sync.OnceValue(func() *[maxHarmonics + 1]waveTable {
	var out [maxHarmonics + 1]waveTable
	n := tableSize
	grid := func(j int) float64 { return sineWave[j%n] }
	var acc waveTable
	for k := 1; k <= maxHarmonics; k++ {
		var a, b float64
		for i := range n {
			a += mul(spikeWave[i], grid(k*i+n/4))
			b += mul(spikeWave[i], grid(k*i))
		}
		a, b = mul(a, 2.0/float64(n)), mul(b, 2.0/float64(n))
		for i := range n {
			acc[i] += mul(a, grid(k*i+n/4)) + mul(b, grid(k*i))
		}
		acc[n] = acc[0]
		out[k] = acc
	}
	return &out
})
