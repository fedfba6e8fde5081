package classifier

import (
	"fmt"
	"math"
)

// The encodings of nb, lda and qda share their start and the start of each
// class: the dimension d and forgetting factor β, then per class
// (negative first) the prior weight W, the class weight T and the mean μ,
// each followed by what the learner adds (variances, a scatter factor).

// appendLearnerHeader appends the dimension and forgetting factor that
// start every encoded learner.
func appendLearnerHeader(b []byte, d int, beta float64) []byte {
	b = appendU64(b, uint64(d))
	return appendF64(b, beta)
}

// appendClass appends a class's prior weight W, class weight T and mean μ.
func appendClass(b []byte, w, t float64, mu []float64) []byte {
	b = appendF64(b, w)
	b = appendF64(b, t)
	return appendF64s(b, mu)
}

// stateDecoder is the decoding half of a learner.
type stateDecoder interface {
	decodeState(d *decoder) error // restores the state appendBinary wrote
	reset()                       // returns the learner to its untrained state
}

// decodeOrReset restores h from d, leaving it untrained rather than half
// restored when the state is invalid.
func decodeOrReset(h stateDecoder, d *decoder) error {
	err := h.decodeState(d)
	if err != nil {
		h.reset()
	}
	return err
}

// decodeLearnerHeader reads and checks the dimension and forgetting factor that
// start every encoded learner.
func decodeLearnerHeader(d *decoder, kind string, dim int, beta float64) error {
	at := d.off
	gd := d.u64(kind + " dimension")
	if d.err == nil && gd != uint64(dim) {
		d.off = at
		d.fail(fmt.Sprintf("%s dimension %d, want %d", kind, gd, dim))
		return d.err
	}
	at = d.off
	gb := d.f64(kind + " forgetting factor")
	if d.err == nil && math.Float64bits(gb) != math.Float64bits(beta) {
		d.off = at
		d.fail(fmt.Sprintf("%s forgetting factor %g, want %g", kind, gb, beta))
	}
	return d.err
}

// decodeClass reads what appendClass wrote: it returns the class's prior
// weight W and class weight T, checking the invariants learn keeps (both
// positive or both zero, and T ≤ W: T decays, W does not), and reads its
// mean into mu.
func decodeClass(d *decoder, name string, mu []float64) (w, t float64) {
	at := d.off
	w = d.nonNeg(name + " prior weight")
	t = d.nonNeg(name + " weight")
	if d.err == nil && ((w > 0) != (t > 0) || t > w) {
		d.off = at
		d.fail(fmt.Sprintf("%s weight %g with prior weight %g, want 0 < weight ≤ prior weight or both 0", name, t, w))
	}
	d.f64s(mu, name+" mean")
	return w, t
}
