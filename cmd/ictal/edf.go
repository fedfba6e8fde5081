package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/internal/cli"
)

func runEDF(args []string, stdout, stderr io.Writer) error {
	if err := needSubcommand(args, "usage: ictal edf info [-text] FILE\n       ictal edf cat FILE [-signals LIST] [-from S] [-to S]",
		"missing subcommand (info or cat)", stderr); err != nil {
		return err
	}
	switch args[0] {
	case "info":
		return runEDFInfo(args[1:], stdout, stderr)
	case "cat":
		return runEDFCat(args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown subcommand %q (want info or cat)", args[0])
}

// splitFile separates the FILE argument from flags so that both
// "cat FILE -signals x" and "cat -signals x FILE" work.
func splitFile(fs *flag.FlagSet, args []string) (string, error) {
	if err := cli.Parse(fs, args); err != nil {
		return "", err
	}
	switch fs.NArg() {
	case 0:
		fs.Usage()
		return "", errors.New("missing FILE")
	case 1:
		return fs.Arg(0), nil
	}
	return "", fmt.Errorf("more than one file: %q and %q", fs.Arg(0), fs.Arg(1))
}

type infoSignal struct {
	Label             string  `json:"label"`
	Transducer        string  `json:"transducer"`
	PhysicalDimension string  `json:"physical_dimension"`
	PhysicalMin       float64 `json:"physical_min"`
	PhysicalMax       float64 `json:"physical_max"`
	DigitalMin        int     `json:"digital_min"`
	DigitalMax        int     `json:"digital_max"`
	Prefilter         string  `json:"prefilter"`
	SamplesPerRecord  int     `json:"samples_per_record"`
	Rate              float64 `json:"rate"`
	Annotation        bool    `json:"annotation,omitempty"`
}

type infoAnnotation struct {
	Onset    float64  `json:"onset"`
	Duration *float64 `json:"duration"`
	Text     string   `json:"text"`
}

type info struct {
	Type           string           `json:"type"` // "edf-info"
	Version        string           `json:"version"`
	Format         string           `json:"format"`
	Reserved       string           `json:"reserved"`
	Patient        string           `json:"patient"`
	Recording      string           `json:"recording"`
	Start          *string          `json:"start"`        // the first sample's time
	StartOffset    float64          `json:"start_offset"` // the first sample after the header's start date and time, in seconds (EDF+)
	StartDate      string           `json:"start_date"`
	StartTime      string           `json:"start_time"`
	HeaderBytes    int              `json:"header_bytes"`
	Records        int64            `json:"records"`
	RecordDuration float64          `json:"record_duration"`
	Duration       float64          `json:"duration"`
	Signals        []infoSignal     `json:"signals"`
	Annotations    []infoAnnotation `json:"annotations"`
	Warnings       []string         `json:"warnings,omitempty"`
	Truncated      string           `json:"truncated,omitempty"`
}

func runEDFInfo(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("edf info", "usage: ictal edf info [-text] FILE\n\nPrints the header, signals and annotations of an EDF/EDF+/BDF/BDF+ file as one JSON object\n(\"type\":\"edf-info\"), or with -text as tables for a person. start is the time of the first\nsample: the header's start date and time plus, in EDF+, the first record's onset\n(start_offset, a fraction of a second). Annotation onsets are seconds from the first sample,\nas EDFlib and MNE report them, so start + onset is an annotation's time. For an OpenBCI GUI\nor BrainFlow file it prints the format, board, rate, channels, frames, duration, gaps\nand markers (\"type\":\"board-file-info\"), reading every row.", stderr)
	text := fs.Bool("text", false, "print tables for a person instead of JSON")
	file, err := splitFile(fs, args)
	if err != nil {
		return err
	}
	if isBoardFile(file) {
		return boardFileInfo(file, *text, stdout)
	}
	out, err := edfInfo(file)
	if err != nil {
		return err
	}
	if *text {
		return writeInfoText(stdout, file, &out)
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// edfInfo describes the EDF or BDF file at path.
func edfInfo(path string) (info, error) {
	r, err := edf.Open(path)
	if err != nil {
		return info{}, err
	}
	defer r.Close()
	h := r.Header()
	out := info{
		Type:           "edf-info",
		Version:        strings.Map(latin1, h.Version),
		Format:         h.Format(),
		Reserved:       h.Reserved,
		Patient:        h.Patient,
		Recording:      h.Recording,
		StartDate:      h.StartDate,
		StartTime:      h.StartTime,
		HeaderBytes:    h.HeaderBytes,
		Records:        h.Records,
		RecordDuration: seconds(h.RecordDuration),
		Duration:       seconds(time.Duration(h.Records) * h.RecordDuration),
		Signals:        []infoSignal{},
		Annotations:    []infoAnnotation{},
		Warnings:       h.Warnings,
	}
	// The TALs' onsets count from the header's start, a whole second; the
	// first sample is off0 later (EDF+ "+0.X" in the first record).
	off0, err := r.StartOffset()
	if err != nil {
		return info{}, err
	}
	out.StartOffset = seconds(off0)
	if st, err := r.Start(); err != nil {
		return info{}, err
	} else if !st.IsZero() {
		s := st.Format(time.RFC3339Nano)
		out.Start = &s
	}
	if t := r.Truncated(); t != nil {
		out.Truncated = t.Error()
	}
	for i := range h.Signals {
		s := &h.Signals[i]
		out.Signals = append(out.Signals, infoSignal{
			Label: s.Label, Transducer: s.Transducer, PhysicalDimension: s.PhysicalDimension,
			PhysicalMin: s.PhysicalMin, PhysicalMax: s.PhysicalMax, DigitalMin: s.DigitalMin, DigitalMax: s.DigitalMax,
			Prefilter: s.Prefilter, SamplesPerRecord: s.SamplesPerRecord, Rate: h.Rate(i), Annotation: s.IsAnnotation(),
		})
	}
	anns, err := r.Annotations()
	if err != nil {
		return info{}, err
	}
	for _, a := range anns {
		ia := infoAnnotation{Onset: seconds(a.Onset - off0), Text: a.Text}
		if a.HasDuration {
			d := seconds(a.Duration)
			ia.Duration = &d
		}
		out.Annotations = append(out.Annotations, ia)
	}
	return out, nil
}

// seconds converts d to the float64 nearest its exact decimal value
// (Duration.Seconds can be off in the last digit: 1.9511719 s would print
// as 1.9511718999999998).
func seconds(d time.Duration) float64 {
	var buf [32]byte
	b := buf[:0]
	if d < 0 {
		b, d = append(b, '-'), -d
	}
	v, _ := strconv.ParseFloat(string(appendSeconds(b, d)), 64)
	return v
}

// appendSeconds writes the non-negative d in seconds, exactly, without
// trailing zeros.
func appendSeconds(dst []byte, d time.Duration) []byte {
	dst = strconv.AppendInt(dst, int64(d/time.Second), 10)
	if frac := int64(d % time.Second); frac != 0 {
		n := len(dst)
		dst = strconv.AppendInt(append(dst, '.'), frac+1e9, 10) // 1ddddddddd
		dst = append(dst[:n+1], dst[n+2:]...)                   // drop the leading 1
		for dst[len(dst)-1] == '0' {
			dst = dst[:len(dst)-1]
		}
	}
	return dst
}

// latin1 maps BDF's 0xff version byte to ÿ so that it survives JSON.
func latin1(r rune) rune {
	if r == utf8RuneError {
		return 'ÿ'
	}
	return r
}

const utf8RuneError = '\uFFFD'

func runEDFCat(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("edf cat", "usage: ictal edf cat FILE [-signals LIST] [-from S] [-to S]\n\nPrints physical values as CSV: a header line, then per sample the time in\nseconds from the first sample and one value per chosen signal, in the\nshortest decimal that reads back as the same sample (44.6, not\n44.599999999999454). Chosen signals must share a sampling rate; a label\nthat two signals share must be given by index.", stderr)
	signals := fs.String("signals", "", "comma-separated signal labels or 0-based indices (default: every data signal at the first data signal's rate)")
	from := fs.Float64("from", 0, "first time to print, in seconds from the first sample")
	to := fs.Float64("to", math.Inf(1), "print samples before this time, in seconds from the first sample")
	file, err := splitFile(fs, args)
	if err != nil {
		return err
	}
	if *from < 0 || *to < *from || math.IsNaN(*from) || math.IsNaN(*to) {
		return fmt.Errorf("-from %g -to %g: want 0 <= from <= to", *from, *to)
	}
	r, err := edf.Open(file)
	if err != nil {
		return err
	}
	defer r.Close()
	h := r.Header()
	chosen, err := chooseSignals(h, *signals)
	if err != nil {
		return err
	}
	spr := h.Signals[chosen[0]].SamplesPerRecord
	onsets, err := r.Onsets()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	w.WriteString("time")
	for _, i := range chosen {
		w.WriteByte(',')
		w.WriteString(csvField(h.Signals[i].Label))
	}
	w.WriteByte('\n')
	rec := r.NewRecord()
	var line []byte
	for {
		if err := r.ReadRecord(rec); err == io.EOF {
			break
		} else if err != nil {
			w.Flush()
			return err
		}
		base := onsets[rec.Index] - onsets[0]
		if seconds(base) >= *to {
			break
		}
		for k := 0; k < spr; k++ {
			t := base + time.Duration(int64(k)*int64(h.RecordDuration)/int64(spr))
			if ts := seconds(t); ts < *from || ts >= *to {
				continue
			}
			line = appendSeconds(line[:0], t)
			for _, i := range chosen {
				line = append(line, ',')
				line = appendPhysical(line, &h.Signals[i], rec.Samples[i][k])
			}
			line = append(line, '\n')
			w.Write(line)
		}
	}
	return w.Flush()
}

// chooseSignals resolves the -signals list to signal indices that share a
// rate.
func chooseSignals(h *edf.Header, list string) ([]int, error) {
	var chosen []int
	if list == "" {
		for i := range h.Signals {
			if h.Signals[i].IsAnnotation() {
				continue
			}
			if len(chosen) == 0 || h.Signals[i].SamplesPerRecord == h.Signals[chosen[0]].SamplesPerRecord {
				chosen = append(chosen, i)
			}
		}
		if len(chosen) == 0 {
			return nil, errors.New("the file has no data signals")
		}
		return chosen, nil
	}
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		idx := -1
		for i := range h.Signals {
			if h.Signals[i].Label != item {
				continue
			}
			if idx >= 0 {
				return nil, fmt.Errorf("-signals: label %q is ambiguous: signals %d and %d both have it; give the index", item, idx, i)
			}
			idx = i
		}
		if idx < 0 {
			if n, err := strconv.Atoi(item); err == nil && n >= 0 && n < len(h.Signals) {
				idx = n
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("-signals: no signal %q (labels or indices 0..%d)", item, len(h.Signals)-1)
		}
		if h.Signals[idx].IsAnnotation() {
			return nil, fmt.Errorf("-signals: signal %d %q is an annotation signal", idx, h.Signals[idx].Label)
		}
		chosen = append(chosen, idx)
	}
	first := chosen[0]
	for _, i := range chosen[1:] {
		if h.Signals[i].SamplesPerRecord != h.Signals[first].SamplesPerRecord {
			return nil, fmt.Errorf("-signals: signal %d %q (%g Hz) and signal %d %q (%g Hz) have different rates; cat them separately",
				first, h.Signals[first].Label, h.Rate(first), i, h.Signals[i].Label, h.Rate(i))
		}
	}
	return chosen, nil
}

// csvField quotes s if it contains a comma, quote or newline.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// appendPhysical appends the physical value v of a sample of signal s in
// the shortest decimal that converts back to the same digital value, as
// strconv.FormatFloat(v, 'g', -1, 32) is the shortest that converts back
// to the same float32. The file's resolution (one digital step, s.Gain)
// bounds the digits, not float64's: a 16-bit EDF sample of gain 0.0977
// prints as 44.6 where its float64 value is 44.599999999999454. The
// float32 rule itself is not enough: a 24-bit BDF signal has about as many
// steps across its range as float32 has mantissa values, so two
// neighbouring samples could print alike. Distinct digital values always
// print differently, and every printed value is within half a step of
// the exact one.
func appendPhysical(dst []byte, s *edf.Signal, v float64) []byte {
	d := s.Digital(v)
	// Strictly within half a step, with a margin for the rounding of x−v,
	// so that a decimal halfway between two samples is never taken.
	half := math.Abs(s.Gain()) / 2 * (1 - 1e-9)
	n := len(dst)
	for k := 0; k <= 17; k++ {
		dst = strconv.AppendFloat(dst[:n], v, 'f', k, 64)
		x, err := strconv.ParseFloat(string(dst[n:]), 64)
		if err == nil && s.Digital(x) == d && math.Abs(x-v) < half {
			if x == 0 {
				return append(dst[:n], '0') // not "-0"
			}
			return dst
		}
	}
	return strconv.AppendFloat(dst[:n], v, 'g', -1, 64)
}
