package classifier

import (
	"fmt"
	"math"
)

// Class indices of the per-class arrays of the learners.
const (
	clsNeg = 0
	clsPos = 1
)

func learnerClass(positive bool) int {
	if positive {
		return clsPos
	}
	return clsNeg
}

// Variance floor of the naive Bayes learner (see nb).
const (
	nbFloorRel = 1e-9   // relative to the feature's own second moment μ_j² + v_j
	nbFloorCls = 1e-18  // relative to the class's largest second moment (for features that are exactly 0)
	nbFloorAbs = 1e-100 // absolute, only reached when a class has seen nothing but the zero vector
)

// nb is the Gaussian naive Bayes base learner: per class c ∈ {+, −} a total
// weight T_c and, per feature j, a mean μ_cj and the maximum-likelihood
// variance v_cj = S_cj/T_c, where S_cj is the weighted sum of squared
// deviations. An update with weight w is the weighted Welford step
//
//	T' = βT + w,  δ = x − μ,  μ' = μ + (w/T')·δ,  S' = βS + w·(βT/T')·δ²,
//
// kept as v' = r·(v + a·δ²) with a = w/T' and r = βT/T' (S' = T'·v'). It is
// exact: with β = 1 one update of weight k equals k updates of weight 1 up
// to rounding. With a forgetting factor β < 1 every learn call first
// multiplies the weight of everything learned before by β — both classes'
// T and S (Section 8: t_n = β·t_{n−1} + w) — so a weight-k update is then
// NOT k unit updates (those would forget k times); one call is one time
// step, and that is the definition used. Forgetting leaves the other
// class's means and ML variances unchanged (S and T shrink together), which
// is why variances rather than scatters are stored: the other class costs
// O(1).
//
// The log-odds are computed in the log domain:
//
//	log T+ − log T− + Σ_j [log N(x_j; μ+j, u+j) − log N(x_j; μ−j, u−j)].
//
// With β = 1 the variance used is u_cj = max(v_cj, f_cj), the ML variance
// above a floor. With β < 1 a class's effective weight stays small (about
// 1.5 for β = 0.9 and one positive in ten examples) and an ML variance from
// one or two points is a needle: u_cj = max(v_cj + ν·v̂_j/T_c, f_cj), ν
// pseudo-examples (priorWeight) at the recent spread v̂ of feature j over
// both classes, the prior LDA and QDA also use under forgetting (see
// covFactor). It fades as the class's weight grows and widens a class that
// has not been seen for a while (measured on the rare-positive stream of
// TestLearnerForgettingRarePositives: prequential AUC 0.944 without it,
// 1.000 with it). The floor is
//
//	f_cj = 1e-9·(μ_cj² + v_cj) + 1e-18·max_k(μ_ck² + v_ck) + 1e-100.
//
// The first term is relative to the feature's own scale, so the floor is
// invariant to rescaling any feature and never swamps a small-valued
// feature because another one is large (EEG band powers and relative powers
// differ by many orders of magnitude); it caps the evidence of a feature
// that is constant within a class at a standard deviation of 3e-5 of its
// value, enough that one such feature is decisive but finite. The second
// term covers a feature that is exactly 0 throughout the class, at a scale
// far below any other feature's; the third only a class that has seen
// nothing but the zero vector. So a class seen once or a constant feature
// never gives Inf or NaN. Results stay finite as long as |x_j − μ_cj| is
// below about 1e100.
//
// Predict costs one pass over the features: per class ½/u_j and their
// product (as mantissa and exponent, see logProd) are cached and
// recomputed only for a class whose statistics changed (with β < 1, both
// after every learn); the constant log T+ − log T− − ½Σ log u+j +
// ½Σ log u−j then takes one math.Log. An nb is not safe for concurrent use.
type nb struct {
	d    int
	beta float64
	t    [2]float64   // total weight T_c
	mu   [2][]float64 // means μ_c
	v    [2][]float64 // ML variances S_c/T_c, not floored

	half [2][]float64 // cache: ½/max(v_cj, f_cj)
	// cache: Π_j half_cj = pm_c·2^pe_c·exp(px_c) (see logProd)
	pm    [2]float64
	pe    [2]int64
	px    [2]float64
	dirty [2]bool // the class's caches are stale

	all  spread  // with β < 1: both classes' recent spread (the prior)
	c0   float64 // cache: constant()
	c0ok bool    // c0 is current
}

// newNB returns an untrained naive Bayes learner for d features with
// forgetting factor beta in (0, 1].
func newNB(d int, beta float64) *nb {
	buf := make([]float64, 8*d)
	n := &nb{d: d, beta: beta}
	for c := range 2 {
		k := 4 * c * d
		n.mu[c] = buf[k : k+d : k+d]
		n.v[c] = buf[k+d : k+2*d : k+2*d]
		n.half[c] = buf[k+2*d : k+3*d : k+3*d]
		n.dirty[c] = true
	}
	n.all = newSpread(d)
	return n
}

func (n *nb) learn(x []float64, positive bool, w float64) {
	if n.beta != 1 {
		n.t[clsNeg] *= n.beta
		n.t[clsPos] *= n.beta
		n.all.learn(x, w, n.beta)
		n.dirty = [2]bool{true, true} // both priors moved
	}
	c := learnerClass(positive)
	t := n.t[c]
	t1 := t + w
	n.t[c] = t1
	mu, v := n.mu[c], n.v[c]
	x = x[:len(mu)]
	if t == 0 {
		copy(mu, x)
		clear(v)
	} else {
		a, r := w/t1, t/t1
		v = v[:len(mu)]
		for j, xj := range x {
			dl := xj - mu[j]
			mu[j] += a * dl
			v[j] = r * (v[j] + a*dl*dl)
		}
	}
	n.dirty[c] = true
	n.c0ok = false
}

// refresh recomputes the caches of class c.
func (n *nb) refresh(c int) {
	mu, v, half := n.mu[c], n.v[c], n.half[c]
	v = v[:len(mu)]
	half = half[:len(mu)]
	var m2max float64
	for j, m := range mu {
		if s := m*m + v[j]; s > m2max {
			m2max = s
		}
	}
	base := nbFloorCls*m2max + nbFloorAbs
	// Under forgetting: ν pseudo-examples at the recent spread, (S_cj +
	// ν·v̂_j)/T_c = v_cj + (ν/T_c)·v̂_j.
	var k float64
	if n.beta != 1 {
		// A class unseen for long has a subnormal weight and ν/T_c
		// overflows; capped, a zero spread gives 0, not Inf·0 = NaN, and a
		// non-zero one an infinitely wide class, which ranks last.
		k = min(priorWeight/n.t[c], math.MaxFloat64)
	}
	all := n.all.v[:len(mu)]
	for j, m := range mu {
		vj := v[j] + k*all[j]
		if f := nbFloorRel*(m*m+v[j]) + base; vj < f {
			vj = f
		}
		half[j] = 0.5 / vj
	}
	n.pm[c], n.pe[c], n.px[c] = logProd(half)
	n.dirty[c] = false
}

// constant returns log T+ − log T− − ½Σ_j log var+j + ½Σ_j log var−j
// = log T+ − log T− + ½ log Π_j half+j − ½ log Π_j half−j with one
// math.Log and one math.Sqrt: the weights and the products are split into
// mantissas in [1, 2) and binary exponents, the mantissas combined into a
// ratio in [0.35, 2.9] and the exponents summed exactly.
func (n *nb) constant() float64 {
	tpm, tpe, okp := mantExp(n.t[clsPos])
	tnm, tne, okn := mantExp(n.t[clsNeg])
	if !okp || !okn { // subnormal weights: plain logarithms
		return math.Log(n.t[clsPos]) - math.Log(n.t[clsNeg]) + n.halfLogRatio()
	}
	r := tpm / tnm * math.Sqrt(n.pm[clsPos]/n.pm[clsNeg])
	e := float64(tpe-tne) + 0.5*float64(n.pe[clsPos]-n.pe[clsNeg])
	return math.Log(r) + e*math.Ln2 + 0.5*(n.px[clsPos]-n.px[clsNeg])
}

// halfLogRatio is ½ log Π_j half+j − ½ log Π_j half−j.
func (n *nb) halfLogRatio() float64 {
	return 0.5*(math.Log(n.pm[clsPos]/n.pm[clsNeg])+float64(n.pe[clsPos]-n.pe[clsNeg])*math.Ln2) +
		0.5*(n.px[clsPos]-n.px[clsNeg])
}

func (n *nb) logOdds(x []float64) float64 {
	if !(n.t[clsPos] > 0) {
		return math.Inf(-1)
	}
	if !(n.t[clsNeg] > 0) {
		return math.Inf(1)
	}
	if !n.c0ok {
		if n.dirty[clsPos] {
			n.refresh(clsPos)
		}
		if n.dirty[clsNeg] {
			n.refresh(clsNeg)
		}
		n.c0 = n.constant()
		n.c0ok = true
	}
	mp, hp := n.mu[clsPos], n.half[clsPos]
	mn, hn := n.mu[clsNeg][:len(mp)], n.half[clsNeg][:len(mp)]
	x = x[:len(mp)]
	hp = hp[:len(mp)]
	// Two accumulators halve the dependency chain of the sum.
	var q0, q1 float64
	j := 0
	for ; j+1 < len(x); j += 2 {
		dp0, dn0 := x[j]-mp[j], x[j]-mn[j]
		dp1, dn1 := x[j+1]-mp[j+1], x[j+1]-mn[j+1]
		q0 += dn0*dn0*hn[j] - dp0*dp0*hp[j]
		q1 += dn1*dn1*hn[j+1] - dp1*dp1*hp[j+1]
	}
	if j < len(x) {
		dp, dn := x[j]-mp[j], x[j]-mn[j]
		q0 += dn*dn*hn[j] - dp*dp*hp[j]
	}
	return n.c0 + (q0 + q1)
}

func (n *nb) predict(x []float64) bool { return n.logOdds(x) > 0 }

// nbEncodedLen is the size of an encoded nb of dimension d: d and β, per
// class (negative first) T, μ and the variances, then the spread.
func nbEncodedLen(d int) int { return 8*(2+2*(1+2*d)) + spreadEncodedLen(d) }

func (n *nb) encodedLen() int { return nbEncodedLen(n.d) }

func (n *nb) appendBinary(b []byte) []byte {
	b = appendU64(b, uint64(n.d))
	b = appendF64(b, n.beta)
	for c := range 2 {
		b = appendF64(b, n.t[c])
		b = appendF64s(b, n.mu[c])
		b = appendF64s(b, n.v[c])
	}
	return n.all.appendBinary(b)
}

func (n *nb) decode(d *decoder) error {
	err := n.decodeState(d)
	if err != nil {
		n.reset()
	}
	return err
}

func (n *nb) decodeState(d *decoder) error {
	if err := decodeLearnerHeader(d, "nb", n.d, n.beta); err != nil {
		return err
	}
	for c, name := range [2]string{"nb negative class", "nb positive class"} {
		n.t[c] = d.nonNeg(name + " weight")
		d.f64s(n.mu[c], name+" mean")
		for j := range n.v[c] {
			n.v[c][j] = d.nonNeg(name + " variance")
		}
	}
	n.all.decode(d, "nb spread")
	n.dirty = [2]bool{true, true}
	n.c0ok = false
	return d.err
}

// reset returns n to its untrained state.
func (n *nb) reset() {
	n.t = [2]float64{}
	for c := range 2 {
		clear(n.mu[c])
		clear(n.v[c])
		n.dirty[c] = true
	}
	n.all.reset()
	n.c0ok = false
}

// decodeLearnerHeader reads and checks the dimension and forgetting factor that
// start every encoded learner.
func decodeLearnerHeader(d *decoder, kind string, dim int, beta float64) error {
	at := d.off
	gd := d.u64(kind + " dimension")
	if d.err == nil && gd != uint64(dim) {
		d.off = at
		d.fail(fmt.Sprintf("%s dimension %d, want %d", kind, gd, dim))
		return d.err
	}
	at = d.off
	gb := d.f64(kind + " forgetting factor")
	if d.err == nil && math.Float64bits(gb) != math.Float64bits(beta) {
		d.off = at
		d.fail(fmt.Sprintf("%s forgetting factor %g, want %g", kind, gb, beta))
	}
	return d.err
}
