//go:build !purego

package features

import "golang.org/x/sys/cpu"

// useAVX says whether the hot loops run in their AVX versions (the
// *_amd64.s files: conditioning, Push's frame copy and ring store, the
// time-domain sums, the FFT), decided once when the program starts: the
// processor and the operating system support AVX. Each gives the same
// bits as the Go loop it stands for, which processors without AVX, other
// architectures and builds tagged purego run, and tests hold both to
// that.
var useAVX = cpu.X86.HasAVX
