package pipeline

import (
	"math"
	"time"

	"github.com/ictal/ictal/alert"
)

// evidence keeps the last alert.MaxEvidenceSpan of the conditioned signal
// and, for every alert, hands its sinks the snippet from
// alert.EvidenceBefore before the onset to alert.EvidenceAfter after the
// detection, as soon as that much signal has arrived. Storing a frame
// costs a copy into a ring allocated once; a snippet allocates when it is
// cut, once per alert.
type evidence struct {
	ring   []float32 // frames × channels, one frame contiguous
	nch    int
	frames int // capacity in frames
	head   int // slot of the next frame
	count  int // frames held
	last   time.Duration
	period time.Duration
	rate   float64

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
// source's snippet (an ADS1299 at 1–16 kHz, an ECoG recording at 2 kHz)
// holds the mean of every k frames, k the smallest integer that brings
// the rate to evidenceRate or below: the conditioned signal is low-passed
// at 70 Hz, well below the new Nyquist frequency (128 Hz at least), and
// the mean is a low-pass of its own where conditioning is off. At 512 Hz
// a snippet of alert.MaxEvidenceChannels over alert.MaxEvidenceSpan is
// about 660 KiB, within alert.MaxEvidenceSize, which every receiver
// enforces; at 2048 Hz it was 2.6 MB, which they refused.
const evidenceRate = 512

func newEvidence(channels []string, rate float64, s *sinks, wall func(time.Duration) time.Time) *evidence {
	frames := int(alert.MaxEvidenceSpan.Seconds()*rate) + 1
	return &evidence{
		ring: make([]float32, frames*len(channels)), nch: len(channels), frames: frames,
		period: time.Duration(float64(time.Second) / rate), rate: rate, channels: channels,
		sinks: s.evidence, wall: wall, check: s.check,
	}
}

// push stores one conditioned frame whose first sample is at offset t and
// cuts the snippets it completes.
func (e *evidence) push(t time.Duration, x []float64) {
	slot := e.ring[e.head*e.nch : (e.head+1)*e.nch]
	for c, v := range x {
		slot[c] = float32(v)
	}
	if e.head++; e.head == e.frames {
		e.head = 0
	}
	e.count = min(e.count+1, e.frames)
	e.last = t
	for len(e.pending) > 0 && t+e.period >= e.pending[0].completes {
		e.cut()
	}
}

// gap cuts every pending snippet with the signal before the gap and
// forgets it: what follows a gap is not continuous with it.
func (e *evidence) gap() {
	for len(e.pending) > 0 {
		e.cut()
	}
	e.count = 0
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

// cut hands the oldest pending snippet to the sinks: the frames held
// from EvidenceBefore before its onset up to now.
func (e *evidence) cut() {
	p := e.pending[0]
	e.pending = e.pending[1:]
	if e.count == 0 || len(p.chans) == 0 {
		return
	}
	end := e.last + e.period // end of the newest frame
	n := int((end - (p.onset - alert.EvidenceBefore) + e.period/2) / e.period)
	n = max(1, min(n, e.count))
	k := max(1, int(math.Ceil(e.rate/evidenceRate))) // frames a sample
	if n < k {
		k = 1
	}
	n -= n % k // the oldest frames that do not fill a sample go
	first := e.head - n
	if first < 0 {
		first += e.frames
	}
	// A sample stands at the middle of its frames.
	p.ev.Start = e.wall(e.last - time.Duration(n-1)*e.period + time.Duration(k-1)*e.period/2)
	p.ev.Rate = e.rate / float64(k)
	p.ev.Samples = make([][]float32, len(p.chans))
	for i, c := range p.chans {
		xs := make([]float32, n/k)
		for j := range xs {
			sum := 0.0
			for q := range k {
				sum += float64(e.ring[((first+j*k+q)%e.frames)*e.nch+c])
			}
			xs[j] = float32(sum / float64(k))
		}
		p.ev.Samples[i] = xs
	}
	for _, s := range e.sinks {
		e.check("evidence", s.Evidence(&p.ev))
	}
}
