package paper

import "math/rand/v2"

// StratifiedFolds splits the indices of y into k folds that partition
// them, each with the class proportions of y to within one example per
// class: positives and negatives are shuffled separately (seeded) and
// dealt round-robin, the negatives continuing where the positives stopped
// so that fold sizes also differ by at most one. It returns each fold's
// indices in increasing order.
func StratifiedFolds(y []bool, k int, seed uint64) [][]int {
	rng := rand.New(rand.NewPCG(seed, 0x666f6c6473))
	pos, neg := partition(y)
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	rng.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	which := make([]int, len(y))
	f := 0
	for _, idx := range [][]int{pos, neg} {
		for _, i := range idx {
			which[i] = f
			f = (f + 1) % k
		}
	}
	folds := make([][]int, k)
	for i, w := range which {
		folds[w] = append(folds[w], i)
	}
	return folds
}

// partition returns the indices of y that are true and those that are
// false, each in increasing order (nil when there are none).
func partition(y []bool) (yes, no []int) {
	for i, v := range y {
		if v {
			yes = append(yes, i)
		} else {
			no = append(no, i)
		}
	}
	return yes, no
}

// complement returns the indices in [0, n) not in fold (sorted).
func complement(n int, fold []int) []int {
	in := make([]bool, n)
	for _, i := range fold {
		in[i] = true
	}
	out := make([]int, 0, n-len(fold))
	for i := 0; i < n; i++ {
		if !in[i] {
			out = append(out, i)
		}
	}
	return out
}
