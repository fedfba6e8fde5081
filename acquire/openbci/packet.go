package openbci

import (
	"errors"
	"fmt"
)

// Packet layout constants (see doc.go).
const (
	// PacketSize is the length of one Cyton packet in bytes.
	PacketSize = 33
	// Header is the first byte of every packet.
	Header = 0xA0
	// BoardChannels is the number of ADS1299 channels in one packet.
	BoardChannels = 8
	// AuxSize is the number of auxiliary bytes before the footer.
	AuxSize = 6

	offCounter = 1
	offData    = 2
	offAux     = offData + 3*BoardChannels // 26
	offFooter  = PacketSize - 1            // 32
)

// Footer is the last byte of a packet; it says how the six aux bytes are to
// be read. The valid footers are FooterAccel through FooterStampRawAux.
type Footer uint8

// The footers defined by firmware v2.0.0 and later.
const (
	// FooterAccel marks aux bytes holding accelerometer X, Y, Z as 16-bit
	// big-endian two's complement counts (zero when no new reading).
	FooterAccel Footer = 0xC0
	// FooterRawAux marks raw, user-defined aux bytes.
	FooterRawAux Footer = 0xC1
	// FooterUser marks user-defined aux bytes.
	FooterUser Footer = 0xC2
	// FooterStampSetAccel marks the first time-stamped packet after the '<'
	// command: aux byte 0 names an accelerometer byte, aux byte 1 is its
	// value, aux bytes 2–5 are the board time in ms.
	FooterStampSetAccel Footer = 0xC3
	// FooterStampAccel marks the later time-stamped packets with accelerometer bytes.
	FooterStampAccel Footer = 0xC4
	// FooterStampSetRawAux marks the first time-stamped packet after '<'
	// with raw aux bytes: 0–1 raw, 2–5 the board time in ms.
	FooterStampSetRawAux Footer = 0xC5
	// FooterStampRawAux marks the later time-stamped packets with raw aux bytes.
	FooterStampRawAux Footer = 0xC6
)

// Valid reports whether f is one of the footers C0–C6.
func (f Footer) Valid() bool { return f >= FooterAccel && f <= FooterStampRawAux }

// String names the footer kind.
func (f Footer) String() string {
	switch f {
	case FooterAccel:
		return "accel"
	case FooterRawAux:
		return "raw-aux"
	case FooterUser:
		return "user"
	case FooterStampSetAccel:
		return "stamp-set-accel"
	case FooterStampAccel:
		return "stamp-accel"
	case FooterStampSetRawAux:
		return "stamp-set-raw-aux"
	case FooterStampRawAux:
		return "stamp-raw-aux"
	}
	return fmt.Sprintf("footer(%#02x)", uint8(f))
}

// Limits of the ADS1299's 24-bit two's complement output code.
const (
	// MaxCount is the largest count, 2^23 − 1.
	MaxCount = 1<<23 - 1
	// MinCount is the smallest count, −2^23.
	MinCount = -1 << 23
)

// Packet is one decoded 33-byte packet.
type Packet struct {
	// Counter is the sample number, 0–255, wrapping.
	Counter uint8
	// Counts holds the eight channels as signed 24-bit ADC counts.
	Counts [BoardChannels]int32
	// Aux holds the six auxiliary bytes as sent; Footer says how to read
	// them.
	Aux [AuxSize]byte
	// Footer is the packet's last byte.
	Footer Footer
}

// Errors returned by ParsePacket.
var (
	// ErrShortPacket is returned for fewer than PacketSize bytes.
	ErrShortPacket = errors.New("openbci: short packet")
	// ErrHeader is returned when the first byte is not 0xA0.
	ErrHeader = errors.New("openbci: bad packet header")
	// ErrFooter is returned when the last byte is not one of 0xC0–0xC6.
	ErrFooter = errors.New("openbci: bad packet footer")
)

// ParsePacket decodes one packet from the first PacketSize bytes of b.
func ParsePacket(b []byte) (Packet, error) {
	var p Packet
	if len(b) < PacketSize {
		return p, fmt.Errorf("%w: %d bytes, want %d", ErrShortPacket, len(b), PacketSize)
	}
	if b[0] != Header {
		return p, fmt.Errorf("%w: byte 0 is %#02x, want %#02x", ErrHeader, b[0], Header)
	}
	if !Footer(b[offFooter]).Valid() {
		return p, fmt.Errorf("%w: byte %d is %#02x, want 0xc0–0xc6", ErrFooter, offFooter, b[offFooter])
	}
	p.parse(b)
	return p, nil
}

// parse fills p from a packet already checked for header and footer.
func (p *Packet) parse(b []byte) {
	_ = b[offFooter]
	p.Counter = b[offCounter]
	for i := range p.Counts {
		o := offData + 3*i
		// Shift the 24-bit value into the top of an int32, then
		// arithmetic-shift back to sign-extend.
		p.Counts[i] = int32(uint32(b[o])<<24|uint32(b[o+1])<<16|uint32(b[o+2])<<8) >> 8
	}
	copy(p.Aux[:], b[offAux:offFooter])
	p.Footer = Footer(b[offFooter])
}

// AppendPacket appends the 33 bytes of p to dst. Counts outside
// [MinCount, MaxCount] are clipped, as the ADC would.
func AppendPacket(dst []byte, p *Packet) []byte {
	dst = append(dst, Header, p.Counter)
	for _, c := range p.Counts {
		c = min(max(c, MinCount), MaxCount)
		dst = append(dst, byte(c>>16), byte(c>>8), byte(c))
	}
	dst = append(dst, p.Aux[:]...)
	return append(dst, byte(p.Footer))
}

// Accel returns the accelerometer counts of a FooterAccel packet (X, Y, Z;
// multiply by AccelScale for g). ok is false for other footers. All three
// are zero when the packet carries no new reading.
func (p *Packet) Accel() (x, y, z int16, ok bool) {
	if p.Footer != FooterAccel {
		return 0, 0, 0, false
	}
	a := &p.Aux
	return int16(uint16(a[0])<<8 | uint16(a[1])), int16(uint16(a[2])<<8 | uint16(a[3])), int16(uint16(a[4])<<8 | uint16(a[5])), true
}

// AccelPart returns the interleaved accelerometer byte of a time-stamped
// accel packet (FooterStampSetAccel, FooterStampAccel): code is 'X', 'Y' or
// 'Z' for the high byte of that axis, 'x', 'y' or 'z' for the low byte. ok
// is false for other footers.
func (p *Packet) AccelPart() (code, value byte, ok bool) {
	if p.Footer != FooterStampSetAccel && p.Footer != FooterStampAccel {
		return 0, 0, false
	}
	return p.Aux[0], p.Aux[1], true
}

// Stamp returns the board time in milliseconds carried by time-stamped
// packets (footers C3–C6); ok is false for other footers.
func (p *Packet) Stamp() (ms uint32, ok bool) {
	if p.Footer < FooterStampSetAccel || p.Footer > FooterStampRawAux {
		return 0, false
	}
	a := &p.Aux
	return uint32(a[2])<<24 | uint32(a[3])<<16 | uint32(a[4])<<8 | uint32(a[5]), true
}

// Saturated reports whether count sits at the ADC's limit (±(2^23−1) or
// −2^23).
func Saturated(count int32) bool { return count >= MaxCount || count <= -MaxCount }

// AccelScale is the accelerometer's scale in g per count (±4 g range:
// 0.002 / 2^4).
const AccelScale = 0.002 / 16

// gains lists the ADS1299 programmable gains the Cyton firmware offers.
var gains = [...]int{1, 2, 4, 6, 8, 12, 24}

// DefaultGain is the gain the firmware sets on every channel after reset.
const DefaultGain = 24

// ErrGain is returned for a gain the firmware does not offer (it offers
// 1, 2, 4, 6, 8, 12 and 24).
var ErrGain = errors.New("openbci: invalid gain")

// Scale returns the µV per count for an ADS1299 channel at gain:
// 4.5 V / gain / (2^23 − 1) × 1e6. It returns ErrGain for a gain the
// firmware does not offer.
func Scale(gain int) (float64, error) {
	for _, g := range gains {
		if g == gain {
			return 4.5 / float64(gain) / MaxCount * 1e6, nil
		}
	}
	return 0, fmt.Errorf("%w: %d (valid: 1, 2, 4, 6, 8, 12, 24)", ErrGain, gain)
}
