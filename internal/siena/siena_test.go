package siena

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/internal/datadir"
)

func realList(t *testing.T, patient string) *List {
	t.Helper()
	l, err := ReadFile(datadir.Path(t, "data", "eeg", "siena", "Seizures-list-"+patient+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func hmsDur(h, m, s int) time.Duration {
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second
}

// TestRealLists reads the two real lists stored in ../shared (with their
// mixed line ends, trailing spaces, "(in sleep)" headers and a time with
// no space after the colon) and checks every seizure against the text.
func TestRealLists(t *testing.T) {
	pn00 := realList(t, "PN00")
	if pn00.Patient != "PN00" || pn00.Rate != 512 || len(pn00.Seizures) != 5 {
		t.Fatalf("PN00: patient %q, rate %g, %d seizures", pn00.Patient, pn00.Rate, len(pn00.Seizures))
	}
	if c := pn00.Channels; len(c) != 31 || c[0] != (Channel{1, "Fp1"}) || c[29] != (Channel{33, "EKG 1"}) || c[30] != (Channel{34, "EKG 2"}) {
		t.Errorf("PN00 channels %v", c)
	}
	want := Seizure{N: 1, File: "PN00-1.edf", RegStart: hmsDur(19, 39, 33), RegEnd: hmsDur(20, 22, 58), Start: hmsDur(19, 58, 36), End: hmsDur(19, 59, 46), Line: 39}
	if got := pn00.Seizures[0]; got != want {
		t.Errorf("PN00 seizure 1: %+v, want %+v", got, want)
	}
	pn16 := realList(t, "PN16")
	if pn16.Patient != "PN16" || pn16.Rate != 512 || len(pn16.Seizures) != 2 {
		t.Fatalf("PN16: patient %q, rate %g, %d seizures", pn16.Patient, pn16.Rate, len(pn16.Seizures))
	}
	s := pn16.Seizures[1]
	if s.N != 2 || s.Note != "in sleep" || s.File != "PN16-2.edf" || s.End != hmsDur(3, 18, 36) {
		t.Errorf("PN16 seizure 2: %+v", s)
	}

	for _, tt := range []struct {
		l          *List
		file       string
		start, end time.Duration // offsets from the registration start
	}{
		{pn00, "PN00-1.edf", hmsDur(0, 19, 3), hmsDur(0, 20, 13)},
		{pn00, "data/PN00-2.edf", hmsDur(0, 20, 20), hmsDur(0, 21, 14)},
		{pn00, "PN00-5.edf", hmsDur(0, 15, 4), hmsDur(0, 16, 11)},
		{pn16, "PN16-1.edf", hmsDur(1, 59, 44), hmsDur(2, 1, 47)},
		{pn16, "PN16-2.edf", hmsDur(2, 22, 54), hmsDur(2, 24, 41)},
	} {
		iv, err := tt.l.Intervals(tt.file)
		if err != nil || len(iv) != 1 || iv[0] != (acquire.Interval{Start: tt.start, End: tt.end, Text: "seizure", Seizure: true}) {
			t.Errorf("%s: %+v, %v; want %v–%v", tt.file, iv, err, tt.start, tt.end)
		}
	}
	// PN00's third seizure ends an hour after it starts and half an hour
	// after its registration ends: refused, naming the line, not guessed.
	if _, err := pn00.Intervals("PN00-3.edf"); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "Seizures-list-PN00.txt:53: seizure 3 of PN00-3.edf, 18.28.29–19.29.29, does not lie within its registration, 18.15.44–18.57.13") {
		t.Errorf("PN00-3: %v", err)
	}
	if _, err := pn00.Intervals("PN00-9.edf"); !errors.Is(err, ErrNotListed) {
		t.Errorf("a recording the list does not name: %v", err)
	}
}

const good = "PN99\nData Sampling Rate: 512 Hz\nChannels in EDF files:\nChannel 1: Fp1\nChannel 2: F3\n\n"

func TestMidnightAndSeveralSeizures(t *testing.T) {
	l, err := Parse(strings.NewReader(good+
		"Seizure n 1\nFile name: PN99-1.edf\nRegistration start time: 23.30.00\nRegistration end time: 01.30.00\nSeizure start time: 23.50.00\nSeizure end time: 23.51.00\n"+
		"Seizure  n  2 :\nFile name: PN99-1.edf\nRegistration start time: 23:30:00\nRegistration end time: 01:30:00\nStart time: 00:10:00\nEnd time: 00:11:30\n"), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	if s := l.Seizures[1]; s.N != 2 || s.Note != "" {
		t.Errorf("seizure 2: %+v", s)
	}
	iv, err := l.Intervals("PN99-1.edf")
	if err != nil || len(iv) != 2 || iv[0].Start != 20*time.Minute || iv[1].Start != 40*time.Minute || iv[1].End != 41*time.Minute+30*time.Second {
		t.Errorf("intervals %+v, %v", iv, err)
	}
}

func TestParseErrorsNameLine(t *testing.T) {
	seizure := "Seizure n 1\nFile name: PN99-1.edf\nRegistration start time: 10.00.00\nRegistration end time: 11.00.00\nSeizure start time: 10.10.00\nSeizure end time: 10.11.00\n"
	for _, tt := range []struct {
		name, text, want string
	}{
		{"no rate", "PN99\nChannels in EDF files:\nChannel 1: Fp1\n" + seizure, "t.txt: no \"Data Sampling Rate\" line"},
		{"no seizure", good, "t.txt lists no seizure"},
		{"bad rate", "PN99\nData Sampling Rate: fast\n" + seizure, "t.txt:2: sampling rate \"fast\""},
		{"unknown line", good + seizure + "Seizure duration: 60 s\n", "t.txt:13: unknown line \"Seizure duration: 60 s\""},
		{"channel order", "PN99\nData Sampling Rate: 512 Hz\nChannel 2: F3\nChannel 1: Fp1\n" + seizure, "t.txt:4: channel 1 follows channel 2"},
		{"time outside a seizure", good + "File name: PN99-1.edf\n", "t.txt:7: \"file name\" outside a seizure"},
		{"incomplete seizure", good + "Seizure n 1\nFile name: PN99-1.edf\nRegistration start time: 10.00.00\n", "t.txt:7: seizure 1 has no registration end time"},
		{"bad time", good + strings.Replace(seizure, "10.10.00", "10.70.00", 1), "t.txt:11: seizure start time \"10.70.00\": not a time of day"},
		{"signed time", good + strings.Replace(seizure, "10.10.00", "+1.10.00", 1), "t.txt:11: seizure start time \"+1.10.00\": want hh.mm.ss"},
		{"time with a date", good + strings.Replace(seizure, "10.10.00", "2020.10.10.00", 1), "want hh.mm.ss"},
		{"twice", good + seizure + strings.Replace(seizure, "PN99-1", "PN99-2", 1), "t.txt:13: seizure 1 listed twice (first at line 7)"},
		{"key twice", good + seizure + "Seizure end time: 10.12.00\n", "t.txt:13: \"seizure end time\" given twice for seizure 1"},
		{"not an edf", good + strings.Replace(seizure, "PN99-1.edf", "../x", 1), "t.txt:8: file name \"../x\" is not an .edf name"},
		{"bad header", good + "Seizure n one\n", "t.txt:7: seizure header \"Seizure n one\""},
		{"half a note", good + "Seizure n 1 in sleep)\n", "t.txt:7: seizure header \"Seizure n 1 in sleep)\": want a note in parentheses"},
		{"unclosed note", good + "Seizure n 1 (in sleep\n", "want a note in parentheses"},
		{"long line", good + strings.Repeat("x", maxLine+1) + "\n", "t.txt:7: bufio.Scanner: token too long"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.text), "t.txt")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
	// Seizures of one recording that disagree on its registration.
	l, err := Parse(strings.NewReader(good+seizure+strings.Replace(strings.Replace(seizure, "n 1", "n 2", 1), "11.00.00", "12.00.00", 1)), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Intervals("PN99-1.edf"); err == nil || !strings.Contains(err.Error(), "t.txt:13: seizure 2 gives PN99-1.edf a registration of 10.00.00–12.00.00, seizure 1 (line 7) 10.00.00–11.00.00") {
		t.Errorf("disagreeing registrations: %v", err)
	}
}

// FuzzParse: whatever Parse accepts has a rate, seizures with every time
// within a day, and Intervals answers for each of its recordings without
// panicking, with offsets inside the registration.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"PN00", "PN16"} {
		b, err := os.ReadFile(datadir.Path(f, "data", "eeg", "siena", "Seizures-list-"+p+".txt"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(good + "Seizure n 1\nFile name: a.edf\nRegistration start time: 23.00.00\nRegistration end time: 01.00.00\nStart time: 00:10:00\nEnd time: 00:20:00\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Parse(strings.NewReader(string(b)), "f.txt")
		if err != nil {
			if !errors.Is(err, ErrFormat) && !strings.Contains(err.Error(), "f.txt") {
				t.Fatalf("error without ErrFormat or the name: %v", err)
			}
			return
		}
		if !(l.Rate > 0) || len(l.Seizures) == 0 {
			t.Fatalf("accepted without a rate or seizures: %+v", l)
		}
		for _, s := range l.Seizures {
			iv, err := l.Intervals(s.File)
			if err != nil {
				continue
			}
			for _, v := range iv {
				if v.Start < 0 || v.End <= v.Start || v.End > day {
					t.Fatalf("interval %+v of %s", v, s.File)
				}
			}
		}
	})
}

func TestMismatch(t *testing.T) {
	day0 := time.Date(2020, 5, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		header time.Time
		reg    time.Duration
		want   time.Duration
	}{
		{day0.Add(hmsDur(19, 39, 33)), hmsDur(19, 39, 33), 0},
		{day0.Add(hmsDur(19, 39, 33) + 500*time.Millisecond), hmsDur(19, 39, 33), 0},
		{day0.Add(hmsDur(19, 39, 35)), hmsDur(19, 39, 33), 2 * time.Second},
		{day0.Add(hmsDur(19, 39, 31)), hmsDur(19, 39, 33), -2 * time.Second},
		{day0.Add(hmsDur(0, 0, 1)), hmsDur(23, 59, 59), 2 * time.Second}, // across midnight
		{day0.Add(hmsDur(23, 59, 59)), hmsDur(0, 0, 1), -2 * time.Second},
		{day0.Add(hmsDur(8, 0, 0)), hmsDur(23, 55, 0), hmsDur(8, 5, 0)},
	} {
		if got := Mismatch(tt.header, tt.reg); got != tt.want {
			t.Errorf("header %s, list %s: %v, want %v", tt.header.Format("15:04:05.000"), hms(tt.reg), got, tt.want)
		}
	}
	l := realList(t, "PN16")
	if s, e, ok := l.Registration("PN16-2.edf"); !ok || s != hmsDur(0, 53, 55) || e != hmsDur(3, 28, 52) {
		t.Errorf("PN16-2's registration %v–%v, %v", s, e, ok)
	}
	if _, _, ok := l.Registration("PN16-9.edf"); ok {
		t.Error("a recording the list does not name has a registration")
	}
}
