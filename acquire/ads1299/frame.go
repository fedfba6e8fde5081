package ads1299

import (
	"fmt"
	"time"

	"github.com/ictal/ictal/acquire"
)

// Full scale of the 24-bit two's complement codes: the converter clips
// there (SBAS499C, "Data Format").
const (
	codeMax = 1<<23 - 1 // 0x7FFFFF, ≥ +VREF/gain
	codeMin = -1 << 23  // 0x800000, ≤ −VREF/gain
	vref    = 4.5       // V, internal reference
)

// lsbMicrovolts returns the weight of one code at gain g in µV:
// 2·VREF / g / 2^24.
func lsbMicrovolts(g int) float64 {
	return 2 * vref * 1e6 / float64(g) / (1 << 24)
}

// decoder turns the status word and channel codes of one RDATAC frame into
// an acquire.Frame.
type decoder struct {
	n      int                  // channels on
	input  [maxChannels]uint8   // device channel (0-based) of each channel on
	scale  [maxChannels]float64 // µV per code of each channel on
	senseP uint8                // LOFF_SENSP: LOFF_STATP bits to report
	senseN uint8                // LOFF_SENSN: LOFF_STATN bits to report
}

// add appends device channel ch (0-based) at gain g.
func (dc *decoder) add(ch, g int) {
	dc.input[dc.n] = uint8(ch)
	dc.scale[dc.n] = lsbMicrovolts(g)
	dc.n++
}

// decode fills f's samples and quality fields from frame b: a 3-byte status
// word (1100, LOFF_STATP, LOFF_STATN, GPIO[7:4]) then one 24-bit big-endian
// two's complement code per device channel. len(f.Samples) must be dc.n.
func (dc *decoder) decode(f *acquire.Frame, b []byte) error {
	status := uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2])
	if status>>20 != statusSync {
		return fmt.Errorf("ads1299: status word 0x%06X does not start with 1100: %w", status, ErrSync)
	}
	statP := uint8(status >> 12)
	statN := uint8(status >> 4)
	off := statP&dc.senseP | statN&dc.senseN

	f.Reset()
	for i := 0; i < dc.n; i++ {
		ch := dc.input[i]
		p := b[statusBytes+3*int(ch):]
		code := int32(uint32(p[0])<<24|uint32(p[1])<<16|uint32(p[2])<<8) >> 8
		f.Samples[i] = float64(code) * dc.scale[i]
		if code == codeMax || code == codeMin {
			f.Saturated |= 1 << i
		}
		if off&(1<<ch) != 0 {
			f.LeadOff |= 1 << i
		}
	}
	if f.Saturated != 0 {
		f.Flags |= acquire.FlagSaturated
	}
	if f.LeadOff != 0 {
		f.Flags |= acquire.FlagLeadOff
	}
	return nil
}

// ReadFrame waits for DRDY's falling edge, clocks the frame out (27 bytes
// on the 8-channel ADS1299) and fills f: samples in µV, lead-off and
// saturation flags, Seq (the sample index since conversions started) and
// Time = Seq / Rate. A sample lost to a bad frame or a failed transfer
// advances Seq and sets FlagGap on the next frame returned. ReadFrame
// allocates nothing when it succeeds.
func (d *Dev) ReadFrame(f *acquire.Frame) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.halted {
		return ErrHalted
	}
	if len(f.Samples) != d.dec.n {
		return fmt.Errorf("ads1299: frame has %d samples for %d channels: %w", len(f.Samples), d.dec.n, acquire.ErrFrameSize)
	}
	if !d.drdy.WaitForEdge(d.timeout) {
		return fmt.Errorf("ads1299: DRDY pin %s did not fall within %s: %w", d.drdy, d.timeout, ErrNoDRDY)
	}
	seq := d.seq
	d.seq++
	if err := d.c.Tx(d.zeros[:d.nbytes], d.buf[:d.nbytes]); err != nil {
		d.gap = true
		return fmt.Errorf("ads1299: reading sample %d: %w", seq, err)
	}
	if err := d.dec.decode(f, d.buf[:d.nbytes]); err != nil {
		d.gap = true
		return fmt.Errorf("ads1299: sample %d: %w", seq, err)
	}
	if d.gap {
		f.Flags |= acquire.FlagGap
		d.gap = false
	}
	f.Seq = seq
	f.Time = d.period * time.Duration(seq)
	return nil
}
