// Package recording opens any EEG recording ictal reads, recognising its
// format by content rather than by name: EDF, EDF+, BDF and BDF+
// (acquire/edf), OpenBCI GUI "Raw EXG Data" text files and BrainFlow CSV
// files (acquire/openbci). The offline tools and the daemon's file source
// use it, so every command that takes a recording takes all of them.
// Convert writes any of them as EDF+ or BDF+; ConvertAt does so at
// another sampling rate (acquire/resample).
package recording

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/acquire/openbci"
)

// Format names a recording format.
type Format string

// Formats Open recognises.
const (
	EDF       Format = "edf" // EDF or EDF+ (16-bit)
	BDF       Format = "bdf" // BDF or BDF+ (24-bit)
	GUI              = Format(openbci.FormatGUI)
	BrainFlow        = Format(openbci.FormatBrainFlow)
)

// Bits returns the resolution of the format's samples: 16 for EDF, 24 for
// BDF and for OpenBCI boards (the Cyton's and Ganglion's converters are
// 24-bit), so a conversion keeps every bit (EDF+ for 16, BDF+ for 24).
func (f Format) Bits() int {
	if f == EDF {
		return 16
	}
	return 24
}

// Recording is an opened recording: a source of frames and the labelled
// intervals it carries (EDF+ annotations, OpenBCI markers).
type Recording interface {
	acquire.Source
	acquire.Labeled
}

// Opts configures Open. The zero value reads every format with the
// channel names it carries.
type Opts struct {
	// Channels, when set, selects the channels served, in that order, by
	// label (see acquire.Select): the EEG of a recording that also holds
	// EOG, ECG, accelerometer or trigger channels.
	Channels []string
	// Labels, when set, renames the channels (one per channel served,
	// after Channels), for hardware recordings whose files do not name
	// the electrodes.
	Labels []string
	// Board chooses the BrainFlow board ("cyton", "cyton-daisy",
	// "ganglion") instead of recognising it by column count.
	Board string
	// Seizure marks the EDF+ annotations whose text it matches as
	// seizures; nil means the text contains "seizure" in any case.
	Seizure *regexp.Regexp
}

// ErrUnknown is returned for a file in none of the formats.
var ErrUnknown = errors.New("recording: not an EDF, BDF, OpenBCI GUI or BrainFlow file")

// Sniff tells a file's format from its first bytes.
func Sniff(head []byte) (Format, error) {
	switch {
	case bytes.HasPrefix(head, []byte("0       ")):
		return EDF, nil
	case bytes.HasPrefix(head, []byte("\xffBIOSEMI")):
		return BDF, nil
	case bytes.HasPrefix(head, []byte("%OpenBCI")):
		return GUI, nil
	case len(head) > 0 && (head[0] >= '0' && head[0] <= '9' || head[0] == '-' || head[0] == '.'):
		return BrainFlow, nil
	}
	return "", ErrUnknown
}

// Open opens the recording at path, of any format Sniff recognises.
func Open(path string, opts *Opts) (Recording, Format, error) {
	if opts == nil {
		opts = &Opts{}
	}
	format, err := SniffFile(path)
	if err != nil {
		return nil, "", err
	}
	var r Recording
	switch format {
	case EDF, BDF:
		r, err = edf.OpenReplay(path, edf.ReplayConfig{Seizure: opts.Seizure})
	default:
		r, err = openbci.OpenFile(path, &openbci.FileOpts{Board: opts.Board})
	}
	if err != nil {
		return nil, "", err
	}
	if opts.Channels != nil {
		sel, err := acquire.Select(r, opts.Channels)
		if err != nil {
			r.Close()
			return nil, "", fmt.Errorf("recording: %s: %w", path, err)
		}
		r = sel
	}
	if opts.Labels != nil {
		if r, err = relabel(r, opts.Labels); err != nil {
			return nil, "", fmt.Errorf("recording: %s: %w", path, err)
		}
	}
	return r, format, nil
}

// SniffFile tells the format of the file at path from its first bytes.
func SniffFile(path string) (Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 8)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("recording: %s: %w", path, err)
	}
	format, err := Sniff(head[:n])
	if err != nil {
		return "", fmt.Errorf("%w: %s", err, path)
	}
	return format, nil
}

func relabel(r Recording, labels []string) (Recording, error) {
	l, err := acquire.Relabel(r, labels)
	if err != nil {
		r.Close()
		return nil, err
	}
	return l, nil
}
