package resample

import "math"

// The low-pass filter's specification, as fractions of the lower of the
// two rates (fmin = min(from, to)): flat to pass·fmin, at least
// attenuation dB down from stop·fmin on. Its cutoff lies midway,
// (pass+stop)/2·fmin = 0.475·fmin.
const (
	pass        = 0.45
	stop        = 0.5
	attenuation = 70 // dB designed; the tests require 60 measured
)

// kaiserBeta is Kaiser's β for the attenuation A (Kaiser 1974; Oppenheim
// & Schafer, Discrete-Time Signal Processing, on the Kaiser window design
// method): 0.1102·(A − 8.7) for A > 50.
var kaiserBeta = 0.1102 * (attenuation - 8.7)

// zeroCrossings is the filter's half-length counted in zero crossings of
// its sinc, which is the same for every ratio: Kaiser's length formula
// N = (A − 7.95)/(2.285·Δω) with Δω = 2π·(stop − pass)·ρ
// radians per input sample, times the zero-crossing rate (pass + stop)·ρ,
// halved. ρ = fmin/from cancels: 41.06, rounded up.
var zeroCrossings = int(math.Ceil((attenuation - 7.95) / (2.285 * 2 * math.Pi * (stop - pass)) * (pass + stop) / 2))

// tableDensity is the number of entries of the interpolating filter's
// table per zero crossing. Linear interpolation between entries errs by
// at most (1/density)²/8 times the largest second derivative of the sinc,
// π²/3: 1.6e-6 of the peak, far below the stopband.
const tableDensity = 512

// prototype returns the windowed sinc at x zero crossings from its centre:
// sinc(x)·w(x/zeroCrossings), w the Kaiser window, 0 beyond the window.
func prototype(x float64) float64 {
	x = math.Abs(x)
	nz := float64(zeroCrossings)
	if x >= nz {
		return 0
	}
	s := 1.0
	if x > 0 {
		s = math.Sin(math.Pi*x) / (math.Pi * x)
	}
	u := x / nz
	return s * besselI0(kaiserBeta*math.Sqrt(1-u*u)) / besselI0(kaiserBeta)
}

// besselI0 is the modified Bessel function of the first kind, order 0, by
// its power series Σ ((x/2)^k / k!)², summed until a term no longer
// changes the sum.
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	h := x / 2
	for k := 1.0; k < 500; k++ {
		term *= h / k
		t := term * term
		sum += t
		if t < sum*1e-17 {
			break
		}
	}
	return sum
}

// prototypeTable samples prototype at tableDensity points per zero
// crossing, from 0 to zeroCrossings, with one zero after the end so that
// interpolation never reads past it.
func prototypeTable() []float64 {
	n := zeroCrossings*tableDensity + 2
	t := make([]float64, n)
	for k := range n - 1 {
		t[k] = prototype(float64(k) / tableDensity)
	}
	return t
}

// normalise scales c to sum to 1, so that every output sample has unit
// gain at DC: a large DC offset (raw OpenBCI data sits tens of millivolts
// off zero) is then passed exactly, without a ripple from phase to phase.
func normalise(c []float64) {
	s := 0.0
	for _, v := range c {
		s += v
	}
	k := 1 / s
	for j := range c {
		c[j] *= k
	}
}
