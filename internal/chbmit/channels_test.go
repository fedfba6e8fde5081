package chbmit

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The channels every case's records share: the 22 distinct derivations of
// the usual 23-slot montage (T8-P8 is recorded twice), the 18 of the
// double banana for the cases whose later montages drop P7-T7, T7-FT9,
// FT9-FT10 and FT10-T8, and none for chb12, whose chb12_27 to chb12_29
// use other montages and are skipped.
func TestCommonChannelsOfTheSummaries(t *testing.T) {
	for n := 1; n <= 24; n++ {
		s, err := ReadFile(summaryPath(t, n))
		if err != nil {
			t.Fatal(err)
		}
		used, skipped := Usable(s.Files)
		common, left := CommonChannels(used)
		want, wantLeft, wantSkipped := 22, 0, ""
		switch n {
		case 12:
			wantSkipped = "chb12_27.edf chb12_28.edf chb12_29.edf"
		case 13, 16, 17, 18, 19:
			want, wantLeft = 18, 4
		case 15: // eight referential channels (FC1-Ref, …) in every record; PZ-OZ in some
			want, wantLeft = 26, 5
		}
		var names []string
		for _, f := range skipped {
			names = append(names, f.Name)
		}
		if len(common) != want || len(left) != wantLeft || strings.Join(names, " ") != wantSkipped {
			t.Errorf("chb%02d: %d channels common %v, %d left out %v, skipped %v; want %d, %d, %q", n, len(common), common, len(left), left, names, want, wantLeft, wantSkipped)
		}
		if len(used)+len(skipped) != len(s.Files) {
			t.Errorf("chb%02d: %d used + %d skipped of %d", n, len(used), len(skipped), len(s.Files))
		}
	}
}

// TestFileEEG checks the EEG channels acquire's rule finds in chb12's
// three montages: the double banana, the one referred to CS2 (no
// electrode pair named, so its channels are EEG but for the unused slots)
// and the referential one (named electrodes: "01", a typo for O1, names
// nothing and is left out, like the EKG lead).
func TestFileEEG(t *testing.T) {
	s, err := ReadFile(summaryPath(t, 12))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file     string
		n        int
		first    string
		notAmong []string
	}{
		{"chb12_06.edf", 23, "FP1-F7", []string{"-", "LOC-ROC"}},
		{"chb12_27.edf", 24, "F7-CS2", []string{"-"}},
		{"chb12_28.edf", 23, "F7", []string{"-", "01", "EKG1-CHIN"}},
	}
	for _, tt := range tests {
		f, ok := s.Lookup(tt.file)
		if !ok {
			t.Fatalf("%s not in the summary", tt.file)
		}
		eeg := f.EEG()
		if len(eeg) != tt.n || eeg[0] != tt.first {
			t.Errorf("%s: EEG %d %q, want %d starting %q", tt.file, len(eeg), eeg, tt.n, tt.first)
		}
		for _, no := range tt.notAmong {
			if slices.Contains(eeg, no) {
				t.Errorf("%s: %q counted as EEG", tt.file, no)
			}
		}
	}
	if f, ok := s.Lookup("chb12_26.edf"); ok {
		t.Errorf("chb12_26.edf, not in the summary, found: %+v", f)
	}
	if eeg := (File{Channels: []string{"ECG", "-", "EKG1-CHIN", "LOC-ROC"}}).EEG(); eeg != nil {
		t.Errorf("a montage of no EEG gives %q", eeg)
	}
}

func TestCommonChannels(t *testing.T) {
	file := func(ch ...string) File { return File{Channels: ch} }
	tests := []struct {
		name         string
		files        []File
		common, left string
	}{
		{"one file, a duplicate and unused slots", []File{file("FP1-F7", "-", "T8-P8", ".", "T8-P8")}, "[FP1-F7 T8-P8]", "[]"},
		{"order of the first file, any case", []File{file("B", "A", "C"), file("c", "a", "D")}, "[A C]", "[B D]"},
		{"not EEG", []File{file("ECG", "EKG1-EKG2", "VNS", "LOC-ROC", "LUE-RAE", "FZ-CZ")}, "[FZ-CZ]", "[]"},
		{"nothing shared", []File{file("A"), file("B")}, "[]", "[A B]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, l := CommonChannels(tt.files)
			if fmt.Sprint(c) != tt.common || fmt.Sprint(l) != tt.left {
				t.Errorf("common %v, left %v; want %s, %s", c, l, tt.common, tt.left)
			}
		})
	}
}

func TestUsable(t *testing.T) {
	f := func(name string, ch ...string) File { return File{Name: name, Channels: ch} }
	tests := []struct {
		name    string
		files   []File
		skipped string
	}{
		{"a common channel: all used", []File{f("a", "F3-C3", "C3-P3"), f("b", "C3-P3", "P3-O1")}, ""},
		{"the most frequent montage decides", []File{f("a", "F7-CS2"), f("b", "F3-C3", "C3-P3"), f("c", "F3-C3", "C3-P3", "-"), f("d", "F3-C3", "C3-P3", "P3-O1")}, "a"},
		{"ties: the earliest montage", []File{f("a", "F7-CS2"), f("b", "F3-C3"), f("c", "F3-C3"), f("d", "F7-CS2")}, "b c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			used, skipped := Usable(tt.files)
			var names []string
			for _, x := range skipped {
				names = append(names, x.Name)
			}
			if strings.Join(names, " ") != tt.skipped || len(used)+len(skipped) != len(tt.files) {
				t.Errorf("used %v, skipped %v; want skipped %q", used, names, tt.skipped)
			}
		})
	}
}
