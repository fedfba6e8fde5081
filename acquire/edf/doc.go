// Package edf reads, writes and replays EDF, EDF+, BDF and BDF+ recordings.
//
// # Format
//
// An EDF file (European Data Format, Kemp et al. 1992; EDF+, Kemp &
// Olivan 2003) is a 256-byte ASCII main header, one 256-byte block per
// signal (ns of them, stored field by field: 16-byte labels of all signals,
// then 80-byte transducers, and so on), then data records. Every record
// holds SamplesPerRecord samples of each signal in turn, as 16-bit
// little-endian two's complement integers; BDF (BioSemi) uses 24-bit
// integers and the version field "\xffBIOSEMI". Digital values convert to
// physical ones by the linear map of the signal's limits:
//
//	phys = (dig − dmin)·(pmax − pmin)/(dmax − dmin) + pmin
//
// EDF+ and BDF+ mark themselves in the reserved field ("EDF+C"/"BDF+C"
// continuous, "EDF+D"/"BDF+D" discontinuous) and add "EDF Annotations"
// (or "BDF Annotations") signals whose bytes are time-stamped annotation
// lists (TALs):
//
//	+onset[\x15duration]\x14text\x14[text\x14]…\x00
//
// with onsets in seconds from the header's start date and time. The first
// TAL of the first annotation signal of each record is the record's
// time-keeping TAL: its onset is when the record starts, its text empty.
//
// # API
//
// ParseHeader reads a header; NewReader (io.ReaderAt) and NewStreamReader
// (io.Reader) read records one at a time into a caller-owned Record
// (ReadRecord allocates nothing), Annotations decodes every TAL, Onsets
// every record's start, StartOffset the first record's (subtract it from
// an annotation's onset to measure it from the first sample, as MNE and
// EDFlib do; Start is the first sample's wall-clock time). AppendTALs and FirstOnset decode the TALs of one
// record. Writer writes EDF+C or BDF+C files with annotations. Replay
// serves a recording as an acquire.Source, in real time or as fast as
// possible, with its annotations as acquire.Intervals.
//
// Times are time.Duration values parsed exactly from the decimal text (a
// record of "9.59375" s is 9593750000 ns; TAL digits past the ninth decimal
// round to the nanosecond). Frame time stamps are computed from record
// onsets and sample indices, never accumulated.
//
// # Quirks of real files and how they are handled
//
// The conformance files under shared/data/eeg/edf-conformance, written by
// other tools, exercise these; each is covered by a test.
//
//   - Inverted physical ranges (pmin > pmax, pyedflib's test_subsecond:
//     8711..-8711; edfize: 1..-1): the formula above inverts the signal, as
//     the specification intends. Only dmin ≥ dmax or pmin = pmax are
//     errors, naming the signal and byte.
//   - Sub-second start (first time-keeping TAL "+0.3945312"): Header.Start
//     keeps the header's whole second; Reader.Start and Replay's Info.Start
//     add the first record's onset, and replayed frames and intervals are
//     measured from there.
//   - UTF-8 annotation text ("仰卧", "中文测试八个字"): bytes are passed
//     through unchanged; the writer refuses text that is not UTF-8.
//   - Extra TALs whose text is a time (Nihon Kohden's "+0\x14+0.000000\x14"):
//     kept verbatim as annotations; only the first TAL of the first
//     annotation signal keeps time, and only its empty text is dropped.
//   - 15 annotation signals (OpenBCI COsleep BDF+): every one is decoded;
//     Annotation.Signal says which.
//   - Plain BDF with a "Status" trigger channel and empty patient and
//     recording fields: an ordinary signal; empty fields are fine.
//   - Annotation-only files (one annotation signal, record duration 0, the
//     Sleep-EDF hypnograms): readable, rates are 0; Replay refuses them
//     with ErrNoData.
//   - Duplicate labels: signals are addressed by index; labels are not
//     assumed unique.
//   - Non-integer record duration ("9.59375"): exact durations; rates are
//     SamplesPerRecord divided by it.
//   - Literal "reserved" or BioSemi's "24BIT" in the reserved field: not
//     EDF+/BDF+; Format gives "EDF" or "BDF" and Reserved the text.
//   - EDF+D gaps (record onsets 0 2 4 5 6 7 8 9 12 15 19 s): Onsets exposes
//     them; Replay sets acquire.FlagGap on the first frame after each gap
//     and advances Seq and Time by the frames missing. Records that start
//     before the previous one ends are an error.
//   - An annotation after the end of the data ("REC STOP" at 600 s in a
//     20 s file): kept; an interval may lie beyond the last frame.
//   - Zero data records (header only): Records is 0, ReadRecord returns
//     io.EOF at once, Replay refuses with ErrNoData.
//   - Invalid start date "00.00.00": not fatal; Header.Start is the zero
//     time and Header.Warnings says why.
//   - Start years: two-digit years 85–99 are 1985–1999 and 00–84 are
//     2000–2084; "yy" (after 2084) or an EDF+ "Startdate dd-MMM-yyyy"
//     subfield agreeing with the day and month gives the full year.
//   - Record count -1 (unknown): derived from the file size; a stream
//     reader, with no size, returns ErrUnknownRecords.
//   - A file shorter than its header declares: the complete records stay
//     readable, Truncated says how many bytes are missing, and ReadRecord
//     (and Replay's ReadFrame) returns that ErrTruncated error instead of
//     io.EOF after the last complete record. Never silent.
//
// # Writer
//
// Writer produces EDF+C (16-bit) or BDF+C (24-bit) files with one
// annotation signal appended after the data signals, its size fixed by
// WriterConfig.AnnotationBytes (128 by default). Each record carries its
// time-keeping TAL and as many pending annotations as fit; the rest spill to
// later records and, at Close, into the free room of earlier records
// (onsets are absolute, so any record may carry any annotation). An
// annotation is never dropped: if it cannot be stored, Annotate or Close
// returns ErrAnnotationSpace. Physical values outside a signal's range are
// clipped to its digital limits; NaN is an error. Close pads an incomplete
// last record by repeating each signal's last sample (Padded says how many
// samples) and writes the record count into the header, which holds -1
// until then — or, with WriterConfig.CountEveryRecord, after every record,
// so that a file whose writer was killed declares what it holds. Repair
// makes such a file consistent afterwards: it cuts an incomplete last
// record and writes the count of complete ones (replacing -1).
package edf
