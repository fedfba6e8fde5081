//go:build !amd64 || purego

package classifier

// The Cholesky loops in Go (cholesky_amd64.go has the SSE2 loops).

func cholUpdate(l []float64, d int, x []float64, from int) { cholUpdateGo(l, d, x, from) }

func forwardSolveRecip(l, inv []float64, d int, z []float64) float64 {
	return forwardSolveRecipGo(l, inv, d, z)
}
