package main

import (
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/openbci"
	"github.com/ictal/ictal/acquire/recording"
)

// boardInfo is what `ictal edf info` prints for an OpenBCI GUI or
// BrainFlow file: what the file says and what ictal reads from it.
type boardInfo struct {
	Type        string           `json:"type"` // "board-file-info"
	Format      string           `json:"format"`
	Board       string           `json:"board"`
	Start       *string          `json:"start"`
	Rate        float64          `json:"rate"`
	Frames      uint64           `json:"frames"`
	Duration    float64          `json:"duration"`
	Gaps        int              `json:"gaps"` // frames that follow lost ones (sample index jumps)
	Signals     []boardSignal    `json:"signals"`
	Annotations []infoAnnotation `json:"annotations"` // markers
	Truncated   bool             `json:"truncated,omitempty"`
}

type boardSignal struct {
	Label string  `json:"label"`
	Unit  string  `json:"unit"`
	Rate  float64 `json:"rate"`
}

// isBoardFile reports whether the file at path is an OpenBCI GUI or
// BrainFlow recording rather than EDF or BDF.
func isBoardFile(path string) bool {
	format, err := recording.SniffFile(path)
	return err == nil && (format == recording.GUI || format == recording.BrainFlow)
}

// boardFileInfo reads the whole file, so that its frames, duration and
// gaps are counted and a malformed row is reported where it is.
// With text, it prints tables for a person instead of JSON.
func boardFileInfo(path string, text bool, stdout io.Writer) error {
	f, err := openbci.OpenFile(path, nil)
	if err != nil {
		return err
	}
	defer f.Close()
	in := f.Info()
	out := boardInfo{Type: "board-file-info", Format: string(f.Format()), Board: f.Board(), Rate: in.Rate, Signals: []boardSignal{}, Annotations: []infoAnnotation{}}
	if !in.Start.IsZero() {
		s := in.Start.UTC().Format(time.RFC3339Nano)
		out.Start = &s
	}
	for _, c := range in.Channels {
		out.Signals = append(out.Signals, boardSignal{c.Label, c.Unit, c.Rate})
	}
	fr := acquire.NewFrame(len(in.Channels))
	var last time.Duration
	for {
		err := f.ReadFrame(fr)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		out.Frames++
		last = fr.Time
		if fr.Flags&acquire.FlagGap != 0 {
			out.Gaps++
		}
	}
	if out.Frames > 0 {
		out.Duration = seconds(last + time.Duration(float64(time.Second)/in.Rate))
	}
	for _, iv := range f.Intervals() {
		d := (iv.End - iv.Start).Seconds()
		out.Annotations = append(out.Annotations, infoAnnotation{Onset: iv.Start.Seconds(), Duration: &d, Text: iv.Text})
	}
	out.Truncated = f.Truncated()
	if text {
		return writeBoardInfoText(stdout, path, &out)
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
