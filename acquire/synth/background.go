package synth

import (
	"math"
	"math/rand/v2"
)

// Background EEG is pink-like noise: white noise through pinkStages
// parallel one-pole low-pass filters with corners 0.25·4^k Hz (0.25 to
// 64 Hz), weighted by corner^(−α/2) so the power spectrum falls as about
// 1/f^α between the corners.
const pinkStages = 5

// pinkBank holds the filters of several independent pink sources.
type pinkBank struct {
	p, q [pinkStages]float64   // pole and 1−pole of each stage
	w    [][pinkStages]float64 // per source: stage weights, unit output variance
	y    [][pinkStages]float64 // per source: stage states
}

const ln4 = 1.3862943611198906

func newPinkBank(rate float64, alphas []float64) pinkBank {
	var b pinkBank
	for k := range pinkStages {
		corner := expm(mul(float64(k-1), ln4)) // 0.25·4^k
		b.p[k] = expm(-mul(2*math.Pi, corner) / rate)
		b.q[k] = 1 - b.p[k]
	}
	b.w = make([][pinkStages]float64, len(alphas))
	b.y = make([][pinkStages]float64, len(alphas))
	for i, a := range alphas {
		w := &b.w[i]
		for k := range pinkStages {
			w[k] = expm(-mul(mul(a/2, float64(k-1)), ln4)) // corner^(−α/2)
		}
		// Variance of Σ w_k y_k for unit white input: the stages share
		// their input, so E[y_k y_l] = q_k q_l / (1 − p_k p_l).
		v := 0.0
		for k := range pinkStages {
			for l := range pinkStages {
				v += mul(mul(w[k], w[l]), mul(b.q[k], b.q[l])) / (1 - mul(b.p[k], b.p[l]))
			}
		}
		s := 1 / math.Sqrt(v)
		for k := range pinkStages {
			w[k] = mul(w[k], s)
		}
	}
	return b
}

// step feeds white sample x to source i and returns its output.
func (b *pinkBank) step(i int, x float64) float64 {
	y, w := &b.y[i], &b.w[i]
	out := 0.0
	for k := range pinkStages {
		y[k] = mul(b.p[k], y[k]) + mul(b.q[k], x)
		out += mul(w[k], y[k])
	}
	return out
}

// slowNoise is unit-variance noise band-limited by two cascaded one-pole
// low-pass filters; it drives the slow wandering of frequencies and
// amplitudes.
type slowNoise struct{ p, q, s1, s2, scale float64 }

func newSlowNoise(corner, rate float64) slowNoise {
	p := expm(-mul(2*math.Pi, corner) / rate)
	q := 1 - p
	p2 := mul(p, p)
	d := 1 - p2
	// Unit input variance gives q⁴(1+p²)/(1−p²)³ at the output.
	v := mul(mul(mul(q, q), mul(q, q)), 1+p2) / mul(mul(d, d), d)
	return slowNoise{p: p, q: q, scale: 1 / math.Sqrt(v)}
}

func (s *slowNoise) step(x float64) float64 {
	s.s1 = mul(s.p, s.s1) + mul(s.q, x)
	s.s2 = mul(s.p, s.s2) + mul(s.q, s.s1)
	return mul(s.s2, s.scale)
}

// alphaSource is the posterior alpha rhythm: one generator (the rhythm is
// coherent over the occiput) whose frequency wanders by a few tenths of a
// hertz and whose amplitude waxes and wanes over seconds.
type alphaSource struct {
	hz, amp, rate, phase float64
	jitter, env          slowNoise
}

func (a *alphaSource) next(r *rand.PCG) float64 {
	f := a.hz + mul(0.3, a.jitter.step(normal(r)))
	a.phase += f / a.rate
	if a.phase >= 1 {
		a.phase--
	}
	e := min(max(0.8+mul(0.55, a.env.step(normal(r))), 0.05), 1.8)
	return mul(mul(a.amp, e), sineWave.at(a.phase))
}

// sharedSources are regional pink sources on a 3×3 grid over the scalp,
// mixed into nearby channels so that neighbouring channels correlate.
var sharedSources = func() []point {
	var g []point
	for _, y := range []float64{0.7, 0, -0.7} {
		for _, x := range []float64{-0.7, 0, 0.7} {
			g = append(g, point{x, y})
		}
	}
	return g
}()

const (
	sharedWidth2 = 0.3 // width² of a shared source's reach
	sharedShare  = 0.6 // fraction of a channel's background variance that is shared
	sharedAlpha  = 1.7 // spectral exponent of the shared sources
)
