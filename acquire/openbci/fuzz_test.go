package openbci

import (
	"math"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

// FuzzDecoder feeds random byte streams to the decoder, whole and in
// chunks, and checks that it never panics, that both feedings give the
// same frames, and that every frame is internally consistent.
func FuzzDecoder(f *testing.F) {
	samples := loadGUI(f, 40)
	clean := guiStream(samples)
	damaged, _ := damagedGUI(loadGUI(f, 720))
	daisy, _ := daisyScript(samples)
	f.Add(clean, false, uint8(0))
	f.Add(clean[5:], false, uint8(32))
	f.Add(damaged[3000:4500], false, uint8(7))
	f.Add(daisy, true, uint8(0))
	f.Add(daisy[10:], true, uint8(1))
	f.Add(append([]byte("OpenBCI V3 8-16 channel\n$$$daisy removed$$$"), clean[:200]...), false, uint8(3))
	f.Add([]byte{0xA0, 0xA0, 0xC0, 0xA0, 0xC6, 0xC7}, false, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, daisy bool, chunk uint8) {
		whole := fuzzDecode(t, data, daisy, 0)
		parts := fuzzDecode(t, data, daisy, int(chunk)+1)
		if len(whole) != len(parts) {
			t.Fatalf("whole: %d frames, chunks of %d: %d", len(whole), int(chunk)+1, len(parts))
		}
		for i := range whole {
			a, b := whole[i], parts[i]
			if a.Seq != b.Seq || a.Flags != b.Flags || a.Saturated != b.Saturated {
				t.Fatalf("frame %d differs: %+v vs %+v", i, a, b)
			}
			for c := range a.Samples {
				if a.Samples[c] != b.Samples[c] {
					t.Fatalf("frame %d channel %d differs", i, c)
				}
			}
		}
	})
}

// fuzzDecode decodes data in chunks of size chunk (whole if 0), checks each
// frame's consistency and returns copies of the frames.
func fuzzDecode(t *testing.T, data []byte, daisy bool, chunk int) []acquire.Frame {
	d, err := NewDecoder(Config{Daisy: daisy})
	if err != nil {
		t.Fatal(err)
	}
	nch := d.Channels()
	rate := uint64(d.Rate())
	scale, _ := Scale(DefaultGain)
	out := decodeChecked(t, d, data, chunk, func(f *acquire.Frame, before []acquire.Frame) {
		if len(before) > 0 {
			prev := before[len(before)-1].Seq
			if f.Seq <= prev {
				t.Fatalf("Seq %d after %d", f.Seq, prev)
			}
			if (f.Seq != prev+1) != (f.Flags&acquire.FlagGap != 0) {
				t.Fatalf("Seq %d after %d with flags %v", f.Seq, prev, f.Flags)
			}
		} else if f.Seq != 0 || f.Flags&acquire.FlagGap != 0 {
			t.Fatalf("first frame: Seq %d flags %v", f.Seq, f.Flags)
		}
		if want := time.Duration(f.Seq/rate)*time.Second + time.Duration(f.Seq%rate)*time.Second/time.Duration(rate); f.Time != want {
			t.Fatalf("Seq %d: time %v, want %v", f.Seq, f.Time, want)
		}
		if f.LeadOff != 0 || f.Saturated>>uint(nch) != 0 || (f.Saturated != 0) != (f.Flags&acquire.FlagSaturated != 0) {
			t.Fatalf("quality: %+v", f)
		}
		for i, v := range f.Samples {
			count := v / scale
			r := math.Round(count)
			if math.Abs(count-r) > 1e-6 || r > MaxCount || r < MinCount {
				t.Fatalf("channel %d: %g µV is not a 24-bit count", i, v)
			}
			if sat := f.Saturated&(1<<uint(i)) != 0; sat != Saturated(int32(r)) {
				t.Fatalf("channel %d: count %g, saturated bit %v", i, r, sat)
			}
		}
	})
	st := d.Stats()
	if st.Bytes != uint64(len(data)) || st.Frames != uint64(len(out)) || st.Skipped > st.Bytes {
		t.Fatalf("stats %+v for %d bytes and %d frames", st, len(data), len(out))
	}
	if daisy && st.Packets < 2*st.Frames || !daisy && st.Packets != st.Frames {
		t.Fatalf("stats %+v: packets and frames disagree", st)
	}
	return out
}
