package edf

import (
	"fmt"
	"math"
	"testing"
)

// decodeConversions are the conversions the decoders are compared under:
// real EDF and BDF scalings, some whose products round at almost every
// sample, and some that overflow, underflow or carry a NaN or infinity.
var decodeConversions = []struct {
	name string
	c    conversion
}{
	{"EEG ±3000 µV over 16 bits", conversion{-32768, 6000.0 / 65535, -3000, 1}},
	{"inverted, mV to µV", conversion{-32767, -2.0 / 65534, 1, 1000}},
	{"BDF ±262143 µV", conversion{-8388608, 524287.0 / 16777215, -262143.5, 1}},
	{"V to µV, thirds", conversion{-2048, 1.0 / 3, 0.1, 1e6}},
	{"exact, gain 1", conversion{0, 1, 0, 1}},
	{"odd dmin and scale", conversion{12345, 0.7, -1e-3, 1.0 / 3}},
	{"overflow to infinity", conversion{-1, 1e300, 0, 1e10}},
	{"subnormal", conversion{0, 1e-310, 0, 0.3}},
	{"infinite pmin", conversion{0, 1, math.Inf(-1), 2}},
	{"NaN pmin", conversion{0, 1, math.NaN(), 2}},
	{"zero times infinity", conversion{0, 0, 1, math.Inf(1)}},
}

// decodeStrides are the strides the decoders are compared at: stride 1
// (ReadRecord), small odd and even ones, 23 (a CHB-MIT replay) and 64.
var decodeStrides = []int{1, 2, 3, 23, 64}

// sentinel marks the elements of dst a decoder must not write.
var sentinel = math.Float64frombits(0x7ff8dead0000beef)

// sameDecode runs decode and its Go reference into two buffers filled
// with sentinel, dst starting at element off, and returns "" when every
// element has the same bits, else the first that differs.
func sameDecode(decode, ref func([]float64, int, []byte, *conversion), b []byte, width, stride, off int, c *conversion) string {
	n := len(b) / width
	size := off + 1
	if n > 0 {
		size += (n - 1) * stride
	}
	got, want := make([]float64, size+stride), make([]float64, size+stride)
	for i := range got {
		got[i], want[i] = sentinel, sentinel
	}
	decode(got[off:size], stride, b, c)
	ref(want[off:size], stride, b, c)
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			k := (i - off) / stride
			return fmt.Sprintf("element %d (sample %d of %d): %v (%#016x), want %v (%#016x)",
				i, k, n, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
	return ""
}

// TestDecode16MatchesGoLoop compares decode16 (the AVX loop on amd64)
// with decode16Go bit for bit: every 16-bit value under every
// conversion and stride, then every length from 0 to 40 at odd source
// and destination offsets, which exercises the samples after the last
// group of four.
func TestDecode16MatchesGoLoop(t *testing.T) {
	all := make([]byte, 2*65536+3)
	for v := 0; v < 65536; v++ {
		all[2*v+1], all[2*v+2] = byte(v), byte(v>>8) // from offset 1: unaligned
	}
	for _, tt := range decodeConversions {
		for _, stride := range decodeStrides {
			if d := sameDecode(decode16, decode16Go, all[1:2*65536+1], 2, stride, 0, &tt.c); d != "" {
				t.Fatalf("%s, stride %d, every value: %s", tt.name, stride, d)
			}
			for n := 0; n <= 40; n++ {
				for _, off := range []int{0, 1, 3} {
					src := all[off+2*1000 : off+2*1000+2*n] // values around 1000 and, from offset 1 or 3, mixed bytes
					if d := sameDecode(decode16, decode16Go, src, 2, stride, off, &tt.c); d != "" {
						t.Fatalf("%s, stride %d, %d samples at offset %d: %s", tt.name, stride, n, off, d)
					}
				}
			}
		}
	}
}

// TestDecode24MatchesGoLoop is TestDecode16MatchesGoLoop for BDF: every
// 24-bit value at stride 1, in blocks, under a BDF scaling and one whose
// products round (the whole range under every conversion takes seconds),
// and under every conversion and stride a block around the extremes and
// one around zero.
func TestDecode24MatchesGoLoop(t *testing.T) {
	const block = 1 << 16
	b := make([]byte, 3*block+1)
	fill := func(first int) []byte {
		for v := 0; v < block; v++ {
			x := first + v
			b[3*v+1], b[3*v+2], b[3*v+3] = byte(x), byte(x>>8), byte(x>>16)
		}
		return b[1:] // unaligned
	}
	for _, c := range []conversion{{-8388608, 524287.0 / 16777215, -262143.5, 1}, {-2048, 1.0 / 3, 0.1, 1e6}} {
		for first := 0; first < 1<<24; first += block {
			if d := sameDecode(decode24, decode24Go, fill(first), 3, 1, 0, &c); d != "" {
				t.Fatalf("%v, values from %#06x: %s", c, first, d)
			}
		}
	}
	for _, tt := range decodeConversions {
		for _, stride := range decodeStrides {
			for _, first := range []int{0x800000 - block/2, 1<<24 - block/2} { // around −2²³ … 2²³−1, and around 0
				src := fill(first)
				if d := sameDecode(decode24, decode24Go, src, 3, stride, 0, &tt.c); d != "" {
					t.Fatalf("%s, stride %d, values from %#06x: %s", tt.name, stride, first, d)
				}
				for n := 0; n <= 40; n++ {
					for _, off := range []int{0, 1, 3} {
						if d := sameDecode(decode24, decode24Go, src[off:off+3*n], 3, stride, off, &tt.c); d != "" {
							t.Fatalf("%s, stride %d, %d samples at offset %d: %s", tt.name, stride, n, off, d)
						}
					}
				}
			}
		}
	}
}
