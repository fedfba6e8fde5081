package prequential

import (
	"errors"
	"fmt"
	"math"
)

// MaxWindow bounds the window: its examples take about 25 bytes each, and
// an Add moves up to that many scores in memory.
const MaxWindow = 1 << 24

// ErrScore is returned by Add for a NaN score, which has no rank.
var ErrScore = errors.New("prequential: score is NaN")

// Metrics are the figures of a stream or of a window. Counts are of
// examples; a rate whose class is absent is NaN.
type Metrics struct {
	N         int     // examples
	Positives int     // positive examples
	TP, TN    int     // positives above the threshold, negatives at or below it
	AUC       float64 // Mann–Whitney AUC, ties counting ½
	TPR       float64 // recall of the positive class, TP/Positives
	TNR       float64 // recall of the negative class, TN/(N − Positives)
	GMean     float64 // √(TPR·TNR)
}

// Negatives returns the number of negative examples.
func (m Metrics) Negatives() int { return m.N - m.Positives }

// String formats m on one line.
func (m Metrics) String() string {
	return fmt.Sprintf("n=%d pos=%d AUC=%.4f G-mean=%.4f TPR=%.4f TNR=%.4f",
		m.N, m.Positives, m.AUC, m.GMean, m.TPR, m.TNR)
}

// counts are the running sums behind a Metrics.
type counts struct {
	n, pos, tp, tn int
	u2             uint64 // twice the Mann–Whitney U: 2 per ordered pair, 1 per tie
}

func (c counts) metrics() Metrics {
	m := Metrics{N: c.n, Positives: c.pos, TP: c.tp, TN: c.tn}
	neg := c.n - c.pos
	m.AUC, m.TPR, m.TNR = math.NaN(), math.NaN(), math.NaN()
	if c.pos > 0 {
		m.TPR = float64(c.tp) / float64(c.pos)
	}
	if neg > 0 {
		m.TNR = float64(c.tn) / float64(neg)
	}
	if c.pos > 0 && neg > 0 {
		m.AUC = float64(c.u2) / (2 * float64(c.pos) * float64(neg))
	}
	m.GMean = math.Sqrt(m.TPR * m.TNR)
	return m
}

// add counts k examples of one class and score (k = −1 removes one);
// decided is whether the score is above the threshold.
func (c *counts) add(positive, decided bool, k int) {
	c.n += k
	if positive {
		c.pos += k
		if decided {
			c.tp += k
		}
	} else if !decided {
		c.tn += k
	}
}

// pairs returns twice the Mann–Whitney U that an example of score s and
// class positive makes with the examples of the other class, given the
// counts of those below s and equal to s, and their total.
func pairs(positive bool, below, equal, total int) uint64 {
	if positive {
		return uint64(2*below + equal)
	}
	return uint64(2*(total-below-equal) + equal)
}

// Evaluator accumulates the prequential figures of a stream of scored
// examples. Create one with New.
type Evaluator struct {
	threshold float64
	whole     counts
	tree      tree

	win       counts
	ring      []float64 // the window's scores, oldest at head once full
	ringPos   []bool
	head, len int
	sorted    [2][]float64 // the window's scores by class (0 negative, 1 positive), ascending
}

// New returns an Evaluator whose window holds the last window examples
// (1 ≤ window ≤ MaxWindow) and whose decisions are score > threshold. A classifier.Model's
// scores lie in [0, 1] and its own decisions are score > 0.5.
func New(window int, threshold float64) (*Evaluator, error) {
	if window < 1 || window > MaxWindow {
		return nil, fmt.Errorf("prequential: window %d, want 1..%d", window, MaxWindow)
	}
	if math.IsNaN(threshold) {
		return nil, fmt.Errorf("prequential: threshold is NaN")
	}
	e := &Evaluator{
		threshold: threshold,
		ring:      make([]float64, window),
		ringPos:   make([]bool, window),
	}
	e.sorted[0] = make([]float64, 0, window)
	e.sorted[1] = make([]float64, 0, window)
	e.tree.init()
	return e, nil
}

// Reserve makes room for n distinct scores in the whole-stream tree, so
// that Add allocates nothing until more than n distinct scores have been
// seen.
func (e *Evaluator) Reserve(n int) { e.tree.reserve(n) }

// Threshold returns the decision threshold.
func (e *Evaluator) Threshold() float64 { return e.threshold }

// Window returns the window's capacity N.
func (e *Evaluator) Window() int { return len(e.ring) }

// Add records an example that the model scored score before learning it,
// with its label. A NaN score is refused with ErrScore and changes nothing;
// ±Inf are ordered as usual. Add allocates nothing except when the
// whole-stream tree grows (see Reserve). The pair counts behind the AUC
// are exact for streams of up to 2³² examples.
func (e *Evaluator) Add(score float64, positive bool) error {
	if score != score {
		return ErrScore
	}
	// Whole stream: pairs with every earlier example of the other class.
	below, equal := e.tree.rank(score, !positive)
	e.whole.u2 += pairs(positive, below, equal, e.otherTotal(&e.whole, positive))
	e.whole.add(positive, score > e.threshold, 1)
	e.tree.insert(score, positive, 1)
	return e.addWindow(score, positive)
}

// addWindow adds the example to the window, the oldest example leaving
// first so that the window holds the last N examples, this one included.
func (e *Evaluator) addWindow(score float64, positive bool) error {
	if score != score {
		return ErrScore
	}
	if e.len == len(e.ring) {
		e.evict()
	}
	other := e.sorted[b2i(!positive)]
	below, equal := rankSorted(other, score)
	e.win.u2 += pairs(positive, below, equal, len(other))
	e.win.add(positive, score > e.threshold, 1)
	e.sorted[b2i(positive)] = insertSorted(e.sorted[b2i(positive)], score)
	i := e.head + e.len
	if i >= len(e.ring) {
		i -= len(e.ring)
	}
	e.ring[i], e.ringPos[i] = score, positive
	e.len++
	return nil
}

// evict removes the window's oldest example and its pairs.
func (e *Evaluator) evict() {
	s, positive := e.ring[e.head], e.ringPos[e.head]
	e.head++
	if e.head == len(e.ring) {
		e.head = 0
	}
	e.len--
	e.sorted[b2i(positive)] = removeSorted(e.sorted[b2i(positive)], s)
	other := e.sorted[b2i(!positive)]
	below, equal := rankSorted(other, s)
	e.win.u2 -= pairs(positive, below, equal, len(other))
	e.win.add(positive, s > e.threshold, -1)
}

// otherTotal returns how many examples of c are of the class other than positive.
func (e *Evaluator) otherTotal(c *counts, positive bool) int {
	if positive {
		return c.n - c.pos
	}
	return c.pos
}

// Whole returns the figures of the whole stream so far.
func (e *Evaluator) Whole() Metrics { return e.whole.metrics() }

// Windowed returns the figures of the last Window() examples (all of them
// while fewer have been added).
func (e *Evaluator) Windowed() Metrics { return e.win.metrics() }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rankSorted returns how many elements of the ascending a are below s and
// equal to s.
func rankSorted(a []float64, s float64) (below, equal int) {
	lo := search(a, func(v float64) bool { return v >= s })
	hi := lo + search(a[lo:], func(v float64) bool { return v > s })
	return lo, hi - lo
}

// search returns the first index of a at which f holds (f is monotone).
func search(a []float64, f func(float64) bool) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if f(a[m]) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// insertSorted inserts s into the ascending a, which has room for it.
func insertSorted(a []float64, s float64) []float64 {
	i := search(a, func(v float64) bool { return v > s })
	a = a[:len(a)+1]
	copy(a[i+1:], a[i:])
	a[i] = s
	return a
}

// removeSorted removes one element equal to s from the ascending a.
func removeSorted(a []float64, s float64) []float64 {
	i := search(a, func(v float64) bool { return v >= s })
	copy(a[i:], a[i+1:])
	return a[:len(a)-1]
}
