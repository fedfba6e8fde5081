package synth

import (
	"errors"
	"io"
	"math"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"

	"github.com/ictal/ictal/acquire"
)

// record reads the whole recording of cfg, one slice per channel.
func record(t testing.TB, cfg Config) (*Patient, [][]float64) {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	nc := len(p.Info().Channels)
	x := make([][]float64, nc)
	for c := range x {
		x[c] = make([]float64, 0, p.Frames())
	}
	f := acquire.NewFrame(nc)
	for {
		err := p.ReadFrame(f)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("ReadFrame %d: %v", f.Seq, err)
		}
		for c, v := range f.Samples {
			x[c] = append(x[c], v)
		}
	}
	return p, x
}

// psd is a Welch power spectral density estimate: Hann-windowed segments of
// n samples, overlapping by half, averaged. Bin i is i·rate/n Hz.
type psd struct {
	p    []float64
	rate float64
	n    int
}

func welch(x []float64, rate float64, n int) psd {
	fft := fourier.NewFFT(n)
	win := make([]float64, n)
	wss := 0.0
	for i := range win {
		win[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n))
		wss += win[i] * win[i]
	}
	out := psd{p: make([]float64, n/2+1), rate: rate, n: n}
	seg := make([]float64, n)
	var coef []complex128
	count := 0
	for start := 0; start+n <= len(x); start += n / 2 {
		mean := 0.0
		for _, v := range x[start : start+n] {
			mean += v
		}
		mean /= float64(n)
		for i := range seg {
			seg[i] = (x[start+i] - mean) * win[i]
		}
		coef = fft.Coefficients(coef, seg)
		for i, c := range coef {
			out.p[i] += real(c)*real(c) + imag(c)*imag(c)
		}
		count++
	}
	for i := range out.p {
		out.p[i] /= float64(count) * wss * rate
	}
	return out
}

// band returns the mean density over [lo, hi) Hz.
func (s psd) band(lo, hi float64) float64 {
	sum, k := 0.0, 0
	for i, v := range s.p {
		f := float64(i) * s.rate / float64(s.n)
		if f >= lo && f < hi {
			sum += v
			k++
		}
	}
	return sum / float64(k)
}

// peak returns the frequency of the largest density in [lo, hi) Hz.
func (s psd) peak(lo, hi float64) float64 {
	best, bf := -1.0, math.NaN()
	for i, v := range s.p {
		f := float64(i) * s.rate / float64(s.n)
		if f >= lo && f < hi && v > best {
			best, bf = v, f
		}
	}
	return bf
}

func rms(x []float64) float64 {
	ss, mean := 0.0, 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss / float64(len(x)))
}

// lineLength is the mean absolute difference between successive samples.
func lineLength(x []float64) float64 {
	s := 0.0
	for i := 1; i < len(x); i++ {
		s += math.Abs(x[i] - x[i-1])
	}
	return s / float64(len(x)-1)
}

func correlation(a, b []float64) float64 {
	ma, mb := 0.0, 0.0
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= float64(len(a))
	mb /= float64(len(b))
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}

// channel returns the index of the channel with this label.
func channel(t testing.TB, p *Patient, label string) int {
	t.Helper()
	for i, c := range p.Info().Channels {
		if c.Label == label {
			return i
		}
	}
	t.Fatalf("no channel %q", label)
	return -1
}

// slice returns samples [from, to) seconds of x at rate.
func slice(x []float64, rate int, from, to float64) []float64 {
	return x[int(from*float64(rate)):int(to*float64(rate))]
}
