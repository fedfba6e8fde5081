package pipeline

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
)

// quality tracks, per frame and in O(channels), the most recent frame with
// each kind of problem; a window is usable when none lies inside it.
type quality struct {
	win    int64 // frames per window
	flat   float64
	frame  int64 // index of the latest frame
	gap    int64 // latest frame with FlagGap
	lead   int64 // latest frame with a lead-off
	leadCh int
	sat    int64 // latest saturated frame
	satCh  int
	ref    []uint64 // per channel: bits of the reference value of the flatness test
	moved  []int64  // per channel: latest frame that left ref by more than flat
	leadAt []int64  // per channel: latest frame with a lead-off
	satAt  []int64  // per channel: latest saturated frame
	any    bool
}

func newQuality(channels int, win int, flat float64) *quality {
	q := &quality{win: int64(win), flat: flat, ref: make([]uint64, channels), moved: make([]int64, channels),
		leadAt: make([]int64, channels), satAt: make([]int64, channels)}
	never := int64(math.MinInt64 / 2)
	q.gap, q.lead, q.sat = never, never, never
	for c := range channels {
		q.leadAt[c], q.satAt[c] = never, never
	}
	return q
}

// update takes the next frame.
func (q *quality) update(f *acquire.Frame) {
	q.frame++
	i := q.frame
	if f.Flags&acquire.FlagGap != 0 {
		q.gap = i
	}
	if f.LeadOff != 0 {
		q.lead, q.leadCh = i, bits.TrailingZeros64(f.LeadOff)
		mark(q.leadAt, f.LeadOff, i)
	}
	if f.Saturated != 0 {
		q.sat, q.satCh = i, bits.TrailingZeros64(f.Saturated)
		mark(q.satAt, f.Saturated, i)
	}
	if !q.any {
		for c, v := range f.Samples {
			q.ref[c] = math.Float64bits(v)
		}
		for c := range q.moved {
			q.moved[c] = i
		}
		q.any = true
		return
	}
	flatTest(f.Samples, q.ref, q.moved, q.flat, i)
}

// mark sets at[c] to i for every channel c whose bit is set in mask
// (channels beyond at's length, or beyond 64, are not marked).
func mark(at []int64, mask uint64, i int64) {
	for mask != 0 {
		c := bits.TrailingZeros64(mask)
		if c >= len(at) {
			return
		}
		at[c] = i
		mask &= mask - 1
	}
}

// flatTestGo is the flatness test of frame i: for each channel c whose
// sample leaves ref[c] (bits of a float64) by more than flat, ref[c]
// becomes the sample and moved[c] i. A NaN moves nothing.
func flatTestGo(samples []float64, ref []uint64, moved []int64, flat float64, i int64) {
	ref, moved = ref[:len(samples)], moved[:len(samples)]
	for c, v := range samples {
		// Without a branch: whether EEG leaves ref by more than flat is
		// a coin toss the processor would mispredict. The compiler makes
		// the two assignments conditional moves (on integers: ref holds
		// bits).
		r, m, b := ref[c], moved[c], math.Float64bits(v)
		if math.Abs(v-math.Float64frombits(r)) > flat {
			r, m = b, i
		}
		ref[c], moved[c] = r, m
	}
}

// problem kinds
const (
	okay = iota
	gapProblem
	leadProblem
	satProblem
	flatProblem
	invalidProblem // the extractor replaced NaN, Inf or absurd samples
	artifactProblem
)

// window judges the window ending at the latest frame: the kind of the
// first problem found and its channel.
func (q *quality) window() (kind, channel int) {
	i := q.frame
	switch {
	case i-q.gap < q.win:
		return gapProblem, -1
	case i-q.lead < q.win:
		return leadProblem, q.leadCh
	case i-q.sat < q.win:
		return satProblem, q.satCh
	}
	for c, m := range q.moved {
		if i-m >= q.win {
			return flatProblem, c
		}
	}
	return okay, -1
}

// channelLocal reports whether a problem kind is one of single channels
// (lead-off, saturation, a flat line), which a per-channel score can
// leave out, rather than of the whole window (a gap, invalid samples).
func channelLocal(kind int) bool {
	return kind == leadProblem || kind == satProblem || kind == flatProblem
}

// bad appends to dst the channels with a lead-off, saturation or flat
// line within the window ending at the latest frame, in channel order.
func (q *quality) bad(dst []int) []int {
	i := q.frame
	for c := range q.moved {
		if i-q.leadAt[c] < q.win || i-q.satAt[c] < q.win || i-q.moved[c] >= q.win {
			dst = append(dst, c)
		}
	}
	return dst
}

// stateFor maps a problem to the monitor's state, without the reason
// (which stateOf builds, allocating).
func stateFor(kind int) alert.State {
	switch kind {
	case gapProblem:
		return alert.StateSignalLost
	case leadProblem, satProblem, flatProblem, invalidProblem:
		return alert.StateElectrodeOff
	}
	return alert.StateOnline
}

// stateOf maps a problem to the monitor's state and a reason.
func stateOf(kind, channel int, labels []string) (alert.State, string) {
	name := func() string {
		if channel >= 0 && channel < len(labels) {
			return fmt.Sprintf("channel %d %s", channel, labels[channel])
		}
		return fmt.Sprintf("channel %d", channel)
	}
	reason := "signal good"
	switch kind {
	case gapProblem:
		reason = "frames lost"
	case leadProblem:
		reason = "lead-off on " + name()
	case satProblem:
		reason = "saturation on " + name()
	case flatProblem:
		reason = "flat line on " + name()
	case invalidProblem:
		reason = "invalid samples (NaN, infinite or beyond ±1 V)"
	}
	return stateFor(kind), reason
}
