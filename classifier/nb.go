package classifier

import (
	"math"

	"github.com/ictal/ictal/internal/detmath"
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

// forgetAdd returns a class weight T decayed by the forgetting factor
// (β·T, or T itself at β = 1) and that plus the new example's weight w:
// the T_c before and after one learn. The conversion rounds β·T on its
// own, so no platform fuses it with the addition.
func forgetAdd(t, beta, w float64) (decayed, added float64) {
	if beta != 1 {
		t = float64(t * beta)
	}
	return t, t + w
}

// Variance floor of the naive Bayes learner (see nb).
const (
	nbFloorRel = 1e-9   // relative to the feature's own second moment μ_j² + v_j
	nbFloorCls = 1e-18  // relative to the class's largest second moment (for features that are exactly 0)
	nbFloorAbs = 1e-100 // absolute, only reached when a class has seen nothing but the zero vector
)

// nb is the Gaussian naive Bayes base learner: per class c ∈ {+, −} a
// prior weight W_c, a class weight T_c and, per feature j, a mean μ_cj and
// the maximum-likelihood variance v_cj = S_cj/T_c, where S_cj is the
// weighted sum of squared deviations.
//
// Class-conditional statistics forget per class, as the paper's estimator
// of one Gaussian (Section 8: μ_n = (1 − 1/t_n)·μ_{n−1} + x_n/t_n with t_n =
// β·t_{n−1} + 1, n counting the examples of that Gaussian). A call with
// label c and weight w is the weighted Welford step with class c's decayed
// weight,
//
//	T' = βT + w,  δ = x − μ,  μ' = μ + (w/T')·δ,  S' = βS + w·(βT/T')·δ²,
//
// kept as v' = r·(v + a·δ²) with a = w/T' and r = βT/T' (S' = T'·v'), and
// leaves the other class untouched: the rare seizure class keeps its last
// ~1/(1 − β) examples however long the gap between seizures. With β = 1
// the step is exact: one update of weight k equals k updates of weight 1
// up to rounding. With β < 1 one call is one step of the class's own
// clock, so a weight-k call forgets once and k unit calls k times.
//
// The class priors do not forget: W_c = Σ w is the cumulative weight of
// class c (β = 1). In the ensembles the prior is the channel through which
// cost-sensitive resampling acts (UOB's λ = a·C, AC2's weights): a prior
// forgetting per class would saturate both classes at w/(1 − β) and erase
// the class ratio, and one decayed globally collapses between rare events.
// Forgetting changes what a class looks like, not how often it occurs.
//
// The log-odds are computed in the log domain:
//
//	log W+ − log W− + Σ_j [log N(x_j; μ+j, u+j) − log N(x_j; μ−j, u−j)],
//
// with u_cj = max(v_cj, f_cj), the ML variance above the floor
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
// recomputed only for the class whose statistics changed, from the
// second moments μ_cj² + v_cj and their maximum that learn computes in its
// own pass over the class (one pass of divisions is left); the constant
// log W+ − log W− − ½Σ log u+j + ½Σ log u−j then takes one detmath.Log.
// Products feeding sums are rounded explicitly (see cholesky.go), so the
// state and the log-odds are the same bits on every architecture. An nb is
// not safe for concurrent use.
type nb struct {
	d    int
	beta float64
	pw   [2]float64   // prior weight W_c (cumulative, never forgets)
	t    [2]float64   // class weight T_c (forgets per class)
	mu   [2][]float64 // means μ_c
	v    [2][]float64 // ML variances S_c/T_c, not floored

	half [2][]float64 // cache: ½/max(v_cj, f_cj)
	// cache: Π_j half_cj = pm_c·2^pe_c·exp(px_c) (see logProd)
	pm    [2]float64
	pe    [2]int64
	px    [2]float64
	dirty [2]bool // the class's caches are stale
	// When sready[c], half[c] holds not ½/u_cj but the second moments
	// μ_cj² + v_cj, and m2max[c] their maximum: learn computes them in its
	// pass over the class, and refresh turns them into ½/u_cj in one pass.
	sready [2]bool
	m2max  [2]float64

	c0   float64 // cache: constant()
	c0ok bool    // c0 is current
	// cache for censoredLogOdds (censor.go), current while censorOK: the
	// prior's log W+ − log W− and each feature's ½ log(u−j/u+j)
	logPrior float64
	logScale []float64
	censorOK bool
	// cache for predict while !c0ok: c0's terms besides log r
	// (constantRest), their sum and the sum of their magnitudes
	rest, restAbs float64
	restOK        bool
}

// newNB returns an untrained naive Bayes learner for d features with
// forgetting factor beta in (0, 1].
func newNB(d int, beta float64) *nb {
	buf := make([]float64, 7*d)
	n := &nb{d: d, beta: beta, logScale: buf[6*d : 7*d : 7*d]}
	for c := range 2 {
		k := 3 * c * d
		n.mu[c] = buf[k : k+d : k+d]
		n.v[c] = buf[k+d : k+2*d : k+2*d]
		n.half[c] = buf[k+2*d : k+3*d : k+3*d]
		n.dirty[c] = true
	}
	return n
}

func (n *nb) learn(x []float64, positive bool, w float64) {
	c := learnerClass(positive)
	n.pw[c] += w
	t, t1 := forgetAdd(n.t[c], n.beta, w)
	n.t[c] = t1
	mu, v := n.mu[c], n.v[c]
	x = x[:len(mu)]
	sm := n.half[c][:len(mu)]
	var m2max float64
	if t == 0 {
		copy(mu, x)
		clear(v)
		for j, m := range mu {
			s := float64(m * m)
			sm[j] = s
			m2max = max(m2max, s)
		}
	} else {
		m2max = nbLearnStep(x, mu, v, sm, w/t1, t/t1)
	}
	n.m2max[c] = m2max
	n.sready[c] = true
	n.dirty[c] = true
	n.c0ok = false
	n.restOK = false
	n.censorOK = false
}

// nbLearnStepGo is learn's pass over the features of a class that has
// seen an example before: with a = w/T' and r = βT/T' it moves the means
// mu and variances v towards x (μ' = μ + a·δ, v' = r·(v + a·δ²), δ = x − μ),
// puts the second moments μ'² + v' into sm and returns their maximum (0 if
// none is above 0). All slices have the length of x. nbLearnStep is this
// loop, in SSE2 on amd64 (nb_amd64.go).
func nbLearnStepGo(x, mu, v, sm []float64, a, r float64) (m2max float64) {
	mu, v, sm = mu[:len(x)], v[:len(x)], sm[:len(x)]
	for j, xj := range x {
		dl := xj - mu[j]
		m := mu[j] + float64(a*dl)
		mu[j] = m
		vj := float64(r * (v[j] + float64(a*dl*dl)))
		v[j] = vj
		s := float64(m*m) + vj
		sm[j] = s
		if s > m2max {
			m2max = s
		}
	}
	return m2max
}

// secondMoments puts class c's second moments μ²+v into half and their
// maximum into m2max, unless learn already did (sready).
func (n *nb) secondMoments(c int) {
	if n.sready[c] {
		return
	}
	mu := n.mu[c]
	v, half := n.v[c][:len(mu)], n.half[c][:len(mu)]
	var m2max float64
	for j, m := range mu {
		s := float64(m*m) + v[j]
		half[j] = s
		if s > m2max {
			m2max = s
		}
	}
	n.m2max[c] = m2max
}

// refresh recomputes the caches of class c.
func (n *nb) refresh(c int) {
	mu, v, half := n.mu[c], n.v[c], n.half[c]
	v = v[:len(mu)]
	half = half[:len(mu)]
	n.secondMoments(c)
	base := float64(nbFloorCls*n.m2max[c]) + nbFloorAbs
	for j, s := range half {
		vj := v[j]
		if f := float64(nbFloorRel*s) + base; vj < f {
			vj = f
		}
		half[j] = 0.5 / vj
	}
	n.pm[c], n.pe[c], n.px[c] = logProd(half)
	n.dirty[c] = false
	n.sready[c] = false
}

// frexp is math.Frexp with the common case, a normal number, inline.
func frexp(x float64) (float64, int) {
	b := math.Float64bits(x)
	if e := int(b>>52) & 0x7ff; e != 0 && e != 0x7ff {
		return math.Float64frombits(b&^(0x7ff<<52) | 1022<<52), e - 1022
	}
	return math.Frexp(x)
}

// constant returns log W+ − log W− − ½Σ_j log u+j + ½Σ_j log u−j
// = log W+ − log W− + ½ log Π_j half+j − ½ log Π_j half−j with one
// detmath.Log and one math.Sqrt: the weights and the products are split
// into mantissas and binary exponents (exactly, subnormals included), the
// mantissas combined into a ratio in (0.35, 2.9) and the exponents summed
// exactly.
func (n *nb) constant() float64 {
	wpm, _ := frexp(n.pw[clsPos])
	wnm, _ := frexp(n.pw[clsNeg])
	r := wpm / wnm * math.Sqrt(n.pm[clsPos]/n.pm[clsNeg])
	a, b := n.constantRest()
	return detmath.Log(r) + a + b
}

// constantRest returns the terms of constant() = (log r + a) + b besides
// the log of the mantissa ratio r: the exponents' a and the extras' b.
// The mantissas of the weights lie in [½, 1) and those of the products in
// [1, 2), so r lies in (0.35, 2.9) and |log r| < nbLogRatioMax.
func (n *nb) constantRest() (a, b float64) {
	_, wpe := frexp(n.pw[clsPos])
	_, wne := frexp(n.pw[clsNeg])
	e := float64(wpe-wne) + float64(0.5*float64(n.pe[clsPos]-n.pe[clsNeg]))
	return float64(e * math.Ln2), float64(0.5 * (n.px[clsPos] - n.px[clsNeg]))
}

// nbLogRatioMax bounds |log r| for constant's r (log 2.9 < 1.07).
const nbLogRatioMax = 1.07

func (n *nb) prepare() {
	if n.c0ok || !(n.pw[clsPos] > 0) || !(n.pw[clsNeg] > 0) {
		return
	}
	if n.dirty[clsPos] {
		n.refresh(clsPos)
	}
	if n.dirty[clsNeg] {
		n.refresh(clsNeg)
	}
	n.c0 = n.constant()
	n.c0ok = true
}

// logOdds returns the log-odds of x, preparing the caches first. When
// exactly one class's cache is stale (a member just trained on one
// example, the common case), its refresh and the pass over x are one loop
// (refreshOdds): the same bits as prepare followed by logOddsShared.
func (n *nb) logOdds(x []float64) float64 {
	if !n.c0ok && n.pw[clsPos] > 0 && n.pw[clsNeg] > 0 && n.dirty[clsPos] != n.dirty[clsNeg] {
		c := clsNeg
		if n.dirty[clsPos] {
			c = clsPos
		}
		q := n.refreshOdds(c, x)
		n.c0 = n.constant()
		n.c0ok = true
		return n.c0 + q
	}
	n.prepare()
	return n.logOddsShared(x, nil)
}

// refreshOdds is refresh(c) fused with logOddsShared's pass over x (the
// other class's cache being current): it returns the sum of the per
// feature terms, accumulated exactly as logOddsShared does.
func (n *nb) refreshOdds(c int, x []float64) float64 {
	n.secondMoments(c)
	base := float64(nbFloorCls*n.m2max[c]) + nbFloorAbs
	half := n.half[c]
	q, m, eb, bad := nbRefreshOddsStep(x, n.mu[clsPos], n.mu[clsNeg], n.half[clsPos], n.half[clsNeg], n.v[c], half, base)
	if bad || len(half) > logProdBlock {
		n.pm[c], n.pe[c], n.px[c] = logProd(half)
	} else {
		// logProd's finish of its one block (the same bits).
		e := int64(eb) - int64(len(half))*f64ExpBias
		pb := math.Float64bits(1 * m)
		e += int64(pb>>52) - f64ExpBias
		n.pm[c], n.pe[c], n.px[c] = math.Float64frombits(pb&f64MantMask|f64One), e, 0
	}
	n.dirty[c] = false
	n.sready[c] = false
	return q
}

// nbRefreshOddsStepGo is refreshOdds' pass over the features. half holds
// the second moments of the class being refreshed (and is one of hp and
// hn), v its variances, base its floor's terms besides the relative one.
// The pass floors the variances, puts ½/u_j into half and returns the
// quad sum over x (accumulated as quad does, with the new half), and
// logProd's block state for the new half: the product of the mantissas
// (m0 over even j times m1 over odd j), the sum of the biased exponents and
// whether a term was not a positive normal number. All slices have the
// length of x. nbRefreshOddsStep is this loop, in SSE2 on amd64
// (nb_amd64.go).
func nbRefreshOddsStepGo(x, mp, mn, hp, hn, v, half []float64, base float64) (q, m float64, eb uint64, bad bool) {
	mp, mn, hp, hn = mp[:len(x)], mn[:len(x)], hp[:len(x)], hn[:len(x)]
	v, half = v[:len(x)], half[:len(x)]
	var q0, q1 float64
	m0, m1 := 1.0, 1.0
	j := 0
	for ; j+1 < len(x); j += 2 {
		v0, v1 := v[j], v[j+1]
		if f := float64(nbFloorRel*half[j]) + base; v0 < f {
			v0 = f
		}
		if f := float64(nbFloorRel*half[j+1]) + base; v1 < f {
			v1 = f
		}
		h0, h1 := 0.5/v0, 0.5/v1
		half[j], half[j+1] = h0, h1
		b0, b1 := math.Float64bits(h0), math.Float64bits(h1)
		e0, e1 := b0>>52, b1>>52
		eb += e0 + e1
		bad = bad || e0-1 >= 0x7fe || e1-1 >= 0x7fe
		m0 *= math.Float64frombits(b0&f64MantMask | f64One)
		m1 *= math.Float64frombits(b1&f64MantMask | f64One)
		dp0, dn0 := x[j]-mp[j], x[j]-mn[j]
		dp1, dn1 := x[j+1]-mp[j+1], x[j+1]-mn[j+1]
		q0 += float64(dn0*dn0*hn[j]) - float64(dp0*dp0*hp[j])
		q1 += float64(dn1*dn1*hn[j+1]) - float64(dp1*dp1*hp[j+1])
	}
	if j < len(x) {
		vj := v[j]
		if f := float64(nbFloorRel*half[j]) + base; vj < f {
			vj = f
		}
		h0 := 0.5 / vj
		half[j] = h0
		b0 := math.Float64bits(h0)
		eb += b0 >> 52
		bad = bad || b0>>52-1 >= 0x7fe
		m0 *= math.Float64frombits(b0&f64MantMask | f64One)
		dp, dn := x[j]-mp[j], x[j]-mn[j]
		q0 += float64(dn*dn*hn[j]) - float64(dp*dp*hp[j])
	}
	return q0 + q1, m0 * m1, eb, bad
}

func (n *nb) logOddsShared(x, _ []float64) float64 {
	if !(n.pw[clsPos] > 0) {
		return math.Inf(-1)
	}
	if !(n.pw[clsNeg] > 0) {
		return math.Inf(1)
	}
	return n.c0 + n.quad(x)
}

// quad returns the log-odds of x less the constant:
// Σ_j half−j·(x_j − μ−j)² − half+j·(x_j − μ+j)², from current caches.
func (n *nb) quad(x []float64) float64 {
	return nbQuad(x, n.mu[clsPos], n.mu[clsNeg], n.half[clsPos], n.half[clsNeg])
}

// nbQuadGo is quad's sum over x with the means mp, mn and the caches hp,
// hn of the two classes (at least as long as x). nbQuad is this loop, in
// SSE2 on amd64 (nb_amd64.go).
func nbQuadGo(x, mp, mn, hp, hn []float64) float64 {
	mp, mn, hp, hn = mp[:len(x)], mn[:len(x)], hp[:len(x)], hn[:len(x)]
	// Two accumulators halve the dependency chain of the sum.
	var q0, q1 float64
	j := 0
	for ; j+1 < len(x); j += 2 {
		dp0, dn0 := x[j]-mp[j], x[j]-mn[j]
		dp1, dn1 := x[j+1]-mp[j+1], x[j+1]-mn[j+1]
		q0 += float64(dn0*dn0*hn[j]) - float64(dp0*dp0*hp[j])
		q1 += float64(dn1*dn1*hn[j+1]) - float64(dp1*dp1*hp[j+1])
	}
	if j < len(x) {
		dp, dn := x[j]-mp[j], x[j]-mn[j]
		q0 += float64(dn*dn*hn[j]) - float64(dp*dp*hp[j])
	}
	return q0 + q1
}

// predict is logOdds(x) > 0, mostly without constant's detmath.Log:
// after a change, the sign of c0 + q (q the pass over x) is decided by
// (a + b) + q alone, a and b being c0's terms besides log r (see
// constantRest), whenever that sum is further from 0 than |log r| can
// be plus a bound on the rounding of both sums (2⁻⁵⁰ of the magnitudes
// involved, taken as 1e-14). The result is then the sign the exact
// log-odds have, on every architecture; otherwise c0 is computed, as
// logOdds does. A stream the learner separates well decides nearly every
// prediction the first way, and the Log is left for the next logOdds.
func (n *nb) predict(x []float64) bool {
	if n.c0ok || !(n.pw[clsPos] > 0) || !(n.pw[clsNeg] > 0) {
		return n.logOdds(x) > 0
	}
	var q float64
	if n.dirty[clsPos] != n.dirty[clsNeg] {
		c := clsNeg
		if n.dirty[clsPos] {
			c = clsPos
		}
		q = n.refreshOdds(c, x)
	} else {
		for c := range 2 {
			if n.dirty[c] {
				n.refresh(c)
			}
		}
		q = n.quad(x)
	}
	if !n.restOK {
		a, b := n.constantRest()
		n.rest, n.restAbs, n.restOK = a+b, math.Abs(a)+math.Abs(b), true
	}
	if v := n.rest + q; math.Abs(v) > nbLogRatioMax+float64(1e-14*(n.restAbs+math.Abs(q)+2)) {
		return v > 0
	}
	n.c0 = n.constant()
	n.c0ok = true
	return n.c0+q > 0
}

// nbEncodedLen is the size of an encoded nb of dimension d: d and β, then
// per class (negative first) W, T, μ and the variances.
func nbEncodedLen(d int) int { return 8 * (2 + 2*(2+2*d)) }

func (n *nb) encodedLen() int { return nbEncodedLen(n.d) }

func (n *nb) appendBinary(b []byte) []byte {
	b = appendLearnerHeader(b, n.d, n.beta)
	for c := range 2 {
		b = appendClass(b, n.pw[c], n.t[c], n.mu[c])
		b = appendF64s(b, n.v[c])
	}
	return b
}

func (n *nb) decode(d *decoder) error { return decodeOrReset(n, d) }

func (n *nb) decodeState(d *decoder) error {
	if err := decodeLearnerHeader(d, "nb", n.d, n.beta); err != nil {
		return err
	}
	for c, name := range [2]string{"nb negative class", "nb positive class"} {
		n.pw[c], n.t[c] = decodeClass(d, name, n.mu[c])
		for j := range n.v[c] {
			n.v[c][j] = d.nonNeg(name + " variance")
		}
	}
	n.dirty = [2]bool{true, true}
	n.sready = [2]bool{}
	n.c0ok = false
	n.restOK = false
	n.censorOK = false
	return d.err
}

// reset returns n to its untrained state.
func (n *nb) reset() {
	n.pw = [2]float64{}
	n.t = [2]float64{}
	for c := range 2 {
		clear(n.mu[c])
		clear(n.v[c])
		n.dirty[c] = true
		n.sready[c] = false
	}
	n.c0ok = false
	n.restOK = false
	n.censorOK = false
}
