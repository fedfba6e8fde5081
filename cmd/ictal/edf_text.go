package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"text/tabwriter"
)

// writeInfoText prints what `ictal edf info -text` shows: the header as
// name–value lines, then a table of the signals and one of the
// annotations.
func writeInfoText(w io.Writer, path string, in *info) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	start := "unknown (the header's date is invalid)"
	if in.Start != nil {
		start = *in.Start
	}
	fmt.Fprintf(tw, "file\t%s\n", filepath.Base(path))
	fmt.Fprintf(tw, "format\t%s (version %q, reserved %q)\n", in.Format, in.Version, in.Reserved)
	fmt.Fprintf(tw, "patient\t%s\n", in.Patient)
	fmt.Fprintf(tw, "recording\t%s\n", in.Recording)
	fmt.Fprintf(tw, "start\t%s (header %s %s, first sample %ss later)\n", start, in.StartDate, in.StartTime, num(in.StartOffset))
	fmt.Fprintf(tw, "records\t%d × %ss = %ss\n", in.Records, num(in.RecordDuration), num(in.Duration))
	fmt.Fprintf(tw, "header\t%d bytes\n", in.HeaderBytes)
	for _, m := range in.Warnings {
		fmt.Fprintf(tw, "warning\t%s\n", m)
	}
	if in.Truncated != "" {
		fmt.Fprintf(tw, "truncated\t%s\n", in.Truncated)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\n%d signals\n", len(in.Signals))
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tlabel\trate (Hz)\tsamples/record\tunit\tphysical min..max\tdigital min..max\ttransducer\tprefilter")
	for i, s := range in.Signals {
		rate := num(s.Rate)
		if s.Annotation {
			rate = "annotations"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s..%s\t%d..%d\t%s\t%s\n", i, s.Label, rate, s.SamplesPerRecord, s.PhysicalDimension,
			num(s.PhysicalMin), num(s.PhysicalMax), s.DigitalMin, s.DigitalMax, s.Transducer, s.Prefilter)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\n%d annotations (onsets in seconds from the first sample)\n", len(in.Annotations))
	if len(in.Annotations) == 0 {
		return nil
	}
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "onset\tduration\ttext")
	for _, a := range in.Annotations {
		d := "-"
		if a.Duration != nil {
			d = num(*a.Duration)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", num(a.Onset), d, a.Text)
	}
	return tw.Flush()
}

// writeBoardInfoText prints `ictal edf info -text` for an OpenBCI GUI or
// BrainFlow file.
func writeBoardInfoText(w io.Writer, path string, in *boardInfo) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	start := "unknown"
	if in.Start != nil {
		start = *in.Start
	}
	fmt.Fprintf(tw, "file\t%s\n", filepath.Base(path))
	fmt.Fprintf(tw, "format\t%s (board %s)\n", in.Format, in.Board)
	fmt.Fprintf(tw, "start\t%s\n", start)
	fmt.Fprintf(tw, "frames\t%d at %s Hz = %ss, %d gaps\n", in.Frames, num(in.Rate), num(in.Duration), in.Gaps)
	if in.Truncated {
		fmt.Fprintf(tw, "truncated\tthe last row is incomplete\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d signals\n", len(in.Signals))
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tlabel\trate (Hz)\tunit")
	for i, s := range in.Signals {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", i, s.Label, num(s.Rate), s.Unit)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d markers (onsets in seconds from the first sample)\n", len(in.Annotations))
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	if len(in.Annotations) > 0 {
		fmt.Fprintln(tw, "onset\tduration\ttext")
	}
	for _, a := range in.Annotations {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", num(a.Onset), num(*a.Duration), a.Text)
	}
	return tw.Flush()
}

// num formats v in its shortest form ("0.3945312", "128", "-8711").
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
