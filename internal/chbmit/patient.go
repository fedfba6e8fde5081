package chbmit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
)

// Patient is one case of the database as PhysioNet lays it out: a folder
// chbNN holding chbNN-summary.txt and the recordings the summary lists.
type Patient struct {
	Name    string // "chb01", the folder's name
	Dir     string // the folder
	Summary *Summary
	// List is the file the recordings and seizures were read from when it
	// is not the case's chbNN-summary.txt (another database's seizure
	// list, converted to a Summary: cmd/ictal's siena).
	List string
}

// SummaryPath returns the path of the case's summary (List when set).
func (p Patient) SummaryPath() string {
	if p.List != "" {
		return p.List
	}
	return filepath.Join(p.Dir, p.Name+"-summary.txt")
}

// Path returns the path of a recording the summary lists.
func (p Patient) Path(f File) string { return filepath.Join(p.Dir, f.Name) }

// caseName is the name of a case's folder.
var caseName = regexp.MustCompile(`^chb[0-9]+$`)

// Patients reads the summaries of the cases under dir: those named, in
// that order, or else every folder named chbNN, in name order. A case
// without its summary is an error naming the file.
func Patients(dir string, names []string) ([]Patient, error) {
	names, err := Folders(dir, names, caseName, "case", "chb01", "chb02")
	if err != nil {
		return nil, fmt.Errorf("chbmit: %w", err)
	}
	out := make([]Patient, 0, len(names))
	for _, name := range names {
		p := Patient{Name: name, Dir: filepath.Join(dir, name)}
		s, err := ReadFile(p.SummaryPath())
		if err != nil {
			return nil, fmt.Errorf("chbmit: case %s: %w", name, err)
		}
		if len(s.Files) == 0 {
			return nil, fmt.Errorf("chbmit: %s lists no recording: %w", p.SummaryPath(), ErrFormat)
		}
		p.Summary = s
		out = append(out, p)
	}
	return out, nil
}

// Folders returns the patients' folders of a database under dir to read:
// names, each matching re and none twice, or when names is empty every
// folder of dir whose name matches re, in name order. kind and the two
// example names word the errors ("case", "chb01", "chb02").
func Folders(dir string, names []string, re *regexp.Regexp, kind, first, second string) ([]string, error) {
	if len(names) == 0 {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() && re.MatchString(e.Name()) {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s holds no %s folder (%s, %s, …)", dir, kind, first, second)
		}
	}
	for i, name := range names {
		if !re.MatchString(name) {
			return nil, fmt.Errorf("%s %q: want a name such as %s", kind, name, first)
		}
		if slices.Contains(names[:i], name) {
			return nil, fmt.Errorf("%s %s named twice", kind, name)
		}
	}
	return names, nil
}

// ErrMissing is wrapped by the error of a recording that a summary lists
// and its folder does not hold.
var ErrMissing = errors.New("missing")

// CheckFiles returns an error naming the first recording the summary
// lists (and the summary's line) that is not a file in the case's folder.
func (p Patient) CheckFiles() error {
	for _, f := range p.Summary.Files {
		path := p.Path(f)
		st, err := os.Stat(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return fmt.Errorf("chbmit: %s, listed at %s:%d, is %w", path, p.SummaryPath(), f.Line, ErrMissing)
		case err != nil:
			return fmt.Errorf("chbmit: %s:%d: %w", p.SummaryPath(), f.Line, err)
		case !st.Mode().IsRegular():
			return fmt.Errorf("chbmit: %s, listed at %s:%d, is not a file", path, p.SummaryPath(), f.Line)
		}
	}
	return nil
}
