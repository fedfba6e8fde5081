package edf

import (
	"fmt"
	"io"
	"os"
	"time"
)

// Reader reads the data records of an EDF/BDF file one at a time. It reads
// from an io.ReaderAt (random access, NewReader, Open) or sequentially from
// an io.Reader (NewStreamReader); it never loads the whole file.
type Reader struct {
	h      *Header
	ra     io.ReaderAt
	r      io.Reader
	closer io.Closer

	recBytes int
	offs     []int // byte offset of each signal within a record
	ann      []int // indices of annotation signals
	next     int64 // index of the next record ReadRecord returns
	trunc    error // non-nil when the file is shorter than declared
}

// Open opens the named file for reading; Close closes it.
func Open(name string) (*Reader, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	r, err := NewReader(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r.closer = f
	return r, nil
}

// NewReader parses the header of the size-byte file in ra. A record count
// of -1 is derived from the size. A file shorter than its header declares
// is not an error here: Records counts the complete records, Truncated
// reports the shortfall, and ReadRecord returns that error instead of
// io.EOF after the last complete record.
func NewReader(ra io.ReaderAt, size int64) (*Reader, error) {
	h, err := ParseHeader(io.NewSectionReader(ra, 0, size))
	if err != nil {
		return nil, err
	}
	r := newReader(h)
	r.ra = ra
	data := size - int64(h.HeaderBytes)
	rb := int64(r.recBytes)
	if h.Records == -1 {
		h.Records = data / rb
		if rem := data % rb; rem != 0 {
			r.trunc = fmt.Errorf("%w: last data record has %d of %d bytes (%d missing)", ErrTruncated, rem, rb, rb-rem)
		}
		return r, nil
	}
	want := h.Records * rb
	if h.Records > 0 && want/h.Records != rb {
		return nil, fmt.Errorf("%w: %d data records of %d bytes overflow", ErrHeader, h.Records, rb)
	}
	switch {
	case data < want:
		complete := data / rb
		r.trunc = fmt.Errorf("%w: header declares %d data records of %d bytes, file holds %d complete records and %d bytes more (%d bytes missing)",
			ErrTruncated, h.Records, rb, complete, data%rb, want-data)
		h.Records = complete
	case data > want:
		h.Warnings = append(h.Warnings, fmt.Sprintf("%d bytes after the last data record ignored", data-want))
	}
	return r, nil
}

// NewStreamReader parses the header at the start of r and reads records
// sequentially. The header must state the number of records
// (ErrUnknownRecords otherwise). A stream that ends early yields an error
// wrapping ErrTruncated from ReadRecord.
func NewStreamReader(r io.Reader) (*Reader, error) {
	h, err := ParseHeader(r)
	if err != nil {
		return nil, err
	}
	if h.Records == -1 {
		return nil, fmt.Errorf("%w: the header says -1 and a stream has no size to derive it from", ErrUnknownRecords)
	}
	rd := newReader(h)
	rd.r = r
	return rd, nil
}

func newReader(h *Header) *Reader {
	r := &Reader{h: h, offs: make([]int, len(h.Signals))}
	w := h.sampleBytes()
	for i := range h.Signals {
		r.offs[i] = r.recBytes
		r.recBytes += h.Signals[i].SamplesPerRecord * w
		if h.Signals[i].IsAnnotation() {
			r.ann = append(r.ann, i)
		}
	}
	return r
}

// Header returns the parsed header. Its Records field is the number of
// records that can be read.
func (r *Reader) Header() *Header { return r.h }

// AnnotationSignals returns the indices of the annotation signals.
func (r *Reader) AnnotationSignals() []int { return r.ann }

// Truncated returns nil for a complete file, or an error wrapping
// ErrTruncated saying how many bytes are missing.
func (r *Reader) Truncated() error { return r.trunc }

// Close closes the file opened by Open; otherwise it does nothing.
func (r *Reader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Record holds one data record: the physical samples of every ordinary
// signal and the raw bytes of every signal.
type Record struct {
	// Index is the record's position in the file, from 0.
	Index int64
	// Onset is the start of the record measured from Header.Start: the
	// onset of the time-keeping TAL in EDF+/BDF+, Index·RecordDuration
	// otherwise.
	Onset time.Duration
	// Samples[i] holds the physical values of signal i
	// (SamplesPerRecord of them); it is nil for annotation signals, and
	// for every signal when the reader has no record to read.
	Samples [][]float64

	raw []byte
	r   *Reader
}

// NewRecord allocates a record with room for every signal of r. When r
// has no record to read (Header().Records is 0: a header-only file, or
// one shorter than a record) it allocates no room, so that what a header
// declares cannot make it allocate more than the file holds: a 1 KB file
// may declare records of 40 million samples. For a random-access reader
// the room is thus at most about five times the file's size (a float64
// per 16-bit sample); a stream reader, which cannot know how much its
// stream holds, trusts the header's record count.
func (r *Reader) NewRecord() *Record {
	rec := &Record{Samples: make([][]float64, len(r.h.Signals)), r: r}
	if r.h.Records == 0 {
		return rec // ReadRecord returns io.EOF or the truncation at once
	}
	rec.raw = make([]byte, r.recBytes)
	for i := range r.h.Signals {
		if !r.h.Signals[i].IsAnnotation() {
			rec.Samples[i] = make([]float64, r.h.Signals[i].SamplesPerRecord)
		}
	}
	return rec
}

// Raw returns the bytes of signal i in the record (for annotation signals,
// the TALs).
func (rec *Record) Raw(i int) []byte {
	if rec.raw == nil {
		return nil // a record of a reader with none to read
	}
	n := rec.r.h.Signals[i].SamplesPerRecord * rec.r.h.sampleBytes()
	return rec.raw[rec.r.offs[i] : rec.r.offs[i]+n]
}

// AppendAnnotations decodes the TALs of every annotation signal of the
// record and appends one Annotation per non-empty text to dst, with Record
// and Signal set. It works with stream readers too.
func (rec *Record) AppendAnnotations(dst []Annotation) ([]Annotation, error) {
	for _, sig := range rec.r.ann {
		first := len(dst)
		var err error
		dst, err = AppendTALs(dst, rec.Raw(sig))
		for k := first; k < len(dst); k++ {
			dst[k].Record, dst[k].Signal = rec.Index, sig
		}
		if err != nil {
			return dst, rec.r.talErr(rec.Index, sig, err)
		}
	}
	return dst, nil
}

// ReadRecord reads the next record into rec, which must come from
// r.NewRecord. It returns io.EOF after the last record, or the truncation
// error when the file ends early. It allocates nothing for a well-formed
// record.
func (r *Reader) ReadRecord(rec *Record) error {
	if _, err := r.readRaw(rec); err != nil {
		return err
	}
	r.decode(rec)
	return nil
}

// readRaw is ReadRecord without decoding the samples: it reads the next
// record's bytes into rec, sets its Index and Onset (checking its
// time-keeping TAL) and returns the index. Replay decodes the samples it
// serves itself, straight into frames.
func (r *Reader) readRaw(rec *Record) (int64, error) {
	if r.next >= r.h.Records {
		if r.trunc != nil {
			return 0, r.trunc
		}
		return 0, io.EOF
	}
	var err error
	if r.ra != nil {
		_, err = r.ra.ReadAt(rec.raw, int64(r.h.HeaderBytes)+r.next*int64(r.recBytes))
		if err == io.EOF {
			err = nil // ReadAt may return EOF with a full buffer at the end
		}
	} else {
		var n int
		n, err = io.ReadFull(r.r, rec.raw)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			r.trunc = fmt.Errorf("%w: stream ended in data record %d of %d after %d of its %d bytes", ErrTruncated, r.next, r.h.Records, n, r.recBytes)
			r.h.Records = r.next
			return 0, r.trunc
		}
	}
	if err != nil {
		return 0, fmt.Errorf("edf: reading record %d: %w", r.next, err)
	}
	idx := r.next
	r.next++
	return idx, r.onset(rec, idx)
}

// ReadRecordAt reads record i into rec (random access readers only) and
// sets the position so that ReadRecord continues with record i+1.
func (r *Reader) ReadRecordAt(i int64, rec *Record) error {
	if r.ra == nil {
		return ErrSeek
	}
	if i < 0 || i >= r.h.Records {
		return fmt.Errorf("edf: record %d out of range 0..%d", i, r.h.Records-1)
	}
	r.next = i
	return r.ReadRecord(rec)
}

// decode converts the raw bytes of rec to physical values.
func (r *Reader) decode(rec *Record) {
	h := r.h
	for i := range h.Signals {
		if !h.Signals[i].IsAnnotation() {
			r.decodeSignal(rec.Samples[i], 1, rec, i, 1)
		}
	}
}

// decodeSignal converts the samples of data signal i in rec's raw bytes
// to physical values times scale, into dst[0], dst[stride], dst[2·stride]
// … (Replay: one frame after another, all channels of a frame together).
func (r *Reader) decodeSignal(dst []float64, stride int, rec *Record, i int, scale float64) {
	s := &r.h.Signals[i]
	n := s.SamplesPerRecord
	dst = dst[:(n-1)*stride+1]
	c := conversion{dmin: float64(s.DigitalMin), gain: s.Gain(), pmin: s.PhysicalMin, scale: scale}
	b := rec.raw[r.offs[i]:]
	if r.h.BDF {
		decode24(dst, stride, b[:3*n], &c)
		return
	}
	decode16(dst, stride, b[:2*n], &c)
}

// onset sets rec's Index and Onset: the onset of its time-keeping TAL in
// EDF+/BDF+, idx·RecordDuration otherwise.
func (r *Reader) onset(rec *Record, idx int64) error {
	rec.Index = idx
	rec.Onset = time.Duration(idx) * r.h.RecordDuration
	if r.h.Plus() && len(r.ann) > 0 {
		on, err := FirstOnset(rec.Raw(r.ann[0]))
		if err != nil {
			return r.talErr(idx, r.ann[0], err)
		}
		rec.Onset = on
	}
	return nil
}

func (r *Reader) talErr(rec int64, sig int, err error) error {
	at := ""
	if te, ok := err.(*TALError); ok {
		at = fmt.Sprintf(" (file offset %d)", int64(r.h.HeaderBytes)+rec*int64(r.recBytes)+int64(r.offs[sig])+int64(te.Offset))
	}
	return fmt.Errorf("edf: record %d, signal %d %q: %w%s", rec, sig, r.h.Signals[sig].Label, err, at)
}

// Annotations decodes every TAL of every annotation signal in every record
// (random access readers only; it does not move the ReadRecord position).
// It reads only the annotation signals' bytes. Record and Signal are set on
// each annotation.
func (r *Reader) Annotations() ([]Annotation, error) {
	if r.ra == nil {
		return nil, ErrSeek
	}
	var out []Annotation
	var buf []byte
	w := r.h.sampleBytes()
	for rec := int64(0); rec < r.h.Records; rec++ {
		for _, sig := range r.ann {
			n := r.h.Signals[sig].SamplesPerRecord * w
			if cap(buf) < n {
				buf = make([]byte, n)
			}
			buf = buf[:n]
			if _, err := r.ra.ReadAt(buf, int64(r.h.HeaderBytes)+rec*int64(r.recBytes)+int64(r.offs[sig])); err != nil && err != io.EOF {
				return out, fmt.Errorf("edf: reading annotations of record %d: %w", rec, err)
			}
			first := len(out)
			var err error
			out, err = AppendTALs(out, buf)
			for k := first; k < len(out); k++ {
				out[k].Record, out[k].Signal = rec, sig
			}
			if err != nil {
				return out, r.talErr(rec, sig, err)
			}
		}
	}
	return out, nil
}

// Onsets returns the onset of every record (random access readers only):
// from the time-keeping TALs for EDF+/BDF+, Index·RecordDuration
// otherwise.
func (r *Reader) Onsets() ([]time.Duration, error) {
	if r.ra == nil {
		return nil, ErrSeek
	}
	out := make([]time.Duration, r.h.Records)
	if !r.h.Plus() || len(r.ann) == 0 {
		for i := range out {
			out[i] = time.Duration(i) * r.h.RecordDuration
		}
		return out, nil
	}
	sig := r.ann[0]
	buf := make([]byte, r.h.Signals[sig].SamplesPerRecord*r.h.sampleBytes())
	for i := range out {
		if _, err := r.ra.ReadAt(buf, int64(r.h.HeaderBytes)+int64(i)*int64(r.recBytes)+int64(r.offs[sig])); err != nil && err != io.EOF {
			return nil, fmt.Errorf("edf: reading record %d: %w", i, err)
		}
		on, err := FirstOnset(buf)
		if err != nil {
			return nil, r.talErr(int64(i), sig, err)
		}
		out[i] = on
	}
	return out, nil
}

// Start returns the wall-clock start of the first data record: the header's
// start plus the first record's onset (EDF+ files may start a fraction of a
// second after the header's whole second). It is the zero time when the
// header's start is invalid.
func (r *Reader) Start() (time.Time, error) {
	if r.h.Start.IsZero() {
		return time.Time{}, nil
	}
	on, err := r.StartOffset()
	if err != nil {
		return time.Time{}, err
	}
	return r.h.Start.Add(on), nil
}

// StartOffset returns the onset of the first data record measured from
// the header's start date and time: in EDF+/BDF+ the onset of the first
// record's time-keeping TAL ("+0.3945312" for a file that starts that
// fraction of a second after the header's whole second), zero otherwise
// (and for a stream reader, which cannot look ahead). Annotation onsets
// minus StartOffset are measured from the first sample, as EDFlib and
// MNE report them.
func (r *Reader) StartOffset() (time.Duration, error) {
	if r.h.Records == 0 || !r.h.Plus() || len(r.ann) == 0 || r.ra == nil {
		return 0, nil
	}
	return r.firstOnset()
}

// firstOnset returns the onset of the first record.
func (r *Reader) firstOnset() (time.Duration, error) {
	sig := r.ann[0]
	buf := make([]byte, r.h.Signals[sig].SamplesPerRecord*r.h.sampleBytes())
	if _, err := r.ra.ReadAt(buf, int64(r.h.HeaderBytes)+int64(r.offs[sig])); err != nil && err != io.EOF {
		return 0, fmt.Errorf("edf: reading record 0: %w", err)
	}
	on, err := FirstOnset(buf)
	if err != nil {
		return 0, r.talErr(0, sig, err)
	}
	return on, nil
}
