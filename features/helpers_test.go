package features

import (
	"math"
	"testing"
)

// signal is a test signal: the value in µV at time t seconds.
type signal func(t float64) float64

// phase is the phase of the test sines at t = 0.
const phase = 0.3

func sine(amp, freq float64) signal {
	return func(t float64) float64 { return amp * math.Sin(2*math.Pi*freq*t+phase) }
}

func sum(s ...signal) signal {
	return func(t float64) float64 {
		var v float64
		for _, f := range s {
			v += f(t)
		}
		return v
	}
}

// firstVector pushes the signal on every channel of an extractor for cfg
// until the first window completes and returns that window's vector,
// with conditioning off.
func firstVector(t *testing.T, cfg Config, s signal) []float64 {
	t.Helper()
	cfg.Conditioning.Off = true // the definitions are of what reaches the window
	e, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	frame := make([]float64, cfg.Channels)
	for k := 0; ; k++ {
		v := s(float64(k) / cfg.Rate)
		for c := range frame {
			frame[c] = v
		}
		if e.Push(frame) {
			break
		}
		if k > 10*MaxWindowSamples {
			t.Fatal("no window completed")
		}
	}
	x := e.Vector(make([]float64, e.Dim()))
	checkFinite(t, e.Names(), x)
	return x
}

// checkFinite fails the test if a feature is NaN or infinite, or a relative
// power is outside [0, 1].
func checkFinite(t *testing.T, names []string, x []float64) {
	t.Helper()
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("%s = %v, want a finite value", names[i], v)
		}
	}
}

// unlog undoes the logarithm of a log-scaled amplitude or power feature.
func unlog(v, floor float64) float64 { return math.Exp(v) - floor }

func nan() float64 { return math.NaN() }
func inf() float64 { return math.Inf(1) }
