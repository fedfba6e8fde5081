package paper

import "github.com/ictal/ictal/classifier"

// names returns classifier names (classifier.Algorithms,
// classifier.Learners) as the strings the options hold.
func names[T classifier.Algorithm | classifier.LearnerName](xs []T) []string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return s
}
