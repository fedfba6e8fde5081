package classifier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The checkpoint encoding is little-endian throughout: uint64 and the IEEE
// 754 bits of float64 values, so a checkpoint written on one architecture
// loads bit for bit on any other.

func appendU64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

func appendF64(b []byte, v float64) []byte { return appendU64(b, math.Float64bits(v)) }

func appendF64s(b []byte, v []float64) []byte {
	for _, x := range v {
		b = appendF64(b, x)
	}
	return b
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// ErrCorrupt is wrapped by every error Load returns for a checkpoint that
// is truncated, fails its checksum or holds invalid state.
var ErrCorrupt = errors.New("classifier: corrupt checkpoint")

// decoder reads what the append functions wrote. The first error sticks:
// later reads return zero values, and err reports the first failure with
// its byte offset.
type decoder struct {
	buf []byte
	off int
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s at byte %d", ErrCorrupt, what, d.off)
	}
}

func (d *decoder) u64(what string) uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.buf)-d.off < 8 {
		d.fail(what + ": truncated")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.buf[d.off:])
	d.off += 8
	return v
}

// f64 reads a float64 that must be finite.
func (d *decoder) f64(what string) float64 {
	at := d.off
	v := math.Float64frombits(d.u64(what))
	if d.err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
		d.off = at
		d.fail(what + ": not a finite number")
		d.off = at + 8
		return 0
	}
	return v
}

// nonNeg reads a finite float64 that must be >= 0.
func (d *decoder) nonNeg(what string) float64 {
	at := d.off
	v := d.f64(what)
	if d.err == nil && v < 0 {
		d.off = at
		d.fail(fmt.Sprintf("%s: negative value %g", what, v))
		d.off = at + 8
	}
	return v
}

// f64s fills dst with finite float64 values.
func (d *decoder) f64s(dst []float64, what string) {
	for i := range dst {
		dst[i] = d.f64(what)
	}
}

func (d *decoder) boolean(what string) bool {
	if d.err != nil {
		return false
	}
	if d.off >= len(d.buf) {
		d.fail(what + ": truncated")
		return false
	}
	v := d.buf[d.off]
	if v > 1 {
		d.fail(fmt.Sprintf("%s: invalid boolean %d", what, v))
		return false
	}
	d.off++
	return v == 1
}
