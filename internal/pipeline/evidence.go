package pipeline

import (
	"math"
	"time"

	"github.com/ictal/ictal/alert"
)

// evidence keeps the last alert.MaxEvidenceSpan of the conditioned signal
// and, for every alert, hands its sinks the snippet from
// alert.EvidenceBefore before the onset to alert.EvidenceAfter after the
// detection, as soon as that much signal has arrived. It keeps samples at
// evidenceRate at most (see there): a frame is added to its sample's sum,
// and a sample costs a copy into a ring allocated once; a snippet
// allocates when it is cut, once per alert.
type evidence struct {
	ring    []float32 // samples × channels, one sample contiguous
	nch     int
	samples int // capacity in samples
	head    int // slot of the next sample
	count   int // samples held
	k       int // frames a sample
	sum     []float64
	inSum   int           // frames in sum
	first   time.Duration // offset of sum's first frame
	last    time.Duration // offset of the newest sample's first frame
	period  time.Duration // of a frame
	rate    float64       // of the frames

	channels []string
	pending  []pendingEvidence
	sinks    []alert.EvidenceSink
	wall     func(time.Duration) time.Time
	check    func(what string, err error)
}

// pendingEvidence is an alert whose snippet is not complete yet.
type pendingEvidence struct {
	ev        alert.Evidence // Samples nil until cut
	onset     time.Duration
	detected  time.Duration
	chans     []int
	completes time.Duration // the snippet is cut when frames reach this offset
}

// defaultEvidenceChannels is how many channels a snippet holds when the
// alert names none.
const defaultEvidenceChannels = 4

// evidenceRate is the highest rate a snippet is sent at. A faster
// source's samples (an ADS1299 at 1–16 kHz, an ECoG recording at 2 kHz)
// are the means of k frames, k the smallest integer that brings the rate
// to evidenceRate or below: the conditioned signal is low-passed at
// 70 Hz, well below the new Nyquist frequency (128 Hz at least), and the
// mean is a low-pass of its own where conditioning is off. At 512 Hz a
// snippet of alert.MaxEvidenceChannels over alert.MaxEvidenceSpan is
// about 660 KiB, within alert.MaxEvidenceSize, which every receiver
// enforces (at 2048 Hz it was 2.6 MB, which they refused), and the ring
// of 8 channels 0.9 MiB (at 16 kHz it was 29 MiB).
const evidenceRate = 512

func newEvidence(channels []string, rate float64, s *sinks, wall func(time.Duration) time.Time) *evidence {
	k := max(1, int(math.Ceil(rate/evidenceRate)))
	samples := int(alert.MaxEvidenceSpan.Seconds()*rate/float64(k)) + 1
	return &evidence{
		ring: make([]float32, samples*len(channels)), nch: len(channels), samples: samples, k: k, sum: make([]float64, len(channels)),
		period: time.Duration(float64(time.Second) / rate), rate: rate, channels: channels,
		sinks: s.evidence, wall: wall, check: s.check,
	}
}

// push adds one conditioned frame whose first sample is at offset t,
// stores a sample when it has k frames (at once when k is 1), and cuts
// the snippets the frame completes.
func (e *evidence) push(t time.Duration, x []float64) {
	slot := e.ring[e.head*e.nch : (e.head+1)*e.nch]
	switch {
	case e.k == 1:
		for c, v := range x {
			slot[c] = float32(v)
		}
		e.stored(t)
	default:
		if e.inSum == 0 {
			e.first = t
		}
		for c, v := range x {
			e.sum[c] += v
		}
		if e.inSum++; e.inSum == e.k {
			for c, v := range e.sum {
				slot[c] = float32(v / float64(e.k))
				e.sum[c] = 0
			}
			e.inSum = 0
			e.stored(e.first)
		}
	}
	for len(e.pending) > 0 && t+e.period >= e.pending[0].completes {
		e.cut()
	}
}

// stored moves the ring on past the sample just written, whose first
// frame is at offset t.
func (e *evidence) stored(t time.Duration) {
	if e.head++; e.head == e.samples {
		e.head = 0
	}
	e.count = min(e.count+1, e.samples)
	e.last = t
}

// gap cuts every pending snippet with the signal before the gap and
// forgets it: what follows a gap is not continuous with it.
func (e *evidence) gap() {
	for len(e.pending) > 0 {
		e.cut()
	}
	e.count, e.inSum = 0, 0
	clear(e.sum)
}

// flush cuts the pending snippets at the end of the recording.
func (e *evidence) flush() { e.gap() }

// alert registers an alert whose snippet is to be cut.
func (e *evidence) alert(a *alert.Event) {
	if len(e.sinks) == 0 {
		return
	}
	p := pendingEvidence{
		ev:        alert.Evidence{AlertID: a.ID, Site: a.Site, Bed: a.Bed, Onset: a.Onset, DetectedAt: a.DetectedAt},
		onset:     a.OnsetOffset,
		detected:  a.DetectedOffset,
		completes: a.DetectedOffset + alert.EvidenceAfter,
		chans:     e.indices(a.Channels),
	}
	for _, c := range p.chans {
		p.ev.Channels = append(p.ev.Channels, e.channels[c])
	}
	e.pending = append(e.pending, p)
}

// indices maps an alert's channel names to channel numbers (each used
// once), or gives the first channels when it names none.
func (e *evidence) indices(names []string) []int {
	var out []int
	used := make([]bool, e.nch)
	for _, n := range names {
		for c, l := range e.channels {
			if l == n && !used[c] {
				used[c] = true
				out = append(out, c)
				break
			}
		}
	}
	for c := 0; len(out) < min(defaultEvidenceChannels, e.nch) && len(names) == 0; c++ {
		out = append(out, c)
	}
	return out[:min(len(out), alert.MaxEvidenceChannels)]
}

// cut hands the oldest pending snippet to the sinks: the samples held
// from EvidenceBefore before its onset up to now (a sample still summing
// its frames is left out).
func (e *evidence) cut() {
	p := e.pending[0]
	e.pending = e.pending[1:]
	if e.count == 0 || len(p.chans) == 0 {
		return
	}
	step := time.Duration(e.k) * e.period // of a sample
	end := e.last + step                  // end of the newest sample
	n := int((end - (p.onset - alert.EvidenceBefore) + step/2) / step)
	n = max(1, min(n, e.count))
	first := e.head - n
	if first < 0 {
		first += e.samples
	}
	// A sample is stamped at the middle of its frames.
	p.ev.Start = e.wall(e.last - time.Duration(n-1)*step + time.Duration(e.k-1)*e.period/2)
	p.ev.Rate = e.rate / float64(e.k)
	p.ev.Samples = make([][]float32, len(p.chans))
	for i, c := range p.chans {
		xs := make([]float32, n)
		for j := range xs {
			xs[j] = e.ring[((first+j)%e.samples)*e.nch+c]
		}
		p.ev.Samples[i] = xs
	}
	for _, s := range e.sinks {
		e.check("evidence", s.Evidence(&p.ev))
	}
}
