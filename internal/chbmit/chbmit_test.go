package chbmit

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/internal/datadir"
)

const sec = time.Second

func summaryPath(t testing.TB, n int) string {
	return datadir.Path(t, "data", "eeg", "chbmit", "summaries", fmt.Sprintf("chb%02d-summary.txt", n))
}

func TestAllSummariesList198Seizures(t *testing.T) {
	total, files := 0, 0
	for n := 1; n <= 24; n++ {
		s, err := ReadFile(summaryPath(t, n))
		if err != nil {
			t.Fatal(err)
		}
		if s.Rate != 256 {
			t.Errorf("chb%02d: rate %v", n, s.Rate)
		}
		for _, f := range s.Files {
			if !strings.HasPrefix(f.Name, fmt.Sprintf("chb%02d", n)) {
				t.Errorf("chb%02d lists %s", n, f.Name)
			}
			for _, z := range f.Seizures {
				if z.End <= z.Start {
					t.Errorf("%s: seizure %v–%v", f.Name, z.Start, z.End)
				}
				if f.HasTimes && z.End > f.End-f.Start+24*time.Hour {
					t.Errorf("%s: seizure ends after the file", f.Name)
				}
			}
		}
		total += s.Seizures()
		files += len(s.Files)
	}
	if total != 198 {
		t.Errorf("%d seizures, want 198", total)
	}
	t.Logf("%d files", files)
}

func TestTrickyRecords(t *testing.T) {
	load := func(n int) *Summary {
		s, err := ReadFile(summaryPath(t, n))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name     string
		summary  int
		file     string
		seizures []Seizure
		start    time.Duration
		end      time.Duration
		hasTimes bool
	}{
		{"un-numbered style", 1, "chb01_03.edf", []Seizure{{2996 * sec, 3036 * sec}}, 13*time.Hour + 43*time.Minute + 4*sec, 14*time.Hour + 43*time.Minute + 4*sec, true},
		{"chb09 typo: seizure 2 ended as seizure 1", 9, "chb09_08.edf", []Seizure{{2951 * sec, 3030 * sec}, {9196 * sec, 9267 * sec}}, 20*time.Hour + 22*time.Minute + 17*sec, 24*time.Hour + 22*time.Minute + 17*sec, true},
		{"24:xx:xx clock time", 1, "chb01_15.edf", []Seizure{{1732 * sec, 1772 * sec}}, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := load(tt.summary).Lookup("/some/dir/" + tt.file)
			if !ok {
				t.Fatalf("%s not found", tt.file)
			}
			if fmt.Sprint(f.Seizures) != fmt.Sprint(tt.seizures) {
				t.Errorf("seizures %v, want %v", f.Seizures, tt.seizures)
			}
			if tt.end != 0 && (f.Start != tt.start || f.End != tt.end || f.HasTimes != tt.hasTimes) {
				t.Errorf("times %v–%v (%v)", f.Start, f.End, f.HasTimes)
			}
		})
	}
	s9 := load(9)
	if len(s9.Warnings) != 1 || !strings.Contains(s9.Warnings[0], "chb09_08.edf") {
		t.Errorf("chb09 warnings %q", s9.Warnings)
	}
	s24 := load(24)
	multi := 0
	for _, f := range s24.Files {
		if f.HasTimes {
			t.Errorf("chb24 %s has times", f.Name)
		}
		if len(f.Seizures) > 1 {
			multi++
		}
	}
	if multi == 0 {
		t.Error("chb24: no file with several un-numbered seizures")
	}
	// 24:44:29 in chb01.
	found := false
	for _, f := range load(1).Files {
		found = found || f.End == 24*time.Hour+44*time.Minute+29*sec || f.Start == 24*time.Hour+44*time.Minute+29*sec
	}
	if !found {
		t.Error("chb01: no file at 24:44:29")
	}
	// Montage changes: chb11's later files have unused "-" slots.
	s11 := load(11)
	first, last := s11.Files[0].Channels, s11.Files[len(s11.Files)-1].Channels
	if fmt.Sprint(first) == fmt.Sprint(last) {
		t.Error("chb11: the Channels changed block did not apply")
	}
}

func TestParseErrorsNameLine(t *testing.T) {
	head := "Data Sampling Rate: 256 Hz\nChannels in EDF Files:\nChannel 1: FP1-F7\n\n"
	tests := []struct{ name, in, want string }{
		{"count mismatch", head + "File Name: a_01.edf\nNumber of Seizures in File: 2\nSeizure Start Time: 1 seconds\nSeizure End Time: 2 seconds\n", "s.txt:5: a_01.edf declares 2 seizures, lists 1"},
		{"end before start", head + "File Name: a_01.edf\nNumber of Seizures in File: 1\nSeizure Start Time: 10 seconds\nSeizure End Time: 2 seconds\n", "s.txt:8: seizure ends at 2 s"},
		{"end without start", head + "File Name: a_01.edf\nNumber of Seizures in File: 1\nSeizure End Time: 2 seconds\n", "s.txt:7: seizure end without a start"},
		{"bad clock", head + "File Name: a_01.edf\nFile Start Time: 11:61:00\n", "s.txt:6: File Start Time \"11:61:00\""},
		{"garbage", head + "hello\n", "s.txt:5: \"hello\""},
		{"no rate", "Channels in EDF Files:\nChannel 1: X\n", "no \"Data Sampling Rate\""},
		{"seconds missing", head + "File Name: a_01.edf\nNumber of Seizures in File: 1\nSeizure Start Time: 10\n", "s.txt:7: Seizure Start Time \"10\""},
		{"channel out of order", head + "Channel 3: X\n", "s.txt:5: channel 3 follows channel 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.in), "s.txt")
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want ErrFormat with %q", err, tt.want)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range []int{1, 9, 11, 24} {
		b, err := os.ReadFile(summaryPath(f, n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(strings.NewReader(in), "f.txt")
		if err != nil {
			if !errors.Is(err, ErrFormat) && !strings.Contains(err.Error(), "token too long") {
				t.Fatalf("error without ErrFormat: %v", err)
			}
			return
		}
		for _, fl := range s.Files {
			for _, z := range fl.Seizures {
				if z.End < z.Start {
					t.Fatalf("%s: %v", fl.Name, z)
				}
			}
		}
	})
}
