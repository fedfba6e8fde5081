package edf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// WriterConfig describes an EDF+ or BDF+ (continuous, "+C") file to write.
type WriterConfig struct {
	BDF                bool   // false: EDF+ (16-bit); true: BDF+ (24-bit)
	Patient, Recording string // EDF+ subfields; "X X X X" and "X X X" when empty
	// Start is the wall-clock start of the first sample, written as UTC
	// clock time. The header holds whole seconds; a fraction of a second goes into the records'
	// time-keeping annotations. The zero time writes 01.01.85 00.00.00 and
	// "Startdate X".
	Start          time.Time
	RecordDuration time.Duration // e.g. time.Second; at most 8 characters in seconds ("0.000001" to "99999999")
	Signals        []SignalSpec  // data signals; the writer adds the annotation signal itself
	// AnnotationBytes is the room for TALs in each data record, time-keeping
	// TAL included; 0 means 128. Annotations that do not fit in the record
	// being written spill over to later records and, at Close, into the
	// free room of earlier ones; none is ever dropped.
	AnnotationBytes int
	// CountEveryRecord writes the record count into the header after every
	// data record, so that a file cut off at any moment (the writing
	// process killed) declares the records it holds and opens in other
	// programs, some of which refuse -1. Without it the header says -1
	// until Close.
	CountEveryRecord bool
	// ExpectedRecords sizes the writer's bookkeeping (the annotation room
	// used in each record) for this many records up front, so that writing
	// them allocates nothing; more records are fine, they grow it.
	ExpectedRecords int
}

// SignalSpec describes one data signal to write.
type SignalSpec struct {
	Label, Transducer, PhysicalDimension, Prefilter string
	PhysicalMin, PhysicalMax                        float64
	DigitalMin, DigitalMax                          int // zero values: the format's full range
	SamplesPerRecord                                int
}

// ErrAnnotationSpace is returned when an annotation cannot be stored: it is
// longer than a record's annotation room, or at Close the records written
// hold no free room for it.
var ErrAnnotationSpace = errors.New("edf: no room for annotation")

// Writer writes an EDF+C or BDF+C file record by record. Physical values
// outside a signal's physical range are clipped to its digital limits.
// The header's record count is written as -1 until Close fixes it.
type Writer struct {
	w       io.WriteSeeker
	base    int64 // offset of the header in w
	h       *Header
	frac    time.Duration // sub-second part of Start
	annSig  int           // index of the annotation signal
	annOff  int           // byte offset of the annotation signal in a record
	annLen  int           // its size in bytes
	width   int           // bytes per sample
	recLen  int
	digital [][]int32 // pending record, per data signal
	fill    int       // frames written into the pending record (WriteFrame)
	uniform int       // common SamplesPerRecord, 0 if signals differ
	buf     []byte    // encoded record
	records int64
	used    []int32 // bytes used in each written record's annotation room
	pending []Annotation
	tal     []byte
	padded  int
	closed  bool
	err     error
	every   bool    // CountEveryRecord
	count   [8]byte // the header's record count field, encoded
}

// NewWriter writes the header of a new EDF+C or BDF+C file to w, at w's
// current position.
func NewWriter(w io.WriteSeeker, cfg WriterConfig) (*Writer, error) {
	if len(cfg.Signals) == 0 {
		return nil, fmt.Errorf("edf: writer needs at least one data signal")
	}
	if cfg.RecordDuration <= 0 {
		return nil, fmt.Errorf("edf: record duration %v: must be positive", cfg.RecordDuration)
	}
	wr := &Writer{w: w, width: 2, every: cfg.CountEveryRecord}
	if cfg.ExpectedRecords > 0 {
		wr.used = make([]int32, 0, cfg.ExpectedRecords)
	}
	if cfg.BDF {
		wr.width = 3
	}
	h, err := writerHeader(cfg, wr.width)
	if err != nil {
		return nil, err
	}
	wr.h = h
	wr.frac = time.Duration(cfg.Start.Nanosecond())
	ns := len(h.Signals)
	wr.annSig = ns - 1
	for i := range h.Signals {
		if i == wr.annSig {
			wr.annOff = wr.recLen
		}
		wr.recLen += h.Signals[i].SamplesPerRecord * wr.width
	}
	wr.annLen = h.Signals[wr.annSig].SamplesPerRecord * wr.width
	wr.digital = make([][]int32, ns-1)
	wr.uniform = cfg.Signals[0].SamplesPerRecord
	for i, s := range cfg.Signals {
		wr.digital[i] = make([]int32, s.SamplesPerRecord)
		if s.SamplesPerRecord != wr.uniform {
			wr.uniform = 0
		}
	}
	wr.buf = make([]byte, wr.recLen)
	if wr.base, err = w.Seek(0, io.SeekCurrent); err != nil {
		return nil, fmt.Errorf("edf: writer: %w", err)
	}
	if _, err := w.Write(encodeHeader(h)); err != nil {
		return nil, fmt.Errorf("edf: writing header: %w", err)
	}
	return wr, nil
}

// Header returns the header being written (Records is -1 until Close).
func (w *Writer) Header() *Header { return w.h }

// Padded returns the number of samples per signal that Close appended to
// the last record to complete it (0 if it was complete).
func (w *Writer) Padded() int { return w.padded }

// WriteFrame adds one sample instant: one physical value per data signal.
// It requires every signal to have the same SamplesPerRecord; a record is
// written each time one is complete. It allocates nothing.
func (w *Writer) WriteFrame(samples []float64) error {
	if err := w.usable(); err != nil {
		return err
	}
	if w.uniform == 0 {
		return fmt.Errorf("edf: WriteFrame needs every signal at the same samples per record; use WriteRecord")
	}
	if len(samples) != len(w.digital) {
		return fmt.Errorf("edf: WriteFrame got %d samples for %d signals", len(samples), len(w.digital))
	}
	for i, v := range samples {
		if math.IsNaN(v) {
			return fmt.Errorf("edf: WriteFrame: signal %d %q: sample is NaN", i, w.h.Signals[i].Label)
		}
	}
	for i, v := range samples {
		w.digital[i][w.fill] = w.h.Signals[i].Digital(v)
	}
	w.fill++
	if w.fill == w.uniform {
		w.fill = 0
		return w.flush()
	}
	return nil
}

// WriteRecord writes one data record: data[i] holds SamplesPerRecord
// physical values of signal i. It fails if WriteFrame left a record
// incomplete.
func (w *Writer) WriteRecord(data [][]float64) error {
	if err := w.usable(); err != nil {
		return err
	}
	if w.fill != 0 {
		return fmt.Errorf("edf: WriteRecord after %d frames of an incomplete record", w.fill)
	}
	if len(data) != len(w.digital) {
		return fmt.Errorf("edf: WriteRecord got %d signals, want %d", len(data), len(w.digital))
	}
	for i, d := range data {
		if len(d) != len(w.digital[i]) {
			return fmt.Errorf("edf: WriteRecord: signal %d %q has %d samples, want %d", i, w.h.Signals[i].Label, len(d), len(w.digital[i]))
		}
		for k, v := range d {
			if math.IsNaN(v) {
				return fmt.Errorf("edf: WriteRecord: signal %d %q: sample %d is NaN", i, w.h.Signals[i].Label, k)
			}
		}
	}
	for i, d := range data {
		s := &w.h.Signals[i]
		for k, v := range d {
			w.digital[i][k] = s.Digital(v)
		}
	}
	return w.flush()
}

// Annotate records an annotation at onset from Start lasting duration
// (0: none written). text must be UTF-8 without the bytes 0x00, 0x14 and
// 0x15 that delimit TALs. It goes into the next record written, or a later
// one if that record is full.
func (w *Writer) Annotate(onset, duration time.Duration, text string) error {
	if err := w.usable(); err != nil {
		return err
	}
	if duration < 0 {
		return fmt.Errorf("edf: annotation %q: negative duration %v", text, duration)
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("edf: annotation %q: text is not UTF-8", text)
	}
	if i := strings.IndexAny(text, "\x00\x14\x15"); i >= 0 {
		return fmt.Errorf("edf: annotation %q: byte %d is a TAL delimiter (0x%02x)", text, i, text[i])
	}
	a := Annotation{Onset: onset + w.frac, Duration: duration, HasDuration: duration > 0, Text: text}
	n := len(AppendTAL(w.tal[:0], a.Onset, a.Duration, a.HasDuration, a.Text))
	if room := w.annLen - w.keepLen(maxRecords); n > room {
		return fmt.Errorf("%w: annotation %q needs %d bytes, a record has %d (raise WriterConfig.AnnotationBytes)", ErrAnnotationSpace, text, n, room)
	}
	w.pending = append(w.pending, a)
	return nil
}

// Close completes the last record if WriteFrame left it partial, by
// repeating each signal's last sample (Padded says how many), stores
// annotations still pending in the free room of the records written, and
// writes the record count into the header. It does not close the
// underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	if w.fill > 0 {
		w.padded = w.uniform - w.fill
		for _, d := range w.digital {
			for k := w.fill; k < len(d); k++ {
				d[k] = d[w.fill-1]
			}
		}
		w.fill = 0
		if err := w.flush(); err != nil {
			return err
		}
	}
	if err := w.backfill(); err != nil {
		w.err = err
		return err
	}
	if err := w.writeCount(); err != nil {
		return err
	}
	w.h.Records = w.records
	return nil
}

// Records returns the number of data records written so far.
func (w *Writer) Records() int64 { return w.records }

// RecordBytes returns the size of one data record in bytes.
func (w *Writer) RecordBytes() int { return w.recLen }

// writeCount writes the number of records written into the header and
// returns to the end of the data. It allocates nothing.
func (w *Writer) writeCount() error {
	nr := strconv.AppendInt(w.count[:0], w.records, 10)
	if len(nr) > len(w.count) {
		return w.fail(fmt.Errorf("edf: %d records do not fit the header's 8 characters", w.records))
	}
	for i := len(nr); i < len(w.count); i++ {
		w.count[i] = ' '
	}
	if _, err := w.w.Seek(w.base+236, io.SeekStart); err != nil {
		return w.fail(fmt.Errorf("edf: writing record count: %w", err))
	}
	if _, err := w.w.Write(w.count[:]); err != nil {
		return w.fail(fmt.Errorf("edf: writing record count: %w", err))
	}
	if _, err := w.w.Seek(w.base+int64(w.h.HeaderBytes)+w.records*int64(w.recLen), io.SeekStart); err != nil {
		return w.fail(fmt.Errorf("edf: writer: %w", err))
	}
	return nil
}

func (w *Writer) usable() error {
	if w.closed {
		return fmt.Errorf("edf: writer is closed")
	}
	return w.err
}

func (w *Writer) fail(err error) error {
	w.err = err
	return err
}

// maxRecords bounds the record index assumed when checking that an
// annotation fits beside any record's time-keeping TAL.
const maxRecords = 99999999

// keepLen is the size of record i's time-keeping TAL.
func (w *Writer) keepLen(i int64) int {
	return len(AppendTAL(w.tal[:0], w.recordOnset(i), 0, false, ""))
}

func (w *Writer) recordOnset(i int64) time.Duration {
	return w.frac + time.Duration(i)*w.h.RecordDuration
}

// flush encodes and writes the pending record with its time-keeping TAL and
// as many pending annotations as fit.
func (w *Writer) flush() error {
	off := 0
	for _, d := range w.digital {
		if w.width == 2 {
			for _, v := range d {
				w.buf[off], w.buf[off+1] = byte(v), byte(v>>8)
				off += 2
			}
		} else {
			for _, v := range d {
				w.buf[off], w.buf[off+1], w.buf[off+2] = byte(v), byte(v>>8), byte(v>>16)
				off += 3
			}
		}
	}
	ann := w.buf[w.annOff : w.annOff+w.annLen]
	w.tal = AppendTAL(w.tal[:0], w.recordOnset(w.records), 0, false, "")
	n := w.appendPending(len(ann))
	w.pending = w.pending[:copy(w.pending, w.pending[n:])]
	copy(ann, w.tal)
	clear(ann[len(w.tal):])
	if _, err := w.w.Write(w.buf); err != nil {
		return w.fail(fmt.Errorf("edf: writing record %d: %w", w.records, err))
	}
	w.used = append(w.used, int32(len(w.tal)))
	w.records++
	if w.every {
		return w.writeCount()
	}
	return nil
}

// appendPending appends to w.tal the pending annotations, in order, as
// long as w.tal stays within room bytes, and returns how many it appended.
func (w *Writer) appendPending(room int) int {
	n := 0
	for n < len(w.pending) {
		a := &w.pending[n]
		l := len(w.tal)
		w.tal = AppendTAL(w.tal, a.Onset, a.Duration, a.HasDuration, a.Text)
		if len(w.tal) > room {
			w.tal = w.tal[:l]
			break
		}
		n++
	}
	return n
}

// backfill writes annotations still pending into the free annotation room
// of the records already written.
func (w *Writer) backfill() error {
	if len(w.pending) == 0 {
		return nil
	}
	if w.records == 0 {
		return fmt.Errorf("%w: %d annotations and no data record to hold them", ErrAnnotationSpace, len(w.pending))
	}
	for i := int64(0); i < w.records && len(w.pending) > 0; i++ {
		used := int(w.used[i])
		w.tal = w.tal[:0]
		n := w.appendPending(w.annLen - used)
		if n == 0 {
			continue
		}
		at := w.base + int64(w.h.HeaderBytes) + i*int64(w.recLen) + int64(w.annOff) + int64(used)
		if _, err := w.w.Seek(at, io.SeekStart); err != nil {
			return fmt.Errorf("edf: storing annotations: %w", err)
		}
		if _, err := w.w.Write(w.tal); err != nil {
			return fmt.Errorf("edf: storing annotations: %w", err)
		}
		w.used[i] += int32(len(w.tal))
		w.pending = w.pending[:copy(w.pending, w.pending[n:])]
	}
	if len(w.pending) > 0 {
		return fmt.Errorf("%w: %d annotations left after filling %d records (first %q at %v); raise WriterConfig.AnnotationBytes",
			ErrAnnotationSpace, len(w.pending), w.records, w.pending[0].Text, w.pending[0].Onset-w.frac)
	}
	return nil
}
