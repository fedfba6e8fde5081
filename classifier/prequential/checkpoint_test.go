package prequential

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestCheckpointContinues checks that an Evaluator restored from a
// checkpoint reports the same figures as the one saved, and goes on to
// report what it would have, for every split point of a stream.
func TestCheckpointContinues(t *testing.T) {
	tests := []struct {
		name   string
		window int
		levels int
	}{
		{"continuous", 20, 0},
		{"ties", 7, 4},
		{"infinities and zeros", 5, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(9, 9))
			var scores []float64
			var pos []bool
			for range 120 {
				p := rng.IntN(4) == 0
				scores, pos = append(scores, score(rng, p, tt.levels)), append(pos, p)
			}
			for split := 0; split <= len(scores); split += 7 {
				a, _ := New(tt.window, 0.4)
				for i := range split {
					a.Add(scores[i], pos[i])
				}
				data, err := a.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				b, _ := New(1, 0.9)
				if err := b.UnmarshalBinary(data); err != nil {
					t.Fatalf("split %d: %v", split, err)
				}
				for i := split; i <= len(scores); i++ {
					if !sameMetrics(a.Whole(), b.Whole()) || !sameMetrics(a.Windowed(), b.Windowed()) {
						t.Fatalf("split %d, after %d: restored %v / %v, want %v / %v",
							split, i, b.Whole(), b.Windowed(), a.Whole(), a.Windowed())
					}
					if i < len(scores) {
						a.Add(scores[i], pos[i])
						b.Add(scores[i], pos[i])
					}
				}
				again, _ := b.MarshalBinary()
				final, _ := a.MarshalBinary()
				if string(again) != string(final) {
					t.Fatalf("split %d: the restored evaluator's checkpoint differs at the end", split)
				}
			}
		})
	}
}

func TestCheckpointCorrupt(t *testing.T) {
	e, _ := New(4, 0.5)
	for i, s := range []float64{0.1, 0.7, 0.7, 0.3, 0.9, 0.2} {
		e.Add(s, i%2 == 1)
	}
	good, _ := e.MarshalBinary()
	// The first node follows the header (magic, threshold, window, count),
	// the window's 4 examples of 9 bytes and the node count.
	const nodes = len(magic) + 24 + 4*9 + 8
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"header only", good[:len(magic)]},
		{"truncated", good[:len(good)-5]},
		{"bit flipped", flip(good, 20)},
		{"wrong version", flip(good, len(magic)-1)},
		{"trailing byte", append(append([]byte{}, good...), 0)},
		{"score listed twice", reseal(good, func(b []byte) { copy(b[nodes+24:nodes+32], b[nodes:nodes+8]) })},
		{"score without examples", reseal(good, func(b []byte) { clear(b[nodes+8 : nodes+24]) })},
		{"count beyond the bound", reseal(good, func(b []byte) { binary.LittleEndian.PutUint64(b[nodes+8:], maxCount+1) })},
		{"window of zero", reseal(good, func(b []byte) { clear(b[16:24]) })},
		{"window beyond MaxWindow", reseal(good, func(b []byte) { binary.LittleEndian.PutUint64(b[16:], MaxWindow+1) })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := New(2, 0.5)
			r.Add(0.5, true)
			before := r.Whole()
			if err := r.UnmarshalBinary(tt.data); !errors.Is(err, ErrCorrupt) {
				t.Errorf("UnmarshalBinary = %v, want ErrCorrupt", err)
			}
			if !sameMetrics(r.Whole(), before) {
				t.Errorf("a failed UnmarshalBinary changed the evaluator")
			}
		})
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte{}, b...)
	c[i] ^= 1
	return c
}

// reseal returns a copy of the checkpoint b changed by edit, with its
// checksum made valid again.
func reseal(b []byte, edit func([]byte)) []byte {
	c := append([]byte{}, b...)
	edit(c)
	body := c[:len(c)-4]
	binary.LittleEndian.PutUint32(c[len(body):], crc32.ChecksumIEEE(body))
	return c
}
