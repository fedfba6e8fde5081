package features

// add adds the terms 2 ≤ i < len(x) of x's sums to their lanes.
func (l *sumLanes) add(x []float64) { l.addGo(x, 2) }

// centre is computeTime's pass over the whole window (see centreGo).
func centre(sumSq *[4]float64, w, hann, out []float64, mean float64) int {
	return centreGo(sumSq, w, hann, out, mean, 0)
}
