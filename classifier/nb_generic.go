//go:build !amd64 || purego

package classifier

// The naive Bayes loops in Go (nb_amd64.go has the SSE2 loops).

func nbLearnStep(x, mu, v, sm []float64, a, r float64) float64 {
	return nbLearnStepGo(x, mu, v, sm, a, r)
}

func nbRefreshOddsStep(x, mp, mn, hp, hn, v, half []float64, base float64) (q, m float64, eb uint64, bad bool) {
	return nbRefreshOddsStepGo(x, mp, mn, hp, hn, v, half, base)
}

func nbQuad(x, mp, mn, hp, hn []float64) float64 { return nbQuadGo(x, mp, mn, hp, hn) }
