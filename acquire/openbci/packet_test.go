package openbci

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestParsePacketRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		p    Packet
	}{
		{"zeros", Packet{Footer: FooterAccel}},
		{"limits", Packet{Counter: 255, Counts: [8]int32{MaxCount, MinCount, -1, 1, 0xA0A0A0 - 1<<24, 0x00A0C0, -MaxCount, 12345}, Footer: FooterRawAux}},
		{"aux kept raw", Packet{Counter: 7, Aux: [6]byte{0xA0, 0xC0, 1, 2, 3, 4}, Footer: FooterUser}},
		{"time stamped", Packet{Counter: 9, Aux: [6]byte{'X', 0x12, 0xDE, 0xAD, 0xBE, 0xEF}, Footer: FooterStampAccel}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := AppendPacket(nil, &tt.p)
			if len(b) != PacketSize {
				t.Fatalf("encoded %d bytes, want %d", len(b), PacketSize)
			}
			got, err := ParsePacket(b)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.p {
				t.Errorf("got %+v, want %+v", got, tt.p)
			}
		})
	}
}

func TestAppendPacketClipsToConverterRange(t *testing.T) {
	p := Packet{Counts: [8]int32{MaxCount + 10, MinCount - 10}, Footer: FooterAccel}
	got, err := ParsePacket(AppendPacket(nil, &p))
	if err != nil {
		t.Fatal(err)
	}
	if got.Counts[0] != MaxCount || got.Counts[1] != MinCount {
		t.Errorf("counts %d %d, want %d %d", got.Counts[0], got.Counts[1], MaxCount, MinCount)
	}
}

func TestParsePacketRejects(t *testing.T) {
	good := AppendPacket(nil, &Packet{Footer: FooterAccel})
	badHeader := bytes.Clone(good)
	badHeader[0] = 0x41
	badFooter := bytes.Clone(good)
	badFooter[32] = 0xC7
	tests := []struct {
		name    string
		in      []byte
		want    error
		mention string
	}{
		{"short", good[:32], ErrShortPacket, "32 bytes"},
		{"empty", nil, ErrShortPacket, "0 bytes"},
		{"header", badHeader, ErrHeader, "byte 0 is 0x41"},
		{"footer C7", badFooter, ErrFooter, "byte 32 is 0xc7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePacket(tt.in)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("error %q does not say %q", err, tt.mention)
			}
		})
	}
}

func TestPacketAuxByFooter(t *testing.T) {
	aux := [6]byte{0xFF, 0xF0, 0x00, 0x10, 0x7F, 0xFF}
	tests := []struct {
		footer  Footer
		accel   bool
		x, y, z int16
		part    bool
		stamp   bool
		ms      uint32
	}{
		{footer: FooterAccel, accel: true, x: -16, y: 16, z: 32767},
		{footer: FooterRawAux},
		{footer: FooterUser},
		{footer: FooterStampSetAccel, part: true, stamp: true, ms: 0x00107FFF},
		{footer: FooterStampAccel, part: true, stamp: true, ms: 0x00107FFF},
		{footer: FooterStampSetRawAux, stamp: true, ms: 0x00107FFF},
		{footer: FooterStampRawAux, stamp: true, ms: 0x00107FFF},
	}
	for _, tt := range tests {
		t.Run(tt.footer.String(), func(t *testing.T) {
			p := Packet{Aux: aux, Footer: tt.footer}
			x, y, z, ok := p.Accel()
			if ok != tt.accel || x != tt.x || y != tt.y || z != tt.z {
				t.Errorf("Accel() = %d %d %d %v, want %d %d %d %v", x, y, z, ok, tt.x, tt.y, tt.z, tt.accel)
			}
			code, v, ok := p.AccelPart()
			if ok != tt.part || (ok && (code != 0xFF || v != 0xF0)) {
				t.Errorf("AccelPart() = %#x %#x %v, want part %v", code, v, ok, tt.part)
			}
			ms, ok := p.Stamp()
			if ok != tt.stamp || ms != tt.ms {
				t.Errorf("Stamp() = %#x %v, want %#x %v", ms, ok, tt.ms, tt.stamp)
			}
		})
	}
}

func TestScale(t *testing.T) {
	tests := []struct {
		gain int
		want float64
		err  bool
	}{
		{24, 0.0223517444, false},
		{1, 0.536441867, false},
		{12, 0.0447034889, false},
		{0, 0, true},
		{3, 0, true},
		{48, 0, true},
	}
	for _, tt := range tests {
		got, err := Scale(tt.gain)
		if (err != nil) != tt.err || (err != nil && !errors.Is(err, ErrGain)) {
			t.Errorf("Scale(%d) error %v, want error %v", tt.gain, err, tt.err)
			continue
		}
		if d := got - tt.want; d > 1e-9 || d < -1e-9 {
			t.Errorf("Scale(%d) = %.10f, want %.10f", tt.gain, got, tt.want)
		}
	}
}

func TestFooterString(t *testing.T) {
	if got := Footer(0xC4).String(); got != "stamp-accel" {
		t.Errorf("0xC4: %q", got)
	}
	if got := Footer(0xC9).String(); got != "footer(0xc9)" {
		t.Errorf("0xC9: %q", got)
	}
}
