//go:build !amd64 || purego

package features

// useAVX is false outside amd64 and in builds tagged purego: the Go loops
// run (see cpu_amd64.go).
const useAVX = false
