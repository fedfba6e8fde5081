package edf

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestAppendTALs(t *testing.T) {
	a := func(onset, dur time.Duration, has bool, text string) Annotation {
		return Annotation{Onset: onset, Duration: dur, HasDuration: has, Text: text}
	}
	tests := []struct {
		name string
		in   string
		want []Annotation
		err  string
	}{
		{"time-keeping only", "+0\x14\x14\x00\x00\x00", nil, ""},
		{"time-keeping and annotation", "+1\x14\x14\x00+1.5\x15.25\x14spike\x14\x00", []Annotation{a(1500*time.Millisecond, 250*time.Millisecond, true, "spike")}, ""},
		{"several texts share onset", "+2\x150\x14a\x14b\x14\x00", []Annotation{a(2*time.Second, 0, true, "a"), a(2*time.Second, 0, true, "b")}, ""},
		{"negative onset", "-0.5\x14x\x14\x00", []Annotation{a(-500*time.Millisecond, 0, false, "x")}, ""},
		{"text after time-keeping in same TAL", "+0\x14\x14note\x14\x00", []Annotation{a(0, 0, false, "note")}, ""},
		{"UTF-8 text", "+0\x14\x14\x00+2\x150.5\x14仰卧\x14\x00", []Annotation{a(2*time.Second, 500*time.Millisecond, true, "仰卧")}, ""},
		{"text that is a time", "+0\x14+0.000000\x14\x00", []Annotation{a(0, 0, false, "+0.000000")}, ""},
		{"nanosecond rounding", "+0.3945312\x14x\x14\x00+1.0000000005\x14y\x14\x00", []Annotation{a(394531200, 0, false, "x"), a(1000000001, 0, false, "y")}, ""},
		{"TAL without text", "+5\x14\x00", nil, ""},
		{"all padding", "\x00\x00\x00\x00", nil, ""},
		{"empty", "", nil, ""},
		{"onset without sign", "5\x14x\x14\x00", nil, `TAL at byte 0: onset "5": onset without '+' or '-' sign`},
		{"bad onset", "+1.2.3\x14x\x14\x00", nil, `TAL at byte 0: onset "+1.2.3": not a decimal number`},
		{"empty onset", "+\x14x\x14\x00", nil, `TAL at byte 0: onset "+": not a decimal number`},
		{"signed duration", "+1\x15-2\x14x\x14\x00", nil, `TAL at byte 3: duration "-2": unexpected sign`},
		{"missing 0x14 after onset", "+1\x00", nil, "TAL at byte 2: onset not followed by 0x14"},
		{"missing 0x14 after duration", "+1\x152\x00", nil, "TAL at byte 4: duration not followed by 0x14"},
		{"text without 0x14", "+1\x14abc\x00", nil, "TAL at byte 6: annotation text not terminated by 0x14"},
		{"no terminating 0x00", "+1\x14abc\x14", nil, "TAL at byte 7: TAL not terminated by 0x00"},
		{"0x15 in text", "+1\x14a\x15b\x14\x00", nil, "TAL at byte 4: 0x15 inside annotation text"},
		{"good then bad", "+1\x14ok\x14\x00x\x14\x00", []Annotation{a(time.Second, 0, false, "ok")}, `TAL at byte 7: onset "x"`},
		{"onset overflow", "+99999999999999999999\x14x\x14\x00", nil, "number out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AppendTALs(nil, []byte(tt.in))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
			if tt.err == "" {
				if err != nil {
					t.Errorf("error %v", err)
				}
				return
			}
			var te *TALError
			if !errors.As(err, &te) || !errors.Is(err, ErrTAL) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want *TALError containing %q", err, tt.err)
			}
		})
	}
}

func TestFirstOnset(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"+0\x14\x14\x00", 0, true},
		{"+12.5\x14\x14\x00+13\x14x\x14\x00", 12500 * time.Millisecond, true},
		{"\x00\x00", 0, false},
		{"12\x14\x14\x00", 0, false},
	}
	for _, tt := range tests {
		got, err := FirstOnset([]byte(tt.in))
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("FirstOnset(%q) = %v, %v", tt.in, got, err)
		}
	}
	buf := []byte("+3600.25\x14\x14\x00")
	if n := testing.AllocsPerRun(100, func() { FirstOnset(buf) }); n != 0 {
		t.Errorf("FirstOnset allocates %v times", n)
	}
}

func TestAppendTALRoundTrip(t *testing.T) {
	tests := []Annotation{
		{Onset: 0, Text: "seizure"},
		{Onset: 1500 * time.Millisecond, Duration: 30 * time.Second, HasDuration: true, Text: "a b"},
		{Onset: -2 * time.Second, Text: "before"},
		{Onset: 394531200, Duration: 1, HasDuration: true, Text: "中文"},
	}
	for _, a := range tests {
		b := AppendTAL(nil, a.Onset, a.Duration, a.HasDuration, a.Text)
		got, err := AppendTALs(nil, b)
		if err != nil || len(got) != 1 || got[0] != a {
			t.Errorf("%q decodes to %+v, %v; want %+v", b, got, err, a)
		}
	}
	if got := string(AppendTAL(nil, 2*time.Second, 500*time.Millisecond, true, "x")); got != "+2\x150.5\x14x\x14\x00" {
		t.Errorf("AppendTAL = %q", got)
	}
}

func TestParseSeconds(t *testing.T) {
	tests := []struct {
		in     string
		signed bool
		want   time.Duration
		err    error
	}{
		{"1", false, time.Second, nil},
		{"9.59375", false, 9593750 * time.Microsecond, nil},
		{"0.5", false, 500 * time.Millisecond, nil},
		{".5", false, 500 * time.Millisecond, nil},
		{"2.", false, 2 * time.Second, nil},
		{"0.0000000015", false, 2, nil},
		{"+600.0000", true, 600 * time.Second, nil},
		{"-1.25", true, -1250 * time.Millisecond, nil},
		{"1", true, 0, errNoSign},
		{"+1", false, 0, errUnexpectedSign},
		{"", false, 0, errEmptyNumber},
		{".", false, 0, errNotNumber},
		{"1e3", false, 0, errNotNumber},
		{"9223372037", false, 0, errNumberRange},
	}
	for _, tt := range tests {
		got, err := parseSeconds([]byte(tt.in), tt.signed)
		if got != tt.want || err != tt.err {
			t.Errorf("parseSeconds(%q, %v) = %v, %v; want %v, %v", tt.in, tt.signed, got, err, tt.want, tt.err)
		}
	}
}

func TestParseStart(t *testing.T) {
	tests := []struct {
		name, date, clock, recording string
		want                         string // RFC 3339, "" for error
	}{
		{"1985 is the first year", "31.01.85", "20.14.57", "", "1985-01-31T20:14:57Z"},
		{"84 is 2084", "01.01.84", "00.00.00", "", "2084-01-01T00:00:00Z"},
		{"99 is 1999", "31.12.99", "23.59.59", "", "1999-12-31T23:59:59Z"},
		{"EDF+ Startdate gives the year", "10.12.09", "12.44.02", "Startdate 10-DEC-2009 X X x", "2009-12-10T12:44:02Z"},
		{"yy after 2084", "02.03.yy", "01.02.03", "Startdate 02-MAR-2101 X X X", "2101-03-02T01:02:03Z"},
		{"Startdate disagreeing with the date is ignored", "10.12.09", "12.44.02", "Startdate 11-DEC-2109 X X x", "2009-12-10T12:44:02Z"},
		{"Startdate X", "24.04.89", "16.13.00", "Startdate X X X X", "1989-04-24T16:13:00Z"},
		{"invalid date 00.00.00", "00.00.00", "20.14.57", "", ""},
		{"31 February", "31.02.20", "00.00.00", "", ""},
		{"hour 24", "01.01.20", "24.00.00", "", ""},
		{"yy without Startdate", "01.01.yy", "00.00.00", "", ""},
		{"garbage", "1.1.2020", "00:00:00", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStart(tt.date, tt.clock, tt.recording)
			if tt.want == "" {
				if err == nil {
					t.Errorf("got %v, want an error", got)
				}
				return
			}
			if err != nil || got.Format(time.RFC3339) != tt.want {
				t.Errorf("got %v, %v; want %s", got, err, tt.want)
			}
		})
	}
}

// FuzzTAL checks that the TAL decoder never panics, that what it decodes
// re-encodes to TALs that decode to the same annotations, and that
// FirstOnset agrees with it.
func FuzzTAL(f *testing.F) {
	for _, s := range []string{"+0\x14\x14\x00", "+0\x14\x14\x00+2\x150.5\x14仰卧\x14\x00", "-1\x14a\x14b\x14\x00\x00", "+1\x152\x00"} {
		f.Add([]byte(s))
	}
	// Annotation signals of real files, read at test time.
	// (The hypnograms' 4 KB annotation signal is left out: minimising
	// inputs that large stalls the fuzzer.)
	for _, rel := range []string{"mne-testing-data/chtypes_edf.edf", "mne-testing-data/test_utf8_annotations.edf", "pyedflib/test_utf8.edf", "edfreader-r/edfPlusD.edf"} {
		if b, err := os.ReadFile(conformance(f, rel)); err == nil {
			r, err := NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				f.Fatal(err)
			}
			rec := r.NewRecord()
			for i := 0; i < 4 && r.ReadRecord(rec) == nil; i++ {
				f.Add(append([]byte(nil), rec.Raw(r.AnnotationSignals()[0])...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		anns, err := AppendTALs(nil, b)
		var buf []byte
		for _, a := range anns {
			buf = AppendTAL(buf, a.Onset, a.Duration, a.HasDuration, a.Text)
		}
		again, err2 := AppendTALs(nil, buf)
		if err2 != nil || len(again) != len(anns) {
			t.Fatalf("re-encoded %q: %d annotations, %v; want %d", buf, len(again), err2, len(anns))
		}
		for i := range anns {
			if again[i] != anns[i] {
				t.Fatalf("annotation %d: %+v became %+v", i, anns[i], again[i])
			}
		}
		if err == nil {
			// A well-formed buffer has a first onset exactly when it holds
			// a TAL.
			_, ferr := FirstOnset(b)
			if hasTAL := len(bytes.Trim(b, "\x00")) > 0; (ferr == nil) != hasTAL {
				t.Fatalf("FirstOnset error %v for a buffer with TAL=%v", ferr, hasTAL)
			}
		}
		if err != nil && !errors.Is(err, ErrTAL) {
			t.Fatalf("error %v does not wrap ErrTAL", err)
		}
	})
}
