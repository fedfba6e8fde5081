package batch

import "math/rand/v2"

// smote is batch SMOTE (Alg. smote) over the positives of a training set:
// each positive's k nearest distinct positives, found once.
type smote struct {
	x   [][]float64 // the training rows
	pos []int       // indices of the positives in x
	nbr [][]int     // nbr[i]: indices (into x) of pos[i]'s neighbours, nearest first
	at  map[int]int // index in x → index in pos
}

// newSMOTE finds the k nearest neighbours (squared Euclidean distance,
// ties to the earlier positive) of every positive, excluding copies of the
// point itself (distance 0).
func newSMOTE(x [][]float64, pos []int, k int) *smote {
	s := &smote{x: x, pos: pos, nbr: make([][]int, len(pos)), at: make(map[int]int, len(pos))}
	dist := make([]float64, 0, k)
	for i, a := range pos {
		s.at[a] = i
		nb := make([]int, 0, k)
		dist = dist[:0]
		for _, b := range pos {
			var d2 float64
			for j, v := range x[a] {
				t := x[b][j] - v
				d2 += float64(t * t)
			}
			if d2 == 0 {
				continue
			}
			if len(nb) == k && d2 >= dist[k-1] {
				continue
			}
			if len(nb) < k {
				nb = append(nb, 0)
				dist = append(dist, 0)
			}
			p := len(nb) - 1
			for p > 0 && dist[p-1] > d2 {
				nb[p], dist[p] = nb[p-1], dist[p-1]
				p--
			}
			nb[p], dist[p] = b, d2
		}
		s.nbr[i] = nb
	}
	return s
}

// synthesize writes into dst a synthetic positive between x[base] (an index
// of a positive) and one of its neighbours, and reports false when base
// has no distinct neighbour.
func (s *smote) synthesize(rng *rand.Rand, base int, dst []float64) bool {
	nb := s.nbr[s.at[base]]
	if len(nb) == 0 {
		return false
	}
	y := s.x[nb[rng.IntN(len(nb))]]
	g := rng.Float64()
	for j, v := range s.x[base] {
		dst[j] = v + float64(g*(y[j]-v))
	}
	return true
}

// cyclicBases returns n synthetic-example bases taken cyclically from a
// random permutation of from, so each element is used ⌊n/len⌋ or ⌈n/len⌉
// times (batch SMOTE with a fractional number of examples per positive).
func cyclicBases(rng *rand.Rand, from []int, n int) []int {
	if len(from) == 0 || n <= 0 {
		return nil
	}
	perm := append([]int(nil), from...)
	rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	out := make([]int, n)
	for i := range out {
		out[i] = perm[i%len(perm)]
	}
	return out
}
