package eval

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// ErrFormat is wrapped by every parse error of ReadTSV and ReadJSONL.
var ErrFormat = errors.New("malformed annotation file")

// Recording is what an annotation file says about one recording.
type Recording struct {
	Events []Event // seizure events, in file order
	// Duration is the recording's duration (TSV recordingDuration, the
	// replay's summary), zero when the file does not say.
	Duration time.Duration
	// Start is the wall-clock start (TSV dateTime, the replay's summary),
	// zero when unknown.
	Start time.Time
}

// tsvColumns are the SzCORE/BIDS events.tsv columns; onset, duration and
// eventType are required.
var tsvColumns = []string{"onset", "duration", "eventType", "confidence", "channels", "dateTime", "recordingDuration"}

// ReadTSV parses a SzCORE/BIDS events.tsv: a header line naming the
// columns (any order, extra columns ignored), then one event per line.
// Events whose eventType is "sz" or starts with "sz_" are seizures; "bckg"
// lines (background) only carry the recording's duration and start.
// "n/a" is accepted in the optional columns. name is used in errors.
func ReadTSV(r io.Reader, name string) (Recording, error) {
	var rec Recording
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var col map[string]int
	line := 0
	errf := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s: %w", name, line, fmt.Sprintf(format, a...), ErrFormat)
	}
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if line == 1 {
			var err error
			if col, err = tsvHeader(strings.TrimPrefix(text, "\ufeff"), errf); err != nil {
				return rec, err
			}
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		row := tsvRow{f: strings.Split(text, "\t"), col: col, errf: errf}
		if len(row.f) < len(col) {
			return rec, errf("%d fields, header has %d", len(row.f), len(col))
		}
		if err := rec.add(row); err != nil {
			return rec, err
		}
	}
	if err := sc.Err(); err != nil {
		return rec, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if line == 0 {
		return rec, fmt.Errorf("%s: empty file, no header: %w", name, ErrFormat)
	}
	return rec, nil
}

// tsvHeader maps the header's column names to their positions.
func tsvHeader(text string, errf func(string, ...any) error) (map[string]int, error) {
	col := map[string]int{}
	for i, c := range strings.Split(text, "\t") {
		c = strings.TrimSpace(c)
		if _, dup := col[c]; dup {
			return nil, errf("column %q appears twice", c)
		}
		col[c] = i
	}
	for _, c := range tsvColumns[:3] {
		if _, ok := col[c]; !ok {
			return nil, errf("header lacks the %q column", c)
		}
	}
	return col, nil
}

// tsvRow is one line of an annotation file.
type tsvRow struct {
	f    []string
	col  map[string]int
	errf func(string, ...any) error
}

// get returns column c's value; ok is false when the header has no c.
func (r tsvRow) get(c string) (v string, ok bool) {
	i, ok := r.col[c]
	if !ok {
		return "", false
	}
	if i >= len(r.f) {
		return "", true
	}
	return strings.TrimSpace(r.f[i]), true
}

// seconds reads column c as seconds; ok is false when absent or n/a.
func (r tsvRow) seconds(c string) (d time.Duration, ok bool, err error) {
	v, ok := r.get(c)
	if !ok || v == "n/a" {
		return 0, false, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x > 1e9 {
		return 0, false, r.errf("%s %q: want a non-negative number of seconds", c, v)
	}
	return time.Duration(math.Round(x * float64(time.Second))), true, nil
}

// required reads column c as seconds, which must be given.
func (r tsvRow) required(c string) (time.Duration, error) {
	d, ok, err := r.seconds(c)
	if err == nil && !ok {
		err = r.errf("%s is n/a", c)
	}
	return d, err
}

// add takes one row into rec.
func (rec *Recording) add(r tsvRow) error {
	onset, err := r.required("onset")
	if err != nil {
		return err
	}
	dur, err := r.required("duration")
	if err != nil {
		return err
	}
	if d, ok, err := r.seconds("recordingDuration"); err != nil {
		return err
	} else if ok {
		if rec.Duration != 0 && d != rec.Duration {
			return r.errf("recordingDuration %v differs from %v on an earlier line", d.Seconds(), rec.Duration.Seconds())
		}
		rec.Duration = d
	}
	if v, ok := r.get("dateTime"); ok && v != "n/a" && v != "" {
		t, err := parseDateTime(v)
		if err != nil {
			return r.errf("dateTime %q: want YYYY-MM-DD HH:MM:SS", v)
		}
		rec.Start = t
	}
	if v, ok := r.get("confidence"); ok && v != "n/a" && v != "" {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= 0 && x <= 1) {
			return r.errf("confidence %q: want a number in [0, 1] or n/a", v)
		}
	}
	typ, _ := r.get("eventType")
	switch {
	case typ == "bckg":
	case typ == "sz" || strings.HasPrefix(typ, "sz_"):
		rec.Events = append(rec.Events, Event{Start: onset, End: onset + dur})
	default:
		return r.errf("eventType %q: want sz, sz_… or bckg", typ)
	}
	return nil
}

func parseDateTime(v string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", time.RFC3339Nano} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("bad time")
}

// WriteTSV writes events of a recording as a SzCORE events.tsv (a single
// bckg line when there is none).
func WriteTSV(w io.Writer, rec Recording) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, strings.Join(tsvColumns, "\t"))
	dt := "n/a"
	if !rec.Start.IsZero() {
		dt = rec.Start.UTC().Format("2006-01-02 15:04:05")
	}
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	if len(rec.Events) == 0 {
		fmt.Fprintf(bw, "0\t%s\tbckg\tn/a\tn/a\t%s\t%s\n", sec(rec.Duration), dt, sec(rec.Duration))
	}
	for _, e := range rec.Events {
		fmt.Fprintf(bw, "%s\t%s\tsz\tn/a\tn/a\t%s\t%s\n", sec(e.Start), sec(e.End-e.Start), dt, sec(rec.Duration))
	}
	return bw.Flush()
}
