package classifier

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Encoding tests of the learners: round trip, rejection of invalid
// states with errors naming the field, and the decoder fuzz target.

func TestLearnerEncodeDecodeContinues(t *testing.T) {
	lrnEachBeta(t, []float64{1, 0.9}, func(t *testing.T, kind LearnerName, beta float64) {
		const d = 5
		rng := rand.New(rand.NewPCG(21, 22))
		a := newLearner(kind, d, beta)
		// 3000 calls at β = 0.9 cross a renormalisation of the
		// lazy scale (0.9^2186 < 1e-100).
		lrnTrain(a, lrnGaussians(rng, 3000, d, 0.3, 1, 1, 2, true))
		enc := a.appendBinary([]byte("prefix"))
		if got, want := len(enc)-6, a.encodedLen(); got != want {
			t.Fatalf("appendBinary wrote %d bytes, encodedLen says %d", got, want)
		}
		if got, want := a.encodedLen(), learnerEncodedLen(kind, d); got != want {
			t.Fatalf("encodedLen %d, learnerEncodedLen %d", got, want)
		}
		b := newLearner(kind, d, beta)
		dec := &decoder{buf: enc, off: 6}
		if err := b.decode(dec); err != nil {
			t.Fatal(err)
		}
		if dec.off != len(enc) {
			t.Fatalf("decode consumed %d of %d bytes", dec.off-6, len(enc)-6)
		}
		for _, e := range lrnGaussians(rng, 3000, d, 0.3, 1, 1, 2, true) {
			a.learn(e.x, e.positive, e.w)
			b.learn(e.x, e.positive, e.w)
			if la, lb := a.logOdds(e.x), b.logOdds(e.x); math.Float64bits(la) != math.Float64bits(lb) {
				t.Fatalf("logOdds %v (original) and %v (restored) differ", la, lb)
			}
		}
		if !bytes.Equal(a.appendBinary(nil), b.appendBinary(nil)) {
			t.Error("states differ after continued training")
		}
	})
}

// lrnEncoded returns the encoding of a trained learner of the kind.
func lrnEncoded(kind LearnerName, d int, beta float64, n int) []byte {
	h := newLearner(kind, d, beta)
	lrnTrain(h, lrnGaussians(rand.New(rand.NewPCG(23, 24)), n, d, 0.5, 1, 1, 2, true))
	return h.appendBinary(nil)
}

// lrnOffsets gives the byte offset of named fields of an encoded learner of
// dimension d (the negative class's, for per-class fields).
func lrnOffsets(kind LearnerName, d int) map[string]int {
	const hdr = 16
	cls := map[string]int{"prior weight": hdr, "weight": hdr + 8, "mean": hdr + 16}
	f := 0
	switch kind {
	case LearnerNB:
		cls["variance"] = hdr + 16 + 8*d
		return cls
	case LearnerLDA:
		cls["pooled weight"] = hdr + 16*(2+d)
		f = hdr + 16*(2+d) + 8
	default:
		f = hdr + 8*(2+d)
	}
	for k, v := range map[string]int{"started": f, "scale": f + 1, "refill index": f + 9,
		"prior target": f + 17, "prior mass": f + 17 + 8*d, "factor": f + 17 + 16*d} {
		cls[k] = v
	}
	return cls
}

func TestLearnerDecodeRejects(t *testing.T) {
	put := func(b []byte, off int, v float64) {
		copy(b[off:], appendF64(nil, v))
	}
	tests := []struct {
		name      string
		kinds     []LearnerName
		untrained bool   // mutate the encoding of an untrained learner
		field     string // lrnOffsets key, or "" for the header
		mutate    func(b []byte, off, d int) []byte
		want      string
	}{
		{"truncated", lrnKinds, false, "", func(b []byte, _, _ int) []byte { return b[:len(b)-3] }, "truncated"},
		{"empty", lrnKinds, false, "", func(b []byte, _, _ int) []byte { return b[:0] }, "dimension: truncated"},
		{"wrong dimension", lrnKinds, false, "", func(b []byte, _, _ int) []byte { b[0] = 9; return b }, "dimension 9, want 3"},
		{"wrong forgetting factor", lrnKinds, false, "", func(b []byte, _, _ int) []byte { put(b, 8, 0.5); return b }, "forgetting factor 0.5, want 0.9"},
		{"negative weight", lrnKinds, false, "weight", func(b []byte, off, _ int) []byte { put(b, off, -1); return b }, "weight: negative value -1"},
		{"negative prior weight", lrnKinds, false, "prior weight", func(b []byte, off, _ int) []byte { put(b, off, -1); return b }, "prior weight: negative value -1"},
		{"weight above prior weight", lrnKinds, false, "weight", func(b []byte, off, _ int) []byte { put(b, off, 1e6); return b }, "want 0 < weight ≤ prior weight or both 0"},
		{"prior weight without weight", lrnKinds, true, "prior weight", func(b []byte, off, _ int) []byte { put(b, off, 1); return b }, "weight 0 with prior weight 1"},
		{"NaN mean", lrnKinds, false, "mean", func(b []byte, off, _ int) []byte { put(b, off+8, math.NaN()); return b }, "mean: not a finite number"},
		{"negative variance", []LearnerName{LearnerNB}, false, "variance", func(b []byte, off, _ int) []byte { put(b, off, -2); return b }, "variance: negative value"},
		{"bad boolean", []LearnerName{LearnerLDA, LearnerQDA}, false, "started", func(b []byte, off, _ int) []byte { b[off] = 7; return b }, "invalid boolean 7"},
		{"scale above 1", []LearnerName{LearnerLDA, LearnerQDA}, false, "scale", func(b []byte, off, _ int) []byte { put(b, off, 2); return b }, "scale 2 outside"},
		{"refill index out of range", []LearnerName{LearnerLDA, LearnerQDA}, false, "refill index", func(b []byte, off, _ int) []byte { b[off] = 3; return b }, "refill index 3, want < 3"},
		{"zero prior target", []LearnerName{LearnerLDA, LearnerQDA}, false, "prior target", func(b []byte, off, _ int) []byte { put(b, off, 0); return b }, "prior target of coordinate 0: 0, want > 0"},
		{"negative prior mass", []LearnerName{LearnerLDA, LearnerQDA}, false, "prior mass", func(b []byte, off, _ int) []byte { put(b, off+16, -3); return b }, "prior mass: negative value -3"},
		{"zero factor diagonal", []LearnerName{LearnerLDA, LearnerQDA}, false, "factor", func(b []byte, off, _ int) []byte { put(b, off, 0); return b }, "diagonal not positive"},
		{"negative factor diagonal", []LearnerName{LearnerLDA, LearnerQDA}, false, "factor", func(b []byte, off, _ int) []byte { put(b, off, -1); return b }, "diagonal not positive"},
		{"unstarted factor with a scale", []LearnerName{LearnerLDA, LearnerQDA}, true, "scale", func(b []byte, off, _ int) []byte { put(b, off, 0.5); return b }, "state of an unstarted factor is not zero"},
		{"LDA class weights without a prior", []LearnerName{LearnerLDA}, true, "weight", func(b []byte, off, _ int) []byte { put(b, off-8, 2); put(b, off, 1); return b }, "prior set false with class weights 1 and 0"},
		{"LDA pooled weight without a prior", []LearnerName{LearnerLDA}, true, "pooled weight", func(b []byte, off, _ int) []byte { put(b, off, 1); return b }, "pooled weight 1 with prior set false"},
		{"LDA prior without pooled weight", []LearnerName{LearnerLDA}, false, "pooled weight", func(b []byte, off, _ int) []byte { put(b, off, 0); return b }, "pooled weight 0 with prior set true"},
		{"QDA weight without a prior", []LearnerName{LearnerQDA}, true, "weight", func(b []byte, off, _ int) []byte { put(b, off-8, 2); put(b, off, 1); return b }, "prior set false with class weight 1, want a prior exactly when the weight is positive"},
		{"Inf in factor", []LearnerName{LearnerLDA, LearnerQDA}, false, "factor", func(b []byte, off, _ int) []byte { put(b, off+8, math.Inf(1)); return b }, "factor: not a finite number"},
	}
	for _, tt := range tests {
		for _, kind := range tt.kinds {
			t.Run(string(kind)+"/"+tt.name, func(t *testing.T) {
				const d = 3
				n := 50
				if tt.untrained {
					n = 0
				}
				b := lrnEncoded(kind, d, 0.9, n)
				b = tt.mutate(b, lrnOffsets(kind, d)[tt.field], d)
				h := newLearner(kind, d, 0.9)
				err := h.decode(&decoder{buf: b})
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("decode error %v, want ErrCorrupt", err)
				}
				if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), string(kind)) {
					t.Errorf("error %q does not say %q", err, tt.want)
				}
				if lo := h.logOdds([]float64{1, 2, 3}); !math.IsInf(lo, -1) {
					t.Errorf("after a failed decode logOdds = %v, want -Inf (untrained)", lo)
				}
			})
		}
	}
}

func FuzzLearnerDecode(f *testing.F) {
	const d = 3
	for i, kind := range lrnKinds {
		for _, n := range []int{0, 1, 2, 50} {
			f.Add(append([]byte{byte(i)}, lrnEncoded(kind, d, 0.9, n)...))
		}
	}
	probe := []float64{0.5, -1, 2}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		kind := lrnKinds[int(data[0])%len(lrnKinds)]
		h := newLearner(kind, d, 0.9)
		dec := &decoder{buf: data[1:]}
		if err := h.decode(dec); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if got := h.appendBinary(nil); !bytes.Equal(got, data[1:1+dec.off]) {
			t.Fatalf("re-encoding differs from the decoded bytes")
		}
		_ = h.logOdds(probe)
		h.learn(probe, true, 1)
		_ = h.predict(probe)
	})
}
