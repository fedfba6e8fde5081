package edf

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/ictal/ictal/acquire"
)

// ReplayConfig configures a Replay. A Replay serves frames as fast as it
// is asked for them; acquire.Paced plays it at a multiple of real time.
type ReplayConfig struct {
	// Seizure marks the annotations whose text it matches as seizures;
	// nil means the text contains "seizure" in any case.
	Seizure *regexp.Regexp
}

// Skipped is a signal a Replay does not serve, and why.
type Skipped struct {
	Index  int    // index in Header.Signals
	Label  string // signal label
	Reason string // e.g. "annotation signal", "rate 500 Hz differs from the common 1000 Hz"
}

// Replay serves an EDF/BDF recording frame by frame as an acquire.Source.
// It serves the data signals sharing the common rate (the rate of the most
// EEG signals, or of the most signals when no label contains "EEG"),
// converted to µV when their physical dimension is a voltage (uV, µV, mV,
// V, nV in any case) and passed through in their own unit otherwise.
// Frame.Time and Frame.Seq are computed from the record onsets and the
// sample index, exactly; in EDF+D files the first frame after a gap
// carries acquire.FlagGap and Seq jumps by the frames missing. At most
// acquire.MaxChannels signals are served (the width of a Frame's quality
// masks); further ones are listed by Skipped.
type Replay struct {
	r       *Reader
	cfg     ReplayConfig
	info    acquire.Info
	sigs    []int     // served signal indices
	scale   []float64 // physical → served unit
	spr     int
	skipped []Skipped
	rec     *Record
	frames  []float64 // the record's samples of the served signals, in µV, frame after frame
	onsets  []time.Duration
	first   time.Duration // onset of record 0
	intv    []acquire.Interval
	recIdx  int64 // record in rec, -1 before the first
	k       int   // next sample within rec
	nextSeq uint64
	gap     bool
}

// OpenReplay opens the named file for replay; Close closes it.
func OpenReplay(name string, cfg ReplayConfig) (*Replay, error) {
	r, err := Open(name)
	if err != nil {
		return nil, err
	}
	p, err := NewReplay(r, cfg)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// NewReplay prepares a replay of r, which must be random access (from Open
// or NewReader): it reads the record onsets and annotations first. Close
// closes r.
func NewReplay(r *Reader, cfg ReplayConfig) (*Replay, error) {
	if r.ra == nil {
		return nil, fmt.Errorf("edf: replay: %w", ErrSeek)
	}
	h := r.Header()
	if h.Records == 0 {
		return nil, fmt.Errorf("%w: replay needs data records, the file has none", ErrNoData)
	}
	if h.RecordDuration <= 0 {
		return nil, fmt.Errorf("%w: record duration is 0 (an annotation-only file)", ErrNoData)
	}
	p := &Replay{r: r, cfg: cfg, recIdx: -1}
	if err := p.chooseSignals(); err != nil {
		return nil, err
	}
	var err error
	if p.onsets, err = r.Onsets(); err != nil {
		return nil, err
	}
	p.first = p.onsets[0]
	for i := 1; i < len(p.onsets); i++ {
		if p.onsets[i] < p.onsets[i-1]+h.RecordDuration-p.halfSample() {
			return nil, fmt.Errorf("edf: record %d starts at %v, before record %d ends at %v", i, p.onsets[i], i-1, p.onsets[i-1]+h.RecordDuration)
		}
	}
	anns, err := r.Annotations()
	if err != nil {
		return nil, err
	}
	for _, a := range anns {
		start := a.Onset - p.first
		seizure := false
		if cfg.Seizure != nil {
			seizure = cfg.Seizure.MatchString(a.Text)
		} else {
			seizure = strings.Contains(strings.ToLower(a.Text), "seizure")
		}
		p.intv = append(p.intv, acquire.Interval{Start: start, End: start + a.Duration, Text: a.Text, Seizure: seizure})
	}
	if p.info.Start, err = r.Start(); err != nil {
		return nil, err
	}
	p.rec = r.NewRecord()
	p.frames = make([]float64, p.spr*len(p.sigs))
	return p, nil
}

// chooseSignals picks the common rate and the signals served.
func (p *Replay) chooseSignals() error {
	h := p.r.Header()
	type count struct{ all, eeg int }
	counts := map[int]*count{}
	for i := range h.Signals {
		s := &h.Signals[i]
		if s.IsAnnotation() {
			continue
		}
		c := counts[s.SamplesPerRecord]
		if c == nil {
			c = &count{}
			counts[s.SamplesPerRecord] = c
		}
		c.all++
		if strings.Contains(strings.ToUpper(s.Label), "EEG") {
			c.eeg++
		}
	}
	if len(counts) == 0 {
		return fmt.Errorf("%w: the file has no data signals", ErrNoData)
	}
	best := -1
	for spr, c := range counts {
		if best < 0 {
			best = spr
			continue
		}
		b := counts[best]
		if c.eeg > b.eeg || c.eeg == b.eeg && (c.all > b.all || c.all == b.all && spr > best) {
			best = spr
		}
	}
	p.spr = best
	rate := float64(best) / h.RecordDuration.Seconds()
	p.info.Rate = rate
	for i := range h.Signals {
		s := &h.Signals[i]
		switch {
		case s.IsAnnotation():
			p.skipped = append(p.skipped, Skipped{i, s.Label, "annotation signal"})
		case s.SamplesPerRecord != best:
			p.skipped = append(p.skipped, Skipped{i, s.Label, fmt.Sprintf("rate %g Hz differs from the common %g Hz", h.Rate(i), rate)})
		default:
			if len(p.sigs) == acquire.MaxChannels {
				p.skipped = append(p.skipped, Skipped{i, s.Label, fmt.Sprintf("more than %d channels", acquire.MaxChannels)})
				continue
			}
			unit, scale := toMicrovolts(s.PhysicalDimension)
			p.sigs = append(p.sigs, i)
			p.scale = append(p.scale, scale)
			p.info.Channels = append(p.info.Channels, acquire.Channel{Label: s.Label, Unit: unit, Rate: rate})
		}
	}
	return nil
}

// toMicrovolts returns the served unit of a physical dimension and the
// factor that converts to it.
func toMicrovolts(dim string) (string, float64) {
	switch strings.ToLower(dim) {
	case "uv", "µv", "μv":
		return "uV", 1
	case "mv":
		return "uV", 1e3
	case "v":
		return "uV", 1e6
	case "nv":
		return "uV", 1e-3
	}
	return dim, 1
}

func (p *Replay) halfSample() time.Duration {
	return p.r.Header().RecordDuration / time.Duration(2*p.spr)
}

// Info describes the served channels, their common rate and the wall-clock
// start of the first frame (zero if the header's date is invalid).
func (p *Replay) Info() acquire.Info { return p.info }

// Skipped lists the signals not served and why.
func (p *Replay) Skipped() []Skipped { return p.skipped }

// Intervals returns the file's annotations as intervals measured from the
// first frame (Info.Start). Annotations without duration are empty
// intervals; an annotation may lie after the end of the data.
func (p *Replay) Intervals() []acquire.Interval { return p.intv }

// ReadFrame fills f with the next frame; it returns io.EOF after the last
// one (or the truncation error for a file shorter than its header says).
// It allocates nothing.
func (p *Replay) ReadFrame(f *acquire.Frame) error {
	if len(f.Samples) != len(p.sigs) {
		return acquire.ErrFrameSize
	}
	if p.recIdx < 0 || p.k == p.spr {
		idx, err := p.r.readRaw(p.rec)
		if err != nil {
			return err
		}
		// The served signals, decoded and scaled frame by frame: ReadFrame
		// then copies one frame.
		for c, i := range p.sigs {
			p.r.decodeSignal(p.frames[c:], len(p.sigs), p.rec, i, p.scale[c])
		}
		dur := p.r.Header().RecordDuration
		// The record's first frame number, from its onset.
		seq := uint64(int64(p.onsets[idx]-p.first) * int64(p.spr) / int64(dur))
		if idx > 0 && p.onsets[idx]-p.onsets[idx-1] > dur+p.halfSample() {
			p.gap = true
		} else {
			seq = p.nextSeq // contiguous: no rounding drift
		}
		p.recIdx, p.k = idx, 0
		p.nextSeq = seq
	}
	f.Reset()
	if p.gap {
		f.Flags |= acquire.FlagGap
		p.gap = false
	}
	dur := p.r.Header().RecordDuration
	f.Seq = p.nextSeq
	f.Time = p.onsets[p.recIdx] - p.first + time.Duration(int64(p.k)*int64(dur)/int64(p.spr))
	n := len(p.sigs)
	copy(f.Samples, p.frames[p.k*n:(p.k+1)*n])
	p.k++
	p.nextSeq++
	return nil
}

// Close closes the underlying reader.
func (p *Replay) Close() error { return p.r.Close() }

var (
	_ acquire.Source  = (*Replay)(nil)
	_ acquire.Labeled = (*Replay)(nil)
)
