package classifier

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// lrnGoldenStream is a fixed stream of n examples in d = 7 dimensions built
// from integers only (PCG draws, exact dyadic values and power-of-two
// scales, no multiply-adds in the test itself), so every architecture feeds
// the learners the same bits: about 30 % positives shifted by 1.5 on every
// varying feature, features on scales from 1/8 to 8, a constant feature
// 3, and weights drawn from {0.5, 1, 1.25, 2, 3}.
func lrnGoldenStream(n int) []lrnExample {
	const d = 7
	rng := rand.New(rand.NewPCG(2026, 11))
	weights := []float64{0.5, 1, 1.25, 2, 3}
	ex := make([]lrnExample, n)
	for i := range ex {
		positive := rng.IntN(10) < 3
		x := make([]float64, d)
		for j := range x {
			v := float64(rng.IntN(4097)-2048) / 1024
			if positive {
				v += 1.5
			}
			if j > 0 {
				v += x[j-1] / 4 // a little correlation, no product
			}
			x[j] = v
		}
		for j := range x {
			x[j] = math.Ldexp(x[j], j-3)
		}
		x[3] = 3
		ex[i] = lrnExample{x, positive, weights[rng.IntN(len(weights))]}
	}
	return ex
}

// lrnGoldenProbes are the points whose log-odds the golden test records.
var lrnGoldenProbes = [][]float64{
	{0, 0, 0, 3, 0, 0, 0},
	{0.25, 0.5, 1, 3, 2, 4, 8},
	{-0.125, 0.75, -1.5, 3, 0.5, -2, 6},
	{1, -1, 2, 3.5, -4, 16, -32}, // far, and off the constant feature
}

// TestLearnersGoldenBits pins the complete state (SHA-256 of the encoding)
// and the exact log-odds bits of every learner after the golden stream,
// and a hash of its prequential log-odds along the way, as recorded on
// linux/amd64. The same test run on arm64 and arm (under
// qemu-user) and on amd64 with GOAMD64=v3 must give the same bits: the
// logarithms come from detmath and no product is fused into a
// multiply-add. A change to the learners' arithmetic changes these values
// on purpose; record them again only for such a change, on any
// architecture, and check that the others agree.
func TestLearnersGoldenBits(t *testing.T) {
	tests := []struct {
		kind        LearnerName
		beta        float64
		state       string    // SHA-256 of appendBinary
		logOdds     [4]uint64 // math.Float64bits of logOdds at lrnGoldenProbes
		prequential string    // SHA-256 of the log-odds bits before each learn
	}{
		{LearnerNB, 1, "c739bda10b62fe28bbc2266f7f9126ae98951bfc9502999d349c6affa999981f",
			[4]uint64{0xc02060c461c25050, 0x4007b3a14ee20c65, 0xc020f2c20d2008a7, 0xc009a6edf132d8b2}, "0f5069f3b6fecb70c3de4b73b338f43a10a518f9e2f05faf25c9741a73668cfe"},
		{LearnerNB, 0.9, "26f01a7e6a6c831dc0511a8f280faa36779d23d6482bfb113aaa6b6778b3f3a1",
			[4]uint64{0xc020c2e8ca266584, 0x3ff3f49da59b7ebc, 0xc026255298f7feae, 0x4027dda51d93721e}, "9aa24ca4897f3719fbfa590056a84759a444b8fca18cb99302de75446b217044"},
		{LearnerLDA, 1, "1dc7bf9d89a5e6d69fccc69414bedfa32bc91222853222b40b9b5e014965a3a6",
			[4]uint64{0xc017c8c96b7ccd9c, 0x3ffa84e97abd5927, 0xc0151e60fb22e5ab, 0xc013d4c6c449b717}, "eba72244538560e121eb6b05107a92c6e12380dc3612b93096a90e2a84e8294f"},
		{LearnerLDA, 0.9, "53fdc7e4e02f28d48c6cb183c7906bd772092005a24a492ee9f4c90be444fdaf",
			[4]uint64{0xc014bcc7cbbbde97, 0xbffdeed78ec3f2a0, 0xc00e568bc152900e, 0xc01f2cc654ef6aa9}, "f1df36614be208eeb40fb78ffde057404cce1df004ae22ff1747f611c3a8d71e"},
		{LearnerQDA, 1, "6b52715eaa55b3979c661bd6c1d6a98fe1df43701f9413245138f4be5cf75402",
			[4]uint64{0xc019a8cc9fc38c14, 0x3ff4b333825847c2, 0xc00ff76992340934, 0x414eb3e857db58be}, "247eb0207ecdbbb2e7dd6ae7209622ec3854ad2668bf8bc6375ffa21873a84ce"},
		{LearnerQDA, 0.9, "8ca2ded9a720eaaf20a362a3ba133222f256e53095cbca96b16961dab6eaa4b6",
			[4]uint64{0xc0148ef1df00753f, 0xbfebd1afe135e2c0, 0xc03624be1341d1ec, 0xc0fa406bd3feea54}, "8cdc3d89a1e9ca9578fb3b508d7ad071336892346c004b2548d56bfb75116c5a"},
	}
	ex := lrnGoldenStream(400)
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/beta=%v", tt.kind, tt.beta), func(t *testing.T) {
			h := newLearner(tt.kind, 7, tt.beta)
			// Test then train: the log-odds of every example before it is
			// learned, hashed, cover every refresh on the way.
			preq := sha256.New()
			for _, e := range ex {
				preq.Write(appendF64(nil, h.logOdds(e.x)))
				h.learn(e.x, e.positive, e.w)
			}
			if got := hex.EncodeToString(preq.Sum(nil)); got != tt.prequential {
				t.Errorf("prequential log-odds SHA-256 %s, golden %s", got, tt.prequential)
			}
			sum := sha256.Sum256(h.appendBinary(nil))
			if got := hex.EncodeToString(sum[:]); got != tt.state {
				t.Errorf("state SHA-256 %s, golden %s", got, tt.state)
			}
			for i, x := range lrnGoldenProbes {
				lo := h.logOdds(x)
				if got := math.Float64bits(lo); got != tt.logOdds[i] {
					t.Errorf("logOdds(probe %d) = %v (%#016x), golden %v (%#016x)",
						i, lo, got, math.Float64frombits(tt.logOdds[i]), tt.logOdds[i])
				}
			}
		})
	}
}
