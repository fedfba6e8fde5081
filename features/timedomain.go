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

// blockSums holds the sums of a run of consecutive samples x that do not
// need the window's mean: the differences do not change when the mean is
// removed, and the Teager–Kaiser sum of the mean-removed samples follows
// from the raw one (see computeTime). Each term counts where all its
// samples lie in the run, so a window's sums are those of its two halves
// and the few terms across their junction (join). Windows that overlap by
// half (the default, 2 s every 1 s) share a half: its sums are computed
// once, when it is the newer half, and reused (Extractor.Vector).
type blockSums struct {
	sum     float64 // Σ x[i]
	absDiff float64 // Σ |Δx[i]|, Δx[i] = x[i] − x[i−1]
	maxStep float64 // max |Δx[i]|
	diffSq  float64 // Σ (Δx[i])²
	diff2Sq float64 // Σ (Δx[i] − Δx[i−1])²
	teager  float64 // Σ x[i−1]² − x[i−2]·x[i]
}

// of sets s to the sums of x (len ≥ 2), accumulated in four interleaved
// lanes (see sumLanes) and combined by fold. Every product is rounded on
// its own (float64(…)) so that the compiler cannot fuse it into a
// multiply-add on arm64: the features have the same bits on every
// architecture (cross/golden_test.go).
func (s *blockSums) of(x []float64) {
	var l sumLanes
	// The terms of i = 0 and 1 (x[0]; x[1] and Δx[1]) start their lanes.
	d := x[1] - x[0]
	ad := math.Abs(d)
	l.sum[0], l.sum[1] = x[0], x[1]
	l.absDiff[1], l.maxStep[1], l.diffSq[1] = ad, ad, float64(d*d)
	l.add(x)
	*s = blockSums{
		sum:     fold(&l.sum),
		absDiff: fold(&l.absDiff),
		maxStep: max(l.maxStep[0], l.maxStep[1], l.maxStep[2], l.maxStep[3]),
		diffSq:  fold(&l.diffSq),
		diff2Sq: fold(&l.diff2Sq),
		teager:  fold(&l.teager),
	}
}

// sumLanes holds blockSums' sums of a run x in four interleaved
// accumulators, to be added four at a time by a vector unit. Lane j of
// each sum takes, in increasing i, the terms i ≡ j (mod 4) of that sum:
// x[i]; |Δx[i]|, max |Δx[i]| and (Δx[i])² for i ≥ 1; (Δx[i] − Δx[i−1])²
// and x[i−1]² − x[i−2]·x[i] for i ≥ 2. The terms of i = 0 and 1 are the
// lanes' starting values (of), the other lanes start at 0, and fold
// combines a sum's lanes in one fixed order.
//
// The Go loop (addGo) is the definition, and all that other processors
// and purego builds run. On amd64 with AVX the groups of four terms
// i = 4q … 4q+3 (q ≥ 1) come from sumsAVX (timedomain_amd64.s), one term
// per lane, and addGo adds the rest (i = 2, 3 and the last len(x) mod 4)
// into the same lanes: the split between the loops changes no lane. The
// assembly computes per lane exactly addGo's operations in addGo's order
// — differences from the same two loaded samples, every product rounded
// on its own (no fused multiply-add), each lane added in increasing i,
// |d| by clearing the sign bit, the maximum by a compare that keeps the
// lane on a tie — so both give the same bits (TestTimeLanesBits), and the
// features the same bits on every architecture. The fields' order is
// the assembly's layout: sum at byte 0, absDiff at 32, …, teager at 160.
type sumLanes struct {
	sum, absDiff, maxStep, diffSq, diff2Sq, teager [4]float64
}

// addGo adds the terms from ≤ i < len(x) of x's sums to their lanes, in
// increasing i; from ≥ 2.
func (l *sumLanes) addGo(x []float64, from int) {
	for i := from; i < len(x); i++ {
		j := i & 3
		p2, p, xi := x[i-2], x[i-1], x[i]
		d := xi - p
		dd := d - (p - p2)
		l.sum[j] += xi
		ad := math.Abs(d)
		l.absDiff[j] += ad
		if ad > l.maxStep[j] { // not max(): ad is neither NaN nor −0
			l.maxStep[j] = ad
		}
		l.diffSq[j] += float64(d * d)
		l.diff2Sq[j] += float64(dd * dd)
		l.teager[j] += float64(p*p) - float64(p2*xi)
	}
}

// fold returns the sum of four lanes, (l0 + l1) + (l2 + l3).
func fold(l *[4]float64) float64 {
	return (l[0] + l[1]) + (l[2] + l[3])
}

// join returns the sums of the window x (len n ≥ 4) from those of x[:h]
// (a) and x[h:] (b), 2 ≤ h ≤ n−2: a's, then the terms across the
// junction, then b's.
func join(a, b *blockSums, x []float64, h int) blockSums {
	p2, p1, q0, q1 := x[h-2], x[h-1], x[h], x[h+1]
	d0, d1, d2 := p1-p2, q0-p1, q1-q0 // Δx[h−1], Δx[h], Δx[h+1]
	dd1, dd2 := d1-d0, d2-d1
	ad := math.Abs(d1)
	s := blockSums{
		sum:     a.sum + b.sum,
		absDiff: a.absDiff + ad + b.absDiff,
		maxStep: max(a.maxStep, ad, b.maxStep),
		diffSq:  a.diffSq + float64(d1*d1) + b.diffSq,
		diff2Sq: a.diff2Sq + (float64(dd1*dd1) + float64(dd2*dd2)) + b.diff2Sq,
		teager: a.teager + ((float64(p1*p1) - float64(p2*q0)) + (float64(q0*q0) - float64(p1*q1))) +
			b.teager,
	}
	return s
}

// computeTime fills tf from the window w (len n ≥ 4, oldest first)
// sampled at rate Hz, whose sums (see blockSums) are s, in one pass over
// w less its mean that also writes the mean-removed samples times hann
// into out (the spectrum's input; both len n): centre, whose sum of
// squares has four lanes like blockSums'. The variance and the zero
// crossings need that pass; the rest comes from s. The Teager–Kaiser sum
// of the mean-removed samples y = x − m is
//
//	Σ y[i−1]² − y[i−2]·y[i] = Σ x[i−1]² − x[i−2]·x[i] + m·(Δx[n−1] − Δx[1])
//
// (the terms in m sum to m·Σ(Δx[i] − Δx[i−1]), which telescopes), exact
// but for rounding: each raw term rounds at about 1e-16 × x², so a
// channel's offset m adds an error of about 1e-16 × m² per sample. After
// the high-pass m is a few µV at most and the error far below the
// feature's; TestTimeSumsOnRecordings measures it on real recordings,
// conditioned and not.
func computeTime(tf *timeFeatures, w []float64, s *blockSums, rate float64, hann, out []float64) {
	n := len(w)
	hann, out = hann[:n], out[:n]
	mean := s.sum / float64(n)
	var sumSq [4]float64
	crossings := centre(&sumSq, w, hann, out, mean)
	seconds := float64(n-1) / rate // span of the n-1 sample intervals
	*tf = timeFeatures{
		variance:   fold(&sumSq) / float64(n),
		lineLength: s.absDiff / seconds,
		maxStep:    s.maxStep,
	}
	if tf.variance < flatVariance {
		tf.flat = true
		return
	}
	tf.crossings = float64(crossings) / seconds
	// Derivatives as differences per second: var(x') = Σ(Δx)²/(n-1) · fs².
	v1 := s.diffSq / float64(n-1)
	v2 := s.diff2Sq / float64(n-2)
	toHz := rate / (2 * math.Pi)
	if v1 > 0 {
		m0 := math.Sqrt(v1 / tf.variance) // rad/sample
		tf.mobility = m0 * toHz
		tf.complexity = math.Sqrt(v2/v1) / m0
	}
	tk := s.teager + float64(mean*((w[n-1]-w[n-2])-(w[1]-w[0])))
	if tk > 0 {
		tf.teager = tk / float64(n-2) * toHz * toHz
	}
}

// centreGo is computeTime's pass over the terms from ≤ i < len(w) of the
// window w less its mean m, y[i] = w[i] − m: it writes out[i] = y[i]·
// hann[i], adds y[i]² to the lane sumSq[i mod 4] in increasing i (see
// sumLanes; computeTime folds the lanes), and returns the number of
// zero crossings between y[i] and y[i+1] for from ≤ i < len(w)−1. A
// crossing is where one of the two is negative and the other not (−0
// counts as not negative), counted without a branch: nonNeg of each,
// a crossing where they differ. hann and out have len(w) elements.
//
// On amd64 with AVX, centreAVX (timedomain_amd64.s) runs the terms four at
// a time with the same operations per lane, so the same bits
// (TestTimeLanesBits); it tests y[i] ≥ 0 as w[i] ≥ m, which is the same
// for finite values: with gradual underflow w − m rounds to 0 only when w
// = m, and never across 0.
func centreGo(sumSq *[4]float64, w, hann, out []float64, mean float64, from int) (crossings int) {
	if from >= len(w) {
		return 0
	}
	hann, out = hann[:len(w)], out[:len(w)]
	sPrev := nonNeg(w[from] - mean)
	for i := from; i < len(w); i++ {
		xi := w[i] - mean
		out[i] = float64(xi * hann[i])
		sumSq[i&3] += float64(xi * xi)
		si := nonNeg(xi)
		crossings += si ^ sPrev
		sPrev = si
	}
	return crossings
}

// nonNeg returns 1 if x ≥ 0, else 0.
func nonNeg(x float64) int {
	b := 0
	if x >= 0 {
		b = 1
	}
	return b
}
