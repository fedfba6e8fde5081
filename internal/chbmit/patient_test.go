package chbmit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPatients(t *testing.T) {
	dir := t.TempDir()
	summary := "Data Sampling Rate: 256 Hz\nChannels in EDF Files:\nChannel 1: FP1-F7\n\nFile Name: %s_01.edf\nNumber of Seizures in File: 0\n"
	for _, c := range []string{"chb02", "chb01"} {
		os.MkdirAll(filepath.Join(dir, c), 0o755)
		os.WriteFile(filepath.Join(dir, c, c+"-summary.txt"), []byte(strings.ReplaceAll(summary, "%s", c)), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "notes"), 0o755)  // not a case
	os.MkdirAll(filepath.Join(dir, "chb03x"), 0o755) // nor this
	os.WriteFile(filepath.Join(dir, "chb01", "chb01_01.edf"), nil, 0o644)

	ps, err := Patients(dir, nil)
	if err != nil || len(ps) != 2 || ps[0].Name != "chb01" || ps[1].Name != "chb02" || ps[1].Summary.Files[0].Name != "chb02_01.edf" {
		t.Fatalf("Patients: %v, %v", ps, err)
	}
	if err := ps[0].CheckFiles(); err != nil {
		t.Error(err)
	}
	err = ps[1].CheckFiles()
	if want := filepath.Join(dir, "chb02", "chb02_01.edf") + ", listed at " + filepath.Join(dir, "chb02", "chb02-summary.txt") + ":5, is missing"; !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), want) {
		t.Errorf("CheckFiles: %v, want %q", err, want)
	}
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"chb02", "chb05"}, filepath.Join(dir, "chb05", "chb05-summary.txt")},
		{[]string{"chb02", "chb02"}, "chb02 named twice"},
		{[]string{"../x"}, `case "../x"`},
	}
	for _, tt := range tests {
		if _, err := Patients(dir, tt.names); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Patients(%v): %v, want %q", tt.names, err, tt.want)
		}
	}
	if _, err := Patients(filepath.Join(dir, "notes"), nil); err == nil || !strings.Contains(err.Error(), "no case folder") {
		t.Errorf("a folder without cases: %v", err)
	}
}
