package edf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
)

// seekBuffer is an in-memory io.WriteSeeker.
type seekBuffer struct {
	b   []byte
	pos int
}

func (s *seekBuffer) Write(p []byte) (int, error) {
	if need := s.pos + len(p); need > len(s.b) {
		s.b = append(s.b, make([]byte, need-len(s.b))...)
	}
	copy(s.b[s.pos:], p)
	s.pos += len(p)
	return len(p), nil
}

func (s *seekBuffer) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		off += int64(s.pos)
	case io.SeekEnd:
		off += int64(len(s.b))
	}
	if off < 0 {
		return 0, errors.New("negative position")
	}
	s.pos = int(off)
	return off, nil
}

func (s *seekBuffer) reader(t testing.TB) *Reader {
	t.Helper()
	r, err := NewReader(bytes.NewReader(s.b), int64(len(s.b)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type note struct {
	onset, duration time.Duration
	text            string
}

// roundTrip writes data (per record, per signal) and notes with cfg, reads
// the file back and checks samples within one digital step, annotations,
// record onsets and the header.
func roundTrip(t *testing.T, cfg WriterConfig, data [][][]float64, notes []note) *Reader {
	t.Helper()
	var buf seekBuffer
	w, err := NewWriter(&buf, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range notes {
		if err := w.Annotate(n.onset, n.duration, n.text); err != nil {
			t.Fatal(err)
		}
	}
	for _, rec := range data {
		if err := w.WriteRecord(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := buf.reader(t)
	h := r.Header()
	wantFormat := "EDF+C"
	if cfg.BDF {
		wantFormat = "BDF+C"
	}
	if h.Format() != wantFormat || h.Records != int64(len(data)) || h.RecordDuration != cfg.RecordDuration || len(h.Signals) != len(cfg.Signals)+1 {
		t.Fatalf("header %s, %d records of %v, %d signals", h.Format(), h.Records, h.RecordDuration, len(h.Signals))
	}
	if !cfg.Start.IsZero() {
		st, err := r.Start()
		if err != nil || !st.Equal(cfg.Start) {
			t.Errorf("start %v, %v; want %v", st, err, cfg.Start)
		}
	}
	first := time.Duration(cfg.Start.Nanosecond())
	rec := r.NewRecord()
	for i, want := range data {
		if err := r.ReadRecord(rec); err != nil {
			t.Fatal(err)
		}
		if on := rec.Onset - first; on != time.Duration(i)*cfg.RecordDuration {
			t.Errorf("record %d onset %v", i, on)
		}
		for s, sig := range want {
			hs := &h.Signals[s]
			step := math.Abs(hs.Gain())
			lo, hi := math.Min(hs.PhysicalMin, hs.PhysicalMax), math.Max(hs.PhysicalMin, hs.PhysicalMax)
			for k, v := range sig {
				v = math.Max(lo, math.Min(hi, v)) // clipped
				if got := rec.Samples[s][k]; math.Abs(got-v) > step*(0.5+1e-9) {
					t.Fatalf("record %d signal %d sample %d: %v, want %v ± %v", i, s, k, got, v, step/2)
				}
			}
		}
	}
	if err := r.ReadRecord(rec); err != io.EOF {
		t.Fatalf("after the last record: %v", err)
	}
	anns, err := r.Annotations()
	if err != nil {
		t.Fatal(err)
	}
	var got []note
	for _, a := range anns {
		got = append(got, note{a.Onset - first, a.Duration, a.Text})
	}
	sortNotes(got)
	want := append([]note(nil), notes...)
	sortNotes(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("annotations\n got %v\nwant %v", got, want)
	}
	return r
}

func sortNotes(n []note) {
	sort.Slice(n, func(i, j int) bool {
		if n[i].onset != n[j].onset {
			return n[i].onset < n[j].onset
		}
		return n[i].text < n[j].text
	})
}

func TestWriterRoundTrip(t *testing.T) {
	for _, bdf := range []bool{false, true} {
		t.Run(map[bool]string{false: "EDF+", true: "BDF+"}[bdf], func(t *testing.T) {
			cfg := WriterConfig{
				BDF: bdf, Patient: "MCH-0234567 F 02-MAY-1951 Haagse_Harry", Recording: "EMG561 BK/JOP Sony. MNC R Median Nerve.",
				Start:          time.Date(2026, 11, 21, 10, 30, 15, 250_000_000, time.UTC),
				RecordDuration: time.Second,
				Signals: []SignalSpec{
					{Label: "EEG Fp1", PhysicalDimension: "uV", PhysicalMin: -500, PhysicalMax: 500, SamplesPerRecord: 256},
					{Label: "inverted", PhysicalDimension: "mV", PhysicalMin: 10, PhysicalMax: -10, SamplesPerRecord: 64},
					{Label: "narrow", PhysicalDimension: "degC", PhysicalMin: 30, PhysicalMax: 42, DigitalMin: 0, DigitalMax: 1200, SamplesPerRecord: 1},
				},
			}
			data := make([][][]float64, 5)
			for i := range data {
				data[i] = [][]float64{make([]float64, 256), make([]float64, 64), {36.6 + float64(i)/10}}
				for k := range data[i][0] {
					data[i][0][k] = 400 * math.Sin(float64(i*256+k)/10)
				}
				for k := range data[i][1] {
					data[i][1][k] = 12 * math.Cos(float64(k)) // beyond ±10: clipped
				}
			}
			r := roundTrip(t, cfg, data, []note{
				{0, 0, "recording start"},
				{2500 * time.Millisecond, 10 * time.Second, "Seizure"},
				{4 * time.Second, 0, "中文 annotation"},
				{20 * time.Second, 0, "after the end"},
			})
			h := r.Header()
			if h.Patient != cfg.Patient || h.Recording != "Startdate 21-NOV-2026 "+cfg.Recording || h.StartDate != "21.11.26" || h.StartTime != "10.30.15" {
				t.Errorf("header fields %q %q %q %q", h.Patient, h.Recording, h.StartDate, h.StartTime)
			}
			if s := h.Signals[2]; s.DigitalMin != 0 || s.DigitalMax != 1200 || s.PhysicalDimension != "degC" {
				t.Errorf("signal 2 %+v", s)
			}
			if s := h.Signals[3]; !s.IsAnnotation() {
				t.Errorf("last signal %q is not the annotation signal", s.Label)
			}
		})
	}
}

// TestWriterRandomRoundTrip is a property test: random layouts, values,
// ranges and annotations (enough to spill over records) survive a round
// trip.
func TestWriterRandomRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"seizure", "spike", "artefact", "électrode", "仰卧", "x", "a longer annotation text"}
	for trial := 0; trial < 60; trial++ {
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			cfg := WriterConfig{
				BDF:             rng.IntN(2) == 1,
				Start:           time.Date(1985+rng.IntN(120), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1e9), time.UTC),
				RecordDuration:  time.Duration(1+rng.IntN(4000)) * time.Millisecond,
				AnnotationBytes: 64 + rng.IntN(100),
			}
			ns := 1 + rng.IntN(6)
			for i := 0; i < ns; i++ {
				lo := rng.NormFloat64() * 1000
				hi := lo + (rng.Float64()+0.01)*2000
				if rng.IntN(4) == 0 {
					lo, hi = hi, lo
				}
				cfg.Signals = append(cfg.Signals, SignalSpec{Label: fmt.Sprintf("S%d", i), PhysicalMin: lo, PhysicalMax: hi, SamplesPerRecord: 1 + rng.IntN(300)})
			}
			nrec := 1 + rng.IntN(8)
			data := make([][][]float64, nrec)
			for i := range data {
				data[i] = make([][]float64, ns)
				for s := range data[i] {
					sp := cfg.Signals[s]
					data[i][s] = make([]float64, sp.SamplesPerRecord)
					for k := range data[i][s] {
						data[i][s][k] = sp.PhysicalMin + (sp.PhysicalMax-sp.PhysicalMin)*(rng.Float64()*1.2-0.1)
					}
				}
			}
			// As many annotations as surely fit: greedy packing wastes
			// less than one TAL (at most 50 bytes here) per record, and a
			// time-keeping TAL takes at most 20.
			budget := nrec * (cfg.AnnotationBytes - 20 - 50)
			var notes []note
			for {
				n := note{
					onset: time.Duration(rng.Int64N(int64(nrec) * int64(cfg.RecordDuration))),
					text:  words[rng.IntN(len(words))],
				}
				if rng.IntN(2) == 0 {
					n.duration = time.Duration(rng.Int64N(int64(time.Minute)))
				}
				size := len(AppendTAL(nil, n.onset+time.Second, n.duration, n.duration > 0, n.text))
				if size > budget {
					break
				}
				budget -= size
				notes = append(notes, n)
			}
			roundTrip(t, cfg, data, notes)
		})
	}
}

func uniformConfig(spr int) WriterConfig {
	return WriterConfig{
		Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), RecordDuration: time.Second,
		Signals: []SignalSpec{
			{Label: "EEG A", PhysicalDimension: "uV", PhysicalMin: -100, PhysicalMax: 100, SamplesPerRecord: spr},
			{Label: "EEG B", PhysicalDimension: "uV", PhysicalMin: -100, PhysicalMax: 100, SamplesPerRecord: spr},
		},
	}
}

// TestWriteFramePadsLastRecord writes 2.5 records of frames and checks
// Close completes the last one by repeating the last sample.
func TestWriteFramePadsLastRecord(t *testing.T) {
	var buf seekBuffer
	w, err := NewWriter(&buf, uniformConfig(10))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 25; i++ {
		if err := w.WriteFrame([]float64{float64(i), -float64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Padded() != 5 {
		t.Errorf("Padded %d, want 5", w.Padded())
	}
	r := buf.reader(t)
	if r.Header().Records != 3 {
		t.Fatalf("%d records, want 3", r.Header().Records)
	}
	rec := r.NewRecord()
	if err := r.ReadRecordAt(2, rec); err != nil {
		t.Fatal(err)
	}
	step := 200.0 / 65535
	for k, want := range []float64{20, 21, 22, 23, 24, 24, 24, 24, 24, 24} {
		if math.Abs(rec.Samples[0][k]-want) > step || math.Abs(rec.Samples[1][k]+want) > step {
			t.Errorf("sample %d: %v, %v; want %v, %v", k, rec.Samples[0][k], rec.Samples[1][k], want, -want)
		}
	}
}

func TestWriterClipsToDigitalLimits(t *testing.T) {
	var buf seekBuffer
	w, _ := NewWriter(&buf, uniformConfig(4))
	for _, v := range []float64{1e9, -1e9, math.Inf(1), math.Inf(-1)} {
		if err := w.WriteFrame([]float64{v, 0}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	raw := buf.b[256*4:]
	want := []int16{32767, -32768, 32767, -32768}
	for k, d := range want {
		if got := int16(uint16(raw[2*k]) | uint16(raw[2*k+1])<<8); got != d {
			t.Errorf("sample %d digital %d, want %d", k, got, d)
		}
	}
}

func TestWriterErrors(t *testing.T) {
	good := func() WriterConfig { return uniformConfig(4) }
	configs := []struct {
		name   string
		modify func(*WriterConfig)
		want   string
	}{
		{"no signals", func(c *WriterConfig) { c.Signals = nil }, "at least one data signal"},
		{"zero record duration", func(c *WriterConfig) { c.RecordDuration = 0 }, "record duration 0s: must be positive"},
		{"record duration too precise", func(c *WriterConfig) { c.RecordDuration = time.Second + time.Nanosecond }, `"1.000000001" does not fit 8 characters`},
		{"long label", func(c *WriterConfig) { c.Signals[0].Label = "a label of more than 16" }, "longer than 16 characters"},
		{"non-ASCII dimension", func(c *WriterConfig) { c.Signals[1].PhysicalDimension = "µV" }, `signal 1 "EEG B": physical dimension "µV": byte 0 is not printable ASCII`},
		{"equal physical limits", func(c *WriterConfig) { c.Signals[0].PhysicalMin = 100 }, "physical minimum equals maximum"},
		{"physical limit too wide", func(c *WriterConfig) { c.Signals[0].PhysicalMax = 1e12 }, "physical maximum: 1e+12 does not fit 8 characters"},
		{"digital range beyond 16 bits", func(c *WriterConfig) { c.Signals[0].DigitalMin, c.Signals[0].DigitalMax = -40000, 100 }, "digital range -40000..100"},
		{"no samples", func(c *WriterConfig) { c.Signals[1].SamplesPerRecord = 0 }, "samples per record 0"},
		{"reserved label", func(c *WriterConfig) { c.Signals[1].Label = "EDF Annotations" }, "reserved for the annotation signal"},
		{"patient too long", func(c *WriterConfig) { c.Patient = strings.Repeat("x", 81) }, "patient"},
		{"tiny annotation room", func(c *WriterConfig) { c.AnnotationBytes = 8 }, "annotation bytes 8"},
	}
	for _, tt := range configs {
		t.Run(tt.name, func(t *testing.T) {
			cfg := good()
			tt.modify(&cfg)
			_, err := NewWriter(&seekBuffer{}, cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
	calls := []struct {
		name string
		call func(w *Writer) error
		want string
	}{
		{"annotation with delimiter", func(w *Writer) error { return w.Annotate(0, 0, "a\x14b") }, "byte 1 is a TAL delimiter (0x14)"},
		{"annotation not UTF-8", func(w *Writer) error { return w.Annotate(0, 0, "\xff") }, "not UTF-8"},
		{"negative duration", func(w *Writer) error { return w.Annotate(0, -time.Second, "x") }, "negative duration"},
		{"annotation too long", func(w *Writer) error { return w.Annotate(0, 0, strings.Repeat("x", 200)) }, "needs 205 bytes, a record has"},
		{"NaN sample", func(w *Writer) error { return w.WriteFrame([]float64{0, math.NaN()}) }, `signal 1 "EEG B": sample is NaN`},
		{"wrong frame size", func(w *Writer) error { return w.WriteFrame([]float64{0}) }, "got 1 samples for 2 signals"},
		{"wrong record size", func(w *Writer) error { return w.WriteRecord([][]float64{{1, 2, 3, 4}, {1}}) }, `signal 1 "EEG B" has 1 samples, want 4`},
		{"record after partial frames", func(w *Writer) error {
			w.WriteFrame([]float64{1, 2})
			return w.WriteRecord([][]float64{{1, 2, 3, 4}, {1, 2, 3, 4}})
		}, "WriteRecord after 1 frames"},
		{"annotations without records", func(w *Writer) error { w.Annotate(0, 0, "x"); return w.Close() }, "1 annotations and no data record"},
		{"write after close", func(w *Writer) error { w.Close(); return w.WriteFrame([]float64{1, 2}) }, "writer is closed"},
	}
	for _, tt := range calls {
		t.Run(tt.name, func(t *testing.T) {
			w, err := NewWriter(&seekBuffer{}, good())
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.call(w); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("WriteFrame needs one rate", func(t *testing.T) {
		cfg := good()
		cfg.Signals[1].SamplesPerRecord = 2
		w, _ := NewWriter(&seekBuffer{}, cfg)
		if err := w.WriteFrame([]float64{1, 2}); err == nil || !strings.Contains(err.Error(), "same samples per record") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("more annotations than room", func(t *testing.T) {
		cfg := good()
		cfg.AnnotationBytes = 40
		w, _ := NewWriter(&seekBuffer{}, cfg)
		for i := 0; i < 10; i++ {
			w.Annotate(time.Duration(i)*time.Second, 0, "0123456789")
		}
		w.WriteRecord([][]float64{{1, 2, 3, 4}, {1, 2, 3, 4}})
		if err := w.Close(); !errors.Is(err, ErrAnnotationSpace) || !strings.Contains(err.Error(), `8 annotations left after filling 1 records (first "0123456789" at 2s)`) {
			t.Errorf("error %v", err)
		}
	})
}

// TestWriterSpillsAnnotations stores more annotations than one record holds
// and checks that none is lost, including those added after the last
// record (back-filled at Close).
func TestWriterSpillsAnnotations(t *testing.T) {
	cfg := uniformConfig(4)
	cfg.AnnotationBytes = 64
	var buf seekBuffer
	w, _ := NewWriter(&buf, cfg)
	var want []note
	add := func(on time.Duration, text string) {
		if err := w.Annotate(on, 0, text); err != nil {
			t.Fatal(err)
		}
		want = append(want, note{on, 0, text})
	}
	for i := 0; i < 6; i++ {
		add(time.Duration(i)*time.Second, fmt.Sprintf("early %d", i))
	}
	for i := 0; i < 10; i++ {
		w.WriteRecord([][]float64{{1, 2, 3, 4}, {1, 2, 3, 4}})
	}
	for i := 0; i < 12; i++ {
		add(time.Duration(i)*time.Second, fmt.Sprintf("late %d", i))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	anns, err := buf.reader(t).Annotations()
	if err != nil {
		t.Fatal(err)
	}
	var got []note
	for _, a := range anns {
		got = append(got, note{a.Onset, 0, a.Text})
	}
	sortNotes(got)
	sortNotes(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestWriteFrameAllocatesNothing(t *testing.T) {
	var buf seekBuffer
	w, _ := NewWriter(&buf, uniformConfig(256))
	frame := []float64{1, 2}
	for i := 0; i < 256*1024; i++ { // grow the buffer and bookkeeping first
		w.WriteFrame(frame)
	}
	buf.pos = 256 * 3 // keep overwriting the same region
	buf.b = buf.b[:cap(buf.b)]
	if n := testing.AllocsPerRun(256*100, func() { w.WriteFrame(frame) }); n != 0 {
		t.Errorf("WriteFrame allocates %v times per frame", n)
	}
}
