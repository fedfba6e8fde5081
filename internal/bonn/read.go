package bonn

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Rate is the sampling rate of the Bonn segments, in Hz.
const Rate = 173.61

// SegmentSamples is the number of samples of a segment.
const SegmentSamples = 4097

// Sets are the names of the five sets, as folder names; S is ictal.
var Sets = []string{"Z", "O", "N", "F", "S"}

// ErrFormat is wrapped by errors about a segment file's content.
var ErrFormat = errors.New("bonn: malformed segment")

// Segment is one Bonn segment.
type Segment struct {
	Set  string // Z, O, N, F or S
	Name string // file name, e.g. "S001.txt"
	X    []float64
}

// Ictal reports whether the segment is from set S.
func (s Segment) Ictal() bool { return s.Set == "S" }

// ReadSegment reads one segment file: one integer per line (CRLF or LF),
// exactly SegmentSamples of them.
func ReadSegment(path string) ([]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseSegment(f, path)
}

// ParseSegment reads a segment from r; name is used in errors.
func ParseSegment(r io.Reader, path string) ([]float64, error) {
	x := make([]float64, 0, SegmentSamples)
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			continue
		}
		v, err := strconv.Atoi(t)
		if err != nil || v < -1<<15 || v >= 1<<15 {
			return nil, fmt.Errorf("%s:%d: %q is not a 16-bit integer: %w", path, line, t, ErrFormat)
		}
		x = append(x, float64(v))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	if len(x) != SegmentSamples {
		return nil, fmt.Errorf("%s: %d samples, want %d: %w", path, len(x), SegmentSamples, ErrFormat)
	}
	return x, nil
}

// LoadSet reads every segment of a set from dir/SET/ (files ending .txt in
// any case, in name order).
func LoadSet(dir, set string) ([]Segment, error) {
	ents, err := os.ReadDir(filepath.Join(dir, set))
	if err != nil {
		return nil, err
	}
	var out []Segment
	for _, e := range ents {
		if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".txt") {
			continue
		}
		x, err := ReadSegment(filepath.Join(dir, set, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, Segment{Set: set, Name: e.Name(), X: x})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("bonn: no segment files in %s", filepath.Join(dir, set))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Load reads the given sets from dir.
func Load(dir string, sets ...string) ([]Segment, error) {
	var all []Segment
	for _, s := range sets {
		seg, err := LoadSet(dir, s)
		if err != nil {
			return nil, err
		}
		all = append(all, seg...)
	}
	return all, nil
}
