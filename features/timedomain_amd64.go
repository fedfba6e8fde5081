//go:build !purego

package features

// add adds the terms 2 ≤ i < len(x) of x's sums to their lanes (see
// sumLanes): those of i = 2 and 3 and the last len(x) mod 4 in Go, the
// groups of four between in the AVX loop where the processor has one.
func (l *sumLanes) add(x []float64) {
	groups := len(x)/4 - 1
	if !useAVX || groups <= 0 {
		l.addGo(x, 2)
		return
	}
	l.addGo(x[:4], 2)
	sumsAVX(&x[2], groups, l)
	l.addGo(x, 4+4*groups)
}

// centre is computeTime's pass over the whole window (see centreGo): the
// terms of i < 4⌊(n−1)/4⌋ in the AVX loop where the processor has one,
// four at a time, the rest in Go.
func centre(sumSq *[4]float64, w, hann, out []float64, mean float64) int {
	groups := (len(w) - 1) / 4
	if !useAVX || groups == 0 {
		return centreGo(sumSq, w, hann, out, mean, 0)
	}
	hann, out = hann[:len(w)], out[:len(w)]
	c := centreAVX(&w[0], &hann[0], &out[0], mean, groups, sumSq)
	return c + centreGo(sumSq, w, hann, out, mean, 4*groups)
}

// sumsAVX adds groups × 4 terms of a run's sums to the lanes l, in
// packed double precision: the terms i = 4, …, 4·groups + 3 of the run
// x, given as p = &x[2] (it reads x[2] to x[4·groups + 3]). Per lane, the
// operations of sumLanes.addGo in the same order, each rounded on its
// own (no fused multiply-add), so the same bits. groups ≥ 1.
//
//go:noescape
func sumsAVX(p *float64, groups int, l *sumLanes)

// centreAVX runs centreGo's terms 0 ≤ i < 4·groups of the window w
// (reading w[0] to w[4·groups]) four at a time: out[i] = (w[i] − mean)·
// hann[i], sumSq's lanes, and the returned count of zero crossings
// between i and i+1. Per lane, centreGo's operations in the same order,
// so the same bits. groups ≥ 1.
//
//go:noescape
func centreAVX(w, hann, out *float64, mean float64, groups int, sumSq *[4]float64) (crossings int)
