package openbci

import (
	"bytes"
	"fmt"
	"time"

	"github.com/ictal/ictal/acquire"
)

// Sampling rates of the two configurations.
const (
	// CytonRate is the Cyton's rate in frames per second (8 channels).
	CytonRate = 250
	// DaisyRate is the frame rate with the Daisy module: packets still
	// arrive at 250 per second, but one frame takes a pair of them.
	DaisyRate = 125
)

// Config describes the board a Decoder reads.
type Config struct {
	// Daisy says the Daisy module is attached: 16 channels, packets
	// alternating between the board (odd counters) and the Daisy (even
	// counters), one frame per pair at DaisyRate.
	Daisy bool
	// Gains holds the ADS1299 gain of each channel (8 values, or 16 with
	// Daisy). Nil means DefaultGain on every channel, as after a reset.
	Gains []int
}

// Channels returns the number of channels of the configuration.
func (c Config) Channels() int {
	if c.Daisy {
		return 2 * BoardChannels
	}
	return BoardChannels
}

// Rate returns the frame rate of the configuration in Hz.
func (c Config) Rate() float64 {
	if c.Daisy {
		return DaisyRate
	}
	return CytonRate
}

// scales validates c's gains and returns the µV per count of each channel.
func (c Config) scales() ([2 * BoardChannels]float64, error) {
	var s [2 * BoardChannels]float64
	n := c.Channels()
	if c.Gains != nil && len(c.Gains) != n {
		return s, fmt.Errorf("%w: %d gains for %d channels", ErrGain, len(c.Gains), n)
	}
	for i := range n {
		g := DefaultGain
		if c.Gains != nil {
			g = c.Gains[i]
		}
		v, err := Scale(g)
		if err != nil {
			return s, fmt.Errorf("channel %d: %w", i+1, err)
		}
		s[i] = v
	}
	return s, nil
}

// Stats counts what a Decoder has seen.
type Stats struct {
	// Bytes is the number of bytes consumed.
	Bytes uint64
	// Packets is the number of well-framed packets decoded.
	Packets uint64
	// Frames is the number of frames emitted.
	Frames uint64
	// Skipped is the number of bytes discarded while looking for a packet
	// (text, garbage, corrupted packets).
	Skipped uint64
	// Lost is the number of frames known to be lost: counted from the
	// packet counter, plus those declared by Resume.
	Lost uint64
	// Orphans counts Daisy-mode packets dropped because the other half of
	// their pair was lost.
	Orphans uint64
}

// Decoder turns a byte stream from a Cyton into frames. It finds packets by
// their header and footer, resynchronises byte by byte after garbage,
// detects lost packets from the counter, pairs Daisy packets, and scales
// counts to µV. It does no I/O; a Decoder is used by one goroutine.
type Decoder struct {
	cfg    Config
	nch    int
	rate   uint64
	period int // counter slots before the counter wraps: 256, or 128 pairs
	scale  [2 * BoardChannels]float64

	win  [PacketSize + 1]byte // candidate packet being assembled, plus one byte of lookahead
	nwin int

	havePkt bool  // lastPkt is valid
	lastPkt uint8 // counter of the last accepted packet

	next     uint64 // Seq of the next frame when nothing is lost
	haveSlot bool   // lastSlot is valid (false at start and after Resume)
	lastSlot int
	resumed  bool   // Resume was called since the last frame
	lostHint uint64 // frames declared lost by Resume

	holding bool   // Daisy: a board half waits for its daisy half
	hold    Packet // that board half
	board   Packet // the packets of the last frame
	daisy   Packet

	stats Stats
}

// NewDecoder returns a decoder for cfg, or ErrGain for an invalid gain.
func NewDecoder(cfg Config) (*Decoder, error) {
	s, err := cfg.scales()
	if err != nil {
		return nil, err
	}
	d := &Decoder{cfg: cfg, nch: cfg.Channels(), scale: s, rate: CytonRate, period: 256}
	if cfg.Daisy {
		d.rate, d.period = DaisyRate, 128
	}
	return d, nil
}

// Channels returns the number of channels of each frame.
func (d *Decoder) Channels() int { return d.nch }

// Rate returns the frame rate in Hz.
func (d *Decoder) Rate() float64 { return float64(d.rate) }

// Stats returns the counters so far.
func (d *Decoder) Stats() Stats { return d.stats }

// Board returns the packet that carried channels 1–8 of the last frame.
func (d *Decoder) Board() Packet { return d.board }

// Daisy returns the packet that carried channels 9–16 of the last frame
// (the zero Packet without the Daisy module).
func (d *Decoder) Daisy() Packet { return d.daisy }

// Resume tells the decoder that the stream was interrupted (the port was
// reopened and streaming restarted) and that about lost frames were lost
// meanwhile. It drops any partial packet and unpaired half, forgets the
// counter, and makes the next frame carry acquire.FlagGap with Seq advanced
// by lost.
func (d *Decoder) Resume(lost uint64) {
	d.stats.Skipped += uint64(d.nwin)
	d.nwin = 0
	d.havePkt = false
	if d.holding {
		d.stats.Orphans++
		d.holding = false
	}
	d.haveSlot = false
	d.resumed = true
	d.lostHint += lost
	d.stats.Lost += lost
}

// Decode consumes bytes of p until it completes a frame, which it writes to
// f. It returns the number of bytes consumed and whether f now holds a new
// frame; bytes of an incomplete packet are kept for the next call, so a
// caller loops until all of p is consumed. A packet whose counter does not
// follow the last one (the first, or one after a loss) is confirmed by the
// next packet's header, so it completes a frame one byte later. f.Samples
// must have Channels() elements, else the error wraps acquire.ErrFrameSize.
// Garbage is skipped, never an error: it is counted in Stats.Skipped.
// Decode allocates nothing.
func (d *Decoder) Decode(p []byte, f *acquire.Frame) (n int, ok bool, err error) {
	if len(f.Samples) != d.nch {
		return 0, false, fmt.Errorf("openbci: frame has %d samples for %d channels: %w", len(f.Samples), d.nch, acquire.ErrFrameSize)
	}
	i := 0
	defer func() { d.stats.Bytes += uint64(n) }()
	for {
		if d.nwin == 0 {
			if i == len(p) {
				return i, false, nil
			}
			j := bytes.IndexByte(p[i:], Header)
			if j < 0 {
				d.skip(len(p) - i)
				return len(p), false, nil
			}
			d.skip(j)
			i += j
		}
		if d.nwin < PacketSize {
			c := copy(d.win[d.nwin:PacketSize], p[i:])
			d.nwin += c
			i += c
			if d.nwin < PacketSize {
				return i, false, nil
			}
		}
		if !Footer(d.win[offFooter]).Valid() {
			d.resync()
			continue
		}
		// Header and footer match. When the counter follows the last
		// packet's, that is enough. Otherwise it may be garbage that
		// happens to look framed, overlapping a real packet: then the next
		// byte must be the next packet's header.
		if !d.havePkt || d.win[offCounter] != d.lastPkt+1 {
			if d.nwin == PacketSize {
				if i == len(p) {
					return i, false, nil // wait for the lookahead byte
				}
				d.win[PacketSize] = p[i]
				d.nwin++
				i++
			}
			if d.win[PacketSize] != Header {
				d.resync()
				continue
			}
		}
		var pk Packet
		pk.parse(d.win[:PacketSize])
		d.nwin = copy(d.win[:], d.win[PacketSize:d.nwin]) // the lookahead header, if any
		d.havePkt, d.lastPkt = true, pk.Counter
		d.stats.Packets++
		if d.accept(&pk, f) {
			return i, true, nil
		}
	}
}

// skip counts n bytes discarded outside any candidate packet.
func (d *Decoder) skip(n int) { d.stats.Skipped += uint64(n) }

// resync drops the window's first byte and everything up to the next
// header inside the window, so that a packet starting inside what looked
// like one is still found.
func (d *Decoder) resync() {
	k := bytes.IndexByte(d.win[1:d.nwin], Header)
	if k < 0 {
		d.stats.Skipped += uint64(d.nwin)
		d.nwin = 0
		return
	}
	shift := k + 1
	copy(d.win[:], d.win[shift:d.nwin])
	d.nwin -= shift
	d.stats.Skipped += uint64(shift)
}

// accept takes one packet and fills f when it completes a frame.
func (d *Decoder) accept(pk *Packet, f *acquire.Frame) bool {
	if !d.cfg.Daisy {
		d.board = *pk
		d.emit(int(pk.Counter), f)
		return true
	}
	if pk.Counter%2 == 1 { // board half: channels 1–8
		if d.holding {
			d.stats.Orphans++ // its daisy half never came
		}
		d.hold, d.holding = *pk, true
		return false
	}
	// Daisy half: channels 9–16; it pairs with the board half just before.
	if !d.holding || d.hold.Counter+1 != pk.Counter {
		d.stats.Orphans++
		if d.holding {
			d.stats.Orphans++
			d.holding = false
		}
		return false
	}
	d.holding = false
	d.board, d.daisy = d.hold, *pk
	d.emit(int(d.hold.Counter>>1), f)
	return true
}

// emit fills f from d.board (and d.daisy) for the counter slot.
func (d *Decoder) emit(slot int, f *acquire.Frame) {
	f.Reset()
	var lost uint64
	if d.haveSlot {
		lost = uint64((slot - d.lastSlot - 1 + 2*d.period) % d.period)
		d.stats.Lost += lost
	}
	if lost > 0 || d.resumed {
		f.Flags |= acquire.FlagGap
	}
	lost += d.lostHint
	d.lostHint, d.resumed = 0, false
	d.haveSlot, d.lastSlot = true, slot

	seq := d.next + lost
	d.next = seq + 1
	f.Seq = seq
	f.Time = time.Duration(seq/d.rate)*time.Second + time.Duration(seq%d.rate)*time.Second/time.Duration(d.rate)

	d.fill(f, &d.board, 0)
	if d.cfg.Daisy {
		d.fill(f, &d.daisy, BoardChannels)
	}
	if f.Saturated != 0 {
		f.Flags |= acquire.FlagSaturated
	}
	d.stats.Frames++
}

// fill scales pk's counts into f.Samples[base:base+8].
func (d *Decoder) fill(f *acquire.Frame, pk *Packet, base int) {
	s := f.Samples[base : base+BoardChannels]
	for i, c := range pk.Counts {
		s[i] = float64(c) * d.scale[base+i]
		if Saturated(c) {
			f.Saturated |= 1 << uint(base+i)
		}
	}
}
