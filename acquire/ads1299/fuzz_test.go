package ads1299

import (
	"errors"
	"testing"

	"github.com/ictal/ictal/acquire"
)

var fuzzGains = [...]int{1, 2, 4, 6, 8, 12, 24}

// FuzzDecodeFrame decodes arbitrary 27-byte frames under a channel
// selection (on: bit n for channel n+1), gains (gain: an index into the
// seven gains, advancing by one per channel) and lead-off sense masks, all
// chosen by the fuzzer, and checks every field against a second, independent
// reading of the bytes. Seeds are frames of the OpenBCI recording in the
// shared data and hand-made edge cases.
func FuzzDecodeFrame(f *testing.F) {
	for i, row := range openBCISamples(f, 8) {
		f.Add(uint8(0xFF), uint8(6), uint8(0xFF), uint8(0xFF), openBCIFrame(row))
		f.Add(uint8(0xA5), uint8(i), uint8(0x0F), uint8(0xF0), openBCIFrame(row))
	}
	f.Add(uint8(0xFF), uint8(6), uint8(0xFF), uint8(0xFF), frameBytes(0x02, 0x40, 0x0A, -0x800000, 0x7FFFFF, 1, -1, 0, 0x100000, -0x100000, 42))
	f.Add(uint8(0x01), uint8(0), uint8(0x00), uint8(0x00), append([]byte{0xD0, 0, 0}, make([]byte, 24)...))

	f.Fuzz(func(t *testing.T, on, gain, senseP, senseN uint8, b []byte) {
		if len(b) < maxFrameBytes || on == 0 {
			return
		}
		b = b[:maxFrameBytes]
		var dc decoder
		dc.senseP, dc.senseN = senseP&on, senseN&on
		var gains [maxChannels]int
		for ch := 0; ch < maxChannels; ch++ {
			if on&(1<<ch) != 0 {
				gains[dc.n] = fuzzGains[(int(gain)+ch)%len(fuzzGains)]
				dc.add(ch, gains[dc.n])
			}
		}
		fr := acquire.NewFrame(dc.n)
		err := dc.decode(fr, b)

		if b[0]&0xF0 != 0xC0 {
			if !errors.Is(err, ErrSync) {
				t.Fatalf("status %#x: %v; want ErrSync", b[:3], err)
			}
			return
		}
		if err != nil {
			t.Fatalf("status %#x: %v", b[:3], err)
		}
		statP := b[0]<<4 | b[1]>>4
		statN := b[1]<<4 | b[2]>>4
		var leadOff, saturated uint64
		k := 0
		for ch := 0; ch < maxChannels; ch++ {
			if on&(1<<ch) == 0 {
				continue
			}
			p := b[3+3*ch:]
			code := int64(p[0])<<16 | int64(p[1])<<8 | int64(p[2])
			if code >= 1<<23 {
				code -= 1 << 24
			}
			want := float64(code) * 2 * 4.5e6 / float64(gains[k]) / (1 << 24)
			if !closeTo(fr.Samples[k], want) {
				t.Errorf("channel %d code %d gain %d: %g µV; want %g", ch+1, code, gains[k], fr.Samples[k], want)
			}
			if fs := 4.5e6 / float64(gains[k]); fr.Samples[k] < -fs || fr.Samples[k] >= fs {
				t.Errorf("channel %d: %g µV outside ±%g", ch+1, fr.Samples[k], fs)
			}
			if code == 1<<23-1 || code == -1<<23 {
				saturated |= 1 << k
			}
			if (statP&senseP|statN&senseN)&(1<<ch) != 0 {
				leadOff |= 1 << k
			}
			k++
		}
		var flags acquire.Flags
		if leadOff != 0 {
			flags |= acquire.FlagLeadOff
		}
		if saturated != 0 {
			flags |= acquire.FlagSaturated
		}
		if fr.LeadOff != leadOff || fr.Saturated != saturated || fr.Flags != flags {
			t.Errorf("lead-off %#x saturated %#x flags %v; want %#x %#x %v", fr.LeadOff, fr.Saturated, fr.Flags, leadOff, saturated, flags)
		}
	})
}

func BenchmarkDecodeFrame(b *testing.B) {
	rows := openBCISamples(b, 1)
	buf := openBCIFrame(rows[0])
	var dc decoder
	for ch := 0; ch < maxChannels; ch++ {
		dc.add(ch, 24)
	}
	dc.senseP, dc.senseN = 0xFF, 0xFF
	f := acquire.NewFrame(8)
	b.ReportAllocs()
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		if err := dc.decode(f, buf); err != nil {
			b.Fatal(err)
		}
	}
}
