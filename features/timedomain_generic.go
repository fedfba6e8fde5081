//go:build !amd64 || purego

package features

// add adds the terms 2 ≤ i < len(x) of x's sums to their lanes
// (timedomain_amd64.go has the vector loop; elsewhere the Go loop).
func (l *sumLanes) add(x []float64) { l.addGo(x, 2) }

// centre is computeTime's pass over the whole window (see centreGo;
// timedomain_amd64.go has the vector loop, elsewhere the Go loop).
func centre(sumSq *[4]float64, w, hann, out []float64, mean float64) int {
	return centreGo(sumSq, w, hann, out, mean, 0)
}
