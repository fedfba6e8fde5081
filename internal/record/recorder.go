package record

import (
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/alert"
)

// file is what a Recorder writes to: an *os.File.
type file interface {
	io.WriteSeeker
	edf.RepairFile
	Close() error
}

func createFile(name string) (file, error) {
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o640)
}

// Stats counts what a Recorder did.
type Stats struct {
	Files    int64 // files started
	Records  int64 // data records completed
	Deleted  int64 // files deleted to keep the quota
	Repaired int64 // files repaired at start
	// LostFrames counts frames not recorded because no file could be
	// written (a full disk); Failures the times writing failed.
	LostFrames, Failures int64
	// Notes counts annotations written, NotesLost those lost (no file
	// open for too long, or no room).
	Notes, NotesLost int64
}

// maxHeld bounds the annotations kept while no file is open.
const maxHeld = 256

// heldNote is an annotation waiting for a file.
type heldNote struct {
	onset, dur time.Duration
	text       string
}

// Recorder writes the monitored signal and what the daemon made of it to
// EDF+ or BDF+ files (see the package documentation). It is a
// pipeline.FrameSink and an alert.Sink with every optional part; all its
// methods are called from the pipeline's goroutine (Close after Run
// returns). Writing errors never reach the pipeline: they are logged, and
// recording resumes when writing works again.
type Recorder struct {
	cfg Config
	log *slog.Logger
	// bytes counts the headers and whole data records written, for the
	// metrics endpoint (RecordedBytes, from any goroutine).
	bytes atomic.Uint64

	began  bool
	start  time.Time // wall-clock time of offset 0
	nch    int
	spr    int // samples per record (per second)
	period time.Duration
	specs  []edf.SignalSpec
	prefix string // "site_bed_"
	ext    string // ".edf" or ".bdf"
	need   int64  // bytes of a whole file, for the quota

	f         file
	w         *edf.Writer
	path      string
	fileStart time.Duration // offset of the file's first sample
	due       time.Duration // offset at which the next file is due
	fill      int           // frames in the record being filled

	have    bool
	next    time.Duration // offset of the next frame expected
	pos     time.Duration // end of the last frame seen
	samples []float64
	last    []float64 // the last samples written (gaps repeat them)

	failed   bool // writing failed; no file until retryAt
	failedAt time.Duration
	retryAt  time.Duration
	held     []heldNote

	files     []stored // finished recordings in Dir, oldest first
	started   bool     // the start annotation is written
	quotaWarn bool
	closed    bool
	stats     Stats
}

// New makes a recorder writing into cfg.Dir. It creates the directory,
// repairs the files a killed daemon left there (an incomplete last record
// cut, the header's record count fixed) and takes stock of them for the
// quota. Files are started when frames arrive. Only an invalid
// configuration is an error: a directory that cannot be created or read
// is logged, and tried again with each file, so that recording never
// keeps the daemon from monitoring.
func New(cfg Config, log *slog.Logger) (*Recorder, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if c.create == nil {
		c.create = createFile
	}
	r := &Recorder{cfg: c, log: log}
	r.ext = ".edf"
	if c.BDF {
		r.ext = ".bdf"
	}
	r.prefix = fileWord(c.Site) + "_" + fileWord(c.Bed) + "_"
	if err := os.MkdirAll(c.Dir, 0o750); err != nil {
		log.Error("recording: record.dir cannot be created; trying again with each file", slog.String("dir", c.Dir), slog.Any("err", err))
		return r, nil
	}
	if r.files, err = scan(c.Dir, log, &r.stats); err != nil {
		log.Error("recording: record.dir cannot be read; old files are neither repaired nor counted for the quota", slog.String("dir", c.Dir), slog.Any("err", err))
	}
	return r, nil
}

// Stats returns the counters (from the pipeline's goroutine, or after Run).
func (r *Recorder) Stats() Stats { return r.stats }

// RecordedBytes returns the bytes of headers and whole data records
// written since New; it may be called from any goroutine.
func (r *Recorder) RecordedBytes() uint64 { return r.bytes.Load() }

// Dir returns the directory recordings are written to.
func (r *Recorder) Dir() string { return r.cfg.Dir }

// Path returns the file being written, "" when none is.
func (r *Recorder) Path() string { return r.path }

// Begin implements pipeline.FrameSink: the signals to record and the wall
// clock time of offset 0. The rate must be a whole number of samples per
// second (records last 1 s).
func (r *Recorder) Begin(info acquire.Info, start time.Time) error {
	spr := math.Round(info.Rate)
	if info.Rate <= 0 || math.Abs(info.Rate-spr) > 1e-9 || spr > 1e6 {
		err := fmt.Errorf("record: the source's rate %g Hz is not a whole number of samples per second; not recording", info.Rate)
		r.log.Error("recording impossible", slog.Any("err", err))
		return err
	}
	r.spr, r.nch = int(spr), len(info.Channels)
	r.period = time.Duration(float64(time.Second) / info.Rate)
	r.start = start
	r.specs = make([]edf.SignalSpec, r.nch)
	for i, ch := range info.Channels {
		r.specs[i] = r.spec(ch)
	}
	r.samples = make([]float64, r.nch)
	r.last = make([]float64, r.nch)
	width := int64(2)
	if r.cfg.BDF {
		width = 3
	}
	recLen := (int64(r.nch*r.spr) + (AnnotationBytes+width-1)/width) * width
	r.need = int64(256*(r.nch+2)) + (int64(r.cfg.Rotate/time.Second)+1)*recLen
	r.began = true
	return nil
}

// spec describes one channel as an EDF signal: "EEG <label>", µV, the
// configured range over the format's symmetric digital range (so that
// with a BDF range of 4.5 V / gain digital values are the ADS1299's
// counts).
func (r *Recorder) spec(ch acquire.Channel) edf.SignalSpec {
	label := ascii(ch.Label)
	if !strings.HasPrefix(label, "EEG ") && (ch.Unit == "" || ch.Unit == "uV" || ch.Unit == "µV") {
		label = "EEG " + label
	}
	unit := ascii(ch.Unit)
	if unit == "" || ch.Unit == "µV" {
		unit = "uV"
	}
	d := 32767
	if r.cfg.BDF {
		d = 8388607
	}
	return edf.SignalSpec{Label: cut(label, 16), PhysicalDimension: cut(unit, 8), Prefilter: "none (raw)",
		PhysicalMin: -r.cfg.Range, PhysicalMax: r.cfg.Range, DigitalMin: -d, DigitalMax: d, SamplesPerRecord: r.spr}
}

// Frame implements pipeline.FrameSink: it records one frame. It allocates
// nothing, except when a file starts.
func (r *Recorder) Frame(f *acquire.Frame) error {
	if !r.began || r.closed {
		return nil
	}
	if len(f.Samples) != r.nch {
		return fmt.Errorf("record: frame of %d samples, the source has %d channels", len(f.Samples), r.nch)
	}
	t := f.Time
	if r.have && t-r.next > r.period/2 {
		r.gap(t)
	}
	r.have = true
	r.next = t + r.period
	r.pos = r.next
	switch {
	case r.w == nil:
		if !r.open(t) {
			r.stats.LostFrames++
			return nil
		}
	case r.fill == 0 && t >= r.due:
		r.finish()
		if !r.open(t) {
			r.stats.LostFrames++
			return nil
		}
	}
	for i, v := range f.Samples {
		if v != v { // NaN: no value; the state annotation says why
			v = 0
		}
		r.samples[i] = v
	}
	r.write(r.samples, t)
	return nil
}

// write writes one frame into the file in progress.
func (r *Recorder) write(s []float64, t time.Duration) {
	if err := r.w.WriteFrame(s); err != nil {
		r.fail(err, t)
		return
	}
	copy(r.last, s)
	if r.fill++; r.fill == r.spr {
		r.fill = 0
		r.stats.Records++
		r.bytes.Add(uint64(r.w.RecordBytes()))
	}
}

// gap handles frames the source lost before offset t: a short gap is
// filled with the last samples (and annotated), so the file stays
// continuous; a longer one ends the file, and the next starts at t.
func (r *Recorder) gap(t time.Duration) {
	missing := t - r.next
	if r.w == nil {
		return
	}
	if missing > MaxFill {
		r.log.Info("recording: a gap in the signal ends the file", slog.String("path", r.path), slog.Duration("gap", missing))
		r.finish()
		return
	}
	r.note(r.next, missing, Note{Kind: KindGap, Fields: []Field{{"lost", seconds(missing)}}})
	n := int(math.Round(float64(missing) / float64(r.period)))
	for i := 0; i < n && r.w != nil; i++ {
		r.write(r.last, r.next)
	}
}

// open starts a file at offset t; false when none could be (then frames
// are lost until the next try, DefaultRetry later).
func (r *Recorder) open(t time.Duration) bool {
	if r.failed && t < r.retryAt {
		return false
	}
	if err := r.create(t); err != nil {
		r.stats.Failures++
		if !r.failed {
			r.failed, r.failedAt = true, t
			r.log.Error("recording stopped: cannot start a file; monitoring goes on, trying again", slog.String("dir", r.cfg.Dir),
				slog.Any("err", err), slog.Duration("retry", r.cfg.Retry))
		}
		r.retryAt = t + r.cfg.Retry
		return false
	}
	if r.failed {
		r.failed = false
		lost := t - r.failedAt
		r.log.Info("recording resumed", slog.String("path", r.path), slog.Duration("lost", lost), slog.Int64("frames_lost", r.stats.LostFrames))
		r.note(t, 0, Note{Kind: KindResumed, Fields: []Field{{"lost", seconds(lost)}}})
	}
	return true
}

// create starts the file of offset t, making room for it under the quota.
func (r *Recorder) create(t time.Duration) error {
	wall := r.start.Add(t).UTC()
	if err := os.MkdirAll(r.cfg.Dir, 0o750); err != nil {
		return err
	}
	r.makeRoom()
	base := r.prefix + wall.Format(stampLayout)
	var (
		f    file
		path string
		err  error
	)
	for i := 1; i <= 100; i++ {
		path = filepath.Join(r.cfg.Dir, base+r.ext)
		if i > 1 {
			path = filepath.Join(r.cfg.Dir, base+"-"+strconv.Itoa(i)+r.ext)
		}
		if f, err = r.cfg.create(path); !os.IsExist(err) {
			break
		}
	}
	if err != nil {
		return err
	}
	w, err := edf.NewWriter(f, edf.WriterConfig{
		BDF: r.cfg.BDF, Start: wall, RecordDuration: time.Second, Signals: r.specs,
		Recording:       "X X " + cut(fileWord(ascii(r.cfg.Program+"_"+r.cfg.Site+"_"+r.cfg.Bed)), 50),
		AnnotationBytes: AnnotationBytes, CountEveryRecord: r.cfg.HeaderCount == CountEveryRecord,
		ExpectedRecords: int(r.cfg.Rotate/time.Second) + 2,
	})
	if err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	r.f, r.w, r.path, r.fileStart, r.fill = f, w, path, t, 0
	r.due = t + wall.Truncate(r.cfg.Rotate).Add(r.cfg.Rotate).Sub(wall)
	r.stats.Files++
	r.bytes.Add(uint64(w.Header().HeaderBytes))
	r.log.Info("recording", slog.String("path", path), slog.String("format", w.Header().Format()))
	if !r.started {
		r.started = true
		r.note(t, 0, Note{Kind: KindStart, Fields: []Field{{"program", r.cfg.Program}, {"site", r.cfg.Site}, {"bed", r.cfg.Bed},
			{"channels", strconv.Itoa(r.nch)}, {"rate", strconv.Itoa(r.spr)}}})
	}
	for _, h := range r.held {
		r.annotate(h.onset, h.dur, h.text)
	}
	r.held = r.held[:0]
	return nil
}

// fail abandons the file whose writing failed: its incomplete record is
// cut and its count fixed, and a new file is tried cfg.Retry later. The
// error is logged once per outage.
func (r *Recorder) fail(err error, t time.Duration) {
	r.stats.Failures++
	if !r.failed {
		r.log.Error("recording stopped: writing failed; monitoring goes on, trying again", slog.String("path", r.path),
			slog.Any("err", err), slog.Duration("retry", r.cfg.Retry))
	}
	r.failed, r.failedAt, r.retryAt = true, t, t+r.cfg.Retry
	size, serr := r.f.Seek(0, io.SeekEnd)
	if serr == nil {
		_, serr = edf.Repair(r.f, size)
		size, _ = r.f.Seek(0, io.SeekEnd)
	}
	if serr != nil {
		r.log.Warn("recording: repairing the abandoned file failed; it is repaired at the next start", slog.String("path", r.path), slog.Any("err", serr))
	}
	r.f.Close()
	r.files = append(r.files, stored{r.path, size})
	r.f, r.w, r.path = nil, nil, ""
}

// finish closes the file in progress: the last record completed by
// repeating the last samples, annotations still pending stored, the record
// count written.
func (r *Recorder) finish() {
	if r.w == nil {
		return
	}
	err := r.w.Close()
	size, serr := r.f.Seek(0, io.SeekEnd)
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = serr
	}
	if err != nil {
		r.log.Error("recording: closing the file failed", slog.String("path", r.path), slog.Any("err", err))
	}
	r.files = append(r.files, stored{r.path, size})
	r.f, r.w, r.path = nil, nil, ""
}

// Close ends the recording: the stop annotation at the end of the last
// frame, then the file closed. It implements io.Closer.
func (r *Recorder) Close() error {
	if r.closed {
		return nil
	}
	if r.w != nil {
		r.note(r.pos, 0, Note{Kind: KindStop})
		r.finish()
	}
	r.closed = true
	if len(r.held) > 0 {
		r.stats.NotesLost += int64(len(r.held))
		r.log.Warn("recording: annotations lost, no file could be written", slog.Int("annotations", len(r.held)))
	}
	if r.began {
		st := r.stats
		r.log.Info("recording stopped", slog.Int64("files", st.Files), slog.Int64("records", st.Records), slog.Int64("annotations", st.Notes),
			slog.Int64("frames_lost", st.LostFrames), slog.Int64("write_failures", st.Failures), slog.Int64("deleted", st.Deleted))
	}
	return nil
}

// note annotates the file in progress at offset onset (from the start of
// the signal) lasting dur, or holds the note until a file is open.
func (r *Recorder) note(onset, dur time.Duration, n Note) {
	if !r.began || r.closed {
		return
	}
	text := n.String()
	if r.w == nil {
		if len(r.held) == maxHeld {
			r.stats.NotesLost++
			return
		}
		r.held = append(r.held, heldNote{onset, dur, text})
		return
	}
	r.annotate(onset, dur, text)
}

// annotate writes an annotation into the file in progress; one that began
// before the file is cut to its start.
func (r *Recorder) annotate(onset, dur time.Duration, text string) {
	o := onset - r.fileStart
	if o < 0 {
		dur, o = max(0, dur+o), 0
	}
	if err := r.w.Annotate(o, max(dur, 0), text); err != nil {
		r.stats.NotesLost++
		r.log.Warn("recording: annotation not written", slog.String("text", text), slog.Any("err", err))
		return
	}
	r.stats.Notes++
}

// Alert implements alert.Sink: an annotation from the alert's onset to
// its detection, whose word is the alert's kind unless it is the default
// (an electrographic seizure, whose text stays as it always was and never
// says "seizure").
func (r *Recorder) Alert(e *alert.Event) error {
	word := e.Kind
	if word == alert.KindSeizure {
		word = ""
	}
	r.note(e.OnsetOffset, e.DetectedOffset-e.OnsetOffset, Note{Kind: KindAlert, Word: word, Fields: []Field{
		{"id", e.ID}, {"onset", stamp(e.Onset)}, {"detected", stamp(e.DetectedAt)},
		{"score", strconv.FormatFloat(e.Score, 'f', 3, 64)}, {"channels", strings.Join(e.Channels, ",")}}})
	return nil
}

// EventEnd implements alert.EventEnder: an annotation at the event's end.
func (r *Recorder) EventEnd(e *alert.Event) error {
	r.note(e.EndOffset, 0, Note{Kind: KindAlertEnd, Fields: []Field{
		{"id", e.ID}, {"end", stamp(e.End)}, {"score", strconv.FormatFloat(e.Score, 'f', 3, 64)}}})
	return nil
}

// Status implements alert.StatusSink: an annotation when the state
// changes.
func (r *Recorder) Status(s alert.Status) error {
	r.note(s.Since.Sub(r.start), 0, Note{Kind: KindState, Word: string(s.State), Fields: []Field{
		{"kind", s.Artifact}, {"channels", strings.Join(s.Channels, ",")}}, Reason: s.Reason})
	return nil
}

// Ack implements alert.AckSink: the clinician's feedback (at the end of
// the signal recorded so far, or over the interval it labels) and what the
// daemon did with it.
func (r *Recorder) Ack(a alert.Ack) error {
	by := Field{"by", a.By}
	switch {
	case a.AlertID != "" && a.Verdict != "":
		r.note(r.pos, 0, Note{Kind: KindFeedback, Fields: []Field{{"alert", a.AlertID}, {"verdict", a.Verdict}, by}})
	case a.Label != "":
		label := "ictal"
		if a.Label != alert.LabelSeizure {
			label = "non-ictal"
		}
		r.note(a.Start.Sub(r.start), a.End.Sub(a.Start), Note{Kind: KindFeedback, Fields: []Field{
			{"label", label}, {"from", stamp(a.Start)}, {"to", stamp(a.End)}, by}})
	}
	status := alert.AckRefused
	if a.Applied {
		status = alert.AckApplied
	}
	r.note(r.pos, 0, Note{Kind: KindFeedbackAck, Word: status, Fields: []Field{
		{"alert", a.AlertID}, {"windows", strconv.Itoa(a.Windows)}, by}, Reason: a.Reason})
	return nil
}

// stampLayout is the start time in file names.
const stampLayout = "20060102T150405Z"

// stamp writes t as RFC 3339 in UTC with milliseconds.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// seconds writes d in seconds with milliseconds ("0.120s").
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) + "s" }

// fileWord makes s safe in a file name: anything but letters, digits, '.',
// '-' becomes '-'.
func fileWord(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-':
			return r
		}
		return '-'
	}, s)
}

// ascii replaces what an EDF header cannot hold by '_'.
func ascii(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 32 || r > 126 {
			return '_'
		}
		return r
	}, s)
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
