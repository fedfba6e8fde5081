package edf

import (
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

// TestReplayEDFPlusDGaps replays the discontinuous conformance file: record
// onsets 0 2 4 5 6 7 8 9 12 15 19 s give five gaps.
func TestReplayEDFPlusDGaps(t *testing.T) {
	p, err := OpenReplay(conformance(t, "edfreader-r/edfPlusD.edf"), ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	info := p.Info()
	if info.Rate != 200 || len(info.Channels) != 11 || info.Channels[0] != (acquire.Channel{Label: "squarewave", Unit: "uV", Rate: 200}) {
		t.Fatalf("info %+v", info)
	}
	if want := time.Date(2009, 12, 10, 12, 44, 2, 0, time.UTC); !info.Start.Equal(want) {
		t.Errorf("start %v, want %v", info.Start, want)
	}
	// Reference values straight from the reader.
	r := mustOpen(t, "edfreader-r/edfPlusD.edf")
	rec := r.NewRecord()
	onsets := []int{0, 2, 4, 5, 6, 7, 8, 9, 12, 15, 19}
	gapAt := map[int]bool{1: true, 2: true, 8: true, 9: true, 10: true}
	f := acquire.NewFrame(11)
	gaps := 0
	for i, on := range onsets {
		if err := r.ReadRecord(rec); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 200; k++ {
			if err := p.ReadFrame(f); err != nil {
				t.Fatalf("record %d frame %d: %v", i, k, err)
			}
			seq := uint64(on*200 + k)
			if f.Seq != seq || f.Time != time.Duration(seq)*5*time.Millisecond {
				t.Fatalf("record %d frame %d: seq %d time %v, want %d", i, k, f.Seq, f.Time, seq)
			}
			if gap := f.Flags&acquire.FlagGap != 0; gap != (k == 0 && gapAt[i]) {
				t.Fatalf("record %d frame %d: flags %v", i, k, f.Flags)
			}
			if f.Flags&acquire.FlagGap != 0 {
				gaps++
			}
			for c := range f.Samples {
				if f.Samples[c] != rec.Samples[c][k] {
					t.Fatalf("record %d frame %d channel %d: %v, want %v", i, k, c, f.Samples[c], rec.Samples[c][k])
				}
			}
		}
	}
	if gaps != 5 {
		t.Errorf("%d gaps, want 5", gaps)
	}
	if err := p.ReadFrame(f); err != io.EOF {
		t.Errorf("after the last frame: %v, want io.EOF", err)
	}
	if iv := p.Intervals(); len(iv) != 1 || iv[0] != (acquire.Interval{Text: "RECORD START"}) {
		t.Errorf("intervals %+v", iv)
	}
	if err := p.ReadFrame(acquire.NewFrame(3)); err != acquire.ErrFrameSize {
		t.Errorf("short frame: %v, want ErrFrameSize", err)
	}
}

func TestReplaySkipsSignals(t *testing.T) {
	tests := []struct {
		file     string
		rate     float64
		channels int
		skipped  []string // "index label: reason"
	}{
		{"pyedflib/test_generator.bdf", 1000, 1, []string{
			`1 square 13Hz: rate 800 Hz differs from the common 1000 Hz`,
			`2 ramp 7Hz: rate 500 Hz differs from the common 1000 Hz`,
			`3 pink noise: rate 975 Hz differs from the common 1000 Hz`,
			`4 white noise: rate 999 Hz differs from the common 1000 Hz`,
			`5 BDF Annotations: annotation signal`}},
		// The one EEG signal wins over two others.
		{"edfize/simulated-01.edf", 2, 1, []string{`0 SaO2: rate 1 Hz differs from the common 2 Hz`, `1 H.R.: rate 1 Hz differs from the common 2 Hz`}},
		{"mne-testing-data/test_bdf_stim_channel.bdf", 500, 4, nil},
		// 73 BioSemi channels: a Frame's quality masks hold 64.
		{"mne-python/test.bdf", 2048, 64, []string{
			"64 EXG1: more than 64 channels", "65 REOG: more than 64 channels", "66 LEOG: more than 64 channels",
			"67 IEOG: more than 64 channels", "68 EXG5: more than 64 channels", "69 M2: more than 64 channels",
			"70 M1: more than 64 channels", "71 EXG8: more than 64 channels", "72 Status: more than 64 channels"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p, err := OpenReplay(conformance(t, tt.file), ReplayConfig{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			var got []string
			for _, s := range p.Skipped() {
				got = append(got, itoa(s.Index)+" "+s.Label+": "+s.Reason)
			}
			if p.Info().Rate != tt.rate || len(p.Info().Channels) != tt.channels || strings.Join(got, "\n") != strings.Join(tt.skipped, "\n") {
				t.Errorf("rate %v, %d channels, skipped:\n%s", p.Info().Rate, len(p.Info().Channels), strings.Join(got, "\n"))
			}
		})
	}
}

func TestReplayPrefersEEGRate(t *testing.T) {
	// 15 annotation signals skipped; the 19 data signals share 125 Hz.
	p, err := OpenReplay(conformance(t, "mne-testing-data/multiple_annotation_chans.bdf"), ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if len(p.Info().Channels) != 19 || len(p.Skipped()) != 15 {
		t.Errorf("%d channels, %d skipped", len(p.Info().Channels), len(p.Skipped()))
	}
	// Two EEG signals at 100 Hz win over three others at 200 Hz.
	path := writeTemp(t, WriterConfig{RecordDuration: time.Second, Signals: []SignalSpec{
		{Label: "ECG", PhysicalMin: -1, PhysicalMax: 1, SamplesPerRecord: 200},
		{Label: "EEG C3", PhysicalMin: -1, PhysicalMax: 1, SamplesPerRecord: 100},
		{Label: "Resp", PhysicalMin: -1, PhysicalMax: 1, SamplesPerRecord: 200},
		{Label: "EEG C4", PhysicalMin: -1, PhysicalMax: 1, SamplesPerRecord: 100},
		{Label: "EMG", PhysicalMin: -1, PhysicalMax: 1, SamplesPerRecord: 200},
	}}, 1, nil)
	p2, err := OpenReplay(path, ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if p2.Info().Rate != 100 || len(p2.Info().Channels) != 2 || p2.Info().Channels[1].Label != "EEG C4" {
		t.Errorf("info %+v", p2.Info())
	}
}

// writeTemp writes records of a constant 0.5 (scaled per signal) with
// annotations into a temporary file.
func writeTemp(t testing.TB, cfg WriterConfig, records int, notes []note) string {
	t.Helper()
	path := t.TempDir() + "/x.edf"
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := NewWriter(f, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range notes {
		if err := w.Annotate(n.onset, n.duration, n.text); err != nil {
			t.Fatal(err)
		}
	}
	data := make([][]float64, len(cfg.Signals))
	for i, s := range cfg.Signals {
		data[i] = make([]float64, s.SamplesPerRecord)
		for k := range data[i] {
			data[i][k] = s.PhysicalMin + (s.PhysicalMax-s.PhysicalMin)*0.75
		}
	}
	for i := 0; i < records; i++ {
		if err := w.WriteRecord(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReplayUnitsAndIntervals(t *testing.T) {
	start := time.Date(2026, 3, 4, 5, 6, 7, 500_000_000, time.UTC)
	path := writeTemp(t, WriterConfig{Start: start, RecordDuration: 500 * time.Millisecond, Signals: []SignalSpec{
		{Label: "EEG uV", PhysicalDimension: "uV", PhysicalMin: -400, PhysicalMax: 400, SamplesPerRecord: 4},
		{Label: "EEG mV", PhysicalDimension: "MV", PhysicalMin: -0.4, PhysicalMax: 0.4, SamplesPerRecord: 4},
		{Label: "EEG V", PhysicalDimension: "V", PhysicalMin: -0.0004, PhysicalMax: 0.0004, SamplesPerRecord: 4},
		{Label: "Temp", PhysicalDimension: "degC", PhysicalMin: 30, PhysicalMax: 40, SamplesPerRecord: 4},
	}}, 6, []note{{time.Second, 1500 * time.Millisecond, "SEIZURE onset"}, {2 * time.Second, 0, "eyes closed"}, {10 * time.Second, 0, "sz end"}})
	p, err := OpenReplay(path, ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	info := p.Info()
	if !info.Start.Equal(start) || info.Rate != 8 {
		t.Errorf("start %v rate %v", info.Start, info.Rate)
	}
	units := []string{"uV", "uV", "uV", "degC"}
	for i, c := range info.Channels {
		if c.Unit != units[i] {
			t.Errorf("channel %d unit %q, want %q", i, c.Unit, units[i])
		}
	}
	f := acquire.NewFrame(4)
	if err := p.ReadFrame(f); err != nil {
		t.Fatal(err)
	}
	want := []float64{200, 200, 200, 37.5}
	for i, v := range f.Samples {
		if d := v - want[i]; d > 0.01 || d < -0.01 {
			t.Errorf("channel %d: %v, want %v", i, v, want[i])
		}
	}
	iv := p.Intervals()
	wantIv := []acquire.Interval{
		{Start: time.Second, End: 2500 * time.Millisecond, Text: "SEIZURE onset", Seizure: true},
		{Start: 2 * time.Second, End: 2 * time.Second, Text: "eyes closed"},
		{Start: 10 * time.Second, End: 10 * time.Second, Text: "sz end"},
	}
	if len(iv) != len(wantIv) {
		t.Fatalf("intervals %+v", iv)
	}
	for i := range iv {
		if iv[i] != wantIv[i] {
			t.Errorf("interval %d %+v, want %+v", i, iv[i], wantIv[i])
		}
	}
	p2, err := OpenReplay(path, ReplayConfig{Seizure: regexp.MustCompile(`^sz`)})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if iv := p2.Intervals(); iv[0].Seizure || !iv[2].Seizure {
		t.Errorf("custom pattern: %+v", iv)
	}
}

func TestToMicrovolts(t *testing.T) {
	tests := []struct {
		dim, unit string
		scale     float64
	}{
		{"uV", "uV", 1}, {"UV", "uV", 1}, {"µV", "uV", 1}, {"μV", "uV", 1}, {"mV", "uV", 1e3},
		{"V", "uV", 1e6}, {"v", "uV", 1e6}, {"nV", "uV", 1e-3}, {"%", "%", 1}, {"", "", 1}, {"degC", "degC", 1},
	}
	for _, tt := range tests {
		if u, s := toMicrovolts(tt.dim); u != tt.unit || s != tt.scale {
			t.Errorf("toMicrovolts(%q) = %q, %v; want %q, %v", tt.dim, u, s, tt.unit, tt.scale)
		}
	}
}

// fakeClock advances only when slept on.
type fakeClock struct {
	now    time.Time
	sleeps int
}

func (c *fakeClock) Now() time.Time        { return c.now }
func (c *fakeClock) Sleep(d time.Duration) { c.now = c.now.Add(d); c.sleeps++ }

// A replay paced by acquire.Paced (the one pacing mechanism) returns each
// frame when it is due.
func TestReplayRealTime(t *testing.T) {
	path := writeTemp(t, uniformConfig(10), 3, nil)
	for _, realTime := range []bool{false, true} {
		clock := &fakeClock{now: time.Unix(1000, 0)}
		r, err := OpenReplay(path, ReplayConfig{})
		if err != nil {
			t.Fatal(err)
		}
		var p acquire.Source = r
		if realTime {
			p = &acquire.Paced{Source: r, Speed: 1, Clock: clock}
		}
		f := acquire.NewFrame(2)
		for i := 0; ; i++ {
			if err := p.ReadFrame(f); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			if realTime && clock.now.Sub(time.Unix(1000, 0)) != f.Time {
				t.Fatalf("frame %d at %v returned at clock %v", i, f.Time, clock.now.Sub(time.Unix(1000, 0)))
			}
		}
		p.Close()
		wantSleeps := 0
		if realTime {
			wantSleeps = 29
		}
		if clock.sleeps != wantSleeps {
			t.Errorf("realTime %v: %d sleeps, want %d", realTime, clock.sleeps, wantSleeps)
		}
	}
}

func TestReplayTruncatedFile(t *testing.T) {
	b := edfPlusC(t)
	b = b[:len(b)-1000]
	r, err := NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewReplay(r, ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	f := acquire.NewFrame(11)
	n := 0
	for err = p.ReadFrame(f); err == nil; err = p.ReadFrame(f) {
		n++
	}
	if n != 19*200 || !errors.Is(err, ErrTruncated) {
		t.Errorf("%d frames then %v; want 3800 then ErrTruncated", n, err)
	}
}

func TestReplayErrors(t *testing.T) {
	if _, err := OpenReplay(conformance(t, "edfize/zero-data-records.edf"), ReplayConfig{}); !errors.Is(err, ErrNoData) {
		t.Errorf("zero records: %v", err)
	}
	b := edfPlusC(t)
	r, _ := NewStreamReader(bytes.NewReader(b))
	if _, err := NewReplay(r, ReplayConfig{}); !errors.Is(err, ErrSeek) {
		t.Errorf("stream: %v", err)
	}
	// Record 5 claims to start before record 4 ends.
	at := plusCHeader + 5*plusCRecord + plusCAnnotAt
	copy(b[at:], "+4.5\x14\x14\x00")
	r, _ = NewReader(bytes.NewReader(b), int64(len(b)))
	if _, err := NewReplay(r, ReplayConfig{}); err == nil || !strings.Contains(err.Error(), "record 5 starts at 4.5s, before record 4 ends at 5s") {
		t.Errorf("overlap: %v", err)
	}
}

func TestReadFrameAllocatesNothing(t *testing.T) {
	p, err := OpenReplay(conformance(t, "pyedflib/test_subsecond.edf"), ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f := acquire.NewFrame(1)
	if n := testing.AllocsPerRun(5000, func() {
		if err := p.ReadFrame(f); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("ReadFrame allocates %v times per frame", n)
	}
}

func TestReadRecordAllocatesNothing(t *testing.T) {
	for _, file := range []string{"edfreader-r/edfPlusC.edf", "edfreader-r/bdfPlusC.bdf"} {
		r := mustOpen(t, file)
		rec := r.NewRecord()
		i := int64(0)
		if n := testing.AllocsPerRun(100, func() {
			if err := r.ReadRecordAt(i%r.Header().Records, rec); err != nil {
				t.Fatal(err)
			}
			i++
		}); n != 0 {
			t.Errorf("%s: ReadRecord allocates %v times per record", file, n)
		}
	}
}
