package synth

import "math"

// tableSize is the number of points per cycle of the wave tables; linear
// interpolation between them is accurate to about 5e-6 of the amplitude.
const tableSize = 1024

// waveTable holds one cycle of a periodic waveform with the first point
// repeated at the end, so interpolation needs no wrap-around.
type waveTable [tableSize + 1]float64

// at returns the waveform at phase (in cycles, any value), linearly
// interpolated.
func (t *waveTable) at(phase float64) float64 {
	phase -= math.Floor(phase)
	x := mul(phase, tableSize)
	i := int(x)
	if i >= tableSize { // phase just below 1 rounded up
		i = tableSize - 1
	}
	f := x - float64(i)
	return t[i] + mul(f, t[i+1]-t[i])
}

var (
	// sineWave is sin(2πφ).
	sineWave = buildTable(sin2pi)
	// spikeWave is a spike-and-wave complex: a sharp spike (a sixth of a
	// cycle wide) followed by a broad slow wave of opposite sign, with zero
	// mean and the RMS of a sine (1/√2).
	spikeWave = normalise(buildTable(func(x float64) float64 {
		return bump(x, 0.1, 0.085) - mul(0.42, bump(x, 0.5, 0.36))
	}))
)

func buildTable(f func(float64) float64) *waveTable {
	var t waveTable
	for i := range tableSize {
		t[i] = f(float64(i) / tableSize)
	}
	t[tableSize] = t[0]
	return &t
}

// bump is a smooth pulse (1−u²)³ centred at c, half-width w, on the
// circle of phases.
func bump(x, c, w float64) float64 {
	d := x - c
	d -= math.Round(d)
	u := d / w
	if u <= -1 || u >= 1 {
		return 0
	}
	v := 1 - mul(u, u)
	return mul(mul(v, v), v)
}

// normalise removes the table's mean and scales it to an RMS of 1/√2.
func normalise(t *waveTable) *waveTable {
	mean := 0.0
	for _, v := range t[:tableSize] {
		mean += v
	}
	mean /= tableSize
	ss := 0.0
	for i := range t {
		t[i] -= mean
		if i < tableSize {
			ss += mul(t[i], t[i])
		}
	}
	scale := math.Sqrt(0.5 / (ss / tableSize))
	for i := range t {
		t[i] = mul(t[i], scale)
	}
	return t
}
