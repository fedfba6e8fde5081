package classifier

import (
	"fmt"
	"math"
)

// qda is the quadratic discriminant analysis base learner: per class c a
// total weight T_c, a mean μ_c and its own scatter S_c, updated by the
// weighted Welford step of lda and nb,
//
//	T' = βT + w,  δ = x − μ,  μ' = μ + (w/T')·δ,  S' = βS + w·(βT/T')·δδᵀ,
//
// where with β < 1 every call first forgets (multiplies by β) both classes'
// weights and scatters, so a weight-k update is then not k unit updates
// (one call is one time step, the definition used); with β = 1 it is, up to
// rounding. The covariance of class c is the maximum-likelihood estimate
// with a prior diag(p_c),
//
//	Σ_c = (S_c + diag(p_c)) / T_c,
//
// where p_c is the ridge ρ_c of covPrior, set from the class's first
// example, as long as β = 1. It is held as the factor of S_c + diag(p_c)
// with a lazy scale (covFactor) and updated by one rank-one update per
// call. With β < 1 the prior of both classes is also refilled, one
// coordinate per call (more under very strong forgetting), towards ν
// pseudo-examples at the recent spread of the data (see covFactor) by
// rank-one updates along e_j: a class that has not been
// seen for a while thus widens as its own data fade, rather than staying a
// needle around its last few points. A class whose weight underflows to 0
// has been forgotten entirely and restarts, prior included, with its next
// example.
//
// The log-odds are computed in the log domain from log-determinants and
// quadratic forms (forward substitution, O(d²)):
//
//	log T+ − log T− − ½(log|Σ+| + q+) + ½(log|Σ−| + q−),
//	q_c = (x − μ_c)ᵀ Σ_c⁻¹ (x − μ_c),
//
// with log|Σ_c| = d·log(s_c/T_c) + 2Σ log L_kk cached per class. A qda is
// not safe for concurrent use.
type qda struct {
	d    int
	beta float64
	t    [2]float64
	mu   [2][]float64
	f    [2]covFactor
	all  spread // with β < 1: both classes' recent spread

	z     []float64  // scratch
	hld   [2]float64 // cache: ½log|Σ_c|
	c0    float64    // cache: log T+ − log T− − ½log|Σ+| + ½log|Σ−|
	dirty bool
}

// newQDA returns an untrained QDA learner for d features with forgetting
// factor beta in (0, 1].
func newQDA(d int, beta float64) *qda {
	buf := make([]float64, 3*d)
	return &qda{
		d:     d,
		beta:  beta,
		mu:    [2][]float64{buf[:d:d], buf[d : 2*d : 2*d]},
		f:     [2]covFactor{newCovFactor(d, beta), newCovFactor(d, beta)},
		all:   newSpread(d),
		z:     buf[2*d:],
		dirty: true,
	}
}

func (q *qda) learn(x []float64, positive bool, w float64) {
	if q.beta != 1 {
		for c := range 2 {
			q.t[c] *= q.beta
			if !q.f[c].started {
				continue
			}
			if q.t[c] == 0 {
				q.f[c].reset() // forgotten entirely
				clear(q.mu[c])
				continue
			}
			q.f[c].decay(q.beta)
		}
	}
	c := learnerClass(positive)
	f := &q.f[c]
	if !f.started {
		f.start(x)
	}
	if q.beta != 1 {
		q.all.learn(x, w, q.beta)
	}
	t := q.t[c]
	t1 := t + w
	q.t[c] = t1
	mu := q.mu[c]
	x = x[:len(mu)]
	if t == 0 {
		copy(mu, x)
	} else {
		a := w / t1
		u := q.z[:len(mu)]
		for j, xj := range x {
			dl := xj - mu[j]
			u[j] = dl
			mu[j] += a * dl
		}
		f.add(u, math.Sqrt(w*(t/t1)))
	}
	if q.beta != 1 {
		for o := range 2 {
			if g := &q.f[o]; g.started {
				g.refill(q.z, &q.all)
			}
		}
	}
	q.dirty = true
}

func (q *qda) refresh() {
	for c := range 2 {
		f := &q.f[c]
		q.hld[c] = 0.5*float64(q.d)*(math.Log(f.s)-math.Log(q.t[c])) + logDiag(f.l, q.d)
	}
	q.c0 = math.Log(q.t[clsPos]) - math.Log(q.t[clsNeg]) - q.hld[clsPos] + q.hld[clsNeg]
	q.dirty = false
}

// quad returns (x − μ_c)ᵀ Σ_c⁻¹ (x − μ_c).
func (q *qda) quad(c int, x []float64) float64 {
	mu, z := q.mu[c], q.z
	x = x[:len(mu)]
	z = z[:len(mu)]
	for j, xj := range x {
		z[j] = xj - mu[j]
	}
	return forwardSolve(q.f[c].l, q.d, z) * (q.t[c] / q.f[c].s)
}

func (q *qda) logOdds(x []float64) float64 {
	if !(q.t[clsPos] > 0) {
		return math.Inf(-1)
	}
	if !(q.t[clsNeg] > 0) {
		return math.Inf(1)
	}
	if q.dirty {
		q.refresh()
	}
	return q.c0 - 0.5*q.quad(clsPos, x) + 0.5*q.quad(clsNeg, x)
}

func (q *qda) predict(x []float64) bool { return q.logOdds(x) > 0 }

// qdaEncodedLen is the size of an encoded qda of dimension d: d and β,
// per class (negative first) T, μ and the factor, then the spread.
func qdaEncodedLen(d int) int {
	return 8*(2+2*(1+d)) + 2*covFactorEncodedLen(d) + spreadEncodedLen(d)
}

func (q *qda) encodedLen() int { return qdaEncodedLen(q.d) }

func (q *qda) appendBinary(b []byte) []byte {
	b = appendU64(b, uint64(q.d))
	b = appendF64(b, q.beta)
	for c := range 2 {
		b = appendF64(b, q.t[c])
		b = appendF64s(b, q.mu[c])
		b = q.f[c].appendBinary(b)
	}
	return q.all.appendBinary(b)
}

func (q *qda) decode(d *decoder) error {
	err := q.decodeState(d)
	if err != nil {
		q.reset()
	}
	return err
}

func (q *qda) decodeState(d *decoder) error {
	if err := decodeLearnerHeader(d, "qda", q.d, q.beta); err != nil {
		return err
	}
	for c, name := range [2]string{"qda negative class", "qda positive class"} {
		q.t[c] = d.nonNeg(name + " weight")
		d.f64s(q.mu[c], name+" mean")
		at := d.off
		q.f[c].decode(d, name+" covariance")
		if d.err == nil && q.f[c].started != (q.t[c] > 0) {
			d.off = at
			d.fail(fmt.Sprintf("%s covariance: prior set %v with class weight %g, want a prior exactly when the weight is positive",
				name, q.f[c].started, q.t[c]))
		}
	}
	q.all.decode(d, "qda spread")
	q.dirty = true
	return d.err
}

// reset returns q to its untrained state.
func (q *qda) reset() {
	q.t = [2]float64{}
	for c := range 2 {
		clear(q.mu[c])
		q.f[c].reset()
	}
	q.all.reset()
	q.dirty = true
}
