package features

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"
)

// fuzzConfig is small so that a few hundred bytes fill several windows:
// 2 channels at 128 Hz, 0.5-s windows (64 samples) every 0.25 s.
var fuzzConfig = Config{Channels: 2, Rate: 128, Window: 500 * time.Millisecond, Step: 250 * time.Millisecond, Summaries: true}

// fuzzSamples decodes a fuzz input: byte 0 chooses the encoding, the rest
// are samples. With bit 0 set they are raw little-endian float64s (NaN,
// ±Inf, subnormals, huge values); otherwise little-endian int16s scaled by
// 10^(b0>>4 − 4), from 1e-4 to 1e11 µV.
func fuzzSamples(data []byte) []float64 {
	if len(data) == 0 {
		return nil
	}
	mode, data := data[0], data[1:]
	var out []float64
	if mode&1 != 0 {
		for ; len(data) >= 8; data = data[8:] {
			out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(data)))
		}
		return out
	}
	scale := math.Pow(10, float64(int(mode>>4)-4))
	for ; len(data) >= 2; data = data[2:] {
		out = append(out, scale*float64(int16(binary.LittleEndian.Uint16(data))))
	}
	return out
}

// encodeInt16 is the inverse of fuzzSamples for int16 inputs at scale 1.
func encodeInt16(x []float64) []byte {
	b := []byte{4 << 4}
	for _, v := range x {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(v)))
	}
	return b
}

// FuzzExtractor pushes arbitrary samples, cycling through them for at
// least three windows, and checks that every vector is finite and within
// the documented ranges.
func FuzzExtractor(f *testing.F) {
	for _, seed := range []struct {
		set string
		seg int
	}{{"S", 1}, {"Z", 1}, {"F", 7}, {"N", 3}} {
		f.Add(encodeInt16(readBonn(f, seed.set, seed.seg)[:300]))
	}
	raw := []byte{1}
	for _, v := range []float64{math.NaN(), math.Inf(1), 1e300, -1e-310, 5, math.Inf(-1), MaxSample, -MaxSample} {
		raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(v))
	}
	f.Add(raw)
	f.Add([]byte{0xf0, 0xff, 0x7f, 0x01, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		x := fuzzSamples(data)
		if len(x) == 0 {
			return
		}
		e, err := New(fuzzConfig)
		if err != nil {
			t.Fatal(err)
		}
		names := e.Names()
		frame := make([]float64, fuzzConfig.Channels)
		dst := make([]float64, e.Dim())
		frames := max(3*e.Window(), len(x)/len(frame))
		for k, i := 0, 0; k < frames; k++ {
			for c := range frame {
				frame[c] = x[i]
				if i++; i == len(x) {
					i = 0
				}
			}
			if !e.Push(frame) {
				continue
			}
			e.Vector(dst)
			for j, v := range dst {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("frame %d: %s = %v", k, names[j], v)
				}
			}
			for c := 0; c < fuzzConfig.Channels; c++ {
				ch := dst[c*int(numFeatures) : (c+1)*int(numFeatures)]
				var rel float64
				for f := DeltaRel; f <= GammaRel; f++ {
					if ch[f] < 0 || ch[f] > 1 {
						t.Fatalf("frame %d channel %d: %v = %v outside [0, 1]", k, c, f, ch[f])
					}
					rel += ch[f]
				}
				if rel != 0 && math.Abs(rel-1) > 1e-9 {
					t.Fatalf("frame %d channel %d: relative powers sum to %v", k, c, rel)
				}
				for _, f := range []Feature{HjorthMobility, HjorthComplexity, ZeroCrossings, SpectralEdge} {
					if ch[f] < 0 {
						t.Fatalf("frame %d channel %d: %v = %v < 0", k, c, f, ch[f])
					}
				}
				if ch[SpectralEdge] > fuzzConfig.Rate/2 || ch[ZeroCrossings] > fuzzConfig.Rate {
					t.Fatalf("frame %d channel %d: spectral edge %v Hz, zero crossings %v /s", k, c, ch[SpectralEdge], ch[ZeroCrossings])
				}
			}
		}
	})
}

// FuzzParseFeature checks that ParseFeature accepts exactly the features'
// names.
func FuzzParseFeature(f *testing.F) {
	for _, ft := range AllFeatures() {
		f.Add(ft.String())
	}
	f.Add("")
	f.Add("alpha")
	f.Add("Feature(3)")
	f.Fuzz(func(t *testing.T, name string) {
		ft, err := ParseFeature(name)
		if err != nil {
			if !errors.Is(err, ErrUnknownFeature) {
				t.Fatalf("ParseFeature(%q): %v does not wrap ErrUnknownFeature", name, err)
			}
			return
		}
		if ft >= numFeatures || ft.String() != name {
			t.Fatalf("ParseFeature(%q) = %v", name, ft)
		}
	})
}
