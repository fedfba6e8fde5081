package prequential

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"
)

// FuzzEvaluator checks both figures against the brute-force reference on
// streams of few distinct scores (so ties abound): the first byte sets the
// window, each further byte one example, its low bit the label and the rest
// the score.
func FuzzEvaluator(f *testing.F) {
	f.Add([]byte{3, 0x10, 0x21, 0x10, 0x11, 0xff, 0x00, 0x21})
	f.Add([]byte{0, 1, 1, 0, 0})
	f.Add([]byte{7, 0x81, 0x80, 0x81, 0x80, 0x81, 0x80, 0x3, 0x2, 0x41, 0x40})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 || len(data) > 400 {
			return
		}
		window := int(data[0]%32) + 1
		e, err := New(window, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		var scores []float64
		var pos []bool
		for _, b := range data[1:] {
			s, p := float64(b>>1)/127, b&1 == 1
			if err := e.Add(s, p); err != nil {
				t.Fatal(err)
			}
			scores, pos = append(scores, s), append(pos, p)
		}
		if want, got := reference(scores, pos, 0.5), e.Whole(); !sameMetrics(got, want) {
			t.Fatalf("whole %v, want %v", got, want)
		}
		lo := max(0, len(scores)-window)
		if want, got := reference(scores[lo:], pos[lo:], 0.5), e.Windowed(); !sameMetrics(got, want) {
			t.Fatalf("window %v, want %v", got, want)
		}
	})
}

// FuzzUnmarshalBinary checks that no input makes UnmarshalBinary panic, and
// that a checkpoint it accepts is written back byte for byte.
func FuzzUnmarshalBinary(f *testing.F) {
	e, _ := New(3, 0.5)
	for i, s := range []float64{0.1, 0.7, 0.7, 0.3, 0.9} {
		e.Add(s, i%2 == 1)
	}
	good, _ := e.MarshalBinary()
	f.Add(good)
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkUnmarshal(t, data)
		// Also with the CRC made right, so that a mutation reaches the
		// decoder behind it.
		if len(data) >= 4 {
			sealed := bytes.Clone(data)
			body := sealed[:len(sealed)-4]
			binary.LittleEndian.PutUint32(sealed[len(body):], crc32.ChecksumIEEE(body))
			checkUnmarshal(t, sealed)
		}
	})
}

// checkUnmarshal restores a checkpoint and, if it is accepted, checks that
// it is written back to the same bytes and that a failed restore left the
// Evaluator as it was.
func checkUnmarshal(t *testing.T, data []byte) {
	r, _ := New(3, 0.5)
	before, _ := r.MarshalBinary()
	if err := r.UnmarshalBinary(data); err != nil {
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("error %v does not wrap ErrCorrupt", err)
		}
		if after, _ := r.MarshalBinary(); !bytes.Equal(after, before) {
			t.Fatal("a refused checkpoint changed the Evaluator")
		}
		return
	}
	again, err := r.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("accepted checkpoint written back as %x, was %x", again, data)
	}
}
