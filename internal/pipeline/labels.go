package pipeline

import (
	"sort"
	"time"

	"github.com/ictal/ictal/acquire"
)

// intervalSet is a sorted union of disjoint intervals, in offsets from the
// start of the recording.
type intervalSet struct {
	start, end []time.Duration
	cursor     int // first interval that may still overlap windows to come
}

// newIntervalSet merges the seizure intervals of ivs.
func newIntervalSet(ivs []acquire.Interval) *intervalSet {
	var sz []acquire.Interval
	for _, iv := range ivs {
		if iv.Seizure && iv.End > iv.Start {
			sz = append(sz, iv)
		}
	}
	sort.Slice(sz, func(i, j int) bool { return sz[i].Start < sz[j].Start })
	s := &intervalSet{}
	for _, iv := range sz {
		if n := len(s.end); n > 0 && iv.Start <= s.end[n-1] {
			if iv.End > s.end[n-1] {
				s.end[n-1] = iv.End
			}
			continue
		}
		s.start = append(s.start, iv.Start)
		s.end = append(s.end, iv.End)
	}
	return s
}

// overlap returns how much of [a, b) the set covers. Windows must be
// queried in non-decreasing order of a (the cursor only moves forward).
func (s *intervalSet) overlap(a, b time.Duration) time.Duration {
	for s.cursor < len(s.end) && s.end[s.cursor] <= a {
		s.cursor++
	}
	var o time.Duration
	for i := s.cursor; i < len(s.start) && s.start[i] < b; i++ {
		lo, hi := max(a, s.start[i]), min(b, s.end[i])
		if hi > lo {
			o += hi - lo
		}
	}
	return o
}

// labelOf turns an overlap into a label: positive when at least minOverlap
// of the window is covered, negative when none of it is, and no label (ok
// false) in between.
func labelOf(overlap, length time.Duration, minOverlap float64) (positive, ok bool) {
	switch {
	case overlap <= 0:
		return false, true
	case float64(overlap) >= minOverlap*float64(length):
		return true, true
	}
	return false, false
}

// window is a buffered window awaiting a label.
type window struct {
	start, end time.Duration
	decided    bool // the detector's decision on it: scored above the threshold
	// x is the vector the window was scored with, in single precision:
	// the hour's buffer is the daemon's largest allocation, and halving it
	// keeps ictald within its memory budget (23 channels × 17 features ×
	// 3601 windows: 5.6 MB instead of 11.3). The features are measured to
	// far less than float32's 7 significant digits; a value beyond its
	// range becomes ±Inf, which Learn refuses (a model error, logged).
	x       []float32
	learned bool  // learned: with its claim's label once final, or by the negative horizon
	claim   claim // the label that covers it, if any
}

// claim is the label a buffered window was given: pending until due, when
// the window is learned with it, and final from then on.
type claim struct {
	set        bool
	seizure    bool
	due        time.Duration // when the label becomes final
	start, end time.Duration // the labelled span (an alert's for a verdict)
	by, sender string
}

// ring keeps the most recent windows' vectors for late labels. Its memory
// is taken once, by reserve (Pipeline.Run does before the first frame), so
// that a pipeline built only to check a configuration (ictald check, and
// run's own check before it builds the real one) takes none; entries are
// reused, and nothing is allocated after reserve.
type ring struct {
	w             []window
	capacity, dim int
	head, size    int   // oldest entry and count
	evicted       int   // windows that left the buffer unlearned
	pushed        int64 // windows ever pushed; entry i is window number pushed-size+i
	aged          int64 // windows numbered below this were handled by the negative horizon
}

func newRing(capacity, dim int) *ring { return &ring{capacity: capacity, dim: dim} }

// reserve allocates the ring's entries and vectors, the first time only.
func (r *ring) reserve() {
	if r.w != nil || r.capacity == 0 {
		return
	}
	r.w = make([]window, r.capacity)
	buf := make([]float32, r.capacity*r.dim)
	for i := range r.w {
		r.w[i].x = buf[i*r.dim : (i+1)*r.dim : (i+1)*r.dim]
	}
}

// push stores a usable window, evicting the oldest when full.
func (r *ring) push(start, end time.Duration, x []float64, decided bool) {
	if r.capacity == 0 {
		return
	}
	r.reserve()
	if r.size == r.capacity {
		if !r.w[r.head].learned {
			r.evicted++
		}
		r.head = (r.head + 1) % r.capacity
		r.size--
	}
	w := &r.w[(r.head+r.size)%r.capacity]
	w.start, w.end, w.decided, w.learned, w.claim = start, end, decided, false, claim{}
	for i, v := range x {
		w.x[i] = float32(v)
	}
	r.size++
	r.pushed++
}

// at returns the i-th oldest entry.
func (r *ring) at(i int) *window { return &r.w[(r.head+i)%r.capacity] }
