package acquire

import (
	"fmt"
	"strings"
)

// Selected serves some of a source's channels, in a chosen order: the EEG
// channels of a recording that also holds EOG, ECG, accelerometer or
// trigger channels, say. It passes the wrapped source's intervals
// through when it has them. ReadFrame allocates nothing.
type Selected struct {
	Source
	info  Info
	idx   []int // wrapped channel of each channel served
	inner Frame
}

// Select returns src serving only the channels named by labels, in that
// order. A label matches a channel's label exactly, or without case and
// without the "EEG " type prefix EDF+ recommends ("fp1" selects
// "EEG Fp1"); it must match exactly one channel.
func Select(src Source, labels []string) (*Selected, error) {
	idx, err := matchLabels(src.Info(), labels)
	if err != nil {
		return nil, err
	}
	return newSelected(src, idx), nil
}

// newSelected returns src serving its channels idx, in that order.
func newSelected(src Source, idx []int) *Selected {
	info := src.Info()
	out := info
	out.Channels = make([]Channel, len(idx))
	for i, c := range idx {
		out.Channels[i] = info.Channels[c]
	}
	return &Selected{Source: src, info: out, idx: idx, inner: Frame{Samples: make([]float64, len(info.Channels))}}
}

// matchLabels returns the channel of info each label names, as Select
// matches them.
func matchLabels(info Info, labels []string) ([]int, error) {
	idx := make([]int, len(labels))
	for i, want := range labels {
		want = strings.TrimSpace(want)
		found := -1
		for c, ch := range info.Channels {
			if ch.Label == want {
				found = c
				break
			}
		}
		if found < 0 {
			for c, ch := range info.Channels {
				if strings.EqualFold(strings.TrimPrefix(ch.Label, "EEG "), strings.TrimPrefix(want, "EEG ")) {
					if found >= 0 {
						return nil, fmt.Errorf("acquire: channel %q matches both %q and %q", want, info.Channels[found].Label, ch.Label)
					}
					found = c
				}
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("acquire: no channel %q", want)
		}
		for j := range i {
			if idx[j] == found {
				return nil, fmt.Errorf("acquire: channel %q selected twice", info.Channels[found].Label)
			}
		}
		idx[i] = found
	}
	return idx, nil
}

// Info returns the wrapped source's Info with the selected channels.
func (s *Selected) Info() Info { return s.info }

// ReadFrame reads the wrapped source's next frame and keeps the selected
// channels, with their lead-off and saturation bits.
func (s *Selected) ReadFrame(f *Frame) error {
	if len(f.Samples) != len(s.idx) {
		return ErrFrameSize
	}
	if err := s.Source.ReadFrame(&s.inner); err != nil {
		return err
	}
	f.Seq, f.Time, f.Flags = s.inner.Seq, s.inner.Time, s.inner.Flags&FlagGap
	f.LeadOff, f.Saturated = 0, 0
	for i, c := range s.idx {
		f.Samples[i] = s.inner.Samples[c]
		f.LeadOff |= (s.inner.LeadOff >> c & 1) << i
		f.Saturated |= (s.inner.Saturated >> c & 1) << i
	}
	if f.LeadOff != 0 {
		f.Flags |= FlagLeadOff
	}
	if f.Saturated != 0 {
		f.Flags |= FlagSaturated
	}
	return nil
}

// Intervals returns the wrapped source's intervals, if it has any.
func (s *Selected) Intervals() []Interval {
	if l, ok := s.Source.(Labeled); ok {
		return l.Intervals()
	}
	return nil
}
