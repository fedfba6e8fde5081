package openbci

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/ictal/ictal/acquire"
)

// FileFormat names a recording format of OpenBCI boards.
type FileFormat string

// Recording formats File reads.
const (
	// FormatGUI is the OpenBCI GUI's "OpenBCI Raw EXG Data" text file
	// (GUI v5 and v6; v4's "Raw EEG Data" with the same column line is
	// read too): '%' header lines with the channel count, sample rate and
	// board, one line naming the columns, then one comma-separated row per
	// sample with EXG values in µV and a Unix timestamp in milliseconds.
	FormatGUI FileFormat = "openbci-gui"
	// FormatBrainFlow is BrainFlow's DataFilter.write_file CSV: no
	// header, one row per sample, the board's rows of get_board_data as
	// columns, separated by tabs (commas are accepted too); the
	// timestamp column is Unix time in seconds.
	FormatBrainFlow FileFormat = "brainflow"
)

// Board describes how one BrainFlow board lays out its columns; the
// values are those of BrainFlow's board descriptors
// (src/board_controller/brainflow_boards.cpp, "default" preset).
type Board struct {
	Name    string
	ID      int     // BrainFlow board id
	Rate    float64 // Hz
	Columns int     // num_rows of the descriptor
	Package int     // package_num_channel
	EEG     []int   // eeg_channels
	Stamp   int     // timestamp_channel
	Marker  int     // marker_channel
	Labels  []string
}

// BrainFlow boards whose files File reads. A file's board is recognised by
// its column count; Cyton Daisy and BrainFlow's synthetic board both have
// 32 columns, and a 32-column file is read as Cyton Daisy unless
// FileOpts.Board says otherwise.
var (
	BoardCyton = Board{Name: "cyton", ID: 0, Rate: 250, Columns: 24, Package: 0,
		EEG: seq(1, 8), Stamp: 22, Marker: 23,
		Labels: []string{"Fp1", "Fp2", "C3", "C4", "P7", "P8", "O1", "O2"}}
	BoardGanglion = Board{Name: "ganglion", ID: 1, Rate: 200, Columns: 15, Package: 0,
		EEG: seq(1, 4), Stamp: 13, Marker: 14}
	BoardCytonDaisy = Board{Name: "cyton-daisy", ID: 2, Rate: 125, Columns: 32, Package: 0,
		EEG: seq(1, 16), Stamp: 30, Marker: 31,
		Labels: []string{"Fp1", "Fp2", "C3", "C4", "P7", "P8", "O1", "O2", "F7", "F8", "F3", "F4", "T7", "T8", "P3", "P4"}}
)

// Boards lists the BrainFlow boards File knows, by Board.Name.
var Boards = []Board{BoardCyton, BoardGanglion, BoardCytonDaisy}

func seq(from, to int) []int {
	s := make([]int, 0, to-from+1)
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

// FileOpts configures OpenFile and NewFile. The zero value reads any
// supported file with the channel names it carries.
type FileOpts struct {
	// Labels, when set, names the EXG channels (one per channel), for
	// files that do not (the GUI's columns are "EXG Channel 0"…, and
	// BrainFlow's labels are the board's default montage, which the
	// electrodes may not follow).
	Labels []string
	// Board chooses the BrainFlow board by name ("cyton", "cyton-daisy",
	// "ganglion") instead of recognising it by column count.
	Board string
}

// ErrFormat is wrapped by every error about a file's content.
var ErrFormat = errors.New("openbci: malformed recording")

// maxLine bounds a line of a recording file; a GUI row of 16 channels is
// about 300 bytes.
const maxLine = 64 << 10

// File is an OpenBCI GUI or BrainFlow recording read as a Source: one
// frame per row, samples in µV as written. Rows whose Cyton sample counter
// skips values (packets the dongle dropped) start with FlagGap and Seq
// jumps by the number missed; other boards' counters are not checked.
// Frame.Time is Seq divided by the rate, from the first row; Info.Start is
// the first row's timestamp. Markers (a non-zero marker column) become
// zero-length Intervals whose Text is "marker V"; Intervals is complete
// once the file has been read to the end (OpenFile reads it once at open
// for that).
//
// A final line without a newline that does not parse is a write the
// recorder did not finish: it ends the recording and Truncated reports
// it; any other malformed row is an error naming the file, line and
// column.
type File struct {
	name   string
	format FileFormat
	board  string
	rd     *bufio.Reader
	c      io.Closer
	info   acquire.Info

	exg              []int // columns of the EXG channels
	columns          int   // fields every row has
	index, stamp, mk int   // columns of the sample counter, timestamp, marker; -1 if absent
	stampScale       float64
	counter          bool // the index is the Cyton's 0–255 packet counter

	line      int // lines read
	rows      uint64
	seq       uint64
	last      int // previous counter value
	fields    [][]byte
	marks     []acquire.Interval
	truncated bool
	done      error
}

// OpenFile opens an OpenBCI GUI or BrainFlow recording, recognising its
// format by content. It reads the file once to collect its markers and
// check every row, then rewinds, so ReadFrame on a good file never fails.
func OpenFile(path string, opts *FileOpts) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	scan, err := NewFile(fh, path, opts)
	if err != nil {
		fh.Close()
		return nil, err
	}
	frame := acquire.NewFrame(len(scan.info.Channels))
	for err == nil {
		err = scan.ReadFrame(frame)
	}
	if err != io.EOF {
		fh.Close()
		return nil, err
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		fh.Close()
		return nil, fmt.Errorf("openbci: %s: %w", path, err)
	}
	f, err := NewFile(fh, path, opts)
	if err != nil {
		fh.Close()
		return nil, err
	}
	f.marks = scan.marks
	f.c = fh
	return f, nil
}

// NewFile reads a recording from r, named name in errors. Its Intervals
// grow as rows are read. Close closes r if it is an io.Closer.
func NewFile(r io.Reader, name string, opts *FileOpts) (*File, error) {
	if opts == nil {
		opts = &FileOpts{}
	}
	f := &File{name: name, rd: bufio.NewReaderSize(r, maxLine), index: -1, stamp: -1, mk: -1}
	if c, ok := r.(io.Closer); ok {
		f.c = c
	}
	head, err := f.rd.Peek(1)
	if err != nil {
		return nil, f.errf(0, "", "empty file")
	}
	if head[0] == '%' {
		err = f.readGUIHeader()
	} else {
		err = f.sniffBrainFlow(opts.Board)
	}
	if err != nil {
		return nil, err
	}
	if opts.Labels != nil {
		if len(opts.Labels) != len(f.info.Channels) {
			return nil, fmt.Errorf("openbci: %s: %d labels for %d channels", name, len(opts.Labels), len(f.info.Channels))
		}
		for i, l := range opts.Labels {
			f.info.Channels[i].Label = l
		}
	}
	if len(f.info.Channels) > acquire.MaxChannels {
		return nil, f.errf(f.line, "", "%d channels, more than %d", len(f.info.Channels), acquire.MaxChannels)
	}
	f.fields = make([][]byte, 0, f.columns+1)
	f.start()
	return f, nil
}

// firstLine returns the next line without consuming it.
func (f *File) firstLine() ([]byte, error) {
	b, _ := f.rd.Peek(maxLine) // the whole line, or the rest of the file if shorter
	i := bytes.IndexByte(b, '\n')
	if i < 0 && len(b) == maxLine {
		return nil, f.errf(f.line+1, "", "line longer than %d bytes", maxLine)
	}
	if i >= 0 {
		b = b[:i]
	}
	return bytes.TrimRight(b, "\r"), nil
}

// start sets Info.Start from the first row's timestamp, when the file has
// one that parses; ReadFrame reports a malformed row where it stands.
func (f *File) start() {
	if f.stamp < 0 {
		return
	}
	b, err := f.firstLine()
	if err != nil {
		return
	}
	row := splitRow(b, nil)
	if len(row) != f.columns {
		return
	}
	ts, err := strconv.ParseFloat(string(row[f.stamp]), 64)
	if err != nil || math.IsInf(ts, 0) || math.IsNaN(ts) || math.Abs(ts*f.stampScale) > 1e11 {
		return
	}
	// Whole units and the fraction apart, so milliseconds stay exact.
	unit := f.stampScale * 1e9 // nanoseconds per unit of the column
	whole, frac := math.Modf(ts)
	f.info.Start = time.Unix(0, int64(whole)*int64(unit)+int64(math.Round(frac*unit))).UTC()
}

// Format returns the file's format.
func (f *File) Format() FileFormat { return f.format }

// Board returns the board the file says it came from (the GUI's %Board
// line, or the BrainFlow board recognised).
func (f *File) Board() string { return f.board }

// Info implements acquire.Source.
func (f *File) Info() acquire.Info { return f.info }

// Intervals implements acquire.Labeled: the markers read so far.
func (f *File) Intervals() []acquire.Interval { return f.marks }

// Truncated reports whether the file ended in a partly written row.
func (f *File) Truncated() bool { return f.truncated }

// Rows returns the number of rows read so far.
func (f *File) Rows() uint64 { return f.rows }

// Close closes the underlying file.
func (f *File) Close() error {
	if f.c == nil {
		return nil
	}
	return f.c.Close()
}

func (f *File) errf(line int, col string, format string, a ...any) error {
	where := f.name
	if line > 0 {
		where += ":" + strconv.Itoa(line)
	}
	if col != "" {
		where += ": " + col
	}
	return fmt.Errorf("%w: %s: %s", ErrFormat, where, fmt.Sprintf(format, a...))
}

// nextLine returns the next line without its line end, and whether it
// ended in a newline. io.EOF at the end of the input.
func (f *File) nextLine() ([]byte, bool, error) {
	b, err := f.rd.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return nil, false, f.errf(f.line+1, "", "line longer than %d bytes", maxLine)
	}
	if err != nil && err != io.EOF {
		return nil, false, fmt.Errorf("openbci: %s: %w", f.name, err)
	}
	if len(b) == 0 && err == io.EOF {
		return nil, false, io.EOF
	}
	f.line++
	complete := len(b) > 0 && b[len(b)-1] == '\n'
	b = bytes.TrimRight(b, "\r\n")
	return b, complete, nil
}

// readGUIHeader reads the '%' lines and the column line of a GUI file.
func (f *File) readGUIHeader() error {
	f.format, f.stampScale = FormatGUI, 1e-3
	var channels int
	var rate float64
	for {
		b, _, err := f.nextLine()
		if err == io.EOF {
			return f.errf(f.line, "", "the file ends before its column line")
		}
		if err != nil {
			return err
		}
		s := string(b)
		if !strings.HasPrefix(s, "%") {
			if err := f.guiColumns(s, channels); err != nil {
				return err
			}
			break
		}
		key, val, ok := strings.Cut(strings.TrimPrefix(s, "%"), "=")
		if f.line == 1 && !strings.HasPrefix(s, "%OpenBCI Raw E") {
			return f.errf(1, "", "%q: not an OpenBCI GUI recording (want %%OpenBCI Raw EXG Data)", s)
		}
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "Number of channels":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return f.errf(f.line, "Number of channels", "%q: want a positive whole number", val)
			}
			channels = n
		case "Sample Rate":
			v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(val, "Hz")), 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return f.errf(f.line, "Sample Rate", "%q: want a positive rate in Hz", val)
			}
			rate = v
		case "Board":
			f.board = strings.TrimPrefix(val, "OpenBCI_GUI$")
		}
	}
	if rate == 0 {
		return f.errf(f.line, "", "no %%Sample Rate line in the header")
	}
	f.info.Rate = rate
	for i := range f.info.Channels {
		f.info.Channels[i].Rate = rate
	}
	f.counter = strings.HasPrefix(f.board, "BoardCyton") && channels == 8
	return nil
}

// guiColumns reads the GUI's column line.
func (f *File) guiColumns(s string, channels int) error {
	names := strings.Split(s, ",")
	for i, n := range names {
		n = strings.TrimSpace(n)
		switch {
		case strings.HasPrefix(n, "EXG Channel "):
			f.exg = append(f.exg, i)
			f.info.Channels = append(f.info.Channels, acquire.Channel{Label: n, Unit: "uV"})
		case n == "Sample Index":
			f.index = i
		case n == "Timestamp":
			f.stamp = i
		case strings.HasPrefix(n, "Marker"):
			f.mk = i
		}
	}
	f.columns = len(names)
	if len(f.exg) == 0 {
		return f.errf(f.line, "", "the column line names no \"EXG Channel\" column")
	}
	if channels != 0 && channels != len(f.exg) {
		return f.errf(f.line, "", "the header says %d channels, the column line names %d EXG columns", channels, len(f.exg))
	}
	return nil
}

// sniffBrainFlow recognises a BrainFlow file's board from its first row.
func (f *File) sniffBrainFlow(name string) error {
	f.format, f.stampScale = FormatBrainFlow, 1
	line, err := f.firstLine()
	if err != nil {
		return err
	}
	n := len(splitRow(bytes.TrimRight(line, "\r"), nil))
	var board *Board
	for i := range Boards {
		if name != "" && Boards[i].Name == name || name == "" && Boards[i].Columns == n {
			board = &Boards[i]
			break
		}
	}
	if board == nil {
		if name != "" {
			return fmt.Errorf("openbci: %s: unknown BrainFlow board %q", f.name, name)
		}
		return f.errf(1, "", "neither an OpenBCI GUI file (no %% header) nor a BrainFlow file of a known board (%d columns; Cyton has 24, Cyton Daisy 32, Ganglion 15)", n)
	}
	f.board, f.columns = board.Name, board.Columns
	f.exg, f.index, f.stamp, f.mk = board.EEG, board.Package, board.Stamp, board.Marker
	f.info.Rate = board.Rate
	f.counter = board.ID == BoardCyton.ID
	for i := range board.EEG {
		label := fmt.Sprintf("EXG Channel %d", i)
		if board.Labels != nil {
			label = board.Labels[i]
		}
		f.info.Channels = append(f.info.Channels, acquire.Channel{Label: label, Unit: "uV", Rate: board.Rate})
	}
	return nil
}

// splitRow splits a row on commas or tabs into dst, trimming spaces.
func splitRow(b []byte, dst [][]byte) [][]byte {
	dst = dst[:0]
	for {
		i := bytes.IndexAny(b, ",\t")
		if i < 0 {
			return append(dst, bytes.TrimSpace(b))
		}
		dst = append(dst, bytes.TrimSpace(b[:i]))
		b = b[i+1:]
	}
}

// ReadFrame implements acquire.Source: the next row. It returns io.EOF
// after the last complete row. It allocates nothing.
func (f *File) ReadFrame(fr *acquire.Frame) error {
	if f.done != nil {
		return f.done
	}
	if len(fr.Samples) != len(f.info.Channels) {
		return acquire.ErrFrameSize
	}
	for {
		b, complete, err := f.nextLine()
		if err != nil {
			f.done = err
			return err
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		err = f.row(fr, b)
		if err != nil && !complete {
			f.truncated, f.done = true, io.EOF
			return io.EOF
		}
		if err != nil {
			f.done = err
		}
		return err
	}
}

// row parses one data row into fr.
func (f *File) row(fr *acquire.Frame, b []byte) error {
	f.fields = splitRow(b, f.fields)
	if len(f.fields) != f.columns {
		return f.errf(f.line, "", "%d columns, want %d", len(f.fields), f.columns)
	}
	fr.Reset()
	for c, col := range f.exg {
		v, err := f.number(col)
		if err != nil {
			return err
		}
		fr.Samples[c] = v
	}
	if err := f.sequence(fr); err != nil {
		return err
	}
	if f.stamp >= 0 {
		if _, err := f.number(f.stamp); err != nil {
			return err
		}
	}
	fr.Time = time.Duration(float64(fr.Seq) / f.info.Rate * float64(time.Second))
	if f.mk >= 0 {
		m, err := f.number(f.mk)
		if err != nil {
			return err
		}
		if m != 0 {
			f.marks = append(f.marks, acquire.Interval{Start: fr.Time, End: fr.Time, Text: "marker " + strconv.FormatFloat(m, 'g', -1, 64)})
		}
	}
	f.rows++
	return nil
}

// sequence numbers the frame from the sample counter.
func (f *File) sequence(fr *acquire.Frame) error {
	if f.rows > 0 {
		f.seq++
	}
	if f.index >= 0 && f.counter {
		v, err := f.number(f.index)
		if err != nil {
			return err
		}
		if v != math.Trunc(v) || v < 0 || v > 255 {
			return f.errf(f.line, f.columnName(f.index), "%v: want the Cyton's sample counter, 0 to 255", v)
		}
		idx := int(v)
		if f.rows > 0 {
			if lost := (idx - f.last - 1 + 512) % 256; lost > 0 {
				f.seq += uint64(lost)
				fr.Flags |= acquire.FlagGap
			}
		}
		f.last = idx
	}
	fr.Seq = f.seq
	return nil
}

// number parses column col of the current row as a finite float64
// without allocating: the string shares the line's bytes only for the
// call (strconv copies what it keeps in an error).
func (f *File) number(col int) (float64, error) {
	b := f.fields[col]
	if len(b) == 0 {
		return 0, f.errf(f.line, f.columnName(col), "empty")
	}
	v, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, f.errf(f.line, f.columnName(col), "%q: want a finite number", b)
	}
	return v, nil
}

func (f *File) columnName(col int) string {
	return "column " + strconv.Itoa(col+1)
}
