package prequential

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// ErrCorrupt is wrapped by the errors UnmarshalBinary returns for data that
// is not a checkpoint of this version.
var ErrCorrupt = errors.New("prequential: corrupt checkpoint")

// maxCount bounds the examples of a checkpoint's stream, as it bounds
// those whose AUC is exact (see Add).
const maxCount = 1 << 32

// magic starts a checkpoint; its last byte is the format's version.
const magic = "ictalPQ\x01"

// AppendBinary appends a checkpoint of e to b: the threshold, the window's
// examples and the whole stream's distinct scores with their class counts,
// followed by a CRC-32. Its size grows with the number of distinct scores
// seen. The figures are derived from these again by UnmarshalBinary.
func (e *Evaluator) AppendBinary(b []byte) ([]byte, error) {
	start := len(b)
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(e.threshold))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(e.ring)))
	b = binary.LittleEndian.AppendUint64(b, uint64(e.len))
	for k := range e.len {
		i := (e.head + k) % len(e.ring)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(e.ring[i]))
		b = append(b, byte(b2i(e.ringPos[i])))
	}
	// Nodes in the order they were made, so that reinserting them draws
	// the same priorities and rebuilds the same tree.
	nodes := e.tree.nodes[1:]
	b = binary.LittleEndian.AppendUint64(b, uint64(len(nodes)))
	for _, n := range nodes {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(n.key))
		b = binary.LittleEndian.AppendUint64(b, uint64(n.cnt[0]))
		b = binary.LittleEndian.AppendUint64(b, uint64(n.cnt[1]))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:])), nil
}

// MarshalBinary returns a checkpoint of e (see AppendBinary).
func (e *Evaluator) MarshalBinary() ([]byte, error) { return e.AppendBinary(nil) }

// UnmarshalBinary replaces e's state with the checkpoint data, made by
// AppendBinary or MarshalBinary: the restored Evaluator reports the same
// figures, and continues as the one checkpointed would have. On error e is
// unchanged.
func (e *Evaluator) UnmarshalBinary(data []byte) error {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return fmt.Errorf("%w: no %q header", ErrCorrupt, magic)
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(body):]) {
		return fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	d := decoder{b: body[len(magic):]}
	threshold := math.Float64frombits(d.u64())
	window, n := d.u64(), d.u64()
	if d.err != nil || window < 1 || window > MaxWindow || n > window || math.IsNaN(threshold) {
		return fmt.Errorf("%w: header (window %d, %d examples, threshold %g)", ErrCorrupt, window, n, threshold)
	}
	r, err := New(int(window), threshold)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	for range n {
		s, label := math.Float64frombits(d.u64()), d.byte()
		if d.err != nil || label > 1 || r.addWindow(s, label == 1) != nil {
			return fmt.Errorf("%w: window example", ErrCorrupt)
		}
	}
	nodes := d.u64()
	if d.err != nil || nodes > uint64(len(d.b))/24 {
		return fmt.Errorf("%w: %d scores in %d bytes", ErrCorrupt, nodes, len(d.b))
	}
	r.tree.reserve(int(nodes))
	for range nodes {
		s, neg, pos := math.Float64frombits(d.u64()), d.u64(), d.u64()
		if s != s || neg+pos == 0 || neg > maxCount || pos > maxCount || uint64(r.whole.n)+neg+pos > maxCount {
			return fmt.Errorf("%w: score %g with %d negatives, %d positives", ErrCorrupt, s, neg, pos)
		}
		if err := r.restoreScore(s, int(neg), int(pos)); err != nil {
			return err
		}
	}
	if len(d.b) != 0 {
		return fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, len(d.b))
	}
	*e = *r
	return nil
}

// restoreScore adds neg negatives and pos positives of score s to the whole
// stream. A score already present is an error: the checkpoint lists each
// once.
func (e *Evaluator) restoreScore(s float64, neg, pos int) error {
	below, _ := e.tree.rank(s, true)
	above := e.whole.pos - below
	nb, _ := e.tree.rank(s, false)
	decided := s > e.threshold
	// Negatives pair with the positives above s; positives with the
	// negatives below s, and tie with the negatives of s just counted.
	e.whole.u2 += uint64(neg)*uint64(2*above) + uint64(pos)*uint64(2*nb+neg)
	e.whole.add(false, decided, neg)
	e.whole.add(true, decided, pos)
	added := e.tree.insert(s, false, neg)
	e.tree.insert(s, true, pos)
	if !added {
		return fmt.Errorf("%w: score %g listed twice", ErrCorrupt, s)
	}
	return nil
}

// decoder reads little-endian numbers, recording a short read in err.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) u64() uint64 {
	if len(d.b) < 8 {
		d.err, d.b = ErrCorrupt, nil
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) < 1 {
		d.err = ErrCorrupt
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}
