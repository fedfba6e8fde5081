//go:build !amd64 || purego

package features

// filter runs the chain over the frame x (condition_amd64.go has the
// vector loop; elsewhere the Go loop).
func (k *conditioner) filter(x []float64) { k.filterGo(x) }
