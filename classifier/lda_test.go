package classifier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// lrnCheckSym fails if a and b differ by more than tol relative to the
// largest entry of b.
func lrnCheckSym(t *testing.T, what string, a, b *mat.SymDense, tol float64) {
	t.Helper()
	scale := lrnMaxAbs(lrnUpper(b))
	n := b.SymmetricDim()
	for i := range n {
		for j := i; j < n; j++ {
			if e := lrnRelErr(a.At(i, j), b.At(i, j), scale); e > tol {
				t.Errorf("%s[%d,%d] = %v, batch %v (err %g)", what, i, j, a.At(i, j), b.At(i, j), e)
			}
		}
	}
}

// lrnCheckMean fails if the online weight and mean differ from the batch.
func lrnCheckMean(t *testing.T, what string, tw float64, mu []float64, b lrnBatch) {
	t.Helper()
	if e := lrnRelErr(tw, b.t, b.t); e > 1e-12 {
		t.Errorf("%s: T = %v, batch %v", what, tw, b.t)
	}
	for j := range mu {
		if e := lrnRelErr(mu[j], b.mu[j], 1+math.Abs(b.mu[j])); e > 1e-12 {
			t.Errorf("%s: μ[%d] = %v, batch %v", what, j, mu[j], b.mu[j])
		}
	}
}

// lrnCov returns (scatter + diag(p)) / t.
func lrnCov(s *mat.SymDense, p []float64, t float64) *mat.SymDense {
	n := s.SymmetricDim()
	c := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			v := s.At(i, j)
			if i == j {
				v += p[i]
			}
			c.SetSym(i, j, v/t)
		}
	}
	return c
}

// lrnLogProb is the Gaussian log-density computed with gonum's Cholesky
// decomposition: −½(d·log 2π + log|Σ| + (x − μ)ᵀΣ⁻¹(x − μ)).
func lrnLogProb(t *testing.T, mu []float64, cov *mat.SymDense, x []float64) float64 {
	t.Helper()
	var c mat.Cholesky
	if !c.Factorize(cov) {
		t.Fatal("reference covariance not positive definite")
	}
	d := len(mu)
	dl := mat.NewVecDense(d, nil)
	for j := range d {
		dl.SetVec(j, x[j]-mu[j])
	}
	var sol mat.VecDense
	if err := c.SolveVecTo(&sol, dl); err != nil {
		t.Fatal(err)
	}
	return -0.5 * (float64(d)*math.Log(2*math.Pi) + c.LogDet() + mat.Dot(dl, &sol))
}

// lrnPooled is LDA's pooled within-class scatter and weight by their
// definition: every call decays the pooled sums by β and adds the growth
// of its class's own (per-class forgetting) scatter, S_c(k) − β·S_c(k−1),
// where S_c(k) is the two-pass scatter of the class's first k examples
// (lrnBatchStats). With β = 1 the sum telescopes to S+ + S−, computed so.
func lrnPooled(ex []lrnExample, d int, beta float64) (*mat.SymDense, float64) {
	s := mat.NewSymDense(d, nil)
	var t float64
	for _, e := range ex {
		t = t*beta + e.w
	}
	if beta == 1 {
		s.AddSym(lrnBatchStats(ex, d, 1, false).s, lrnBatchStats(ex, d, 1, true).s)
		return s, t
	}
	last := [2]*mat.SymDense{mat.NewSymDense(d, nil), mat.NewSymDense(d, nil)}
	for i, e := range ex {
		c := learnerClass(e.positive)
		now := lrnBatchStats(ex[:i+1], d, beta, e.positive).s
		for a := range d {
			for b := a; b < d; b++ {
				s.SetSym(a, b, beta*s.At(a, b)+(now.At(a, b)-beta*last[c].At(a, b)))
			}
		}
		last[c] = now
	}
	return s, t
}

func TestLDAMatchesBatch(t *testing.T) {
	for _, beta := range []float64{1, 0.99, 0.9} {
		t.Run(fmt.Sprint("beta=", beta), func(t *testing.T) {
			const d = 5
			rng := rand.New(rand.NewPCG(31, 32))
			n := 3000
			if beta != 1 {
				n = 1000 // lrnPooled is O(n²)
			}
			ex := lrnGaussians(rng, n, d, 0.3, 2, 1, 1.5, true)
			l := newLDA(d, beta)
			lrnTrain(l, ex)
			bn, bp := lrnBatchStats(ex, d, beta, false), lrnBatchStats(ex, d, beta, true)
			lrnCheckMean(t, "negatives", l.t[clsNeg], l.mu[clsNeg], bn)
			lrnCheckMean(t, "positives", l.t[clsPos], l.mu[clsPos], bp)
			if l.pw != [2]float64{bn.w, bp.w} {
				t.Errorf("prior weights %v, want the sums %v", l.pw, [2]float64{bn.w, bp.w})
			}
			pooled, tp := lrnPooled(ex, d, beta)
			if e := lrnRelErr(l.tp, tp, tp); e > 1e-13 {
				t.Errorf("pooled weight %v, batch %v", l.tp, tp)
			}
			// The factor is rebuilt here as s·L·Lᵀ − diag(p), each entry a
			// sum of d products: a few ulps of the largest entry.
			lrnCheckSym(t, "pooled scatter", lrnScatter(&l.f), pooled, 1e-12)
			if beta == 1 {
				// Nothing decays: a visit corrects p_j only when it strays
				// beyond a factor ridgeSlack of ρ_j, 1e-6 of the variance.
				for j, r := range l.f.rho {
					if l.f.p[j] < r/ridgeSlack || l.f.p[j] > r*ridgeSlack {
						t.Errorf("prior mass %d = %g without forgetting, want within a factor %d of ρ = %g", j, l.f.p[j], ridgeSlack, r)
					}
					v := pooled.At(j, j) / tp
					if e := lrnRelErr(r, 1e-6*v, 1e-6*v); e > 0.1 {
						t.Errorf("ρ_%d = %g, want about 1e-6 of the pooled variance %g", j, r, v)
					}
				}
				return
			}
			// The coordinate refilled last holds ρ again; every coordinate
			// was refilled at most d−1 calls ago.
			last := (l.f.next + d - 1) % d
			if got, want := l.f.p[last], l.f.rho[last]; got != want {
				t.Errorf("prior mass of the last refilled coordinate %d = %g, want ρ = %g", last, got, want)
			}
			for j, r := range l.f.rho {
				if lo := r * math.Pow(beta, d-1); l.f.p[j] < lo*(1-1e-12) || l.f.p[j] > r {
					t.Errorf("prior mass %d = %g, outside [ρ·β^(d−1), ρ] = [%g, %g]", j, l.f.p[j], lo, r)
				}
			}
		})
	}
}

func TestLDAPriorKeepsCovariancePositiveDefinite(t *testing.T) {
	// β = 0.5 and thousands of identical points: the data scatter is 0, so
	// without refilling the prior A = S + diag(p) would decay to 0 along
	// every axis. With it, A's smallest eigenvalue stays at least the
	// smallest prior mass, which is ρ_j·β^(d−1) at worst.
	const d = 6
	l := newLDA(d, 0.5)
	x := []float64{1, -2, 3, -4, 5, -6}
	for i := range 5000 {
		l.learn(x, i%2 == 0, 1)
	}
	var eig mat.EigenSym
	if !eig.Factorize(lrnDense(l.f.l, d, l.f.s), false) {
		t.Fatal("eigendecomposition failed")
	}
	minP := math.Inf(1)
	for j, r := range l.f.rho {
		minP = min(minP, l.f.p[j])
		if l.f.p[j] < r*math.Pow(0.5, d-1)*(1-1e-12) {
			t.Errorf("prior mass %d = %g, below ρ·β^(d−1) = %g", j, l.f.p[j], r*math.Pow(0.5, d-1))
		}
	}
	if ev := eig.Values(nil)[0]; !(ev >= minP*(1-1e-9)) {
		t.Errorf("smallest eigenvalue of the scatter %g, want ≥ smallest prior mass %g", ev, minP)
	}
	lrnFinite(t, l, [][]float64{x, {0, 0, 0, 0, 0, 0}, {1e6, 0, 0, 0, 0, 0}})
}

func TestLDALinearLogOdds(t *testing.T) {
	// LDA's log-odds are affine in x: the midpoint of two points has the
	// mean of their log-odds.
	const d = 4
	rng := rand.New(rand.NewPCG(35, 36))
	l := newLDA(d, 1)
	lrnTrain(l, lrnGaussians(rng, 500, d, 0.5, 1, 1, 2, true))
	ps := lrnProbes(rng, 20, d, 100)
	for i := 1; i < len(ps); i++ {
		a, b := ps[i-1], ps[i]
		m := make([]float64, d)
		for j := range m {
			m[j] = (a[j] + b[j]) / 2
		}
		la, lb, lm := l.logOdds(a), l.logOdds(b), l.logOdds(m)
		if lrnRelErr(lm, (la+lb)/2, 1+math.Abs(la)+math.Abs(lb)) > 1e-13 {
			t.Errorf("logOdds at the midpoint %v, mean of the ends %v", lm, (la+lb)/2)
		}
	}
}

func TestRefillsPerCall(t *testing.T) {
	tests := []struct {
		d    int
		beta float64
		want int
	}{
		{36, 1, 1},
		{36, 0.9, 1},
		{262, 0.9, 1},
		{263, 0.9, 2},
		{39, 0.5, 1},
		{40, 0.5, 2},
		{128, 0.5, 4},
		{36, 1e-6, 18}, // β² = 1e-12: a refill every other call
		{5, 1e-20, 5},  // every coordinate every call
	}
	for _, tt := range tests {
		if got := refillsPerCall(tt.d, tt.beta); got != tt.want {
			t.Errorf("refillsPerCall(%d, %g) = %d, want %d", tt.d, tt.beta, got, tt.want)
		}
	}
}

// TestLDAPriorFollowsVarianceNotPosition trains on features offset by
// 1e4, whose provisional ridge (1e-6·x² = 100) dwarfs their variance: the
// downdates of covFactor.lower must bring every prior mass to within a
// factor ridgeSlack of 1e-6 of the variance while keeping the scatter
// s·L·Lᵀ − diag(p) equal to the batch pooled scatter.
func TestLDAPriorFollowsVarianceNotPosition(t *testing.T) {
	const d = 5
	rng := rand.New(rand.NewPCG(41, 42))
	ex := lrnGaussians(rng, 300, d, 0.3, 2, 1, 1.5, true)
	for i := range ex {
		for j := range ex[i].x {
			ex[i].x[j] += 1e4
		}
	}
	l := newLDA(d, 1)
	lrnTrain(l, ex)
	pooled, tp := lrnPooled(ex, d, 1)
	lrnCheckSym(t, "pooled scatter", lrnScatter(&l.f), pooled, 1e-9)
	for j := range d {
		v := pooled.At(j, j) / tp
		if p := l.f.p[j]; p < 1e-6*v/ridgeSlack || p > 1e-6*v*ridgeSlack {
			t.Errorf("prior mass %d = %g, want within a factor %d of 1e-6 of the variance %g", j, p, ridgeSlack, v)
		}
	}
}
