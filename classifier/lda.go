package classifier

import (
	"fmt"
	"math"

	"github.com/ictal/ictal/internal/detmath"
)

// Ridge of LDA and QDA (see covPrior, varPrior and covFactor).
const (
	ridgeRel = 1e-6  // relative to each feature's variance (provisionally: its first value squared)
	ridgeCls = 1e-12 // provisionally, relative to the first example's mean square
	ridgeAbs = 1e-100
	// lowerRoom is the least share of the factor's room along a
	// coordinate that a downdate of its prior leaves (see lower).
	lowerRoom = 1e-6
	// ridgeSlack is how far, as a factor, a prior mass may stray from its
	// ridge before refill corrects it (see covFactor).
	ridgeSlack = 4
	// renormBelow is the lazy scale under which a factor is renormalised.
	renormBelow = 1e-100
	// priorDecayMin bounds how far a prior mass may decay between two
	// refills of its coordinate (see covFactor.perCall).
	priorDecayMin = 1e-12
)

// covPrior sets the provisional prior pseudo-scatter diag(ρ) of a
// covariance estimate from the first example x it sees:
//
//	ρ_j = 1e-6·x_j² + 1e-12·(1/d)Σ_k x_k² + 1e-100.
//
// One example has no spread, so its magnitude is the only scale known; it
// keeps the first rotations of the factor well conditioned. It depends on
// the data's position, though (a feature offset by 1e4 would get a ridge
// of 100 where its variance is 1), so covFactor.refill replaces it by
// varPrior's as soon as the data vary.
func covPrior(rho, x []float64) {
	var q float64
	for _, v := range x {
		q += float64(v * v)
	}
	q /= float64(len(x))
	for j, v := range x {
		rho[j] = float64(ridgeRel*v*v) + float64(ridgeCls*q) + ridgeAbs
	}
}

// varPrior returns the ridge of a feature of variance v:
//
//	ρ_j = 1e-6·v_j + 1e-100.
//
// A fixed ridge (say 1e-6) cannot suit features measured on scales from
// 1e-8 to 1e8: it swamps the first and is lost in the rounding of the
// second. Relative to each feature's own variance, the ridge is invariant
// to rescaling and to shifting any feature. A feature that has not varied
// keeps the provisional ridge of covPrior. Σ = (S + diag(ρ))/T is
// positive definite, with a shrinkage of ρ_j/T that fades as data
// accumulate.
func varPrior(v float64) float64 {
	return float64(ridgeRel*v) + ridgeAbs
}

// covFactor is the lower Cholesky factor of a scatter plus prior,
//
//	A = S + diag(p) = s·L·Lᵀ,
//
// with a lazy scale s so that forgetting (A ← β·A) is s ← β·s, O(1), and a
// rank-one update by v becomes one of L by v/√s; L is renormalised (L ←
// √s·L, s ← 1) when s falls below 1e-100. The prior mass p starts at the
// provisional ridge of covPrior (from the first example) and follows the
// ridge ρ of varPrior, 1e-6 of each feature's variance S_jj/T: refill
// visits the coordinates round-robin, sets ρ_j from the factor's diagonal
// and raises p_j by a rank-one update along e_j when it has fallen short
// of ρ_j (with β < 1, where p decays with the data: at every visit; with β
// = 1: when below ρ_j/4), and lowers it by a rank-one downdate when above
// 4ρ_j (the provisional ridge of a feature far from 0, as soon as the data
// vary; see lower). Each is O(d²); after perCall visits a call goes on
// to the next coordinate only while the last one needed such a
// correction, within d² units of work, so a call stays O(d²)
// and the ridge is set within a few calls of the data's first spread. So
// A stays positive definite however degenerate the data (without the
// refills, thousands of identical points under forgetting would drive A
// to 0 along every direction), and its prior tracks the data's spread,
// never their position.
//
// One coordinate per call lets a mass decay by β^(d−1) before its next
// refill: 0.02 for β = 0.9 and d = 36, but 1e-210 for β = 1e-6, where the
// factor's dynamic range then overflows. So perCall coordinates are
// refilled per call, the fewest that keep every mass above 1e-12 of ρ_j:
// 1 for β = 0.9 up to d = 262, and for β = 0.5 up to d = 39. A call here
// is a call that decays this factor: every call for LDA's pooled factor,
// the calls of its class for a QDA class factor.
type covFactor struct {
	d       int
	started bool      // rho, p and l are set (the first example was seen)
	s       float64   // lazy scale
	next    int       // coordinate refilled next
	perCall int       // coordinates refilled per call
	rho     []float64 // ridge per coordinate (covPrior, then varPrior at its visits)
	p       []float64 // current prior mass per coordinate (true units)
	l       []float64 // packed factor (see cholesky.go)
	w       []float64 // scratch of lower (2d)
}

func newCovFactor(d int, beta float64) covFactor {
	buf := make([]float64, 4*d+packedLen(d))
	return covFactor{
		d:       d,
		perCall: refillsPerCall(d, beta),
		s:       1,
		rho:     buf[:d:d],
		p:       buf[d : 2*d : 2*d],
		w:       buf[2*d : 4*d : 4*d],
		l:       buf[4*d:],
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

// addExample is one weighted Welford step of a class: it moves the class
// mean mu towards x by w/t1 and adds the scatter term w·t/t1·(x − μ)(x − μ)ᵀ
// of the old mean μ to A, where t is the class weight before the example
// and t1 = t + w after it. The first example of a class (t = 0) only sets
// the mean. u is scratch of len(mu).
func (f *covFactor) addExample(mu, x, u []float64, w, t, t1 float64) {
	x = x[:len(mu)]
	if t == 0 {
		copy(mu, x)
		return
	}
	a := w / t1
	u = u[:len(mu)]
	for j, xj := range x {
		dl := xj - mu[j]
		u[j] = dl
		mu[j] += float64(a * dl)
	}
	f.add(u, math.Sqrt(w*(t/t1)))
}

// refillsPerCall is the least n ≥ 1 with β^⌈d/n⌉ ≥ priorDecayMin (at most d).
func refillsPerCall(d int, beta float64) int {
	if beta >= 1 {
		return 1
	}
	// Rounds between refills of a coordinate that keep the mass above the
	// bound, at least 1 (detmath: the same count on every architecture).
	gap := max(int(detmath.Log(priorDecayMin)/detmath.Log(beta)), 1)
	return min((d+gap-1)/gap, d)
}

// refill visits the next perCall coordinates j: it sets ρ_j from the
// variance S_jj/t, S_jj = s·(L·Lᵀ)_jj − p_j, and corrects p_j (see
// covFactor). t is the scatter's weight, beta the forgetting factor; u is
// scratch.
func (f *covFactor) refill(u []float64, t, beta float64) {
	// Work of the visits (a row of L each) and corrections (rotations
	// and solves from j), at most one factor's worth beyond perCall.
	budget := f.d * f.d
	for n := 0; n < f.d; n++ {
		j := f.next
		f.next++
		if f.next == f.d {
			f.next = 0
		}
		corrected := false
		// A spread below 1e-9 of the diagonal is rounding (or none): the
		// ridge is kept as it is (the provisional one, if no spread yet).
		ajj := float64(f.s * rowNorm2(f.l, f.d, j))
		budget -= j + 1
		if sjj := ajj - f.p[j]; sjj > 1e-9*ajj {
			f.rho[j] = varPrior(sjj / t)
			if f.p[j] > ridgeSlack*f.rho[j] {
				f.lower(j, u, f.w)
				corrected = true
			}
		}
		if add := f.rho[j] - f.p[j]; !corrected && add > 0 && (beta != 1 || ridgeSlack*f.p[j] < f.rho[j]) {
			// A routine refill under forgetting is no correction (every
			// mass has decayed since its last visit): only a ridge that
			// has outgrown the mass without forgetting is.
			clear(u)
			u[j] = math.Sqrt(add / f.s)
			cholUpdate(f.l, f.d, u, j)
			f.p[j] = f.rho[j]
			corrected = beta == 1
		}
		if corrected {
			budget -= 2 * (f.d - j) * (f.d - j) // rotations, and lower's solve
		}
		// While the ridge is being set (the first examples, or a change of
		// the data's scale), go on within the budget.
		if n+1 >= f.perCall && (!corrected || budget <= 0) {
			return
		}
	}
}

// rowNorm2 returns Σ_k L_jk², the diagonal entry j of L·Lᵀ.
func rowNorm2(l []float64, d, j int) float64 {
	var sum float64
	c := j // L_j0
	for k := 0; k <= j; k++ {
		v := l[c]
		sum += float64(v * v)
		c += d - k - 1
	}
	return sum
}

// lower removes mass from the prior of coordinate j, towards ρ_j, by a
// rank-one downdate of the factor along e_j (A ← A − c·e_j·e_jᵀ, LINPACK's
// dchdd), O((d−j)²): with a = L⁻¹e_j, the downdate by c leaves
// 1 − c·‖a‖² of the factor's "room" along e_j (the variance of
// coordinate j given the ones before it), and c is cut so that at least
// 1e-6 of it is left. So a downdate loses at most about six digits of the
// factor's sixteen, and a prior far above its ridge comes down by a factor
// of at least 1e6 per visit (a provisional ridge of 100 for a feature of
// variance 1 is gone in two visits). u and w are scratch (w: 2d).
func (f *covFactor) lower(j int, u, w []float64) {
	d, l := f.d, f.l
	clear(u)
	u[j] = 1
	n := forwardSolveFrom(l, d, u, j) // u = L⁻¹e_j, n = ‖u‖², O((d−j)²)
	c := min((f.p[j]-f.rho[j])/f.s, (1-lowerRoom)/n)
	if !(c > 0) {
		return
	}
	g := math.Sqrt(c)
	alpha := math.Sqrt(1 - float64(c*n)) // float64(…): never fused (see cholesky.go)
	cs, sn := w[:d], w[d:2*d]
	for i := d - 1; i >= j; i-- {
		ai := u[i] * g
		scale := alpha + math.Abs(ai)
		a, b := alpha/scale, ai/scale
		norm := math.Sqrt(float64(a*a) + float64(b*b))
		cs[i], sn[i] = a/norm, b/norm
		alpha = scale * norm
	}
	// Row r of L is column r of LINPACK's R = Lᵀ.
	for r := j; r < d; r++ {
		var xx float64
		for i := r; i >= j; i-- {
			k := colStart(d, i) + r - i
			lri := l[k]
			t := float64(cs[i]*xx) + float64(sn[i]*lri)
			l[k] = float64(cs[i]*lri) - float64(sn[i]*xx)
			xx = t
		}
	}
	// The rotations may leave a diagonal negative; L·D·(L·D)ᵀ = L·Lᵀ for
	// D = diag(±1), so such a column changes sign.
	for i := j; i < d; i++ {
		ci := colStart(d, i)
		if l[ci] < 0 {
			col := l[ci : ci+d-i]
			for k := range col {
				col[k] = -col[k]
			}
		}
	}
	f.p[j] -= float64(c * f.s)
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

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// lda is the linear discriminant analysis base learner: per class c a
// prior weight W_c, a class weight T_c and a mean μ_c, and one pooled
// within-class scatter S with its weight T. A call with label c and weight
// w updates class c by the weighted Welford step of nb with class c's own
// decayed weight, and the pooled scatter with the same rank-one term after
// decaying it:
//
//	T_c' = βT_c + w,  δ = x − μ_c,  μ_c' = μ_c + (w/T_c')·δ,
//	S' = βS + w·(βT_c/T_c')·δδᵀ,  T' = βT + w.
//
// So the means forget per class, like nb's (the rare class keeps its last
// ~1/(1 − β) examples however long the gap), while the pooled covariance
// forgets in time over both classes: it is one shape shared by both, and
// the recent calls of either class are the best evidence of it. The other
// class's weight and mean are untouched. The priors W_c = Σ w never forget
// (see nb for why). With β = 1, T = T+ + T−, S = S+ + S− and a weight-k
// update equals k unit updates up to rounding; with β < 1 one call is one
// time step.
//
// The shared covariance is the maximum-likelihood pooled estimate
//
//	Σ = (S + diag(p)) / T,
//
// with the prior diag(p) of covFactor (following the ridge ρ of varPrior,
// 1e-6 of each feature's pooled within-class variance). ML rather than the
// unbiased (T − 2) denominator: the weights are Poisson draws and decayed
// sums, not counts, so the "n − 2" correction has no clean meaning (below 2
// units of weight it would even turn Σ negative), and the two agree as
// data accumulate. Σ is held as the factor of S + diag(p), updated by one
// rank-one update per call (plus the prior's corrections), O(d²).
//
// The log-odds are linear in x:
//
//	log W+ − log W− + wᵀ(x − m),  w = Σ⁻¹(μ+ − μ−),  m = (μ+ + μ−)/2,
//
// (the Gaussian normalisers cancel), which keeps far points exact: no
// difference of two huge quadratic forms. w, m and the log prior ratio
// (one detmath.Log) are recomputed in O(d²) on the first logOdds after a
// change, so predict is O(d). Products feeding sums are rounded
// explicitly (see cholesky.go): the same bits on every architecture. An
// lda is not safe for concurrent use.
type lda struct {
	d    int
	beta float64
	pw   [2]float64 // prior weight W_c (cumulative, never forgets)
	t    [2]float64 // class weight T_c (forgets per class)
	mu   [2][]float64
	tp   float64   // pooled weight T (forgets every call)
	f    covFactor // pooled scatter S + diag(p)

	u     []float64 // scratch
	w, m  []float64 // cache
	lp    float64   // cache: log W+ − log W−
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
		u:     buf[2*d : 3*d : 3*d],
		w:     buf[3*d : 4*d : 4*d],
		m:     buf[4*d:],
		dirty: true,
	}
}

func (l *lda) learn(x []float64, positive bool, w float64) {
	tp := l.tp
	if !l.f.started {
		l.f.start(x)
	} else if l.beta != 1 {
		l.f.decay(l.beta)
		tp = float64(tp * l.beta)
	}
	l.tp = tp + w
	c := learnerClass(positive)
	l.pw[c] += w
	t, t1 := forgetAdd(l.t[c], l.beta, w)
	l.t[c] = t1
	l.f.addExample(l.mu[c], x, l.u, w, t, t1)
	l.f.refill(l.u, l.tp, l.beta)
	l.dirty = true
}

// refresh recomputes w, m and the log prior ratio.
func (l *lda) refresh() {
	mp, mn := l.mu[clsPos], l.mu[clsNeg]
	for j := range l.w {
		l.w[j] = mp[j] - mn[j]
		l.m[j] = float64(0.5*mp[j]) + float64(0.5*mn[j])
	}
	forwardSolve(l.f.l, l.d, l.w)
	backSolveT(l.f.l, l.d, l.w)
	k := l.tp / l.f.s
	for j := range l.w {
		l.w[j] *= k
	}
	l.lp = logRatio(l.pw[clsPos], l.pw[clsNeg])
	l.dirty = false
}

func (l *lda) prepare() {
	if l.dirty && l.pw[clsPos] > 0 && l.pw[clsNeg] > 0 {
		l.refresh()
	}
}

func (l *lda) logOdds(x []float64) float64 {
	l.prepare()
	return l.logOddsShared(x, nil)
}

func (l *lda) logOddsShared(x, _ []float64) float64 {
	if !(l.pw[clsPos] > 0) {
		return math.Inf(-1)
	}
	if !(l.pw[clsNeg] > 0) {
		return math.Inf(1)
	}
	w := l.w
	m := l.m[:len(w)]
	x = x[:len(w)]
	var s0, s1 float64
	j := 0
	for ; j+1 < len(x); j += 2 {
		s0 += float64(w[j] * (x[j] - m[j]))
		s1 += float64(w[j+1] * (x[j+1] - m[j+1]))
	}
	if j < len(x) {
		s0 += float64(w[j] * (x[j] - m[j]))
	}
	return l.lp + (s0 + s1)
}

func (l *lda) predict(x []float64) bool { return l.logOdds(x) > 0 }

// ldaEncodedLen is the size of an encoded lda of dimension d: d and β,
// per class (negative first) W, T and μ, then the pooled weight and
// factor.
func ldaEncodedLen(d int) int {
	return 8*(2+2*(2+d)+1) + covFactorEncodedLen(d)
}

func (l *lda) encodedLen() int { return ldaEncodedLen(l.d) }

func (l *lda) appendBinary(b []byte) []byte {
	b = appendLearnerHeader(b, l.d, l.beta)
	for c := range 2 {
		b = appendClass(b, l.pw[c], l.t[c], l.mu[c])
	}
	b = appendF64(b, l.tp)
	return l.f.appendBinary(b)
}

func (l *lda) decode(d *decoder) error { return decodeOrReset(l, d) }

func (l *lda) decodeState(d *decoder) error {
	if err := decodeLearnerHeader(d, "lda", l.d, l.beta); err != nil {
		return err
	}
	for c, name := range [2]string{"lda negative class", "lda positive class"} {
		l.pw[c], l.t[c] = decodeClass(d, name, l.mu[c])
	}
	at := d.off
	l.tp = d.nonNeg("lda pooled weight")
	l.f.decode(d, "lda covariance")
	if d.err == nil {
		switch {
		case l.f.started != (l.tp > 0):
			d.off = at
			d.fail(fmt.Sprintf("lda pooled weight %g with prior set %v, want a prior exactly when the weight is positive", l.tp, l.f.started))
		case l.f.started != (l.t[clsNeg] > 0 || l.t[clsPos] > 0):
			d.off = at
			d.fail(fmt.Sprintf("lda covariance: prior set %v with class weights %g and %g", l.f.started, l.t[clsNeg], l.t[clsPos]))
		}
	}
	l.dirty = true
	return d.err
}

// reset returns l to its untrained state.
func (l *lda) reset() {
	l.pw = [2]float64{}
	l.t = [2]float64{}
	l.tp = 0
	clear(l.mu[clsNeg])
	clear(l.mu[clsPos])
	l.f.reset()
	l.dirty = true
}
