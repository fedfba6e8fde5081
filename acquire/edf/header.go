package edf

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Header is the fixed part of an EDF/BDF file: the 256-byte main header and
// one 256-byte block per signal.
type Header struct {
	// Version is the raw 8-byte version field: "0" for EDF, "\xffBIOSEMI"
	// for BDF.
	Version string
	// BDF is true for 24-bit files (BDF, BDF+).
	BDF bool
	// Patient and Recording are the local patient and recording
	// identification fields (EDF+ subfields separated by spaces).
	Patient, Recording string
	// StartDate and StartTime are the raw "dd.mm.yy" and "hh.mm.ss" fields.
	StartDate, StartTime string
	// Start is the start of the recording with one-second resolution (the
	// first record's time-keeping annotation may add a fraction of a
	// second, see Reader.Start). It is the zero time when the date or time
	// fields are invalid; Warnings then says why.
	Start time.Time
	// HeaderBytes is the header size declared in the file, 256·(ns+1).
	HeaderBytes int
	// Reserved is the 44-byte reserved field: "EDF+C", "EDF+D", "BDF+C",
	// "BDF+D", BioSemi's "24BIT", empty or any other text.
	Reserved string
	// Records is the number of data records. It is -1 as parsed when the
	// file does not know it; NewReader derives it from the file size.
	Records int64
	// RecordDuration is the duration of a data record, exactly as written
	// in decimal (0 for annotation-only files, possibly fractional such as
	// 9.59375 s).
	RecordDuration time.Duration
	// Signals describes every signal, annotation signals included.
	Signals []Signal
	// Warnings lists oddities that do not prevent reading (an invalid start
	// date, trailing bytes after the last record).
	Warnings []string
}

// Signal is the header block of one signal. Text fields have their
// padding removed.
type Signal struct {
	Label             string  // e.g. "EEG Fp1-F7", "EDF Annotations"
	Transducer        string  // e.g. "AgAgCl electrode"
	PhysicalDimension string  // unit, e.g. "uV"
	PhysicalMin       float64 // physical value of DigitalMin
	PhysicalMax       float64 // physical value of DigitalMax (may be below PhysicalMin)
	DigitalMin        int     // smallest digital value
	DigitalMax        int     // largest digital value
	Prefilter         string  // e.g. "HP:0.1Hz LP:75Hz"
	SamplesPerRecord  int     // samples of this signal in each data record
	Reserved          string  // the signal's reserved field
}

// Gain returns the physical size of one digital step,
// (PhysicalMax − PhysicalMin)/(DigitalMax − DigitalMin); it is negative for
// an inverted physical range.
func (s *Signal) Gain() float64 {
	return (s.PhysicalMax - s.PhysicalMin) / float64(s.DigitalMax-s.DigitalMin)
}

// IsAnnotation reports whether s is an "EDF Annotations" or "BDF
// Annotations" signal, which carries TALs rather than samples.
func (s *Signal) IsAnnotation() bool {
	return s.Label == "EDF Annotations" || s.Label == "BDF Annotations"
}

// Physical converts a digital value to its physical value exactly as the
// EDF specification states: (d − dmin)·(pmax − pmin)/(dmax − dmin) + pmin.
// An inverted physical range (pmin > pmax) inverts the signal.
func (s *Signal) Physical(d int32) float64 {
	// The product is rounded on its own (float64(…)) so that arm64 does not
	// fuse it into a multiply-add: the same bits on every architecture.
	return float64(float64(int64(d)-int64(s.DigitalMin))*s.Gain()) + s.PhysicalMin
}

// Digital converts a physical value to the nearest digital value, clipped
// to [DigitalMin, DigitalMax]. NaN maps to DigitalMin.
func (s *Signal) Digital(p float64) int32 {
	v := (p-s.PhysicalMin)/s.Gain() + float64(s.DigitalMin)
	if !(v > float64(s.DigitalMin)) { // also NaN
		return int32(s.DigitalMin)
	}
	if v >= float64(s.DigitalMax) {
		return int32(s.DigitalMax)
	}
	if v < 0 {
		return int32(v - 0.5)
	}
	return int32(v + 0.5)
}

// Rate returns the sampling rate of signal i in Hz, 0 when records have no
// duration.
func (h *Header) Rate(i int) float64 {
	if h.RecordDuration <= 0 {
		return 0
	}
	return float64(h.Signals[i].SamplesPerRecord) / h.RecordDuration.Seconds()
}

// Plus reports whether the file is EDF+ or BDF+ (reserved field starting
// with "EDF+" or "BDF+").
func (h *Header) Plus() bool {
	return strings.HasPrefix(h.Reserved, "EDF+") || strings.HasPrefix(h.Reserved, "BDF+")
}

// Discontinuous reports whether the file is EDF+D or BDF+D: its data
// records may be separated by gaps.
func (h *Header) Discontinuous() bool {
	return h.Reserved == "EDF+D" || h.Reserved == "BDF+D"
}

// Format names the file format: "EDF", "EDF+C", "EDF+D", "BDF", "BDF+C" or
// "BDF+D". Any other reserved text (BioSemi's "24BIT", "reserved") gives
// the plain format.
func (h *Header) Format() string {
	base := "EDF"
	if h.BDF {
		base = "BDF"
	}
	switch h.Reserved {
	case "EDF+C", "BDF+C":
		return base + "+C"
	case "EDF+D", "BDF+D":
		return base + "+D"
	}
	return base
}

// sampleBytes is the size of one sample: 2 for EDF, 3 for BDF.
func (h *Header) sampleBytes() int {
	if h.BDF {
		return 3
	}
	return 2
}

// RecordBytes returns the size of one data record in bytes.
func (h *Header) RecordBytes() int {
	n := 0
	for i := range h.Signals {
		n += h.Signals[i].SamplesPerRecord
	}
	return n * h.sampleBytes()
}

// Limits on what a header may declare, so that a corrupt header cannot make
// the reader allocate without bound.
const (
	maxSignals     = 9999      // the ns field has 4 digits
	maxRecordBytes = 256 << 20 // per data record
)

// Per-signal field widths in header order.
var signalFields = [...]struct {
	name  string
	width int
}{
	{"label", 16}, {"transducer type", 80}, {"physical dimension", 8},
	{"physical minimum", 8}, {"physical maximum", 8},
	{"digital minimum", 8}, {"digital maximum", 8},
	{"prefiltering", 80}, {"number of samples", 8}, {"reserved", 32},
}

// ParseHeader reads and checks the header at the start of r, leaving r
// positioned at the first data record. Records is -1 if the file declares
// it unknown.
func ParseHeader(r io.Reader) (*Header, error) {
	var fixed [256]byte
	if n, err := io.ReadFull(r, fixed[:]); err != nil {
		return nil, fmt.Errorf("%w: file has %d bytes, a header needs at least 256: %w", ErrHeader, n, err)
	}
	h, ns, err := parseFixed(&fixed)
	if err != nil {
		return nil, err
	}
	sig := make([]byte, 256*ns)
	if n, err := io.ReadFull(r, sig); err != nil {
		return nil, fmt.Errorf("%w: header of %d signals needs %d bytes, file has %d: %w", ErrHeader, ns, 256*(ns+1), 256+n, err)
	}
	if err := parseSignals(h, sig, ns); err != nil {
		return nil, err
	}
	return h, nil
}

func fieldErr(name string, off int, err error) error {
	return fmt.Errorf("%w: %s at byte %d: %v", ErrHeader, name, off, err)
}

// parseFixed decodes the 256-byte main header and returns the number of
// signals.
func parseFixed(b *[256]byte) (*Header, int, error) {
	h := &Header{Version: string(b[0:8])}
	switch {
	case b[0] == 0xff && string(b[1:8]) == "BIOSEMI":
		h.BDF = true
	case field(b[0:8]) == "0":
	default:
		return nil, 0, fieldErr("version", 0, fmt.Errorf("%q: want \"0\" (EDF) or \"\\xffBIOSEMI\" (BDF)", b[0:8]))
	}
	h.Patient = field(b[8:88])
	h.Recording = field(b[88:168])
	h.StartDate = field(b[168:176])
	h.StartTime = field(b[176:184])
	hb, err := parseInt(b[184:192])
	if err != nil {
		return nil, 0, fieldErr("number of header bytes", 184, err)
	}
	h.Reserved = field(b[192:236])
	h.Records, err = parseInt(b[236:244])
	if err != nil {
		return nil, 0, fieldErr("number of data records", 236, err)
	}
	if h.Records < -1 {
		return nil, 0, fieldErr("number of data records", 236, fmt.Errorf("%d: negative", h.Records))
	}
	h.RecordDuration, err = parseSeconds([]byte(field(b[244:252])), false)
	if err != nil {
		return nil, 0, fieldErr("duration of a data record", 244, fmt.Errorf("%q: %w", field(b[244:252]), err))
	}
	ns64, err := parseInt(b[252:256])
	if err != nil {
		return nil, 0, fieldErr("number of signals", 252, err)
	}
	if ns64 < 1 || ns64 > maxSignals {
		return nil, 0, fieldErr("number of signals", 252, fmt.Errorf("%d: want 1 to %d", ns64, maxSignals))
	}
	ns := int(ns64)
	if hb != int64(256*(ns+1)) {
		return nil, 0, fieldErr("number of header bytes", 184, fmt.Errorf("%d: %d signals need 256·(%d+1) = %d", hb, ns, ns, 256*(ns+1)))
	}
	h.HeaderBytes = int(hb)
	h.Start, err = parseStart(h.StartDate, h.StartTime, h.Recording)
	if err != nil {
		h.Warnings = append(h.Warnings, err.Error())
	}
	return h, ns, nil
}

// parseSignals decodes the ns signal blocks in b.
func parseSignals(h *Header, b []byte, ns int) error {
	h.Signals = make([]Signal, ns)
	off := 0
	for f, fd := range signalFields {
		for i := range h.Signals {
			raw := b[off : off+fd.width]
			at := 256 + off
			off += fd.width
			s := &h.Signals[i]
			var err error
			switch f {
			case 3, 4: // physical minimum, maximum
				*[...]*float64{3: &s.PhysicalMin, 4: &s.PhysicalMax}[f], err = parseFloat(raw)
			case 5, 6, 8: // digital minimum, maximum, samples per record
				var v int64
				if v, err = parseInt(raw); err == nil {
					err = checkIntField(f, v, h.BDF)
				}
				*[...]*int{5: &s.DigitalMin, 6: &s.DigitalMax, 8: &s.SamplesPerRecord}[f] = int(v)
			default: // label, transducer, physical dimension, prefilter, reserved
				*[...]*string{0: &s.Label, 1: &s.Transducer, 2: &s.PhysicalDimension, 7: &s.Prefilter, 9: &s.Reserved}[f] = field(raw)
			}
			if err != nil {
				return signalErr(h, i, fd.name, at, err)
			}
		}
	}
	total := 0
	for i := range h.Signals {
		s := &h.Signals[i]
		total += s.SamplesPerRecord
		if total*h.sampleBytes() > maxRecordBytes {
			return fmt.Errorf("%w: data record larger than %d bytes", ErrHeader, maxRecordBytes)
		}
		if s.IsAnnotation() {
			continue
		}
		if s.DigitalMin >= s.DigitalMax {
			return signalErr(h, i, "digital minimum", 256+ns*(16+80+8+8+8)+i*8,
				fmt.Errorf("%d is not below the digital maximum %d", s.DigitalMin, s.DigitalMax))
		}
		if s.PhysicalMin == s.PhysicalMax {
			return signalErr(h, i, "physical minimum", 256+ns*(16+80+8)+i*8,
				fmt.Errorf("%g equals the physical maximum", s.PhysicalMin))
		}
	}
	return nil
}

// checkIntField bounds the digital limits to the sample width and the
// number of samples to something positive.
func checkIntField(f int, v int64, bdf bool) error {
	lo, hi, bits := int64(-32768), int64(32767), 16
	if bdf {
		lo, hi, bits = -8388608, 8388607, 24
	}
	switch f {
	case 5, 6:
		if v < lo || v > hi {
			return fmt.Errorf("%d: outside the %d-bit range %d..%d", v, bits, lo, hi)
		}
	case 8:
		if v < 1 || v > maxRecordBytes {
			return fmt.Errorf("%d: want a positive count", v)
		}
	}
	return nil
}

func signalErr(h *Header, i int, name string, at int, err error) error {
	return fmt.Errorf("%w: signal %d %q: %s at byte %d: %v", ErrHeader, i, h.Signals[i].Label, name, at, err)
}

var months = [...]string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

// parseStart combines the "dd.mm.yy" and "hh.mm.ss" fields. Two-digit years
// 85–99 are 1985–1999 and 00–84 are 2000–2084; "yy" (after 2084) or an
// EDF+ "Startdate dd-MMM-yyyy" recording subfield with the same day and
// month supplies the four-digit year.
func parseStart(date, clock, recording string) (time.Time, error) {
	var dd, mo, yy, hh, mi, ss int
	if len(date) != 8 || date[2] != '.' || date[5] != '.' {
		return time.Time{}, fmt.Errorf("start date %q: want dd.mm.yy", date)
	}
	if !twoDigits(date[0:2], &dd) || !twoDigits(date[3:5], &mo) {
		return time.Time{}, fmt.Errorf("start date %q: want dd.mm.yy", date)
	}
	yearKnown := twoDigits(date[6:8], &yy)
	if !yearKnown && date[6:8] != "yy" {
		return time.Time{}, fmt.Errorf("start date %q: want dd.mm.yy", date)
	}
	if len(clock) != 8 || clock[2] != '.' || clock[5] != '.' ||
		!twoDigits(clock[0:2], &hh) || !twoDigits(clock[3:5], &mi) || !twoDigits(clock[6:8], &ss) ||
		hh > 23 || mi > 59 || ss > 59 {
		return time.Time{}, fmt.Errorf("start time %q: want hh.mm.ss", clock)
	}
	year := 0
	if yearKnown {
		year = 2000 + yy
		if yy >= 85 {
			year = 1900 + yy
		}
	}
	// EDF+: "Startdate 10-DEC-2009 ..." carries the full year.
	if f := strings.Fields(recording); len(f) >= 2 && f[0] == "Startdate" && len(f[1]) == 11 {
		var d2, hi, lo int
		s := f[1]
		if twoDigits(s[0:2], &d2) && s[2] == '-' && s[6] == '-' && twoDigits(s[7:9], &hi) && twoDigits(s[9:11], &lo) {
			y4 := hi*100 + lo
			for m, name := range months {
				if s[3:6] == name && m+1 == mo && d2 == dd && (!yearKnown || y4%100 == yy) {
					year = y4
				}
			}
		}
	}
	if year == 0 {
		return time.Time{}, fmt.Errorf("start date %q: year unknown", date)
	}
	t := time.Date(year, time.Month(mo), dd, hh, mi, ss, 0, time.UTC)
	if mo < 1 || mo > 12 || dd < 1 || t.Day() != dd {
		return time.Time{}, fmt.Errorf("start date %q: not a calendar date", date)
	}
	return t, nil
}

func twoDigits(s string, v *int) bool {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return false
	}
	*v = int(s[0]-'0')*10 + int(s[1]-'0')
	return true
}
