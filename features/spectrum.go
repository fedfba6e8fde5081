package features

import (
	"fmt"
	"math"

	"github.com/ictal/ictal/internal/detmath"
	"gonum.org/v1/gonum/dsp/fourier"
)

// bandEdges are the band limits in Hz: δ [0.5, 4), θ [4, 8), α [8, 13),
// β [13, 30), γ [30, min(70, fs/2)).
var bandEdges = [6]float64{0.5, 4, 8, 13, 30, 70}

const numBands = 5

// bandNames name the bands in error messages.
var bandNames = [numBands]string{"δ", "θ", "α", "β", "γ"}

// spectralEdgeFraction is the share of the 0.5–min(70, fs/2) Hz power
// below the spectral edge frequency.
const spectralEdgeFraction = 0.9

// spectrum computes band powers and the spectral edge of one channel's
// window. It is built once for a window length and rate and reused; it is
// not safe for concurrent use.
type spectrum struct {
	n, nfft int
	binHz   float64 // frequency step between bins, Hz
	hann    []float64
	power   []float64 // power of bins edge[0] … edge[numBands]-1, µV²
	// fast transforms when nfft is a power of two (the usual case);
	// otherwise gonum's mixed-radix FFT does, through in and coef.
	fast *realFFT
	in   []float64    // Hann-windowed samples, zero-padded to nfft
	coef []complex128 // nfft/2 + 1 coefficients
	fft  *fourier.FFT
	// edge[b] is the first bin of band b; edge[numBands] is one past the
	// last bin of γ. Bins are assigned to bands by their centre frequency.
	edge [numBands + 1]int
	// scale turns |X[m]|² into the power of bin m in µV² (one-sided,
	// corrected for the Hann window's energy): 2 / (nfft · Σ w²).
	scale float64
}

// newSpectrum plans the spectrum of n-sample windows at rate Hz, padding
// them with zeros to the smallest length ≥ n whose only prime factors are
// 2, 3 and 5, where the FFT is fastest.
func newSpectrum(n int, rate float64) (*spectrum, error) {
	nfft := smoothLength(n)
	s := &spectrum{
		n:     n,
		nfft:  nfft,
		binHz: rate / float64(nfft),
		hann:  make([]float64, n),
	}
	if isPow2(nfft) && nfft >= 8 {
		s.fast = newRealFFT(nfft)
	} else {
		s.in = make([]float64, nfft)
		s.coef = make([]complex128, nfft/2+1)
		s.fft = fourier.NewFFT(nfft)
	}
	var energy float64
	for k := range s.hann {
		// Periodic Hann window: DFT-even, Σ w² = 3n/8. The cosine is
		// detmath's, the same bits on every platform: w[k] = w[n−k], so
		// the angle is taken in [0, π].
		j := min(k, n-k)
		_, c := detmath.SinCos(float64(2*math.Pi*float64(j)) / float64(n))
		w := 0.5 - float64(0.5*c)
		s.hann[k] = w
		energy += float64(w * w)
	}
	s.scale = 2 / (float64(nfft) * energy)
	top := math.Min(bandEdges[numBands], rate/2)
	for b := 0; b <= numBands; b++ {
		f := bandEdges[b]
		if b == numBands {
			f = top
		}
		s.edge[b] = int(math.Ceil(f / s.binHz))
		if s.edge[b] > nfft/2+1 {
			s.edge[b] = nfft/2 + 1
		}
	}
	for b := 0; b < numBands; b++ {
		if s.edge[b+1] <= s.edge[b] {
			hi := bandEdges[b+1]
			if b == numBands-1 {
				hi = top
			}
			return nil, fmt.Errorf("%w: Window of %d samples at %g Hz resolves %.3g Hz: the %s band %g–%g Hz holds no spectral bin",
				ErrConfig, n, rate, rate/float64(n), bandNames[b], bandEdges[b], hi)
		}
	}
	s.power = make([]float64, s.edge[numBands]-s.edge[0])
	return s, nil
}

// smoothLength returns the smallest integer ≥ n whose prime factors are
// all 2, 3 or 5.
func smoothLength(n int) int {
	for m := n; ; m++ {
		r := m
		for _, p := range [...]int{2, 3, 5} {
			for r%p == 0 {
				r /= p
			}
		}
		if r == 1 {
			return m
		}
	}
}

// spectralFeatures holds what one window's spectrum yields.
type spectralFeatures struct {
	band  [numBands]float64 // band powers, µV²
	total float64           // Σ band, µV²
	edge  float64           // spectral edge frequency, Hz (0 when total is 0)
}

// input returns the slice (len n) the caller fills with the
// Hann-windowed, mean-removed samples of a window before compute.
func (s *spectrum) input() []float64 {
	if s.fast != nil {
		return s.fast.Input()[:s.n]
	}
	return s.in[:s.n]
}

// compute fills sf from the window stored through input.
func (s *spectrum) compute(sf *spectralFeatures) {
	if s.fast != nil {
		clear(s.fast.Input()[s.n:]) // zero padding: the transform runs in place
		s.fast.transform()
	} else {
		s.fft.Coefficients(s.coef, s.in)
	}
	s.bands(sf)
}

// bands fills sf from the transform just computed.
func (s *spectrum) bands(sf *spectralFeatures) {
	lo := s.edge[0]
	if s.fast != nil {
		s.fast.power(s.power, lo, s.scale)
	} else {
		for m := lo; m < s.edge[numBands]; m++ {
			c := s.coef[m]
			// Products rounded on their own: no multiply-add on arm64.
			s.power[m-lo] = (float64(real(c)*real(c)) + float64(imag(c)*imag(c))) * s.scale
		}
	}
	var total float64
	for b := 0; b < numBands; b++ {
		var sum float64
		for _, p := range s.power[s.edge[b]-lo : s.edge[b+1]-lo] {
			sum += p
		}
		sf.band[b] = sum
		total += sum
	}
	sf.total = total
	sf.edge = 0
	if !(total > 0) {
		return
	}
	target := float64(spectralEdgeFraction * total) // rounded: not fused into target−cum on arm64
	var cum float64
	for i, p := range s.power {
		if cum+p >= target && p > 0 {
			// The bin's power is spread evenly over its width, centred
			// on its frequency.
			m := float64(lo + i)
			sf.edge = (m - 0.5 + (target-cum)/p) * s.binHz
			return
		}
		cum += p
	}
	// Rounding left cum a hair below target: the edge is the top bin's.
	sf.edge = (float64(s.edge[numBands]) - 0.5) * s.binHz
}
