//go:build !purego

package features

// loadFrame copies samples into in (the same length) and reports whether
// any is NaN, infinite or beyond MaxSample in magnitude: loadFrameGo's
// result, four samples at a time with AVX.
func loadFrame(in, samples []float64) (bad bool) {
	if !useAVX || len(samples) == 0 {
		return loadFrameGo(in, samples)
	}
	in = in[:len(samples)]
	return !loadAVX(&in[0], &samples[0], len(samples), MaxSample, -MaxSample)
}

// storeFrame stores the frame in into the ring, channel c's sample at
// ring[i+c·stride]: storeFrameGo's stores, four channels at a time with
// AVX.
func storeFrame(ring []float64, i, stride int, in []float64) {
	if !useAVX || len(in) == 0 {
		storeFrameGo(ring, i, stride, in)
		return
	}
	_ = ring[i+(len(in)-1)*stride] // every store below is in range
	scatterAVX(&ring[i], &in[0], len(in), stride)
}

// loadAVX copies n ≥ 1 samples from src to dst and reports whether every
// one lies in [lo, hi] (false for a NaN).
//
//go:noescape
func loadAVX(dst, src *float64, n int, hi, lo float64) (ok bool)

// scatterAVX stores n ≥ 1 values from in at ring, ring + stride, ring +
// 2·stride, … (stride in float64s).
//
//go:noescape
func scatterAVX(ring, in *float64, n, stride int)
