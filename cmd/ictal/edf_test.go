package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
)

func edfConformance(t *testing.T, rel string) string {
	return datadir.Path(t, "data", "eeg", "edf-conformance", rel)
}

func TestEDFInfo(t *testing.T) {
	out, errOut, code := runIctal("edf", "info", edfConformance(t, "pyedflib/test_utf8.edf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got info // the command's own type
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want one JSON line, got %q", out)
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != "0       " || got.Format != "EDF+C" || got.Patient != "X F 20-JAN-1998 X,X" || got.Start == nil || *got.Start != "2020-01-24T04:05:56.3945312Z" ||
		got.Records != 698 || got.RecordDuration != 1 || len(got.Signals) != 2 {
		t.Errorf("header fields: %+v", got)
	}
	s := got.Signals[0]
	if s.Label != "Fp1" || s.PhysicalMin != 8711 || s.PhysicalMax != -8711 || s.DigitalMin != -32768 || s.DigitalMax != 32767 || s.SamplesPerRecord != 128 || s.Rate != 128 {
		t.Errorf("signal 0: %+v", s)
	}
	if got.Signals[1].Label != "EDF Annotations" {
		t.Errorf("signal 1: %+v", got.Signals[1])
	}
	// The file's first TALs are "+0.3945312" (the first record) and
	// "+1.9511719 XLSpike", both from the header's 04.05.56: XLSpike is
	// 1.5566407 s after the first sample.
	if len(got.Annotations) != 5 || got.Annotations[0].Text != "XLSpike" || got.Annotations[0].Onset != 1.5566407 || got.Annotations[0].Duration != nil {
		t.Errorf("annotations: %+v", got.Annotations)
	}
	found := false
	for _, a := range got.Annotations {
		found = found || a.Text == "中文测试八个字"
	}
	if !found {
		t.Errorf("UTF-8 annotation missing: %+v", got.Annotations)
	}
}

func TestEDFInfoBDFVersion(t *testing.T) {
	out, errOut, code := runIctal("edf", "info", edfConformance(t, "mne-python/test.bdf"))
	if code != 0 || !strings.HasPrefix(out, `{"type":"edf-info","version":"ÿBIOSEMI","format":"BDF","reserved":"24BIT"`) {
		t.Errorf("exit %d, %s\n%.200s", code, errOut, out)
	}
}

func TestEDFCat(t *testing.T) {
	// Values as exported by the R package edfReader for the same file
	// (edfPlusC_data.txt rows for t = 0.5 s and 0.505 s), to its 6 decimals.
	out, errOut, code := runIctal("edf", "cat", edfConformance(t, "edfreader-r/edfPlusC.edf"), "-signals", "ramp,0", "-from", "0.5", "-to", "0.51")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || lines[0] != "time,ramp,squarewave" {
		t.Fatalf("output %q", out)
	}
	ref := readRows(t, edfConformance(t, "edfreader-r/edfPlusC_data.txt"))
	for i, line := range lines[1:] {
		f := strings.Split(line, ",")
		want := ref[101+i] // row 0 is the header, 100 samples = 0.5 s
		// Values are printed to the file's resolution (2000 uV over 65535
		// steps): within half a step of the reference.
		if f[0] != []string{"0.5", "0.505"}[i] || !closeHalfStep(f[1], want[2], 2000.0/65535) || !closeHalfStep(f[2], want[1], 2000.0/65535) {
			t.Errorf("line %q, reference %q", line, want[:3])
		}
	}
}

func readRows(t *testing.T, path string) [][]string {
	b, err := readFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		rows = append(rows, strings.Split(strings.TrimSpace(l), ","))
	}
	return rows
}

// closeHalfStep reports whether got is within half a step of want, a
// reference given to 6 decimals.
func closeHalfStep(got, want string, step float64) bool {
	g, w := parseF(got), parseF(want)
	return math.Abs(g-w) < step/2+5.01e-7
}

func TestEDFCatEDFPlusDTimes(t *testing.T) {
	// Records start at 0 2 4 5 … s: the first sample of record 1 is at 2 s.
	out, _, code := runIctal("edf", "cat", "-signals", "1", "-from", "1.99", "-to", "2.006", edfConformance(t, "edfreader-r/edfPlusD.edf"))
	if code != 0 {
		t.Fatal(out)
	}
	var times []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		times = append(times, strings.Split(l, ",")[0])
	}
	if got := strings.Join(times, " "); got != "2 2.005" {
		t.Errorf("times %q, want \"2 2.005\"", got)
	}
}

func TestEDFCommandErrors(t *testing.T) {
	bdf := edfConformance(t, "pyedflib/test_generator.bdf")
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"different rates", []string{"cat", bdf, "-signals", "0,1"}, 1, `signal 0 "sine 5Hz" (1000 Hz) and signal 1 "square 13Hz" (800 Hz) have different rates`},
		{"unknown signal", []string{"cat", bdf, "-signals", "Fp9"}, 1, `no signal "Fp9"`},
		{"annotation signal", []string{"cat", bdf, "-signals", "5"}, 1, `signal 5 "BDF Annotations" is an annotation signal`},
		{"duplicate label", []string{"cat", edfConformance(t, "mne-python/duplicate_channel_labels.edf"), "-signals", "EEG F1-Ref"}, 1,
			`label "EEG F1-Ref" is ambiguous: signals 0 and 2 both have it; give the index`},
		{"bad range", []string{"cat", bdf, "-from", "2", "-to", "1"}, 1, "want 0 <= from <= to"},
		{"missing file", []string{"info"}, 1, "missing FILE"},
		{"no such file", []string{"info", "/nonexistent.edf"}, 1, "no such file"},
		{"unknown subcommand", []string{"dump", bdf}, 1, `unknown subcommand "dump"`},
		{"no subcommand", nil, 1, "usage: ictal edf info [-text] FILE"},
		{"help", []string{"-h"}, 0, "usage: ictal edf info [-text] FILE"},
		{"cat help", []string{"cat", "-h"}, 0, "-signals"},
		{"not an EDF file", []string{"info", edfConformance(t, "edfreader-r/edfPlusC_header.txt")}, 1, "edf: bad header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runIctal(append([]string{"edf"}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }

func parseF(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// TestEDFTruncatedFile checks that a cut file is reported, never silent:
// info says so, cat prints the complete records and then fails.
func TestEDFTruncatedFile(t *testing.T) {
	b, err := os.ReadFile(edfConformance(t, "edfreader-r/edfPlusC.edf"))
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/cut.edf"
	if err := os.WriteFile(path, b[:50000], 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runIctal("edf", "info", path)
	if code != 0 || !strings.Contains(out, `"records":10,`) || !strings.Contains(out, `"truncated":"edf: data truncated: header declares 20 data records of 4502 bytes, file holds 10 complete records and 1652 bytes more (43368 bytes missing)"`) {
		t.Errorf("info: exit %d\n%s", code, out)
	}
	out, errOut, code := runIctal("edf", "cat", path, "-signals", "0")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 1+10*200 || !strings.Contains(errOut, "data truncated") {
		t.Errorf("cat: exit %d, %d lines, stderr %q", code, len(lines), errOut)
	}
}

// TestEDFInfoOpenBCI: `ictal edf info` describes an OpenBCI GUI recording
// from reading it through.
func TestEDFInfoOpenBCI(t *testing.T) {
	path := datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"edf", "info", path}, &stdout, &stderr); code != 0 {
		t.Fatal(stderr.String())
	}
	var got boardInfo
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Format != "openbci-gui" || got.Rate != 250 || got.Frames != 22490 || got.Duration != 89.96 || len(got.Signals) != 8 ||
		got.Signals[0].Label != "EXG Channel 0" || got.Signals[0].Unit != "uV" || got.Start == nil || *got.Start != "2019-05-15T16:00:53.329Z" {
		t.Errorf("info %s", stdout.String())
	}
}
