package edf

import (
	"encoding/csv"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/internal/datadir"
)

// conformance returns the path of a file in the shared EDF conformance set.
func conformance(t testing.TB, rel string) string {
	t.Helper()
	return datadir.Path(t, "data", "eeg", "edf-conformance", rel)
}

// TestConformanceFiles opens every file of the conformance set and checks
// format, layout, annotation count, one decoded value and the whole-file
// read.
func TestConformanceFiles(t *testing.T) {
	type value struct {
		signal int
		record int64
		sample int
		want   float64
	}
	tests := []struct {
		file        string
		format      string
		reserved    string
		ns          int
		records     int64
		duration    time.Duration
		rates       []float64 // data signals, in order
		annotations int
		start       string // Reader.Start, RFC 3339; "" for invalid
		last        *value // last sample of the last data signal
		warning     string
	}{
		{file: "pyedflib/test_generator.bdf", format: "BDF+C", reserved: "BDF+C", ns: 6, records: 30, duration: time.Second,
			rates: []float64{1000, 800, 500, 975, 999}, start: "2000-01-01T00:00:00Z",
			last: &value{4, 29, 998, -622.3799957263468}},
		{file: "pyedflib/test_generator_datarec_generator_2.bdf", format: "BDF+C", reserved: "BDF+C", ns: 6, records: 15, duration: 2 * time.Second,
			rates: []float64{500, 400, 250, 487.5, 499.5}, start: "2000-01-01T00:00:00Z",
			last: &value{4, 14, 998, -895.0097498303503}},
		{file: "pyedflib/test_subsecond.edf", format: "EDF+C", reserved: "EDF+C", ns: 2, records: 698, duration: time.Second,
			rates: []float64{128}, annotations: 4, start: "2020-01-24T04:05:56.3945312Z",
			last: &value{0, 697, 127, -0.1329213397420972}},
		{file: "pyedflib/test_utf8.edf", format: "EDF+C", reserved: "EDF+C", ns: 2, records: 698, duration: time.Second,
			rates: []float64{128}, annotations: 5, start: "2020-01-24T04:05:56.3945312Z",
			last: &value{0, 697, 127, -0.1329213397420972}},
		{file: "mne-testing-data/test_utf8_annotations.edf", format: "EDF+C", reserved: "EDF+C", ns: 12, records: 10, duration: time.Second,
			rates: rep(200, 11), annotations: 2, start: "2009-12-10T12:44:02Z",
			last: &value{10, 9, 199, 0.015259021896667946}},
		{file: "mne-testing-data/chtypes_edf.edf", format: "EDF+C", reserved: "EDF+C", ns: 43, records: 5, duration: time.Second,
			rates: rep(200, 42), annotations: 8, start: "2015-11-19T19:33:09Z",
			last: &value{41, 4, 199, -6001465}},
		{file: "mne-testing-data/multiple_annotation_chans.bdf", format: "BDF+C", reserved: "BDF+C", ns: 34, records: 247, duration: time.Second,
			rates: rep(125, 19), annotations: 10, start: "2019-12-15T14:36:46Z",
			last: &value{18, 246, 124, 0.5029998425245097}},
		{file: "mne-testing-data/test_bdf_stim_channel.bdf", format: "BDF", reserved: "", ns: 4, records: 10, duration: time.Second,
			rates: rep(500, 4), start: "2015-03-19T08:04:01Z",
			last: &value{3, 9, 499, 41009.076118414174}},
		{file: "mne-testing-data/SC4001EC-Hypnogram.edf", format: "EDF+C", reserved: "EDF+C", ns: 1, records: 1, duration: 0,
			annotations: 154, start: "1989-04-24T16:13:00Z"},
		{file: "mne-python/duplicate_channel_labels.edf", format: "EDF+C", reserved: "EDF+C", ns: 4, records: 10, duration: time.Second,
			rates: rep(250, 3), start: "2018-04-01T14:12:44Z",
			last: &value{2, 9, 249, -10.800000000000182}},
		{file: "mne-python/test_edf_stim_channel.edf", format: "EDF", reserved: "reserved", ns: 25, records: 1, duration: 9593750 * time.Microsecond,
			rates: rep(128, 25), start: "2015-06-02T10:41:57Z",
			last: &value{24, 0, 1227, 0}},
		{file: "mne-python/test.bdf", format: "BDF", reserved: "24BIT", ns: 73, records: 1, duration: time.Second,
			rates: rep(2048, 73), start: "2013-08-01T13:21:46Z",
			last: &value{72, 0, 2047, -6815744}},
		{file: "edfio/SC4001EC-Hypnogram.bdf", format: "BDF+C", reserved: "BDF+C", ns: 1, records: 1, duration: 0,
			annotations: 154, start: "1989-04-24T16:13:00Z"},
		{file: "edfreader-r/edfPlusD.edf", format: "EDF+D", reserved: "EDF+D", ns: 12, records: 11, duration: time.Second,
			rates: rep(200, 11), annotations: 1, start: "2009-12-10T12:44:02Z",
			last: &value{10, 10, 199, 0.015259021896667946}},
		{file: "edfreader-r/edfPlusC.edf", format: "EDF+C", reserved: "EDF+C", ns: 12, records: 20, duration: time.Second,
			rates: rep(200, 11), annotations: 2, start: "2009-12-10T12:44:02Z",
			last: &value{10, 19, 199, 0.015259021896667946}},
		{file: "edfreader-r/bdfPlusC.bdf", format: "BDF+C", reserved: "BDF+C", ns: 12, records: 20, duration: time.Second,
			rates: rep(200, 11), annotations: 2, start: "2009-12-10T12:45:54Z",
			last: &value{10, 19, 199, 5.9604648299682594e-05}},
		{file: "edfize/zero-data-records.edf", format: "EDF", reserved: "", ns: 14, records: 0, duration: time.Second,
			rates: []float64{1, 1, 125, 125, 125, 50, 50, 125, 10, 10, 1, 1, 10, 1}, start: "1985-01-31T20:14:57Z"},
		{file: "edfize/invalid-date.edf", format: "EDF", reserved: "", ns: 14, records: 0, duration: time.Second,
			rates: []float64{1, 1, 125, 125, 125, 50, 50, 125, 10, 10, 1, 1, 10, 1}, warning: `start date "00.00.00": not a calendar date`},
		{file: "edfize/simulated-01.edf", format: "EDF", reserved: "", ns: 3, records: 10, duration: time.Second,
			rates: []float64{1, 1, 2}, start: "2014-05-07T14:25:42Z",
			last: &value{2, 9, 1, 19.117647058823536}},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.file] = true
		t.Run(tt.file, func(t *testing.T) {
			r, err := Open(conformance(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			h := r.Header()
			if h.Format() != tt.format || h.Reserved != tt.reserved || len(h.Signals) != tt.ns || h.Records != tt.records || h.RecordDuration != tt.duration {
				t.Errorf("format %q reserved %q ns %d records %d duration %v; want %q %q %d %d %v",
					h.Format(), h.Reserved, len(h.Signals), h.Records, h.RecordDuration, tt.format, tt.reserved, tt.ns, tt.records, tt.duration)
			}
			var rates []float64
			for i := range h.Signals {
				if !h.Signals[i].IsAnnotation() {
					rates = append(rates, h.Rate(i))
				}
			}
			if !equalFloats(rates, tt.rates, 0) {
				t.Errorf("rates %v, want %v", rates, tt.rates)
			}
			anns, err := r.Annotations()
			if err != nil || len(anns) != tt.annotations {
				t.Errorf("Annotations: %d, %v; want %d", len(anns), err, tt.annotations)
			}
			start, err := r.Start()
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if !start.IsZero() {
				got = start.Format(time.RFC3339Nano)
			}
			if got != tt.start {
				t.Errorf("start %q, want %q", got, tt.start)
			}
			if tt.warning != "" && (len(h.Warnings) != 1 || h.Warnings[0] != tt.warning) {
				t.Errorf("warnings %q, want [%q]", h.Warnings, tt.warning)
			}
			if tt.warning == "" && len(h.Warnings) != 0 {
				t.Errorf("unexpected warnings %q", h.Warnings)
			}
			if r.Truncated() != nil {
				t.Errorf("Truncated: %v", r.Truncated())
			}
			// Read every record sequentially, then check the last value.
			rec := r.NewRecord()
			var n int64
			for {
				err := r.ReadRecord(rec)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("record %d: %v", n, err)
				}
				if rec.Index != n {
					t.Fatalf("record index %d, want %d", rec.Index, n)
				}
				n++
			}
			if n != tt.records {
				t.Errorf("read %d records, want %d", n, tt.records)
			}
			if v := tt.last; v != nil {
				if err := r.ReadRecordAt(v.record, rec); err != nil {
					t.Fatal(err)
				}
				if got := rec.Samples[v.signal][v.sample]; got != v.want {
					t.Errorf("signal %d record %d sample %d = %v, want %v", v.signal, v.record, v.sample, got, v.want)
				}
			}
		})
	}
	// Every file of the set is covered by the table.
	root := datadir.Path(t, "data", "eeg", "edf-conformance")
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(p); ext == ".edf" || ext == ".bdf" {
			rel, _ := filepath.Rel(root, p)
			if !seen[filepath.ToSlash(rel)] {
				t.Errorf("conformance file %s has no test case", rel)
			}
		}
		return nil
	})
}

func rep(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func equalFloats(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// TestConformanceQuirks checks the peculiarities the conformance files were
// chosen for.
func TestConformanceQuirks(t *testing.T) {
	t.Run("inverted physical range", func(t *testing.T) {
		r := mustOpen(t, "pyedflib/test_subsecond.edf")
		s := &r.Header().Signals[0]
		if s.PhysicalMin != 8711 || s.PhysicalMax != -8711 {
			t.Fatalf("physical range %v..%v, want 8711..-8711", s.PhysicalMin, s.PhysicalMax)
		}
		if s.Physical(int32(s.DigitalMin)) != 8711 || s.Physical(int32(s.DigitalMax)) != -8711 {
			t.Errorf("Physical(dmin) %v, Physical(dmax) %v: want 8711, -8711", s.Physical(int32(s.DigitalMin)), s.Physical(int32(s.DigitalMax)))
		}
	})
	t.Run("sub-second start and annotations", func(t *testing.T) {
		r := mustOpen(t, "pyedflib/test_subsecond.edf")
		anns, err := r.Annotations()
		if err != nil {
			t.Fatal(err)
		}
		want := []struct {
			onset time.Duration
			text  string
		}{{2345703100, "XLSpike"}, {3886718700, "Clip Note"}, {290896484300, "XLEvent"}, {583966796800, "XLSpike"}}
		for i, w := range want {
			if anns[i].Onset != w.onset || anns[i].Text != w.text || anns[i].HasDuration {
				t.Errorf("annotation %d = %+v, want onset %v text %q", i, anns[i], w.onset, w.text)
			}
		}
		onsets, err := r.Onsets()
		if err != nil {
			t.Fatal(err)
		}
		if onsets[0] != 394531200 || onsets[697] != 697*time.Second+394531200 {
			t.Errorf("onsets[0] %v, onsets[697] %v", onsets[0], onsets[697])
		}
		if off, err := r.StartOffset(); err != nil || off != 394531200 {
			t.Errorf("StartOffset = %v, %v; want 394.5312ms", off, err)
		}
	})
	t.Run("UTF-8 annotation text", func(t *testing.T) {
		r := mustOpen(t, "mne-testing-data/test_utf8_annotations.edf")
		anns, _ := r.Annotations()
		if len(anns) != 2 || anns[1].Text != "仰卧" || anns[1].Onset != 2*time.Second || anns[1].Duration != 500*time.Millisecond || !anns[1].HasDuration {
			t.Errorf("annotations %+v", anns)
		}
		r = mustOpen(t, "pyedflib/test_utf8.edf")
		anns, _ = r.Annotations()
		found := false
		for _, a := range anns {
			found = found || a.Text == "中文测试八个字"
		}
		if !found {
			t.Errorf("no 中文测试八个字 in %+v", anns)
		}
	})
	t.Run("extra TALs whose text is a time", func(t *testing.T) {
		r := mustOpen(t, "mne-testing-data/chtypes_edf.edf")
		anns, _ := r.Annotations()
		var texts []string
		for _, a := range anns {
			texts = append(texts, a.Text)
		}
		want := "+0.000000|Segment: REC START LTM+6 EEG|A1+A2 OFF|onset|+1.000000|high amp RDA F4, C4|+2.000000|starts turning head"
		if got := strings.Join(texts, "|"); got != want {
			t.Errorf("texts %q\nwant  %q", got, want)
		}
		if s := r.Header().Signals[41]; s.Label != "POL $A2" || s.PhysicalMin != -6001465 || s.PhysicalMax != -5751465 {
			t.Errorf("signal 41 %+v", s)
		}
	})
	t.Run("15 annotation signals", func(t *testing.T) {
		r := mustOpen(t, "mne-testing-data/multiple_annotation_chans.bdf")
		if len(r.AnnotationSignals()) != 15 {
			t.Fatalf("%d annotation signals, want 15", len(r.AnnotationSignals()))
		}
		anns, _ := r.Annotations()
		last := anns[len(anns)-1]
		if last.Text != "Ligths-Off#1" || last.Onset != 194792*time.Millisecond || last.Signal != 28 || last.Record != 0 {
			t.Errorf("last annotation %+v", last)
		}
	})
	t.Run("annotation-only file", func(t *testing.T) {
		for _, f := range []string{"mne-testing-data/SC4001EC-Hypnogram.edf", "edfio/SC4001EC-Hypnogram.bdf"} {
			r := mustOpen(t, f)
			anns, _ := r.Annotations()
			if a := anns[0]; a.Text != "Sleep stage W" || a.Onset != 0 || a.Duration != 30630*time.Second {
				t.Errorf("%s: first %+v", f, a)
			}
			if _, err := NewReplay(r, ReplayConfig{}); !errors.Is(err, ErrNoData) {
				t.Errorf("%s: NewReplay error %v, want ErrNoData", f, err)
			}
		}
	})
	t.Run("duplicate labels", func(t *testing.T) {
		h := mustOpen(t, "mne-python/duplicate_channel_labels.edf").Header()
		if h.Signals[0].Label != "EEG F1-Ref" || h.Signals[2].Label != "EEG F1-Ref" || h.Signals[1].Label != "EEG F2-Ref" {
			t.Errorf("labels %q %q %q", h.Signals[0].Label, h.Signals[1].Label, h.Signals[2].Label)
		}
	})
	t.Run("EDF+D record onsets", func(t *testing.T) {
		r := mustOpen(t, "edfreader-r/edfPlusD.edf")
		onsets, err := r.Onsets()
		if err != nil {
			t.Fatal(err)
		}
		want := []time.Duration{0, 2, 4, 5, 6, 7, 8, 9, 12, 15, 19}
		for i := range want {
			if onsets[i] != want[i]*time.Second {
				t.Fatalf("onsets %v, want %v s", onsets, want)
			}
		}
	})
	t.Run("annotation after the end of data", func(t *testing.T) {
		r := mustOpen(t, "edfreader-r/edfPlusC.edf")
		anns, _ := r.Annotations()
		if a := anns[1]; a.Text != "REC STOP" || a.Onset != 600*time.Second {
			t.Errorf("annotation %+v", a)
		}
	})
	t.Run("plain BDF status channel and empty fields", func(t *testing.T) {
		h := mustOpen(t, "mne-testing-data/test_bdf_stim_channel.bdf").Header()
		if h.Signals[3].Label != "Status" || h.Patient != "" || h.Recording != "" || !h.BDF || h.Plus() {
			t.Errorf("header %+v", h)
		}
	})
}

func mustOpen(t *testing.T, rel string) *Reader {
	t.Helper()
	r, err := Open(conformance(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// readCSV reads a reference export of the R package edfReader.
func readCSV(t *testing.T, rel string) [][]string {
	t.Helper()
	f, err := os.Open(conformance(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return rows[1:] // drop the column names
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAgainstEDFReaderExports compares header, signals, annotations and
// every sample of the first 20 s with the exports of the R package
// edfReader.
func TestAgainstEDFReaderExports(t *testing.T) {
	for _, base := range []string{"edfPlusC", "bdfPlusC"} {
		t.Run(base, func(t *testing.T) {
			ext := ".edf"
			if base[0] == 'b' {
				ext = ".bdf"
			}
			r := mustOpen(t, "edfreader-r/"+base+ext)
			h := r.Header()

			hdr := readCSV(t, "edfreader-r/"+base+"_header.txt")[0]
			version := strings.TrimSpace(hdr[0])
			if h.BDF {
				version = "\xff" + version[1:] // the export prints 0xff as '.'
			}
			if strings.TrimSpace(h.Version) != version || h.Patient != strings.TrimSpace(hdr[1]) || h.Recording != strings.TrimSpace(hdr[2]) ||
				h.StartDate != hdr[3] || h.StartTime != hdr[4] || h.HeaderBytes != int(num(t, hdr[5])) || h.Reserved != strings.TrimSpace(hdr[6]) ||
				h.Records != int64(num(t, hdr[7])) || h.RecordDuration.Seconds() != num(t, hdr[8]) || len(h.Signals)-len(r.AnnotationSignals()) != int(num(t, hdr[9])) {
				t.Errorf("header %+v\ndiffers from %q", h, hdr)
			}

			for _, row := range readCSV(t, "edfreader-r/"+base+"_signals.txt") {
				i := int(num(t, row[0])) - 1
				s := h.Signals[i]
				if s.Label != strings.TrimSpace(row[1]) || s.Transducer != strings.TrimSpace(row[2]) || s.PhysicalDimension != strings.TrimSpace(row[3]) ||
					s.PhysicalMin != num(t, row[4]) || s.PhysicalMax != num(t, row[5]) || s.DigitalMin != int(num(t, row[6])) || s.DigitalMax != int(num(t, row[7])) ||
					s.Prefilter != strings.TrimSpace(row[8]) || s.SamplesPerRecord != int(num(t, row[9])) || s.Reserved != strings.TrimSpace(row[10]) {
					t.Errorf("signal %d %+v\ndiffers from %q", i, s, row)
				}
			}

			anns, err := r.Annotations()
			if err != nil {
				t.Fatal(err)
			}
			wantAnn := readCSV(t, "edfreader-r/"+base+"_annotations.txt")
			if len(anns) != len(wantAnn) {
				t.Fatalf("%d annotations, want %d", len(anns), len(wantAnn))
			}
			for i, row := range wantAnn {
				a := anns[i]
				if a.Onset.Seconds() != num(t, row[0]) || a.HasDuration != (row[1] != "") || a.Text != row[2] {
					t.Errorf("annotation %d %+v, want %q", i, a, row)
				}
			}

			data := readCSV(t, "edfreader-r/"+base+"_data.txt")
			rec := r.NewRecord()
			row := 0
			for {
				if err := r.ReadRecord(rec); err == io.EOF {
					break
				} else if err != nil {
					t.Fatal(err)
				}
				for k := 0; k < 200; k++ {
					want := data[row]
					tm := rec.Onset.Seconds() + float64(k)/200
					if math.Abs(tm-num(t, want[0])) > 1e-9 {
						t.Fatalf("row %d: time %v, want %s", row, tm, want[0])
					}
					for s := 0; s < 11; s++ {
						// The export has 6 decimals.
						if got, w := rec.Samples[s][k], num(t, want[s+1]); math.Abs(got-w) > 5.01e-7 {
							t.Fatalf("row %d signal %d: %v, want %v", row, s, got, w)
						}
					}
					row++
				}
			}
			if row != len(data) {
				t.Errorf("compared %d rows, export has %d", row, len(data))
			}
		})
	}
}
