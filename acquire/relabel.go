package acquire

import (
	"fmt"
	"slices"
	"strings"
)

// Relabeled serves a source under other channel labels: hardware whose
// channels are numbers (an OpenBCI Cyton, an ADS1299, an OpenBCI GUI
// recording) once the configuration names the electrodes, so that alerts
// and a model's montage speak of Fp1 and O2 rather than channel 1 and 8.
// It passes the wrapped source's intervals through when it has them.
type Relabeled struct {
	Source
	info Info
}

// LabelsError is Relabel's error: Reason says what is wrong with the
// labels ("2 labels for 8 channels").
type LabelsError struct{ Reason string }

func (e *LabelsError) Error() string { return "acquire: " + e.Reason }

// Relabel returns src with channel i labelled labels[i]. There must be one
// non-empty label per channel and no label twice; the error otherwise is a
// *LabelsError.
func Relabel(src Source, labels []string) (*Relabeled, error) {
	info := src.Info()
	if len(labels) != len(info.Channels) {
		return nil, &LabelsError{fmt.Sprintf("%d labels for %d channels", len(labels), len(info.Channels))}
	}
	info.Channels = slices.Clone(info.Channels)
	seen := make(map[string]int, len(labels))
	for i, l := range labels {
		l = strings.TrimSpace(l)
		if l == "" {
			return nil, &LabelsError{fmt.Sprintf("label %d is empty", i+1)}
		}
		if j, ok := seen[l]; ok {
			return nil, &LabelsError{fmt.Sprintf("label %q given for channels %d and %d", l, j+1, i+1)}
		}
		seen[l] = i
		info.Channels[i].Label = l
	}
	return &Relabeled{Source: src, info: info}, nil
}

// Info returns the wrapped source's Info with the new labels.
func (r *Relabeled) Info() Info { return r.info }

// Intervals returns the wrapped source's intervals, if it has any.
func (r *Relabeled) Intervals() []Interval {
	if l, ok := r.Source.(Labeled); ok {
		return l.Intervals()
	}
	return nil
}
