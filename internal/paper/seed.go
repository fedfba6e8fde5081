package paper

import (
	"hash/fnv"
	"strconv"
)

// deriveSeed returns a seed for one job from the run's seed and the job's
// coordinates, by FNV-1a over their text and a SplitMix64 finaliser. It
// depends on nothing else (not on the worker or the order of jobs), which
// is what makes a run deterministic for any number of workers.
func deriveSeed(seed uint64, parts ...string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strconv.FormatUint(seed, 10)))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	x := h.Sum64() + 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
