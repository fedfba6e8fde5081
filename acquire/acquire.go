// Package acquire defines the frame and source abstractions through which
// ictal reads EEG: from hardware (an OpenBCI Cyton over serial, a TI ADS1299
// over SPI), from recordings (EDF/EDF+/BDF replay) or from a simulated
// patient. Every source fills a caller-owned Frame, so reading a frame
// allocates nothing. ChooseEEG decides which channels of a source are EEG
// and SelectEEG serves only those (README.md gives the rules).
package acquire

import (
	"errors"
	"time"
)

// Flags mark the quality of a frame.
type Flags uint8

const (
	// FlagGap is set on the first frame after one or more frames were lost
	// (a dropped packet, a discontinuity in an EDF+D recording). Seq jumps
	// by the number of frames lost when the source can tell.
	FlagGap Flags = 1 << iota
	// FlagLeadOff is set when at least one electrode is detached; LeadOff
	// says which.
	FlagLeadOff
	// FlagSaturated is set when at least one sample sits at the converter's
	// limit; Saturated says which.
	FlagSaturated
)

// String returns the flags as a '|'-separated list, "ok" when none is set.
func (f Flags) String() string {
	if f == 0 {
		return "ok"
	}
	s := ""
	add := func(name string) {
		if s != "" {
			s += "|"
		}
		s += name
	}
	if f&FlagGap != 0 {
		add("gap")
	}
	if f&FlagLeadOff != 0 {
		add("lead-off")
	}
	if f&FlagSaturated != 0 {
		add("saturated")
	}
	if f&^(FlagGap|FlagLeadOff|FlagSaturated) != 0 {
		add("unknown")
	}
	return s
}

// MaxChannels is the largest number of channels a Frame can describe in its
// per-channel quality masks.
const MaxChannels = 64

// Frame is one sample instant across all channels of a source.
type Frame struct {
	// Seq numbers the frames of a source from 0. It increases by one per
	// frame and jumps when frames were lost (then FlagGap is set).
	Seq uint64
	// Time is the instant of the samples, measured from the start of the
	// recording or acquisition (Info.Start).
	Time time.Duration
	// Samples holds one value per channel, in µV for EEG channels (the unit
	// is in the channel's Info). The caller owns the slice; its length must
	// equal the number of channels of the source.
	Samples []float64
	// Flags summarise the quality of the frame.
	Flags Flags
	// LeadOff has bit i set when channel i's electrode is detached.
	LeadOff uint64
	// Saturated has bit i set when channel i's sample is at the limit of
	// the converter.
	Saturated uint64
}

// NewFrame returns a frame with room for n channels.
func NewFrame(n int) *Frame {
	return &Frame{Samples: make([]float64, n)}
}

// Reset clears the quality fields of f before a source fills it.
func (f *Frame) Reset() {
	f.Flags = 0
	f.LeadOff = 0
	f.Saturated = 0
}

// Channel describes one channel of a source.
type Channel struct {
	Label string  // e.g. "EEG Fp1-F7"
	Unit  string  // physical unit of Frame.Samples for this channel, "uV" for EEG
	Rate  float64 // samples per second
}

// Info describes a source: its channels, common sampling rate and the wall
// clock time of its first frame (zero if unknown).
type Info struct {
	Channels []Channel
	Rate     float64
	Start    time.Time
}

// Source produces frames. ReadFrame fills f (whose Samples must have
// len(Info().Channels) elements) with the next frame, blocking for live
// sources; it returns io.EOF at the end of a recording. A Source is used by
// one goroutine at a time.
type Source interface {
	Info() Info
	ReadFrame(f *Frame) error
	Close() error
}

// Interval is a labelled stretch of a recording, measured from its start:
// an annotation, a seizure, a clinician's label.
type Interval struct {
	Start, End time.Duration
	Text       string
	Seizure    bool
}

// Labeled is implemented by sources that know labelled intervals of their
// signal (annotated recordings, the simulated patient).
type Labeled interface {
	Intervals() []Interval
}

// ErrFrameSize is returned by ReadFrame when the frame's Samples slice does
// not have one element per channel.
var ErrFrameSize = errors.New("acquire: frame has the wrong number of samples")
