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
	lines := []string{
		"file\t" + filepath.Base(path),
		fmt.Sprintf("format\t%s (version %q, reserved %q)", in.Format, in.Version, in.Reserved),
		"patient\t" + in.Patient,
		"recording\t" + in.Recording,
		fmt.Sprintf("start\t%s (header %s %s, first sample %ss later)", orUnknown(in.Start, "unknown (the header's date is invalid)"),
			in.StartDate, in.StartTime, num(in.StartOffset)),
		fmt.Sprintf("records\t%d × %ss = %ss", in.Records, num(in.RecordDuration), num(in.Duration)),
		fmt.Sprintf("header\t%d bytes", in.HeaderBytes),
	}
	for _, m := range in.Warnings {
		lines = append(lines, "warning\t"+m)
	}
	if in.Truncated != "" {
		lines = append(lines, "truncated\t"+in.Truncated)
	}
	if err := writeAligned(w, lines); err != nil {
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
	lines := []string{
		"file\t" + filepath.Base(path),
		fmt.Sprintf("format\t%s (board %s)", in.Format, in.Board),
		"start\t" + orUnknown(in.Start, "unknown"),
		fmt.Sprintf("frames\t%d at %s Hz = %ss, %d gaps", in.Frames, num(in.Rate), num(in.Duration), in.Gaps),
	}
	if in.Truncated {
		lines = append(lines, "truncated\tthe last row is incomplete")
	}
	if err := writeAligned(w, lines); err != nil {
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

// writeAligned prints lines, their cells split by tabs, in aligned
// columns: the name–value lines of a header, or a table.
func writeAligned(w io.Writer, lines []string) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, l := range lines {
		fmt.Fprintln(tw, l)
	}
	return tw.Flush()
}

// writeTable prints a blank line, title, and a table of header and rows
// (cells split by tabs), aligned as the name–value lines above it are.
func writeTable(w io.Writer, title, header string, rows []string) error {
	fmt.Fprintf(w, "\n%s\n", title)
	return writeAligned(w, append([]string{header}, rows...))
}

// orUnknown returns *s, or unknown when s is nil (a start time the file
// does not give).
func orUnknown(s *string, unknown string) string {
	if s == nil {
		return unknown
	}
	return *s
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
