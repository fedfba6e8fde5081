package pipeline

import "github.com/ictal/ictal/features"

// ranking names the channels that drive an alert: those whose line length
// stands out most above their own recent baseline. The baseline of each
// channel is an exponential average over about a minute of quiet, usable
// windows. Without line length among the features, alerts name no
// channel.
type ranking struct {
	index    []int     // per channel: position of its line length in x; nil when absent
	baseline []float64 // per channel
	set      bool      // baseline holds a first value
	order    []int     // scratch
	labels   []string  // channel names
	top      int       // how many channels an alert names
	// byScore, when it returns channels, names them instead: the
	// channels whose own scores drove the window's (per-channel scoring).
	byScore func() []int
}

func newRanking(ext *features.Extractor, labels []string, top int) *ranking {
	r := &ranking{labels: labels, top: top, baseline: make([]float64, len(labels)), order: make([]int, len(labels))}
	for c := range labels {
		i := ext.Index(c, features.LineLength)
		if i < 0 {
			r.index = nil
			break
		}
		r.index = append(r.index, i)
	}
	return r
}

// update takes a quiet, usable window into the baselines.
func (r *ranking) update(x []float64) {
	if r.index == nil {
		return
	}
	const a = 1.0 / 60
	for c, i := range r.index {
		if !r.set {
			r.baseline[c] = x[i]
		} else {
			r.baseline[c] += float64(a * (x[i] - r.baseline[c]))
		}
	}
	r.set = true
}

// channels returns the names of up to top channels whose line length in x
// exceeds their baseline, most prominent first.
func (r *ranking) channels(x []float64) []string {
	if r.byScore != nil {
		if top := r.byScore(); top != nil {
			out := make([]string, 0, min(r.top, len(top)))
			for _, c := range top[:min(r.top, len(top))] {
				out = append(out, r.labels[c])
			}
			return out
		}
	}
	if r.index == nil || r.top == 0 {
		return nil
	}
	for c := range r.order {
		r.order[c] = c
	}
	dev := func(c int) float64 { return x[r.index[c]] - r.baseline[c] }
	n := min(r.top, len(r.order))
	for i := 0; i < n; i++ { // partial selection sort: n is tiny
		best := i
		for j := i + 1; j < len(r.order); j++ {
			if dev(r.order[j]) > dev(r.order[best]) {
				best = j
			}
		}
		r.order[i], r.order[best] = r.order[best], r.order[i]
	}
	out := make([]string, 0, n)
	for _, c := range r.order[:n] {
		if dev(c) > 0 {
			out = append(out, r.labels[c])
		}
	}
	return out
}
