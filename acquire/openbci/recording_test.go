package openbci

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/shared"
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
	path := shared.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
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
