//go:build !amd64 || purego

package classifier

// The Cholesky loops in Go (cholesky_amd64.go has the SSE2 loops).

func cholRotate(col, xs []float64, s, c, ic float64) { cholRotateGo(col, xs, s, c, ic) }

func cholRotate2(colA, colB, xr []float64, s, c, ic, s1, c1, ic1 float64) {
	cholRotate2Go(colA, colB, xr, s, c, ic, s1, c1, ic1)
}

func forwardSolveRecip(l, inv []float64, d int, z []float64) float64 {
	return forwardSolveRecipGo(l, inv, d, z)
}
