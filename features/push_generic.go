//go:build !amd64 || purego

package features

// loadFrame copies samples into in and reports whether any is NaN,
// infinite or beyond MaxSample (push_amd64.go has the vector loop).
func loadFrame(in, samples []float64) (bad bool) { return loadFrameGo(in, samples) }

// storeFrame stores the frame in into the ring, channel c's sample at
// ring[i+c·stride].
func storeFrame(ring []float64, i, stride int, in []float64) { storeFrameGo(ring, i, stride, in) }
