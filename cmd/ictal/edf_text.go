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
	rows := make([]string, len(in.Signals))
	for i, s := range in.Signals {
		rate := num(s.Rate)
		if s.Annotation {
			rate = "annotations"
		}
		rows[i] = fmt.Sprintf("%d\t%s\t%s\t%d\t%s\t%s..%s\t%d..%d\t%s\t%s", i, s.Label, rate, s.SamplesPerRecord, s.PhysicalDimension,
			num(s.PhysicalMin), num(s.PhysicalMax), s.DigitalMin, s.DigitalMax, s.Transducer, s.Prefilter)
	}
	if err := writeTable(w, fmt.Sprintf("%d signals", len(rows)),
		"#\tlabel\trate (Hz)\tsamples/record\tunit\tphysical min..max\tdigital min..max\ttransducer\tprefilter", rows); err != nil {
		return err
	}
	return writeAnnotationTable(w, "annotations", in.Annotations)
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
	rows := make([]string, len(in.Signals))
	for i, s := range in.Signals {
		rows[i] = fmt.Sprintf("%d\t%s\t%s\t%s", i, s.Label, num(s.Rate), s.Unit)
	}
	if err := writeTable(w, fmt.Sprintf("%d signals", len(rows)), "#\tlabel\trate (Hz)\tunit", rows); err != nil {
		return err
	}
	return writeAnnotationTable(w, "markers", in.Annotations)
}

// writeTable prints a blank line, title, and a table of header and rows
// (cells split by tabs), aligned as the name–value lines above it are.
func writeTable(w io.Writer, title, header string, rows []string) error {
	fmt.Fprintf(w, "\n%s\n", title)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		fmt.Fprintln(tw, r)
	}
	return tw.Flush()
}

// writeAnnotationTable prints the count of annotations (what they are
// called: "annotations", "markers") and, if there are any, writeTable's
// table of their onsets, durations ("-" for none) and texts.
func writeAnnotationTable(w io.Writer, what string, anns []infoAnnotation) error {
	title := fmt.Sprintf("%d %s (onsets in seconds from the first sample)", len(anns), what)
	if len(anns) == 0 {
		_, err := fmt.Fprintf(w, "\n%s\n", title)
		return err
	}
	rows := make([]string, len(anns))
	for i, a := range anns {
		d := "-"
		if a.Duration != nil {
			d = num(*a.Duration)
		}
		rows[i] = fmt.Sprintf("%s\t%s\t%s", num(a.Onset), d, a.Text)
	}
	return writeTable(w, title, "onset\tduration\ttext", rows)
}

// num formats v in its shortest form ("0.3945312", "128", "-8711").
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
