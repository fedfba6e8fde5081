package classifier

import (
	"fmt"
	"math"

	"github.com/ictal/ictal/internal/detmath"
)

// qda is the quadratic discriminant analysis base learner: per class c a
// prior weight W_c, a class weight T_c, a mean μ_c and its own scatter
// S_c. A call with label c and weight w decays and updates class c only,
// by the weighted Welford step of nb,
//
//	T_c' = βT_c + w,  δ = x − μ_c,  μ_c' = μ_c + (w/T_c')·δ,
//	S_c' = βS_c + w·(βT_c/T_c')·δδᵀ,
//
// the paper's per-Gaussian forgetting (Section 8): each class keeps its
// last ~1/(1 − β) examples however long the gap between its examples, and
// a call leaves the other class exactly as it was. The priors W_c = Σ w
// never forget (see nb for why). With β = 1 a weight-k update equals k
// unit updates up to rounding; with β < 1 one call is one step of the
// class's own clock. The covariance of class c is the maximum-likelihood
// estimate with a prior diag(p_c),
//
//	Σ_c = (S_c + diag(p_c)) / T_c,
//
// where p_c starts at the provisional ridge of covPrior, set from the
// class's first example, and then follows the ridge ρ_c of varPrior, 1e-6
// of each feature's variance in the class (invariant to shifting and
// rescaling a feature). It is held as the factor of S_c + diag(p_c) with a
// lazy scale (covFactor) and updated by one rank-one update per call of
// the class; the prior is corrected towards ρ_c round-robin on the
// class's calls and, with β < 1, decays with the class's scatter and is
// refilled, so Σ_c stays positive definite however few or degenerate the
// class's recent examples.
//
// Before this estimator the learners decayed both classes on every call
// and, to keep a rare class from collapsing to a needle, refilled the
// prior towards ν pseudo-examples at the recent spread of both classes.
// Per-class forgetting removes the collapse, and the shrinkage is no longer
// needed: on the rare-positive stream of TestLearnerForgettingRarePositives
// (β = 0.9, 10 % positives, classes 2.5σ apart, d = 4) the prequential AUC
// of one QDA was 0.9992 with the old scheme and shrinkage and is 0.9995
// with this one and none; on the same stream at d = 36, 1σ apart, 0.850
// and 0.930.
//
// The log-odds are computed in the log domain from log-determinants and
// quadratic forms (forward substitution, O(d²)):
//
//	log W+ − log W− − ½(log|Σ+| + q+) + ½(log|Σ−| + q−),
//	q_c = (x − μ_c)ᵀ Σ_c⁻¹ (x − μ_c),
//
// with log|Σ_c| = d·log(s_c/T_c) + 2Σ log L_kk. The constant is cached and
// recomputed after a change with two detmath.Log calls (see refresh),
// with the reciprocals of the factors' diagonals, so the solves multiply
// where they would divide.
// Products feeding sums are rounded explicitly (see cholesky.go): the same
// bits on every architecture. A qda is not safe for concurrent use.
type qda struct {
	d    int
	beta float64
	pw   [2]float64 // prior weight W_c (cumulative, never forgets)
	t    [2]float64 // class weight T_c (forgets per class)
	mu   [2][]float64
	f    [2]covFactor

	inv   [2][]float64 // cache: 1/L_kk of each class's factor (diagRecip)
	z     []float64    // scratch
	c0    float64      // cache: log W+ − log W− − ½log|Σ+| + ½log|Σ−|
	dirty bool
}

// newQDA returns an untrained QDA learner for d features with forgetting
// factor beta in (0, 1].
func newQDA(d int, beta float64) *qda {
	buf := make([]float64, 5*d)
	return &qda{
		d:     d,
		beta:  beta,
		mu:    [2][]float64{buf[:d:d], buf[d : 2*d : 2*d]},
		f:     [2]covFactor{newCovFactor(d, beta), newCovFactor(d, beta)},
		inv:   [2][]float64{buf[3*d : 4*d : 4*d], buf[4*d : 5*d : 5*d]},
		z:     buf[2*d : 3*d : 3*d],
		dirty: true,
	}
}

func (q *qda) learn(x []float64, positive bool, w float64) {
	c := learnerClass(positive)
	f := &q.f[c]
	t := q.t[c]
	if !f.started {
		f.start(x)
	} else if q.beta != 1 {
		f.decay(q.beta)
		t = float64(t * q.beta)
	}
	t1 := t + w
	q.t[c] = t1
	q.pw[c] += w
	f.addExample(q.mu[c], x, q.z, w, t, t1)
	f.refill(q.z, t1, q.beta)
	q.dirty = true
}

// refresh recomputes the constant
//
//	c0 = log W+ − log W− − Σ log L+kk + Σ log L−kk − ½d·[log(s+/T+) − log(s−/T−)]
//
// with two detmath.Log calls: every quantity is split exactly into a
// mantissa and a binary exponent (math.Frexp, logSum), the mantissas of
// each bracket combined into one ratio in (¼, 4) and the exponents summed
// as integers.
func (q *qda) refresh() {
	var dm [2]float64
	var de [2]int64
	var dx [2]float64
	for c := range 2 {
		ls := logDiagSum(q.f[c].l, q.d)
		dm[c], de[c], dx[c] = ls.parts()
	}
	wpm, wpe := math.Frexp(q.pw[clsPos])
	wnm, wne := math.Frexp(q.pw[clsNeg])
	a := detmath.Log((wpm*dm[clsNeg])/(wnm*dm[clsPos])) +
		float64(float64(int64(wpe-wne)+de[clsNeg]-de[clsPos])*math.Ln2) + (dx[clsNeg] - dx[clsPos])
	spm, spe := math.Frexp(q.f[clsPos].s)
	snm, sne := math.Frexp(q.f[clsNeg].s)
	tpm, tpe := math.Frexp(q.t[clsPos])
	tnm, tne := math.Frexp(q.t[clsNeg])
	b := detmath.Log((spm*tnm)/(tpm*snm)) + float64(float64(spe-tpe-sne+tne)*math.Ln2)
	q.c0 = a - float64(float64(0.5*float64(q.d))*b)
	diagRecip(q.inv[clsNeg], q.f[clsNeg].l, q.d)
	diagRecip(q.inv[clsPos], q.f[clsPos].l, q.d)
	q.dirty = false
}

// quad returns (x − μ_c)ᵀ Σ_c⁻¹ (x − μ_c), using z as scratch.
func (q *qda) quad(c int, x, z []float64) float64 {
	mu := q.mu[c]
	x = x[:len(mu)]
	z = z[:len(mu)]
	for j, xj := range x {
		z[j] = xj - mu[j]
	}
	return forwardSolveRecip(q.f[c].l, q.inv[c], q.d, z) * (q.t[c] / q.f[c].s)
}

func (q *qda) prepare() {
	if q.dirty && q.pw[clsPos] > 0 && q.pw[clsNeg] > 0 {
		q.refresh()
	}
}

func (q *qda) logOdds(x []float64) float64 {
	q.prepare()
	return q.logOddsShared(x, q.z)
}

func (q *qda) logOddsShared(x, z []float64) float64 {
	if !(q.pw[clsPos] > 0) {
		return math.Inf(-1)
	}
	if !(q.pw[clsNeg] > 0) {
		return math.Inf(1)
	}
	return q.c0 - float64(0.5*q.quad(clsPos, x, z)) + float64(0.5*q.quad(clsNeg, x, z))
}

func (q *qda) predict(x []float64) bool { return q.logOdds(x) > 0 }

// qdaEncodedLen is the size of an encoded qda of dimension d: d and β,
// then per class (negative first) W, T, μ and the factor.
func qdaEncodedLen(d int) int {
	return 8*(2+2*(2+d)) + 2*covFactorEncodedLen(d)
}

func (q *qda) encodedLen() int { return qdaEncodedLen(q.d) }

func (q *qda) appendBinary(b []byte) []byte {
	b = appendLearnerHeader(b, q.d, q.beta)
	for c := range 2 {
		b = appendClass(b, q.pw[c], q.t[c], q.mu[c])
		b = q.f[c].appendBinary(b)
	}
	return b
}

func (q *qda) decode(d *decoder) error { return decodeOrReset(q, d) }

func (q *qda) decodeState(d *decoder) error {
	if err := decodeLearnerHeader(d, "qda", q.d, q.beta); err != nil {
		return err
	}
	for c, name := range [2]string{"qda negative class", "qda positive class"} {
		q.pw[c], q.t[c] = decodeClass(d, name, q.mu[c])
		at := d.off
		q.f[c].decode(d, name+" covariance")
		if d.err == nil && q.f[c].started != (q.t[c] > 0) {
			d.off = at
			d.fail(fmt.Sprintf("%s covariance: prior set %v with class weight %g, want a prior exactly when the weight is positive",
				name, q.f[c].started, q.t[c]))
		}
	}
	q.dirty = true
	return d.err
}

// reset returns q to its untrained state.
func (q *qda) reset() {
	q.pw = [2]float64{}
	q.t = [2]float64{}
	for c := range 2 {
		clear(q.mu[c])
		q.f[c].reset()
	}
	q.dirty = true
}
