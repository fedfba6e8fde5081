package edf

import (
	"fmt"
	"strconv"
	"strings"
)

// writerHeader builds and checks the header for cfg.
func writerHeader(cfg WriterConfig, width int) (*Header, error) {
	h := &Header{Version: "0", BDF: cfg.BDF, Reserved: "EDF+C", Records: -1, RecordDuration: cfg.RecordDuration}
	dlo, dhi := -32768, 32767
	annLabel := "EDF Annotations"
	if cfg.BDF {
		h.Version, h.Reserved = "\xffBIOSEMI", "BDF+C"
		dlo, dhi = -8388608, 8388607
		annLabel = "BDF Annotations"
	}
	if d := string(appendSeconds(nil, cfg.RecordDuration)); len(d) > 8 {
		return nil, fmt.Errorf("edf: record duration %v: %q does not fit 8 characters", cfg.RecordDuration, d)
	}
	if err := identify(h, cfg); err != nil {
		return nil, err
	}
	ns := len(cfg.Signals) + 1
	h.HeaderBytes = 256 * (ns + 1)
	h.Signals = make([]Signal, ns)
	total := 0
	for i, sp := range cfg.Signals {
		s, err := writerSignal(i, sp, dlo, dhi)
		if err != nil {
			return nil, err
		}
		h.Signals[i] = s
		total += s.SamplesPerRecord
	}
	annBytes := cfg.AnnotationBytes
	if annBytes == 0 {
		annBytes = 128
	}
	if annBytes < 32 {
		return nil, fmt.Errorf("edf: annotation bytes %d: want at least 32", annBytes)
	}
	spr := (annBytes + width - 1) / width
	h.Signals[ns-1] = Signal{Label: annLabel, PhysicalMin: -1, PhysicalMax: 1, DigitalMin: dlo, DigitalMax: dhi, SamplesPerRecord: spr}
	if (total+spr)*width > maxRecordBytes {
		return nil, fmt.Errorf("edf: data record of %d bytes is too large", (total+spr)*width)
	}
	return h, nil
}

// identify fills in the patient, recording and start fields of h.
func identify(h *Header, cfg WriterConfig) error {
	h.Patient = cfg.Patient
	if h.Patient == "" {
		h.Patient = "X X X X"
	}
	start := cfg.Start.UTC()
	startdate := "X"
	if cfg.Start.IsZero() {
		h.StartDate, h.StartTime = "01.01.85", "00.00.00"
	} else {
		startdate = strings.ToUpper(start.Format("02-Jan-2006"))
		yy := "yy"
		if y := start.Year(); y >= 1985 && y <= 2084 {
			yy = fmt.Sprintf("%02d", y%100)
		}
		h.StartDate = start.Format("02.01.") + yy
		h.StartTime = start.Format("15.04.05")
		if y := start.Year(); y < 1000 || y > 9999 {
			return fmt.Errorf("edf: start %v: year outside 1000–9999", cfg.Start)
		}
	}
	h.Recording = cfg.Recording
	switch {
	case h.Recording == "":
		h.Recording = "Startdate " + startdate + " X X X"
	case !strings.HasPrefix(h.Recording, "Startdate "):
		h.Recording = "Startdate " + startdate + " " + h.Recording
	}
	if err := checkText("patient", h.Patient, 80); err != nil {
		return err
	}
	if err := checkText("recording", h.Recording, 80); err != nil {
		return err
	}
	h.Start, _ = parseStart(h.StartDate, h.StartTime, h.Recording)
	return nil
}

// writerSignal checks data signal i's spec and returns its header entry,
// with the format's full digital range (dlo..dhi) by default.
func writerSignal(i int, sp SignalSpec, dlo, dhi int) (Signal, error) {
	s := Signal{Label: sp.Label, Transducer: sp.Transducer, PhysicalDimension: sp.PhysicalDimension,
		Prefilter: sp.Prefilter, DigitalMin: sp.DigitalMin, DigitalMax: sp.DigitalMax, SamplesPerRecord: sp.SamplesPerRecord}
	where := fmt.Sprintf("signal %d %q", i, sp.Label)
	if s.DigitalMin == 0 && s.DigitalMax == 0 {
		s.DigitalMin, s.DigitalMax = dlo, dhi
	}
	if s.DigitalMin < dlo || s.DigitalMax > dhi || s.DigitalMin >= s.DigitalMax {
		return s, fmt.Errorf("edf: %s: digital range %d..%d: want dlo < dhi within %d..%d", where, s.DigitalMin, s.DigitalMax, dlo, dhi)
	}
	if s.SamplesPerRecord < 1 {
		return s, fmt.Errorf("edf: %s: samples per record %d: must be positive", where, s.SamplesPerRecord)
	}
	if s.IsAnnotation() {
		return s, fmt.Errorf("edf: %s: label is reserved for the annotation signal the writer adds", where)
	}
	var err error
	if s.PhysicalMin, err = fit8(sp.PhysicalMin); err != nil {
		return s, fmt.Errorf("edf: %s: physical minimum: %w", where, err)
	}
	if s.PhysicalMax, err = fit8(sp.PhysicalMax); err != nil {
		return s, fmt.Errorf("edf: %s: physical maximum: %w", where, err)
	}
	if s.PhysicalMin == s.PhysicalMax {
		return s, fmt.Errorf("edf: %s: physical minimum equals maximum (%g as written)", where, s.PhysicalMin)
	}
	for _, f := range []struct {
		name, v string
		n       int
	}{{"label", s.Label, 16}, {"transducer", s.Transducer, 80}, {"physical dimension", s.PhysicalDimension, 8}, {"prefilter", s.Prefilter, 80}} {
		if err := checkText(where+": "+f.name, f.v, f.n); err != nil {
			return s, err
		}
	}
	return s, nil
}

// fit8 returns v as it will read back from an 8-character decimal field.
func fit8(v float64) (float64, error) {
	s := format8(v)
	if len(s) > 8 {
		return 0, fmt.Errorf("%g does not fit 8 characters", v)
	}
	return strconv.ParseFloat(s, 64)
}

// format8 writes v in at most 8 characters when it can, dropping decimals.
func format8(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	for prec := 7; len(s) > 8 && prec >= 0; prec-- {
		s = strconv.FormatFloat(v, 'f', prec, 64)
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

func checkText(name, s string, n int) error {
	if len(s) > n {
		return fmt.Errorf("edf: %s %q: longer than %d characters", name, s, n)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 32 || s[i] > 126 {
			return fmt.Errorf("edf: %s %q: byte %d is not printable ASCII", name, s, i)
		}
	}
	return nil
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s[:n]
	}
	return s + strings.Repeat(" ", n-len(s))
}

// encodeHeader lays out h as 256·(ns+1) bytes.
func encodeHeader(h *Header) []byte {
	var b strings.Builder
	if h.BDF {
		b.WriteString(h.Version)
	} else {
		b.WriteString(pad(h.Version, 8))
	}
	b.WriteString(pad(h.Patient, 80))
	b.WriteString(pad(h.Recording, 80))
	b.WriteString(pad(h.StartDate, 8))
	b.WriteString(pad(h.StartTime, 8))
	b.WriteString(pad(strconv.Itoa(h.HeaderBytes), 8))
	b.WriteString(pad(h.Reserved, 44))
	b.WriteString(pad(strconv.FormatInt(h.Records, 10), 8))
	b.WriteString(pad(string(appendSeconds(nil, h.RecordDuration)), 8))
	b.WriteString(pad(strconv.Itoa(len(h.Signals)), 4))
	each := func(f func(s *Signal) string, n int) {
		for i := range h.Signals {
			b.WriteString(pad(f(&h.Signals[i]), n))
		}
	}
	each(func(s *Signal) string { return s.Label }, 16)
	each(func(s *Signal) string { return s.Transducer }, 80)
	each(func(s *Signal) string { return s.PhysicalDimension }, 8)
	each(func(s *Signal) string { return format8(s.PhysicalMin) }, 8)
	each(func(s *Signal) string { return format8(s.PhysicalMax) }, 8)
	each(func(s *Signal) string { return strconv.Itoa(s.DigitalMin) }, 8)
	each(func(s *Signal) string { return strconv.Itoa(s.DigitalMax) }, 8)
	each(func(s *Signal) string { return s.Prefilter }, 80)
	each(func(s *Signal) string { return strconv.Itoa(s.SamplesPerRecord) }, 8)
	each(func(s *Signal) string { return s.Reserved }, 32)
	return []byte(b.String())
}
