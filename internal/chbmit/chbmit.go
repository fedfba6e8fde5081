package chbmit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ictal/ictal/acquire"
)

// ErrFormat is wrapped by every error about the content of a summary.
var ErrFormat = errors.New("chbmit: malformed summary")

// Seizure is one seizure, in offsets from the start of its file.
type Seizure struct {
	Start, End time.Duration
}

// File is one recording listed in a summary.
type File struct {
	Name string // e.g. "chb01_03.edf"
	// Start and End are the clock times of the file as written (time of
	// day, 24:00:00 and later for the next day); valid when HasTimes.
	Start, End time.Duration
	HasTimes   bool
	Seizures   []Seizure
	// Channels is the montage in effect for this file ("-" for an unused
	// slot).
	Channels []string
	Line     int // line of the "File Name:" entry
}

// Intervals returns the file's seizures as labelled intervals.
func (f File) Intervals() []acquire.Interval {
	out := make([]acquire.Interval, len(f.Seizures))
	for i, s := range f.Seizures {
		out[i] = acquire.Interval{Start: s.Start, End: s.End, Text: "seizure", Seizure: true}
	}
	return out
}

// Summary is a parsed chbNN-summary.txt.
type Summary struct {
	Rate     float64 // Hz
	Files    []File
	Warnings []string // recoverable oddities, with their line
}

// Seizures returns the number of seizures over all files.
func (s *Summary) Seizures() int {
	n := 0
	for _, f := range s.Files {
		n += len(f.Seizures)
	}
	return n
}

// Lookup returns the entry of a recording by its base name (any directory
// is ignored): "data/chb01_03.edf" finds "chb01_03.edf".
func (s *Summary) Lookup(path string) (File, bool) {
	base := filepath.Base(path)
	for _, f := range s.Files {
		if f.Name == base {
			return f, true
		}
	}
	return File{}, false
}

// ReadFile parses the summary at path.
func ReadFile(path string) (*Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, filepath.Base(path))
}

// Parse reads a summary; name is used in errors, which give the line.
func Parse(r io.Reader, name string) (*Summary, error) {
	p := parser{name: name, s: &Summary{}}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		p.line++
		if err := p.parseLine(strings.TrimRight(sc.Text(), "\r")); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("chbmit: %s:%d: %w", name, p.line+1, err)
	}
	if err := p.endFile(); err != nil {
		return nil, err
	}
	if p.s.Rate == 0 {
		return nil, fmt.Errorf("chbmit: %s: no \"Data Sampling Rate\" line: %w", name, ErrFormat)
	}
	return p.s, nil
}

type parser struct {
	name     string
	line     int
	s        *Summary
	montage  []string
	newBlock bool // the next Channel line starts a new montage
	cur      *File
	declared int // "Number of Seizures in File"
	hasCount bool
	open     bool // a seizure start waits for its end
	startNum int  // number of the open seizure's label, 0 when un-numbered
}

func (p *parser) errf(format string, a ...any) error {
	return fmt.Errorf("chbmit: %s:%d: %s: %w", p.name, p.line, fmt.Sprintf(format, a...), ErrFormat)
}

func (p *parser) parseLine(text string) error {
	t := strings.TrimSpace(text)
	if t == "" || strings.Trim(t, "*") == "" {
		return nil
	}
	key, val, ok := strings.Cut(t, ":")
	if !ok {
		return p.errf("%q is not a \"key: value\" line", t)
	}
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	switch {
	case key == "Data Sampling Rate":
		v, ok := strings.CutSuffix(val, "Hz")
		r, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if !ok || err != nil || !(r > 0 && r < 1e6) {
			return p.errf("sampling rate %q: want \"N Hz\"", val)
		}
		p.s.Rate = r
	case key == "Channels in EDF Files" || key == "Channels changed":
		if err := p.endFile(); err != nil {
			return err
		}
		p.newBlock = true
	case strings.HasPrefix(key, "Channel "):
		k, err := strconv.Atoi(strings.TrimPrefix(key, "Channel "))
		if err != nil || k < 1 {
			return p.errf("%q: want \"Channel N\"", key)
		}
		if p.newBlock {
			p.montage, p.newBlock = nil, false
		}
		if k != len(p.montage)+1 {
			return p.errf("channel %d follows channel %d", k, len(p.montage))
		}
		if val == "" {
			return p.errf("channel %d has no label", k)
		}
		p.montage = append(p.montage, val)
	case key == "File Name":
		if err := p.endFile(); err != nil {
			return err
		}
		if !strings.HasSuffix(strings.ToLower(val), ".edf") {
			return p.errf("file name %q is not an .edf", val)
		}
		if len(p.montage) == 0 {
			return p.errf("file %s before any channel list", val)
		}
		p.cur = &File{Name: val, Line: p.line, Channels: p.montage}
	case key == "File Start Time" || key == "File End Time":
		if p.cur == nil {
			return p.errf("%s outside a file entry", key)
		}
		d, err := clock(val)
		if err != nil {
			return p.errf("%s %q: %v", key, val, err)
		}
		if key == "File Start Time" {
			p.cur.Start = d
		} else {
			p.cur.End = d
			p.cur.HasTimes = true
		}
	case key == "Number of Seizures in File":
		if p.cur == nil {
			return p.errf("%s outside a file entry", key)
		}
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 || n > 1000 {
			return p.errf("number of seizures %q", val)
		}
		p.declared, p.hasCount = n, true
	case strings.HasPrefix(key, "Seizure") && (strings.HasSuffix(key, "Start Time") || strings.HasSuffix(key, "End Time")):
		return p.seizure(key, val)
	default:
		return p.errf("unknown line %q", t)
	}
	return nil
}

// seizure handles "Seizure [N ]Start|End Time: X seconds".
func (p *parser) seizure(key, val string) error {
	if p.cur == nil {
		return p.errf("%s outside a file entry", key)
	}
	isStart := strings.HasSuffix(key, "Start Time")
	mid := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(key, "Seizure"), " Start Time"), " End Time"))
	num := 0
	if mid != "" {
		n, err := strconv.Atoi(mid)
		if err != nil || n < 1 {
			return p.errf("%q: want \"Seizure [N] Start Time\"", key)
		}
		num = n
	}
	v, ok := strings.CutSuffix(val, "seconds")
	sec, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if !ok || err != nil || !(sec >= 0 && sec < 1e7) {
		return p.errf("%s %q: want \"N seconds\"", key, val)
	}
	d := time.Duration(sec * float64(time.Second))
	if isStart {
		if p.open {
			return p.errf("seizure start while the previous seizure has no end")
		}
		p.open, p.startNum = true, num
		p.cur.Seizures = append(p.cur.Seizures, Seizure{Start: d})
		if num != 0 && num != len(p.cur.Seizures) {
			p.s.Warnings = append(p.s.Warnings, fmt.Sprintf("%s:%d: %s is seizure %d of %s", p.name, p.line, key, len(p.cur.Seizures), p.cur.Name))
		}
		return nil
	}
	if !p.open {
		return p.errf("seizure end without a start")
	}
	k := len(p.cur.Seizures) - 1
	if d < p.cur.Seizures[k].Start {
		return p.errf("seizure ends at %v s, before its start at %v s", sec, p.cur.Seizures[k].Start.Seconds())
	}
	if num != p.startNum {
		p.s.Warnings = append(p.s.Warnings, fmt.Sprintf("%s:%d: %q ends seizure %d of %s (numbered %d at its start); paired in order", p.name, p.line, key, k+1, p.cur.Name, p.startNum))
	}
	p.cur.Seizures[k].End = d
	p.open = false
	return nil
}

// endFile closes the current file entry after checking it.
func (p *parser) endFile() error {
	if p.cur == nil {
		return nil
	}
	f := p.cur
	p.cur = nil
	if p.open {
		return fmt.Errorf("chbmit: %s:%d: %s: the last seizure has no end: %w", p.name, f.Line, f.Name, ErrFormat)
	}
	if !p.hasCount {
		return fmt.Errorf("chbmit: %s:%d: %s: no \"Number of Seizures in File\": %w", p.name, f.Line, f.Name, ErrFormat)
	}
	if p.declared != len(f.Seizures) {
		return fmt.Errorf("chbmit: %s:%d: %s declares %d seizures, lists %d: %w", p.name, f.Line, f.Name, p.declared, len(f.Seizures), ErrFormat)
	}
	p.hasCount, p.declared = false, 0
	p.s.Files = append(p.s.Files, *f)
	return nil
}

// clock parses h:mm:ss where h may exceed 23.
func clock(v string) (time.Duration, error) {
	parts := strings.Split(v, ":")
	if len(parts) != 3 {
		return 0, errors.New("want hh:mm:ss")
	}
	var n [3]int
	for i, s := range parts {
		x, err := strconv.Atoi(s)
		if err != nil || x < 0 || (i > 0 && x > 59) || x > 999 {
			return 0, errors.New("want hh:mm:ss")
		}
		n[i] = x
	}
	return time.Duration(n[0])*time.Hour + time.Duration(n[1])*time.Minute + time.Duration(n[2])*time.Second, nil
}
