package openbci

import (
	"bufio"
	"github.com/ictal/ictal/acquire"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/internal/datadir"
)

// guiSample is one row of the OpenBCI GUI's "Raw EXG Data" export.
type guiSample struct {
	index int        // the Cyton packet counter
	uV    [8]float64 // EXG channels 0–7
	g     [3]float64 // accelerometer X, Y, Z
}

// loadGUI reads the first n samples of the shared OpenBCI GUI recording
// (Cyton, 8 channels, 250 Hz, gain 24).
func loadGUI(t testing.TB, n int) []guiSample {
	t.Helper()
	path := datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []guiSample
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() && len(out) < n {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '%' || strings.HasPrefix(text, "Sample Index") {
			continue
		}
		fields := strings.Split(text, ",")
		if len(fields) < 12 {
			t.Fatalf("%s:%d: %d fields", path, line, len(fields))
		}
		var s guiSample
		if s.index, err = strconv.Atoi(strings.TrimSpace(fields[0])); err != nil {
			t.Fatalf("%s:%d: sample index: %v", path, line, err)
		}
		for i := range 8 {
			if s.uV[i], err = strconv.ParseFloat(strings.TrimSpace(fields[1+i]), 64); err != nil {
				t.Fatalf("%s:%d: channel %d: %v", path, line, i, err)
			}
		}
		for i := range 3 {
			if s.g[i], err = strconv.ParseFloat(strings.TrimSpace(fields[9+i]), 64); err != nil {
				t.Fatalf("%s:%d: accel %d: %v", path, line, i, err)
			}
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < n {
		t.Fatalf("%s: %d samples, want %d", path, len(out), n)
	}
	return out
}

// lsb24 is one count at gain 24, in µV.
var lsb24 = 4.5 / 24 / MaxCount * 1e6

// packet encodes a GUI sample as the Cyton would have sent it (gain 24,
// accelerometer footer).
func (s guiSample) packet() Packet {
	p := Packet{Counter: uint8(s.index), Footer: FooterAccel}
	for i, v := range s.uV {
		p.Counts[i] = int32(math.Round(v / lsb24))
	}
	for i, g := range s.g {
		c := int16(math.Round(g / AccelScale))
		p.Aux[2*i], p.Aux[2*i+1] = byte(uint16(c)>>8), byte(c)
	}
	return p
}

// guiStream returns the packets of samples back to back.
func guiStream(samples []guiSample) []byte {
	var b []byte
	for _, s := range samples {
		p := s.packet()
		b = AppendPacket(b, &p)
	}
	return b
}

// guiFrame is a frame expected from a damaged GUI stream: the sample it
// holds and whether it must carry FlagGap.
type guiFrame struct {
	i   int
	gap bool
}

// damagedGUI encodes samples (at least 720) as a damaged stream: packets
// 100–102 and 600 dropped, 700 with a corrupted footer, garbage holding
// headers and footers before every 17th packet, and samples 300 and 301
// altered so that their data hold 0xA0 and footer bytes. It returns the
// stream and the frames a decoder must produce.
func damagedGUI(samples []guiSample) ([]byte, []guiFrame) {
	samples[300].uV[7] = float64(0xA0A0A0-1<<24) * lsb24
	samples[300].uV[2] = float64(0x00A0C0) * lsb24
	samples[301].uV[0] = float64(0x12A0C6) * lsb24
	var in []byte
	var want []guiFrame
	gapNext := false
	for i, s := range samples {
		p := s.packet()
		b := AppendPacket(nil, &p)
		switch {
		case i >= 100 && i <= 102 || i == 600:
			gapNext = true
			continue
		case i == 700:
			b[32] = 0x00
			in = append(in, b...)
			gapNext = true
			continue
		}
		if i%17 == 0 {
			in = append(in, 0xA0, 0xA0, 0x24, 0x24, 0x24, 0xC0)
		}
		in = append(in, b...)
		want = append(want, guiFrame{i, gapNext})
		gapNext = false
	}
	return in, want
}

// checkGUIFrames checks frames decoded from a damaged GUI stream.
func checkGUIFrames(t *testing.T, got []acquire.Frame, samples []guiSample, want []guiFrame) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d frames, want %d", len(got), len(want))
	}
	for k, w := range want {
		g := got[k]
		if g.Seq != uint64(w.i) || (g.Flags&acquire.FlagGap != 0) != w.gap || g.Time != time.Duration(w.i)*4*time.Millisecond {
			t.Fatalf("frame %d: seq %d time %v flags %v, want seq %d gap %v", k, g.Seq, g.Time, g.Flags, w.i, w.gap)
		}
		for c, v := range samples[w.i].uV {
			if math.Abs(g.Samples[c]-v) > lsb24 {
				t.Fatalf("frame %d channel %d: %g µV, want %g", k, c+1, g.Samples[c], v)
			}
		}
	}
}
