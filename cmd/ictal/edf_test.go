package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire/edf"
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

// TestEDFInfoSubsecondStart checks the time base of `ictal edf info` on a
// file whose first sample is a fraction of a second after the header's
// start. The EDF+ specification: the header's start date and time give the
// whole second in which the first record starts; the first TAL of the
// first record ("+0.3945312") is that record's onset from there; every
// annotation onset in a TAL is also measured from the header's start. MNE
// (since mne-python#7875, by subtracting the first TAL's onset) and EDFlib
// report onsets from the first sample; so does ictal, with start the
// first sample's time, so that start + onset is the annotation's time.
func TestEDFInfoSubsecondStart(t *testing.T) {
	path := edfConformance(t, "pyedflib/test_subsecond.edf")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The values below come from the file's bytes, read by hand: header
	// "24.01.20" "04.05.56", the first record's annotation bytes
	// "+0.3945312\x14\x14\x00+2.3457031\x14XLSpike\x14\x00".
	if !bytes.Contains(raw, []byte("24.01.2004.05.56")) || !bytes.Contains(raw, []byte("+0.3945312\x14\x14\x00+2.3457031\x14XLSpike\x14\x00")) {
		t.Fatal("test_subsecond.edf is not the file this test was written for")
	}
	header := time.Date(2020, 1, 24, 4, 5, 56, 0, time.UTC)
	firstRecord := 394531200 * time.Nanosecond // +0.3945312
	spike := 2345703100 * time.Nanosecond      // +2.3457031, from the header's start

	out, errOut, code := runIctal("edf", "info", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Type        string  `json:"type"`
		Start       string  `json:"start"`
		StartOffset float64 `json:"start_offset"`
		Annotations []struct {
			Onset float64 `json:"onset"`
			Text  string  `json:"text"`
		} `json:"annotations"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"type", got.Type, "edf-info"},
		{"start: the first sample", got.Start, header.Add(firstRecord).Format(time.RFC3339Nano)},
		{"start_offset", got.StartOffset, 0.3945312},
		{"first annotation", got.Annotations[0].Text, "XLSpike"},
		{"onset from the first sample (as MNE)", got.Annotations[0].Onset, 1.9511719},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	// start + onset is the annotation's time: the header's start plus the
	// TAL's onset.
	st, err := time.Parse(time.RFC3339Nano, got.Start)
	if err != nil {
		t.Fatal(err)
	}
	if at := st.Add(time.Duration(math.Round(got.Annotations[0].Onset * 1e9))); !at.Equal(header.Add(spike)) {
		t.Errorf("start + onset = %v, want %v", at, header.Add(spike))
	}
}

func TestEDFInfoText(t *testing.T) {
	out, errOut, code := runIctal("edf", "info", edfConformance(t, "pyedflib/test_subsecond.edf"), "-text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"format     EDF+C",
		"start      2020-01-24T04:05:56.3945312Z (header 24.01.20 04.05.56, first sample 0.3945312s later)",
		"records    698 × 1s = 698s",
		"2 signals",
		"0  Fp1              128          128             uV    8711..-8711",
		"1  EDF Annotations  annotations",
		"4 annotations (onsets in seconds from the first sample)",
		"1.9511719    -         XLSpike",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "{") {
		t.Errorf("-text printed JSON:\n%s", out)
	}
}

// TestAppendPhysical checks the values `ictal edf cat` prints: for every
// digital value of 16-bit signals (and a sweep of 24-bit ones), the
// shortest decimal that reads back as the same digital value, distinct
// for distinct samples, without float noise.
func TestAppendPhysical(t *testing.T) {
	tests := []struct {
		name     string
		sig      edf.Signal
		bits     int
		examples map[float64]string // a physical value written → what is printed
	}{
		{"ictal synth, ±3200 uV in 16 bits", edf.Signal{PhysicalMin: -3200, PhysicalMax: 3200, DigitalMin: -32768, DigitalMax: 32767}, 16,
			map[float64]string{-3200: "-3200", 3200: "3200", 44.6: "44.6", -12.3: "-12.3", 0: "-0.05"}},
		{"inverted range (test_subsecond)", edf.Signal{PhysicalMin: 8711, PhysicalMax: -8711, DigitalMin: -32768, DigitalMax: 32767}, 16,
			map[float64]string{8711: "8711", -8711: "-8711", 6.25: "6.2"}},
		{"symmetric digital range (Persyst)", edf.Signal{PhysicalMin: -6553.4, PhysicalMax: 6553.4, DigitalMin: -32767, DigitalMax: 32767}, 16,
			map[float64]string{0: "0", 0.2: "0.2", -0.2: "-0.2", 6553.4: "6553.4"}},
		{"BDF, ±262143 uV in 24 bits", edf.Signal{PhysicalMin: -262144, PhysicalMax: 262143, DigitalMin: -8388608, DigitalMax: 8388607}, 24,
			map[float64]string{262143: "262143", 1000.5: "1000.5", 44.6: "44.6"}},
		{"BDF, ±3200 uV in 24 bits", edf.Signal{PhysicalMin: -3200, PhysicalMax: 3200, DigitalMin: -8388608, DigitalMax: 8388607}, 24,
			map[float64]string{-3200: "-3200", 3200: "3200", 44.6: "44.6", 0.0012: "0.0013"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &tt.sig
			for p, want := range tt.examples {
				d := s.Digital(p)
				if got := string(appendPhysical(nil, s, s.Physical(d))); got != want {
					t.Errorf("%v written, digital %d (%v): %q, want %q", p, d, s.Physical(d), got, want)
				}
			}
			stride := int32(1)
			if tt.bits == 24 {
				stride = 97 // a sweep; every value would take long
			}
			prev := ""
			for d := int32(s.DigitalMin); d <= int32(s.DigitalMax)-stride+1; d += stride {
				v := s.Physical(d)
				got := string(appendPhysical(nil, s, v))
				x, err := strconv.ParseFloat(got, 64)
				if err != nil || s.Digital(x) != d || math.Abs(x-v) >= math.Abs(s.Gain())/2 {
					t.Fatalf("digital %d (%v) prints %q, which reads back as %d", d, v, got, s.Digital(x))
				}
				if got == prev {
					t.Fatalf("digital %d and the one before both print %q", d, got)
				}
				if strings.Contains(got, ".") && strings.HasSuffix(got, "0") || got == "-0" {
					t.Fatalf("digital %d prints %q: not the shortest", d, got)
				}
				// Shortest: one digit fewer does not read back.
				if i := strings.IndexByte(got, '.'); i >= 0 {
					short := strconv.FormatFloat(v, 'f', len(got)-i-2, 64)
					if y, _ := strconv.ParseFloat(short, 64); s.Digital(y) == d && math.Abs(y-v) < math.Abs(s.Gain())/2*(1-1e-9) {
						t.Fatalf("digital %d prints %q where %q reads back too", d, got, short)
					}
				}
				prev = got
				if stride > 1 {
					// the neighbour of a swept value, which float32 would merge
					n := string(appendPhysical(nil, s, s.Physical(d+1)))
					if n == got {
						t.Fatalf("digital %d and %d both print %q", d, d+1, got)
					}
				}
			}
		})
	}
}

// TestEDFCatNoFloatNoise writes an EDF+ file through ictal's writer and
// cats it: 44.6 uV comes out as 44.6.
func TestEDFCatNoFloatNoise(t *testing.T) {
	path := t.TempDir() + "/noise.edf"
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := edf.NewWriter(f, edf.WriterConfig{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), RecordDuration: time.Second,
		Signals: []edf.SignalSpec{{Label: "EEG Fp1", PhysicalDimension: "uV", PhysicalMin: -3200, PhysicalMax: 3200, DigitalMin: -32768, DigitalMax: 32767, SamplesPerRecord: 4}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{44.6, -12.3, 100, 3200} {
		if err := w.WriteFrame([]float64{v}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, errOut, code := runIctal("edf", "cat", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "time,EEG Fp1\n0,44.6\n0.25,-12.3\n0.5,100\n0.75,3200\n"
	if out != want {
		t.Errorf("cat printed\n%s\nwant\n%s", out, want)
	}
}
