package classifier

import (
	"fmt"
	"math"
)

// Ridge of LDA and QDA (see covPrior and covFactor).
const (
	ridgeRel = 1e-6  // relative to the square of each feature's first value
	ridgeCls = 1e-12 // relative to the mean square of the first example
	ridgeAbs = 1e-100
	// priorWeight ν is the weight, in examples, of the prior restored by
	// refill under forgetting: ν pseudo-observations at the recent spread.
	priorWeight = 1.0
	// renormBelow is the lazy scale under which a factor is renormalised.
	renormBelow = 1e-100
	// priorDecayMin bounds how far a prior mass may decay between two
	// refills of its coordinate (see covFactor.perCall).
	priorDecayMin = 1e-12
)

// covPrior sets the prior pseudo-scatter diag(ρ) of a covariance estimate
// from the first example x it sees:
//
//	ρ_j = 1e-6·x_j² + 1e-12·(1/d)Σ_k x_k² + 1e-100.
//
// A fixed ridge (say 1e-6) cannot suit features measured on scales from
// 1e-8 to 1e8: it swamps the first and is lost in the rounding of the
// second. The first example is the only scale known before the data, so
// the ridge is taken relative to each feature's own magnitude there
// (invariant to rescaling any feature); the second term covers a feature
// that happened to be 0, at a scale too small to swamp any other feature;
// the third only an all-zero first example. Σ_c = (S_c + diag(ρ))/T_c is
// then positive definite from the first example on, with a shrinkage of
// ρ_j/T_c that fades as data accumulate.
func covPrior(rho, x []float64) {
	var q float64
	for _, v := range x {
		q += v * v
	}
	q /= float64(len(x))
	for j, v := range x {
		rho[j] = ridgeRel*v*v + ridgeCls*q + ridgeAbs
	}
}

// covFactor is the lower Cholesky factor of a scatter plus prior,
//
//	A = S + diag(p) = s·L·Lᵀ,
//
// with a lazy scale s so that forgetting (A ← β·A) is s ← β·s, O(1), and a
// rank-one update by v becomes one of L by v/√s; L is renormalised (L ←
// √s·L, s ← 1) when s falls below 1e-100. The prior mass p starts at ρ
// (covPrior) and decays with the data; with β < 1 refill restores one
// coordinate per call, round-robin, by a rank-one
// update along e_j, so A stays positive definite however degenerate the
// data (without it, thousands of identical points would drive A to 0 along
// every direction). The mass restored is max(ρ_j, ν·v̂_j), where v̂_j is the
// recent variance of feature j over both classes (spread) and ν =
// priorWeight: under forgetting a class's effective weight stays small (at
// β = 0.9 and 1 positive in 10 examples, around 1), and a covariance
// estimated from one or two points plus a ridge of 1e-6 is a needle that
// no later positive fits (measured: prequential AUC of one QDA 0.81 on the
// rare-positive stream of TestLearnerForgettingRarePositives, 0.99 with
// this prior). ν pseudo-observations at the data's own recent spread is the
// usual conjugate prior: it dominates while the class is thin or stale and
// fades as its weight grows. With β = 1 nothing decays, nothing is
// refilled, and the prior stays ρ (the learner is then lossless).
//
// One coordinate per call lets a mass decay by β^(d−1) before its next
// refill: 0.02 for β = 0.9 and d = 36, but 1e-210 for β = 1e-6, where the
// factor's dynamic range then overflows. So perCall coordinates are
// refilled per call, the fewest that keep every mass above 1e-12 of its
// target: 1 for β = 0.9 up to d = 262, and for β = 0.5 up to d = 39.
type covFactor struct {
	d       int
	started bool      // rho, p and l are set (the first example was seen)
	s       float64   // lazy scale
	next    int       // coordinate refilled next
	perCall int       // coordinates refilled per call
	rho     []float64 // least prior mass per coordinate (covPrior)
	p       []float64 // current prior mass per coordinate (true units)
	l       []float64 // packed factor (see cholesky.go)
}

func newCovFactor(d int, beta float64) covFactor {
	buf := make([]float64, 2*d+packedLen(d))
	return covFactor{
		d:       d,
		perCall: refillsPerCall(d, beta),
		s:       1,
		rho:     buf[:d:d],
		p:       buf[d : 2*d : 2*d],
		l:       buf[2*d:],
	}
}

// start sets the prior from the first example x: A = diag(ρ).
func (f *covFactor) start(x []float64) {
	covPrior(f.rho, x)
	copy(f.p, f.rho)
	setDiag(f.l, f.d, f.rho)
	f.s = 1
	f.next = 0
	f.started = true
}

// decay multiplies A by beta.
func (f *covFactor) decay(beta float64) {
	f.s *= beta
	for j := range f.p {
		f.p[j] *= beta
	}
	if f.s < renormBelow {
		cholScale(f.l, math.Sqrt(f.s))
		f.s = 1
	}
}

// add adds g²·u·uᵀ to A; u is destroyed.
func (f *covFactor) add(u []float64, g float64) {
	k := g / math.Sqrt(f.s)
	for j := range u {
		u[j] *= k
	}
	cholUpdate(f.l, f.d, u, 0)
}

// refillsPerCall is the least n ≥ 1 with β^⌈d/n⌉ ≥ priorDecayMin (at most d).
func refillsPerCall(d int, beta float64) int {
	if beta >= 1 {
		return 1
	}
	// Rounds between refills of a coordinate that keep the mass above the
	// bound, at least 1.
	gap := max(int(math.Log(priorDecayMin)/math.Log(beta)), 1)
	return min((d+gap-1)/gap, d)
}

// refill restores the prior mass of the next perCall coordinates j to
// max(ρ_j, ν·v̂_j) (never lowering one: no downdates); u is scratch.
func (f *covFactor) refill(u []float64, all *spread) {
	for range f.perCall {
		j := f.next
		m := max(f.rho[j], all.target(j))
		if add := m - f.p[j]; add > 0 {
			clear(u)
			u[j] = math.Sqrt(add / f.s)
			cholUpdate(f.l, f.d, u, j)
			f.p[j] = m
		}
		f.next++
		if f.next == f.d {
			f.next = 0
		}
	}
}

// reset forgets everything, prior included.
func (f *covFactor) reset() {
	f.started = false
	f.s = 1
	f.next = 0
	clear(f.rho)
	clear(f.p)
	clear(f.l)
}

func covFactorEncodedLen(d int) int { return 1 + 8*(2+2*d+packedLen(d)) }

func (f *covFactor) appendBinary(b []byte) []byte {
	b = appendBool(b, f.started)
	b = appendF64(b, f.s)
	b = appendU64(b, uint64(f.next))
	b = appendF64s(b, f.rho)
	b = appendF64s(b, f.p)
	return appendF64s(b, f.l)
}

func (f *covFactor) decode(d *decoder, what string) {
	f.started = d.boolean(what + " started")
	at := d.off
	f.s = d.f64(what + " scale")
	if d.err == nil && !(f.s >= renormBelow && f.s <= 1) {
		d.off = at
		d.fail(fmt.Sprintf("%s scale %g outside [%g, 1]", what, f.s, renormBelow))
	}
	at = d.off
	next := d.u64(what + " refill index")
	if d.err == nil && next >= uint64(f.d) {
		d.off = at
		d.fail(fmt.Sprintf("%s refill index %d, want < %d", what, next, f.d))
	}
	f.next = int(next)
	at = d.off
	for j := range f.rho {
		f.rho[j] = d.nonNeg(what + " prior target")
	}
	for j := range f.p {
		f.p[j] = d.nonNeg(what + " prior mass")
	}
	d.f64s(f.l, what+" factor")
	if d.err != nil {
		return
	}
	if !f.started {
		if f.s != 1 || f.next != 0 || !allZero(f.rho) || !allZero(f.p) || !allZero(f.l) {
			d.off = at
			d.fail(what + ": state of an unstarted factor is not zero")
		}
		return
	}
	for j, r := range f.rho {
		if !(r > 0) {
			d.off = at + 8*j
			d.fail(fmt.Sprintf("%s prior target of coordinate %d: %g, want > 0", what, j, r))
			return
		}
	}
	if !cholValid(f.l, f.d) {
		d.off = at + 16*f.d
		d.fail(what + " factor: diagonal not positive")
	}
}

// spread is the running mean and variance of every example, both classes
// together, under the learner's forgetting (the weighted Welford step of
// nb): the scale of the prior that refill restores.
type spread struct {
	t     float64
	mu, v []float64
}

func newSpread(d int) spread {
	buf := make([]float64, 2*d)
	return spread{mu: buf[:d:d], v: buf[d:]}
}

func (s *spread) learn(x []float64, w, beta float64) {
	t := s.t * beta
	t1 := t + w
	s.t = t1
	mu := s.mu
	x = x[:len(mu)]
	if t == 0 {
		copy(mu, x)
		clear(s.v)
		return
	}
	a, r := w/t1, t/t1
	v := s.v[:len(mu)]
	for j, xj := range x {
		dl := xj - mu[j]
		mu[j] += a * dl
		v[j] = r * (v[j] + a*dl*dl)
	}
}

// target is the prior mass refill restores on coordinate j.
func (s *spread) target(j int) float64 { return priorWeight * s.v[j] }

func spreadEncodedLen(d int) int { return 8 * (1 + 2*d) }

func (s *spread) appendBinary(b []byte) []byte {
	b = appendF64(b, s.t)
	b = appendF64s(b, s.mu)
	return appendF64s(b, s.v)
}

func (s *spread) decode(d *decoder, what string) {
	s.t = d.nonNeg(what + " weight")
	d.f64s(s.mu, what+" mean")
	for j := range s.v {
		s.v[j] = d.nonNeg(what + " variance")
	}
}

func (s *spread) reset() {
	s.t = 0
	clear(s.mu)
	clear(s.v)
}

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// lda is the linear discriminant analysis base learner: per class a total
// weight T_c and mean μ_c, and one pooled within-class scatter S = S+ + S−,
// each updated by the weighted Welford step (see nb):
//
//	T' = βT + w,  δ = x − μ,  μ' = μ + (w/T')·δ,  S' = βS + w·(βT/T')·δδᵀ,
//
// where with β < 1 every call first forgets (multiplies by β) both classes'
// weights and the whole scatter, so a weight-k update is then not k unit
// updates; with β = 1 it is, up to rounding. The shared covariance is the
// maximum-likelihood pooled estimate
//
//	Σ = (S + diag(p)) / (T+ + T−),
//
// with the prior diag(p) of covFactor (the ridge ρ of covPrior when β = 1;
// under forgetting, refilled towards the recent spread). ML rather than the
// unbiased (T+ + T− − 2) denominator: the weights are Poisson draws and
// decayed sums, not counts, so the "n − 2" correction has no clean meaning
// (below 2 units of weight it would even turn Σ negative), and the two
// agree as data accumulate. Σ is held as the factor of S + diag(p),
// updated by one rank-one update per call (plus the refills with β < 1),
// O(d²).
//
// The log-odds are linear in x:
//
//	log T+ − log T− + wᵀ(x − m),  w = Σ⁻¹(μ+ − μ−),  m = (μ+ + μ−)/2,
//
// (the Gaussian normalisers cancel), which keeps far points exact: no
// difference of two huge quadratic forms. w and m are recomputed in O(d²)
// on the first logOdds after a change, so predict is O(d). An lda is not
// safe for concurrent use.
type lda struct {
	d    int
	beta float64
	t    [2]float64
	mu   [2][]float64
	f    covFactor
	all  spread // with β < 1: both classes' recent spread

	u     []float64 // scratch
	w, m  []float64 // cache
	lp    float64   // cache: log T+ − log T−
	dirty bool
}

// newLDA returns an untrained LDA learner for d features with forgetting
// factor beta in (0, 1].
func newLDA(d int, beta float64) *lda {
	buf := make([]float64, 5*d)
	return &lda{
		d:     d,
		beta:  beta,
		mu:    [2][]float64{buf[:d:d], buf[d : 2*d : 2*d]},
		f:     newCovFactor(d, beta),
		all:   newSpread(d),
		u:     buf[2*d : 3*d : 3*d],
		w:     buf[3*d : 4*d : 4*d],
		m:     buf[4*d:],
		dirty: true,
	}
}

func (l *lda) learn(x []float64, positive bool, w float64) {
	if l.beta != 1 {
		l.t[clsNeg] *= l.beta
		l.t[clsPos] *= l.beta
		if l.f.started {
			l.f.decay(l.beta)
		}
	}
	if !l.f.started {
		l.f.start(x)
	}
	if l.beta != 1 {
		l.all.learn(x, w, l.beta)
	}
	c := learnerClass(positive)
	t := l.t[c]
	t1 := t + w
	l.t[c] = t1
	mu := l.mu[c]
	x = x[:len(mu)]
	if t == 0 {
		copy(mu, x)
	} else {
		a := w / t1
		u := l.u[:len(mu)]
		for j, xj := range x {
			dl := xj - mu[j]
			u[j] = dl
			mu[j] += a * dl
		}
		l.f.add(u, math.Sqrt(w*(t/t1)))
	}
	if l.beta != 1 {
		l.f.refill(l.u, &l.all)
	}
	l.dirty = true
}

// refresh recomputes w, m and the log prior ratio.
func (l *lda) refresh() {
	mp, mn := l.mu[clsPos], l.mu[clsNeg]
	for j := range l.w {
		l.w[j] = mp[j] - mn[j]
		l.m[j] = 0.5*mp[j] + 0.5*mn[j]
	}
	forwardSolve(l.f.l, l.d, l.w)
	backSolveT(l.f.l, l.d, l.w)
	k := (l.t[clsPos] + l.t[clsNeg]) / l.f.s
	for j := range l.w {
		l.w[j] *= k
	}
	l.lp = math.Log(l.t[clsPos]) - math.Log(l.t[clsNeg])
	l.dirty = false
}

func (l *lda) logOdds(x []float64) float64 {
	if !(l.t[clsPos] > 0) {
		return math.Inf(-1)
	}
	if !(l.t[clsNeg] > 0) {
		return math.Inf(1)
	}
	if l.dirty {
		l.refresh()
	}
	w := l.w
	m := l.m[:len(w)]
	x = x[:len(w)]
	var s0, s1 float64
	j := 0
	for ; j+1 < len(x); j += 2 {
		s0 += w[j] * (x[j] - m[j])
		s1 += w[j+1] * (x[j+1] - m[j+1])
	}
	if j < len(x) {
		s0 += w[j] * (x[j] - m[j])
	}
	return l.lp + (s0 + s1)
}

func (l *lda) predict(x []float64) bool { return l.logOdds(x) > 0 }

// ldaEncodedLen is the size of an encoded lda of dimension d: d and β, T
// and μ per class (negative first), the pooled factor, then the spread.
func ldaEncodedLen(d int) int {
	return 8*(2+2*(1+d)) + covFactorEncodedLen(d) + spreadEncodedLen(d)
}

func (l *lda) encodedLen() int { return ldaEncodedLen(l.d) }

func (l *lda) appendBinary(b []byte) []byte {
	b = appendU64(b, uint64(l.d))
	b = appendF64(b, l.beta)
	for c := range 2 {
		b = appendF64(b, l.t[c])
		b = appendF64s(b, l.mu[c])
	}
	b = l.f.appendBinary(b)
	return l.all.appendBinary(b)
}

func (l *lda) decode(d *decoder) error {
	err := l.decodeState(d)
	if err != nil {
		l.reset()
	}
	return err
}

func (l *lda) decodeState(d *decoder) error {
	if err := decodeLearnerHeader(d, "lda", l.d, l.beta); err != nil {
		return err
	}
	for c, name := range [2]string{"lda negative class", "lda positive class"} {
		l.t[c] = d.nonNeg(name + " weight")
		d.f64s(l.mu[c], name+" mean")
	}
	at := d.off
	l.f.decode(d, "lda covariance")
	if d.err == nil && !l.f.started && (l.t[clsNeg] != 0 || l.t[clsPos] != 0) {
		d.off = at
		d.fail("lda covariance: no prior although the classes have weight")
	}
	l.all.decode(d, "lda spread")
	l.dirty = true
	return d.err
}

// reset returns l to its untrained state.
func (l *lda) reset() {
	l.t = [2]float64{}
	clear(l.mu[clsNeg])
	clear(l.mu[clsPos])
	l.f.reset()
	l.all.reset()
	l.dirty = true
}
