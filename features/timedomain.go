package features

import "math"

// Floors added before taking logarithms, so that a flat or all-zero window
// gives finite features. They sit below the resolution of any EEG
// amplifier (an ADS1299 at gain 24 resolves 0.022 µV), so they change no
// real recording's features measurably.
const (
	// AmplitudeFloor is added to the line length (µV/s) and the RMS (µV)
	// before their logarithm.
	AmplitudeFloor = 1e-2
	// PowerFloor (AmplitudeFloor²) is added to band powers (µV²) and the
	// Teager–Kaiser energy (µV²·Hz²) before their logarithm.
	PowerFloor = AmplitudeFloor * AmplitudeFloor
)

// flatVariance is the variance (µV²) under which a window counts as flat:
// an RMS below AmplitudeFloor. The ratios that would be 0/0 on a flat line
// (Hjorth parameters, relative powers, zero crossings of rounding noise,
// spectral edge) are then 0.
const flatVariance = PowerFloor

// timeFeatures holds what one pass over a mean-removed window yields.
type timeFeatures struct {
	variance   float64 // mean square of the window, µV²
	lineLength float64 // Σ|Δx| per second, µV/s
	mobility   float64 // Hjorth mobility, Hz
	complexity float64 // Hjorth complexity
	crossings  float64 // zero crossings per second
	teager     float64 // mean Teager–Kaiser energy, µV²·Hz² (≥ 0)
	maxStep    float64 // largest |x[i] − x[i−1]|, µV
	flat       bool
}

// computeTime fills tf from the window w (len n ≥ 4, oldest first)
// sampled at rate Hz, less its mean, in one pass that also writes the
// mean-removed samples times hann into out (the spectrum's input; both len
// n). Every product is rounded on its own (float64(…)) so that the
// compiler cannot fuse it into a multiply-add on arm64: the features have
// the same bits on every architecture (cross/golden_test.go).
func computeTime(tf *timeFeatures, w []float64, mean, rate float64, hann, out []float64) {
	n := len(w)
	hann, out = hann[:n], out[:n]
	x0, x1 := w[0]-mean, w[1]-mean
	out[0], out[1] = float64(x0*hann[0]), float64(x1*hann[1])
	d := x1 - x0
	sumSq := float64(x0*x0) + float64(x1*x1)
	absDiff := math.Abs(d)
	maxStep := absDiff
	diffSq := d * d
	var diff2Sq, tk float64
	// Zero crossings counted without a branch: sign(x) as 0 or 1
	// (nonNeg), a crossing where consecutive ones differ.
	s1 := nonNeg(x1)
	crossings := s1 ^ nonNeg(x0)
	prev2, prev, dPrev := x0, x1, d
	for i := 2; i < len(w); i++ {
		xi := w[i] - mean
		out[i] = float64(xi * hann[i])
		d := xi - prev
		dd := d - dPrev
		sumSq += float64(xi * xi)
		ad := math.Abs(d)
		absDiff += ad
		if ad > maxStep { // not max(): ad is neither NaN nor −0
			maxStep = ad
		}
		diffSq += float64(d * d)
		diff2Sq += float64(dd * dd)
		tk += float64(prev*prev) - float64(prev2*xi)
		si := nonNeg(xi)
		crossings += si ^ s1
		prev2, prev, dPrev, s1 = prev, xi, d, si
	}
	seconds := float64(n-1) / rate // span of the n-1 sample intervals
	*tf = timeFeatures{
		variance:   sumSq / float64(n),
		lineLength: absDiff / seconds,
		maxStep:    maxStep,
	}
	if tf.variance < flatVariance {
		tf.flat = true
		return
	}
	tf.crossings = float64(crossings) / seconds
	// Derivatives as differences per second: var(x') = Σ(Δx)²/(n-1) · fs².
	v1 := diffSq / float64(n-1)
	v2 := diff2Sq / float64(n-2)
	toHz := rate / (2 * math.Pi)
	if v1 > 0 {
		m0 := math.Sqrt(v1 / tf.variance) // rad/sample
		tf.mobility = m0 * toHz
		tf.complexity = math.Sqrt(v2/v1) / m0
	}
	if tk > 0 {
		tf.teager = tk / float64(n-2) * toHz * toHz
	}
}

// nonNeg returns 1 if x ≥ 0, else 0.
func nonNeg(x float64) int {
	b := 0
	if x >= 0 {
		b = 1
	}
	return b
}
