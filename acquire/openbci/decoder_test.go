package openbci

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

// testPacket returns a packet whose counts identify its counter and half:
// board halves count up from counter*100, Daisy halves (daisy=true) are
// their negatives.
func testPacket(counter uint8, daisy bool) Packet {
	p := Packet{Counter: counter, Footer: FooterAccel}
	for i := range p.Counts {
		v := int32(counter)*100 + int32(i) + 1
		if daisy {
			v = -v
		}
		p.Counts[i] = v
	}
	return p
}

// stream concatenates parts: a uint8 is the test packet with that counter
// (a Daisy half when even and daisy is set), a Packet is encoded as is, a
// []byte or string is raw bytes.
func stream(daisy bool, parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			pk := testPacket(uint8(v), daisy && v%2 == 0)
			b = AppendPacket(b, &pk)
		case Packet:
			b = AppendPacket(b, &v)
		case []byte:
			b = append(b, v...)
		case string:
			b = append(b, v...)
		default:
			panic("stream: bad part")
		}
	}
	return b
}

// corrupt returns the encoded test packet for counter with byte i set to v.
func corrupt(counter uint8, i int, v byte) []byte {
	pk := testPacket(counter, false)
	b := AppendPacket(nil, &pk)
	b[i] = v
	return b
}

// auxC0 returns the test packet for counter with aux byte 1 (packet byte
// 27) set to a footer value, so that a header five bytes before the packet
// looks framed.
func auxC0(counter uint8) Packet {
	p := testPacket(counter, false)
	p.Aux[1] = 0xC0
	return p
}

// wantFrame is an expected frame: its Seq and Flags, and the counter of the
// board packet (and, with Daisy, of the daisy packet) it must hold.
type wantFrame struct {
	seq   uint64
	flags acquire.Flags
	board uint8
}

// decodeAll feeds in to d in chunks of size chunk (all at once if 0) and
// returns copies of the frames.
func decodeAll(t *testing.T, d *Decoder, in []byte, chunk int) []acquire.Frame {
	t.Helper()
	return decodeChecked(t, d, in, chunk, nil)
}

// decodeChecked is decodeAll calling check (unless nil) on each frame as
// decoded, with the frames decoded before it.
func decodeChecked(t *testing.T, d *Decoder, in []byte, chunk int, check func(f *acquire.Frame, before []acquire.Frame)) []acquire.Frame {
	t.Helper()
	var out []acquire.Frame
	f := acquire.NewFrame(d.Channels())
	if chunk <= 0 {
		chunk = len(in) + 1
	}
	for len(in) > 0 {
		c := in[:min(chunk, len(in))]
		in = in[len(c):]
		for len(c) > 0 {
			n, ok, err := d.Decode(c, f)
			if err != nil {
				t.Fatal(err)
			}
			if n < 0 || n > len(c) || (n == 0 && !ok) {
				t.Fatalf("Decode consumed %d of %d bytes", n, len(c))
			}
			c = c[n:]
			if !ok {
				continue
			}
			if check != nil {
				check(f, out)
			}
			g := *f
			g.Samples = append([]float64(nil), f.Samples...)
			out = append(out, g)
		}
	}
	return out
}

func checkFrames(t *testing.T, daisy bool, got []acquire.Frame, want []wantFrame) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d frames, want %d: %+v", len(got), len(want), got)
	}
	rate := uint64(CytonRate)
	if daisy {
		rate = DaisyRate
	}
	for i, w := range want {
		g := got[i]
		if g.Seq != w.seq || g.Flags != w.flags {
			t.Errorf("frame %d: seq %d flags %v, want seq %d flags %v", i, g.Seq, g.Flags, w.seq, w.flags)
		}
		if wt := time.Duration(w.seq) * time.Second / time.Duration(rate); g.Time != wt {
			t.Errorf("frame %d: time %v, want %v", i, g.Time, wt)
		}
		halves := []Packet{testPacket(w.board, false)}
		if daisy {
			halves = append(halves, testPacket(w.board+1, true))
		}
		for h, pk := range halves {
			for c, count := range pk.Counts {
				ch := h*BoardChannels + c
				if want := float64(count) * lsb24; math.Abs(g.Samples[ch]-want) > 1e-9 {
					t.Errorf("frame %d channel %d: %g µV, want %g", i, ch+1, g.Samples[ch], want)
				}
			}
		}
	}
}

func TestDecoderCyton(t *testing.T) {
	gap := acquire.FlagGap
	tests := []struct {
		name    string
		in      []byte
		want    []wantFrame
		skipped uint64
		lost    uint64
	}{
		{"clean stream", stream(false, 0, 1, 2, 3), []wantFrame{{0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {3, 0, 3}}, 0, 0},
		{"counter wraps 255 to 0 without a gap", stream(false, 254, 255, 0, 1), []wantFrame{{0, 0, 254}, {1, 0, 255}, {2, 0, 0}, {3, 0, 1}}, 0, 0},
		{"first counter need not be 0", stream(false, 17, 18), []wantFrame{{0, 0, 17}, {1, 0, 18}}, 0, 0},
		{"stream starts mid-packet", stream(false, corrupt(4, 0, 0x55)[20:], 5, 6), []wantFrame{{0, 0, 5}, {1, 0, 6}}, 13, 0},
		{"text reply before the stream", stream(false, "daisy removed$$$", 0, 1), []wantFrame{{0, 0, 0}, {1, 0, 1}}, 16, 0},
		{"garbage with headers between packets", stream(false, 0, []byte{0xA0, 1, 2, 0xC0, 0xA0, 0xA0}, 1, []byte{0xC1}, 2), []wantFrame{{0, 0, 0}, {1, 0, 1}, {2, 0, 2}}, 7, 0},
		{"corrupted footer loses one packet", stream(false, 0, corrupt(1, 32, 0xC7), 2, 3), []wantFrame{{0, 0, 0}, {2, gap, 2}, {3, 0, 3}}, 33, 1},
		{"corrupted header loses one packet", stream(false, 0, 1, corrupt(2, 0, 0x41), 3, 4), []wantFrame{{0, 0, 0}, {1, 0, 1}, {3, gap, 3}, {4, 0, 4}}, 33, 1},
		{"truncated packet loses one packet", stream(false, 0, 1, corrupt(2, 0, 0xA0)[:20], 3, 4), []wantFrame{{0, 0, 0}, {1, 0, 1}, {3, gap, 3}, {4, 0, 4}}, 20, 1},
		{"garbage framed like a packet over a real one", stream(false, 0, 1, []byte{0xA0, 0x24, 0x24, 0x24, 0xC0}, auxC0(2), 3), []wantFrame{{0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {3, 0, 3}}, 5, 0},
		{"garbage framed like a packet after a loss", stream(false, 0, 1, []byte{0xA0, 0x24, 0x24, 0x24, 0xC0}, auxC0(5), 6), []wantFrame{{0, 0, 0}, {1, 0, 1}, {5, gap, 5}, {6, 0, 6}}, 5, 3},
		{"dropped packets advance Seq", stream(false, 0, 1, 5, 6), []wantFrame{{0, 0, 0}, {1, 0, 1}, {5, gap, 5}, {6, 0, 6}}, 0, 3},
		{"dropped packets across the wrap", stream(false, 254, 2, 3), []wantFrame{{0, 0, 254}, {4, gap, 2}, {5, 0, 3}}, 0, 3},
		{"repeated counter counts as 255 lost", stream(false, 3, 3, 4), []wantFrame{{0, 0, 3}, {256, gap, 3}, {257, 0, 4}}, 0, 255},
		{"a lone packet after a loss waits for the next header", stream(false, 0, 1, 9), []wantFrame{{0, 0, 0}, {1, 0, 1}}, 0, 0},
	}
	for _, tt := range tests {
		for _, chunk := range []int{0, 1, 7, 33} {
			d, err := NewDecoder(Config{})
			if err != nil {
				t.Fatal(err)
			}
			got := decodeAll(t, d, tt.in, chunk)
			t.Run(tt.name, func(t *testing.T) {
				checkFrames(t, false, got, tt.want)
				st := d.Stats()
				if st.Skipped != tt.skipped || st.Lost != tt.lost || st.Frames != uint64(len(tt.want)) {
					t.Errorf("chunk %d: stats %+v, want skipped %d lost %d frames %d", chunk, st, tt.skipped, tt.lost, len(tt.want))
				}
				if st.Bytes != uint64(len(tt.in)) {
					t.Errorf("chunk %d: consumed %d bytes of %d", chunk, st.Bytes, len(tt.in))
				}
			})
		}
	}
}

// TestDecoderHeaderAndFooterBytesInData: 0xA0 and 0xC0–0xC6 inside a
// packet's counter, data and aux bytes do not confuse the framing.
func TestDecoderHeaderAndFooterBytesInData(t *testing.T) {
	tricky := []Packet{
		{Counter: 0xA0, Footer: FooterAccel, Counts: [8]int32{0xA0C0A0 - 1<<24, 0x00A0C6, -0x5F3F60, 0xA0, 0xC0, 0xA000, 0x7FA0C0, -1}, Aux: [6]byte{0xA0, 0xC0, 0xA0, 0xC6, 0xA0, 0xC1}},
		{Counter: 0xA1, Footer: FooterStampRawAux, Counts: [8]int32{0xA0, 0xA0A0, 0xA0A0A0 - 1<<24, 0xC0C0C0 - 1<<24, 0xC6C6C6 - 1<<24, 0xA0, 0xA0, 0xA0}, Aux: [6]byte{0xA0, 0xA0, 0xA0, 0xA0, 0xA0, 0xA0}},
	}
	in := stream(false, 0x9F, tricky[0], tricky[1], 0xA2)
	for _, chunk := range []int{0, 1, 3, 32} {
		d, _ := NewDecoder(Config{})
		got := decodeAll(t, d, in, chunk)
		if len(got) != 4 {
			t.Fatalf("chunk %d: %d frames, want 4", chunk, len(got))
		}
		for k, p := range tricky {
			g := got[1+k]
			if g.Seq != uint64(1+k) || g.Flags != 0 {
				t.Errorf("chunk %d frame %d: seq %d flags %v", chunk, 1+k, g.Seq, g.Flags)
			}
			for c, count := range p.Counts {
				if want := float64(count) * lsb24; math.Abs(g.Samples[c]-want) > 1e-9 {
					t.Errorf("chunk %d frame %d channel %d: %g µV, want %g", chunk, 1+k, c+1, g.Samples[c], want)
				}
			}
		}
		if st := d.Stats(); st.Skipped != 0 || st.Lost != 0 {
			t.Errorf("chunk %d: stats %+v", chunk, st)
		}
		if b := d.Board(); b != testPacket(0xA2, false) {
			t.Errorf("chunk %d: last packet %+v", chunk, b)
		}
	}
}

func TestDecoderDaisy(t *testing.T) {
	gap := acquire.FlagGap
	tests := []struct {
		name    string
		in      []byte
		want    []wantFrame
		orphans uint64
		lost    uint64
	}{
		{"pairs odd then even", stream(true, 1, 2, 3, 4), []wantFrame{{0, 0, 1}, {1, 0, 3}}, 0, 0},
		{"invalid first packet 0 is dropped", stream(true, 0, 1, 2), []wantFrame{{0, 0, 1}}, 1, 0},
		{"pair 255 and 0 across the wrap", stream(true, 253, 254, 255, 0, 1, 2), []wantFrame{{0, 0, 253}, {1, 0, 255}, {2, 0, 1}}, 0, 0},
		{"lost daisy half drops the pair", stream(true, 1, 2, 3, 5, 6), []wantFrame{{0, 0, 1}, {2, gap, 5}}, 1, 1},
		{"lost board half drops the pair", stream(true, 1, 2, 4, 5, 6), []wantFrame{{0, 0, 1}, {2, gap, 5}}, 1, 1},
		{"mismatched halves are both dropped", stream(true, 1, 2, 3, 6, 7, 8), []wantFrame{{0, 0, 1}, {3, gap, 7}}, 2, 2},
		{"corrupted daisy half", stream(true, 1, 2, 3, corrupt(4, 32, 0), 5, 6), []wantFrame{{0, 0, 1}, {2, gap, 5}}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, chunk := range []int{0, 1, 5} {
				d, err := NewDecoder(Config{Daisy: true})
				if err != nil {
					t.Fatal(err)
				}
				got := decodeAll(t, d, tt.in, chunk)
				checkFrames(t, true, got, tt.want)
				if st := d.Stats(); st.Orphans != tt.orphans || st.Lost != tt.lost {
					t.Errorf("chunk %d: stats %+v, want orphans %d lost %d", chunk, st, tt.orphans, tt.lost)
				}
			}
		})
	}
}

func TestDecoderDaisyKeepsBothPackets(t *testing.T) {
	d, _ := NewDecoder(Config{Daisy: true})
	decodeAll(t, d, stream(true, 9, 10), 0)
	if b, dz := d.Board(), d.Daisy(); b != testPacket(9, false) || dz != testPacket(10, true) {
		t.Errorf("Board %+v Daisy %+v", b, dz)
	}
}

func TestDecoderSaturation(t *testing.T) {
	p := Packet{Counter: 1, Footer: FooterAccel, Counts: [8]int32{MaxCount, MaxCount - 1, 0, MinCount, -MaxCount, -MaxCount + 1, 5, MaxCount}}
	d, _ := NewDecoder(Config{})
	got := decodeAll(t, d, stream(false, p, 2), 0)
	if len(got) != 2 {
		t.Fatalf("%d frames", len(got))
	}
	if want := uint64(1<<0 | 1<<3 | 1<<4 | 1<<7); got[0].Saturated != want {
		t.Errorf("Saturated %08b, want %08b", got[0].Saturated, want)
	}
	if got[0].Flags != acquire.FlagSaturated {
		t.Errorf("flags %v", got[0].Flags)
	}
	// Daisy channels use bits 8–15.
	q := testPacket(2, true)
	q.Counts[6] = MinCount
	d, _ = NewDecoder(Config{Daisy: true})
	got = decodeAll(t, d, stream(true, 1, q), 0)
	if len(got) != 1 || got[0].Saturated != 1<<14 || got[0].Flags != acquire.FlagSaturated {
		t.Errorf("daisy: %+v", got)
	}
}

func TestDecoderResume(t *testing.T) {
	d, _ := NewDecoder(Config{})
	decodeAll(t, d, stream(false, 0, 1, 2), 0)
	// An interrupted packet is dropped with the connection.
	decodeAll(t, d, corrupt(3, 0, 0xA0)[:10], 0)
	d.Resume(40)
	got := decodeAll(t, d, stream(false, 0, 1), 0)
	if len(got) != 2 || got[0].Seq != 43 || got[0].Flags != acquire.FlagGap || got[1].Seq != 44 || got[1].Flags != 0 {
		t.Fatalf("after Resume(40): %+v", got)
	}
	if st := d.Stats(); st.Lost != 40 || st.Skipped != 10 {
		t.Errorf("stats %+v", st)
	}
	// A Resume with nothing lost still flags the discontinuity.
	d.Resume(0)
	got = decodeAll(t, d, stream(false, 200, 201), 0)
	if len(got) != 2 || got[0].Seq != 45 || got[0].Flags != acquire.FlagGap {
		t.Fatalf("after Resume(0): %+v", got)
	}
}

func TestDecoderGains(t *testing.T) {
	gains := []int{1, 2, 4, 6, 8, 12, 24, 24}
	d, err := NewDecoder(Config{Gains: gains})
	if err != nil {
		t.Fatal(err)
	}
	p := Packet{Footer: FooterAccel, Counts: [8]int32{1000, 1000, 1000, 1000, 1000, 1000, 1000, -1000}}
	got := decodeAll(t, d, stream(false, p, 1), 0)
	for i, g := range gains {
		want := float64(p.Counts[i]) * 4.5 / float64(g) / MaxCount * 1e6
		if math.Abs(got[0].Samples[i]-want) > 1e-12 {
			t.Errorf("channel %d gain %d: %g µV, want %g", i+1, g, got[0].Samples[i], want)
		}
	}
}

func TestNewDecoderRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"gain not offered", Config{Gains: []int{24, 24, 3, 24, 24, 24, 24, 24}}},
		{"too few gains", Config{Gains: []int{24}}},
		{"8 gains with daisy", Config{Daisy: true, Gains: []int{24, 24, 24, 24, 24, 24, 24, 24}}},
		{"zero gain on a daisy channel", Config{Daisy: true, Gains: []int{24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 0, 24, 24}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewDecoder(tt.cfg); !errors.Is(err, ErrGain) {
				t.Errorf("error %v, want ErrGain", err)
			}
		})
	}
}

func TestDecoderRejectsWrongFrameSize(t *testing.T) {
	d, _ := NewDecoder(Config{Daisy: true})
	_, _, err := d.Decode(stream(true, 1, 2), acquire.NewFrame(8))
	if !errors.Is(err, acquire.ErrFrameSize) {
		t.Errorf("error %v, want ErrFrameSize", err)
	}
}

// TestDecoderGUIRecording encodes the OpenBCI GUI's µV values into real
// packets and checks the decoder gives them back within one count.
func TestDecoderGUIRecording(t *testing.T) {
	samples := loadGUI(t, 2000)
	in := guiStream(samples)
	d, _ := NewDecoder(Config{})
	got := decodeAll(t, d, in, 64)
	if len(got) != len(samples) {
		t.Fatalf("%d frames, want %d", len(got), len(samples))
	}
	for i, s := range samples {
		g := got[i]
		if g.Seq != uint64(i) || g.Flags != 0 || g.Time != time.Duration(i)*4*time.Millisecond {
			t.Fatalf("frame %d: seq %d flags %v time %v", i, g.Seq, g.Flags, g.Time)
		}
		for c, v := range s.uV {
			if math.Abs(g.Samples[c]-v) > lsb24 {
				t.Fatalf("frame %d channel %d: %g µV, GUI says %g", i, c+1, g.Samples[c], v)
			}
		}
	}
	board := d.Board()
	x, y, z, ok := board.Accel()
	last := samples[len(samples)-1].g
	if !ok || math.Abs(float64(x)*AccelScale-last[0]) > AccelScale || math.Abs(float64(y)*AccelScale-last[1]) > AccelScale || math.Abs(float64(z)*AccelScale-last[2]) > AccelScale {
		t.Errorf("accel %d %d %d, GUI says %v g", x, y, z, last)
	}
}

// TestDecoderGUIRecordingDamaged damages the recording's stream the way a
// radio link does and checks that every surviving packet comes out and
// every loss is flagged.
func TestDecoderGUIRecordingDamaged(t *testing.T) {
	samples := loadGUI(t, 1200)
	in, want := damagedGUI(samples)
	d, _ := NewDecoder(Config{})
	checkGUIFrames(t, decodeAll(t, d, in, 100), samples, want)
	if st := d.Stats(); st.Lost != 5 {
		t.Errorf("lost %d, want 5", st.Lost)
	}
}

func TestDecodeAllocatesNothing(t *testing.T) {
	for _, daisy := range []bool{false, true} {
		d, _ := NewDecoder(Config{Daisy: daisy})
		in := stream(daisy, 1, 2, 3, 4, 5, 6, 7, 8)
		f := acquire.NewFrame(d.Channels())
		allocs := testing.AllocsPerRun(200, func() {
			for b := in; len(b) > 0; {
				n, _, err := d.Decode(b, f)
				if err != nil {
					t.Fatal(err)
				}
				b = b[n:]
			}
		})
		if allocs != 0 {
			t.Errorf("daisy %v: %g allocations per run, want 0", daisy, allocs)
		}
	}
}
