// Package siena reads the seizure lists of the Siena Scalp EEG Database
// (Detti et al. 2020, PhysioNet, doi:10.13026/5d4a-j060): one
// Seizures-list-PNnn.txt per patient, giving the sampling rate, the
// channels and, for every seizure, its recording (PNnn-k.edf), the
// recording's start and end and the seizure's start and end, all as
// times of day (hh.mm.ss, some lists hh:mm:ss) without a date.
//
// Offsets into a recording are counted from its registration start; a
// time of day earlier than the registration start is on the next day
// (recordings run past midnight). Mismatch tells a caller when the
// recording's own header starts at another time of day. A seizure that does not lie within its
// registration is kept in the list, but the recording's intervals are
// refused, naming the line: the real PN00 list has a seizure ending at
// 19.29.29 in a registration that ends at 18.57.13 (most likely 18.29.29
// was meant), and guessing would label an hour of EEG a seizure or none.
//
// The parser is strict otherwise: a line it does not recognise is an
// error naming the line, so that a list is never half read. It accepts
// what the real lists hold: CRLF and LF mixed, trailing spaces, a missing
// space after the colon, headers such as "Seizure n 1 (in sleep):", and
// the keys "Start time"/"End time" for the seizure's times.
package siena

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

// ErrFormat is wrapped by every error about the content of a list.
var ErrFormat = errors.New("siena: malformed seizure list")

// day is the length of the clock the lists count on.
const day = 24 * time.Hour

// Seizure is one seizure of a list: its recording and four times of day.
type Seizure struct {
	N    int    // its number ("Seizure n 3")
	Note string // what the header adds, e.g. "in sleep"
	File string // e.g. "PN00-3.edf"
	// RegStart and RegEnd are the recording's start and end, Start and End
	// the seizure's, as times of day (0 to 24 h).
	RegStart, RegEnd, Start, End time.Duration
	Line                         int // line of its "Seizure n" header
}

// Channel is one entry of the list's channel table.
type Channel struct {
	N     int
	Label string
}

// List is a parsed Seizures-list-PNnn.txt.
type List struct {
	Name     string // the file's name, for errors
	Patient  string // its first line, e.g. "PN00"
	Rate     float64
	Channels []Channel
	Seizures []Seizure
}

// ReadFile parses the list at path.
func ReadFile(path string) (*List, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, filepath.Base(path))
}

// maxLine bounds a line; the real lists' longest is under 40 bytes.
const maxLine = 4096

// Parse reads a seizure list; name is used in errors, which give the line.
func Parse(r io.Reader, name string) (*List, error) {
	p := parser{l: &List{Name: name}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), maxLine)
	for sc.Scan() {
		p.line++
		if err := p.parseLine(strings.TrimSpace(sc.Text())); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("siena: %s:%d: %w", name, p.line+1, err)
	}
	if err := p.endSeizure(); err != nil {
		return nil, err
	}
	if p.l.Rate == 0 {
		return nil, fmt.Errorf("siena: %s: no \"Data Sampling Rate\" line: %w", name, ErrFormat)
	}
	if len(p.l.Seizures) == 0 {
		return nil, fmt.Errorf("siena: %s lists no seizure: %w", name, ErrFormat)
	}
	return p.l, nil
}

type parser struct {
	l      *List
	line   int
	cur    *Seizure
	seen   map[string]bool // keys of the current seizure
	lineOf map[int]int     // line of each seizure number's header
}

func (p *parser) errf(format string, a ...any) error {
	return fmt.Errorf("siena: %s:%d: %s: %w", p.l.Name, p.line, fmt.Sprintf(format, a...), ErrFormat)
}

// seizureKeys maps a seizure block's keys, lower case with single spaces,
// to the field they set.
var seizureKeys = map[string]string{
	"file name":               "file",
	"registration start time": "regStart",
	"registration end time":   "regEnd",
	"seizure start time":      "start",
	"start time":              "start",
	"seizure end time":        "end",
	"end time":                "end",
}

func (p *parser) parseLine(t string) error {
	if t == "" {
		return nil
	}
	lower := strings.Join(strings.Fields(strings.ToLower(t)), " ")
	if strings.HasPrefix(lower, "seizure n") {
		return p.header(t)
	}
	key, val, ok := strings.Cut(t, ":")
	if !ok {
		if p.l.Patient == "" && p.l.Rate == 0 && len(strings.Fields(t)) == 1 {
			p.l.Patient = t
			return nil
		}
		return p.errf("%q is not a \"key: value\" line", cut(t))
	}
	key = strings.Join(strings.Fields(strings.ToLower(key)), " ")
	val = strings.TrimSpace(val)
	switch {
	case key == "data sampling rate":
		v, ok := strings.CutSuffix(strings.ToLower(val), "hz")
		r, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if !ok || err != nil || !(r > 0 && r < 1e6) {
			return p.errf("sampling rate %q: want \"N Hz\"", cut(val))
		}
		p.l.Rate = r
	case key == "channels in edf files":
		if val != "" {
			return p.errf("%q after \"Channels in EDF files:\"", cut(val))
		}
	case strings.HasPrefix(key, "channel "):
		n, err := strconv.Atoi(strings.TrimPrefix(key, "channel "))
		if err != nil || n < 1 || n > 1024 || val == "" {
			return p.errf("%q: want \"Channel N: label\"", cut(t))
		}
		if k := len(p.l.Channels); k > 0 && n <= p.l.Channels[k-1].N {
			return p.errf("channel %d follows channel %d", n, p.l.Channels[k-1].N)
		}
		p.l.Channels = append(p.l.Channels, Channel{N: n, Label: val})
	default:
		field, ok := seizureKeys[key]
		if !ok {
			return p.errf("unknown line %q", cut(t))
		}
		return p.set(field, key, val)
	}
	return nil
}

// header starts a seizure block: "Seizure n 3", "Seizure n 1 (in sleep):".
func (p *parser) header(t string) error {
	if err := p.endSeizure(); err != nil {
		return err
	}
	const head = "seizure n"
	folded := strings.Join(strings.Fields(t), " ") // "Seizure  n 1" too
	if len(folded) < len(head) || !strings.EqualFold(folded[:len(head)], head) {
		return p.errf("seizure header %q: want \"Seizure n N\"", cut(t))
	}
	rest := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(folded[len(head):]), ":"))
	num, note, _ := strings.Cut(rest, " ")
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || n > 100000 {
		return p.errf("seizure header %q: want \"Seizure n N\"", cut(t))
	}
	if note = strings.TrimSpace(note); note != "" {
		inner, open := strings.CutPrefix(note, "(")
		inner, shut := strings.CutSuffix(inner, ")")
		if !open || !shut {
			return p.errf("seizure header %q: want a note in parentheses", cut(t))
		}
		note = strings.TrimSpace(inner)
	}
	if first, ok := p.lineOf[n]; ok {
		return p.errf("seizure %d listed twice (first at line %d)", n, first)
	}
	if p.lineOf == nil {
		p.lineOf = map[int]int{}
	}
	p.lineOf[n] = p.line
	p.cur, p.seen = &Seizure{N: n, Note: note, Line: p.line}, map[string]bool{}
	return nil
}

// set records one key of the current seizure.
func (p *parser) set(field, key, val string) error {
	if p.cur == nil {
		return p.errf("%q outside a seizure", key)
	}
	if p.seen[field] {
		return p.errf("%q given twice for seizure %d", key, p.cur.N)
	}
	p.seen[field] = true
	if field == "file" {
		if !strings.HasSuffix(strings.ToLower(val), ".edf") || strings.ContainsAny(val, `/\`) {
			return p.errf("file name %q is not an .edf name", cut(val))
		}
		p.cur.File = val
		return nil
	}
	d, err := clock(val)
	if err != nil {
		return p.errf("%s %q: %v", key, cut(val), err)
	}
	switch field {
	case "regStart":
		p.cur.RegStart = d
	case "regEnd":
		p.cur.RegEnd = d
	case "start":
		p.cur.Start = d
	default:
		p.cur.End = d
	}
	return nil
}

// endSeizure closes the current seizure block, which must be complete.
func (p *parser) endSeizure() error {
	if p.cur == nil {
		return nil
	}
	for _, f := range []string{"file", "regStart", "regEnd", "start", "end"} {
		if !p.seen[f] {
			return fmt.Errorf("siena: %s:%d: seizure %d has no %s: %w", p.l.Name, p.cur.Line, p.cur.N, missingName[f], ErrFormat)
		}
	}
	p.l.Seizures = append(p.l.Seizures, *p.cur)
	p.cur = nil
	return nil
}

var missingName = map[string]string{
	"file": "file name", "regStart": "registration start time", "regEnd": "registration end time",
	"start": "seizure start time", "end": "seizure end time",
}

// clock parses a time of day, hh.mm.ss or hh:mm:ss.
func clock(s string) (time.Duration, error) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == ':' })
	if len(parts) != 3 || strings.Count(s, ".")+strings.Count(s, ":") != 2 {
		return 0, errors.New("want hh.mm.ss")
	}
	var v [3]int
	for i, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil || len(part) > 2 || strings.Trim(part, "0123456789") != "" {
			return 0, errors.New("want hh.mm.ss")
		}
		v[i] = n
	}
	if v[0] > 23 || v[1] > 59 || v[2] > 59 {
		return 0, errors.New("not a time of day")
	}
	return time.Duration(v[0])*time.Hour + time.Duration(v[1])*time.Minute + time.Duration(v[2])*time.Second, nil
}

// since returns how long after the time of day from the time of day t
// comes, on the same or the next day.
func since(from, t time.Duration) time.Duration {
	d := t - from
	if d < 0 {
		d += day
	}
	return d
}

// ErrNotListed is returned by Intervals for a recording the list does not
// name.
var ErrNotListed = errors.New("not in the seizure list")

// Intervals returns the seizures of the recording at path (found by its
// base name) as offsets from its registration start. It is an error when
// the list does not name the recording (ErrNotListed), when its seizures
// disagree on the registration's start or end, or when a seizure does not
// lie within the registration.
func (l *List) Intervals(path string) ([]acquire.Interval, error) {
	base := filepath.Base(path)
	var out []acquire.Interval
	var first *Seizure
	for i := range l.Seizures {
		s := &l.Seizures[i]
		if !strings.EqualFold(s.File, base) {
			continue
		}
		if first == nil {
			first = s
		} else if s.RegStart != first.RegStart || s.RegEnd != first.RegEnd {
			return nil, fmt.Errorf("siena: %s:%d: seizure %d gives %s a registration of %s–%s, seizure %d (line %d) %s–%s: %w",
				l.Name, s.Line, s.N, base, hms(s.RegStart), hms(s.RegEnd), first.N, first.Line, hms(first.RegStart), hms(first.RegEnd), ErrFormat)
		}
		length := since(s.RegStart, s.RegEnd)
		start, end := since(s.RegStart, s.Start), since(s.RegStart, s.End)
		if end <= start || end > length {
			return nil, fmt.Errorf("siena: %s:%d: seizure %d of %s, %s–%s, does not lie within its registration, %s–%s: %w",
				l.Name, s.Line, s.N, base, hms(s.Start), hms(s.End), hms(s.RegStart), hms(s.RegEnd), ErrFormat)
		}
		out = append(out, acquire.Interval{Start: start, End: end, Text: "seizure", Seizure: true})
	}
	if first == nil {
		return nil, fmt.Errorf("siena: %s: %s: %w", l.Name, base, ErrNotListed)
	}
	return out, nil
}

// Registration returns the registration start and end the list gives the
// recording at path (found by its base name), as times of day; ok is
// false when the list does not name it.
func (l *List) Registration(path string) (start, end time.Duration, ok bool) {
	base := filepath.Base(path)
	for _, s := range l.Seizures {
		if strings.EqualFold(s.File, base) {
			return s.RegStart, s.RegEnd, true
		}
	}
	return 0, 0, false
}

// Mismatch compares the start of a recording, as its own header gives it,
// with its registration start in the list, time of day against time of day
// (the lists give no date), and returns the difference when it exceeds a
// second, 0 otherwise. Offsets are counted from the list's time, so a
// difference shifts every seizure by as much.
func Mismatch(recordingStart time.Time, registration time.Duration) time.Duration {
	h, m, sec := recordingStart.Clock()
	tod := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second +
		time.Duration(recordingStart.Nanosecond())
	d := since(registration, tod)
	if d > day/2 {
		d -= day
	}
	if d > -time.Second && d < time.Second {
		return 0
	}
	return d
}

// hms writes a time of day as the lists do.
func hms(d time.Duration) string {
	s := int(d / time.Second)
	return fmt.Sprintf("%02d.%02d.%02d", s/3600, s/60%60, s%60)
}

// cut shortens what an error quotes from the input.
func cut(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
