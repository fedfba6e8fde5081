package record

import (
	"bytes"
	"errors"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/alert"
)

// t0 is the wall-clock start of the test signals, far enough from an
// hour for no hourly file to rotate.
var t0 = time.Date(2026, 11, 26, 10, 20, 7, 500_000_000, time.UTC)

// testInfo describes n channels at rate Hz.
func testInfo(n int, rate float64) acquire.Info {
	info := acquire.Info{Rate: rate}
	for i := 0; i < n; i++ {
		info.Channels = append(info.Channels, acquire.Channel{Label: "C" + string(rune('1'+i)), Unit: "uV", Rate: rate})
	}
	return info
}

// value is channel c's sample k of the test signal (µV).
func value(c, k int) float64 {
	return 100*math.Sin(2*math.Pi*float64(k)/25+float64(c)) + float64(c)
}

// feed records frames [from, to) of the test signal (frames numbered from
// the start, at rate).
func feed(t *testing.T, r *Recorder, n int, rate float64, from, to int) {
	t.Helper()
	f := acquire.NewFrame(n)
	for k := from; k < to; k++ {
		f.Seq, f.Time = uint64(k), time.Duration(float64(k)/rate*float64(time.Second))
		for c := range f.Samples {
			f.Samples[c] = value(c, k)
		}
		if err := r.Frame(f); err != nil {
			t.Fatal(err)
		}
	}
}

// logBuffer is a logger writing text lines into a buffer.
func logBuffer() (*slog.Logger, *bytes.Buffer) {
	var b bytes.Buffer
	return slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug})), &b
}

func newRecorder(t *testing.T, cfg Config) (*Recorder, *bytes.Buffer) {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	if cfg.Site == "" {
		cfg.Site, cfg.Bed = "ward-7", "bed 3"
	}
	log, buf := logBuffer()
	r, err := New(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	return r, buf
}

// notes reads the recording notes of a file, with their onsets.
type readNote struct {
	onset, dur time.Duration
	Note
}

func readFile(t *testing.T, path string) (*edf.Reader, []readNote) {
	t.Helper()
	rd, err := edf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })
	anns, err := rd.Annotations()
	if err != nil {
		t.Fatal(err)
	}
	start, err := rd.Start()
	if err != nil {
		t.Fatal(err)
	}
	frac := start.Sub(rd.Header().Start) // onsets count from the header's whole second
	var out []readNote
	for _, a := range anns {
		a.Onset -= frac
		n, err := ParseNote(a.Text)
		if err != nil {
			t.Fatalf("%s: annotation %q: %v", path, a.Text, err)
		}
		out = append(out, readNote{a.Onset, a.Duration, n})
	}
	return rd, out
}

func find(notes []readNote, kind string) []readNote {
	var out []readNote
	for _, n := range notes {
		if n.Kind == kind {
			out = append(out, n)
		}
	}
	return out
}

// TestRecordingRoundTrip records 5.5 s of 8 channels at 250 Hz with an
// alert, its end, changes of state and feedback, and reads the file back:
// the header, every sample to within half a step, and every annotation
// at its place.
func TestRecordingRoundTrip(t *testing.T) {
	r, _ := newRecorder(t, Config{})
	info := testInfo(8, 250)
	if err := r.Begin(info, t0); err != nil {
		t.Fatal(err)
	}
	feed(t, r, 8, 250, 0, 500)
	ev := &alert.Event{ID: "0b5c6f7e-4d0e-4a5e-9f1a-3c2b1a0f9e8d", Onset: t0.Add(time.Second), DetectedAt: t0.Add(2 * time.Second),
		OnsetOffset: time.Second, DetectedOffset: 2 * time.Second, Score: 0.9349, Channels: []string{"C1", "C3"}}
	r.Alert(ev)
	r.Status(alert.Status{State: alert.StateArtifact, Since: t0.Add(1500 * time.Millisecond), Reason: "muscle on C2, C4", Artifact: "muscle", Channels: []string{"C2", "C4"}})
	feed(t, r, 8, 250, 500, 1000)
	ev.End, ev.EndOffset = t0.Add(3500*time.Millisecond), 3500*time.Millisecond
	r.EventEnd(ev)
	r.Ack(alert.Ack{AlertID: ev.ID, Verdict: alert.VerdictConfirmed, By: "alice", Applied: true, Windows: 3})
	r.Ack(alert.Ack{Start: t0.Add(time.Second), End: t0.Add(3 * time.Second), Label: alert.LabelNonSeizure, By: "bob", Reason: "buffer empty"})
	feed(t, r, 8, 250, 1000, 1375)
	path := r.Path()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "ward-7_bed-3_20261126T102007Z.edf"; filepath.Base(path) != want {
		t.Errorf("file %s, want %s", filepath.Base(path), want)
	}
	rd, notes := readFile(t, path)
	h := rd.Header()
	if h.Format() != "EDF+C" || h.Records != 6 || len(h.Signals) != 9 || h.Signals[0].Label != "EEG C1" || h.Signals[0].PhysicalDimension != "uV" {
		t.Fatalf("header %s, %d records, %d signals, first %+v", h.Format(), h.Records, len(h.Signals), h.Signals[0])
	}
	if st, _ := rd.Start(); !st.Equal(t0) {
		t.Errorf("start %v, want %v", st, t0)
	}
	rec := rd.NewRecord()
	for i := 0; i < 5; i++ { // the sixth is padded
		if err := rd.ReadRecord(rec); err != nil {
			t.Fatal(err)
		}
		for c := 0; c < 8; c++ {
			for k, v := range rec.Samples[c] {
				if want := value(c, 250*i+k); math.Abs(v-want) > 0.05+1e-9 {
					t.Fatalf("record %d channel %d sample %d: %g, want %g", i, c, k, v, want)
				}
			}
		}
	}
	kinds := map[string]int{}
	for _, n := range notes {
		kinds[n.Kind]++
	}
	want := map[string]int{KindStart: 1, KindAlert: 1, KindState: 1, KindAlertEnd: 1, KindFeedback: 2, KindFeedbackAck: 2, KindStop: 1}
	for k, v := range want {
		if kinds[k] != v {
			t.Errorf("%d %s annotations, want %d (%v)", kinds[k], k, v, kinds)
		}
	}
	a := find(notes, KindAlert)[0]
	if a.onset != time.Second || a.dur != time.Second || a.Get("id") != ev.ID || a.Get("score") != "0.935" ||
		a.Get("channels") != "C1,C3" || a.Get("onset") != "2026-11-26T10:20:08.500Z" || a.Get("detected") != "2026-11-26T10:20:09.500Z" {
		t.Errorf("alert annotation %+v", a)
	}
	if e := find(notes, KindAlertEnd)[0]; e.onset != 3500*time.Millisecond || e.Get("id") != ev.ID {
		t.Errorf("alert-end annotation %+v", e)
	}
	if s := find(notes, KindState)[0]; s.onset != 1500*time.Millisecond || s.Word != "artifact" || s.Get("kind") != "muscle" || s.Get("channels") != "C2,C4" || s.Reason != "muscle on C2, C4" {
		t.Errorf("state annotation %+v", s)
	}
	fb := find(notes, KindFeedback)
	if fb[0].Get("verdict") == "" {
		fb[0], fb[1] = fb[1], fb[0]
	}
	if fb[0].Get("verdict") != "confirmed" || fb[0].Get("by") != "alice" || fb[0].onset != 4*time.Second {
		t.Errorf("feedback annotation %+v", fb[0])
	}
	if fb[1].Get("label") != "non-ictal" || fb[1].onset != time.Second || fb[1].dur != 2*time.Second || fb[1].Get("by") != "bob" {
		t.Errorf("interval feedback annotation %+v", fb[1])
	}
	acks := find(notes, KindFeedbackAck)
	if acks[0].Word != alert.AckApplied { // same onset: either order
		acks[0], acks[1] = acks[1], acks[0]
	}
	if acks[0].Word != alert.AckApplied || acks[0].Get("windows") != "3" || acks[1].Word != alert.AckRefused || acks[1].Reason != "buffer empty" {
		t.Errorf("acks %+v", acks)
	}
	if s := find(notes, KindStop)[0]; s.onset != 5500*time.Millisecond {
		t.Errorf("stop at %v, want 5.5s", s.onset)
	}
	for _, n := range notes {
		if strings.Contains(strings.ToLower(n.String()), "seizure") {
			t.Errorf("annotation %q says seizure: replay would take it as a seizure label", n.String())
		}
	}
}

// TestBDFKeepsConverterCounts: with the BDF range of a Cyton at gain 24,
// a sample of k counts reads back as exactly k counts.
func TestBDFKeepsConverterCounts(t *testing.T) {
	r, _ := newRecorder(t, Config{BDF: true})
	r.Begin(testInfo(2, 250), t0)
	scale := 4.5e6 / 24 / 8388607
	counts := []int32{-8388607, -1234567, -1, 0, 1, 7, 4242424, 8388607}
	f := acquire.NewFrame(2)
	for k := 0; k < 250; k++ {
		f.Time = time.Duration(k) * 4 * time.Millisecond
		c := counts[k%len(counts)]
		f.Samples[0], f.Samples[1] = float64(c)*scale, -float64(c)*scale
		r.Frame(f)
	}
	path := r.Path()
	r.Close()
	if !strings.HasSuffix(path, ".bdf") {
		t.Errorf("file %s, want .bdf", path)
	}
	rd, _ := readFile(t, path)
	if rd.Header().Format() != "BDF+C" {
		t.Fatalf("format %s", rd.Header().Format())
	}
	rec := rd.NewRecord()
	if err := rd.ReadRecord(rec); err != nil {
		t.Fatal(err)
	}
	raw := rec.Raw(0)
	for k := 0; k < 250; k++ {
		d := int32(raw[3*k]) | int32(raw[3*k+1])<<8 | int32(int8(raw[3*k+2]))<<16
		if want := counts[k%len(counts)]; d != want {
			t.Fatalf("sample %d: digital %d, want the converter's %d", k, d, want)
		}
	}
}

// TestRotationAlignedToClock: with 10 s files, a recording starting at
// 09:59:57.5 rotates at the first record boundary after 10:00:00, then
// every 10 s, and names each file by its start.
func TestRotationAlignedToClock(t *testing.T) {
	r, _ := newRecorder(t, Config{Rotate: 10 * time.Second})
	start := time.Date(2026, 11, 26, 9, 59, 57, 500_000_000, time.UTC)
	r.Begin(testInfo(2, 100), start)
	feed(t, r, 2, 100, 0, 2500) // 25 s
	r.Close()
	files, err := Recordings(r.cfg.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{"ward-7_bed-3_20261126T095957Z.edf", "ward-7_bed-3_20261126T100000Z.edf", "ward-7_bed-3_20261126T100010Z.edf", "ward-7_bed-3_20261126T100020Z.edf"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("files %v, want %v", names, want)
	}
	records := []int64{3, 10, 10, 2}
	var k int
	for i, f := range files {
		rd, notes := readFile(t, f)
		if rd.Header().Records != records[i] {
			t.Errorf("%s: %d records, want %d", names[i], rd.Header().Records, records[i])
		}
		st, _ := rd.Start()
		if want := start.Add(time.Duration(k) * 10 * time.Millisecond); !st.Equal(want) {
			t.Errorf("%s starts %v, want %v", names[i], st, want)
		}
		rec := rd.NewRecord()
		for rd.ReadRecord(rec) == nil && k < 2500 {
			if v := rec.Samples[1][0]; math.Abs(v-value(1, k)) > 0.05+1e-9 {
				t.Fatalf("%s: sample %d reads %g, want %g", names[i], k, v, value(1, k))
			}
			k += 100
		}
		if (i == 0) != (len(find(notes, KindStart)) == 1) || (i == 3) != (len(find(notes, KindStop)) == 1) {
			t.Errorf("%s: start/stop annotations %+v", names[i], notes)
		}
	}
}

// TestQuotaDeletesOldest: with room for about two and a half 10 s files,
// the oldest are deleted before each new one, and the log says so.
func TestQuotaDeletesOldest(t *testing.T) {
	dir := t.TempDir()
	// A file of 10 records of 2 channels at 100 Hz: 256·4 + 10·(400 + 256).
	one := int64(256*4 + 11*(400+256))
	r, logs := newRecorder(t, Config{Dir: dir, Rotate: 10 * time.Second, Quota: 2*one + one/2})
	r.Begin(testInfo(2, 100), t0)
	feed(t, r, 2, 100, 0, 6000) // 60 s: 7 files
	r.Close()
	files, _ := Recordings(dir)
	var used int64
	for _, f := range files {
		fi, _ := os.Stat(f)
		used += fi.Size()
	}
	if len(files) != 2 || used > r.cfg.Quota || !strings.HasSuffix(files[1], "T102100Z.edf") {
		t.Errorf("%d files of %d bytes left (quota %d): %v", len(files), used, r.cfg.Quota, files)
	}
	if st := r.Stats(); st.Deleted != 5 || st.Files != 7 {
		t.Errorf("stats %+v", st)
	}
	if n := strings.Count(logs.String(), "recording deleted to keep the quota"); n != 5 {
		t.Errorf("log tells of %d deletions, want 5:\n%s", n, logs)
	}
}

// fullDisk makes files whose writes fail with ENOSPC while full is set.
type fullDisk struct{ full bool }

type diskFile struct {
	*os.File
	d *fullDisk
}

func (f diskFile) Write(p []byte) (int, error) {
	if f.d.full {
		n := len(p) / 2 // a partial write, as a filling disk does
		f.File.Write(p[:n])
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	return f.File.Write(p)
}

func (d *fullDisk) create(name string) (file, error) {
	if d.full {
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.ENOSPC}
	}
	f, err := createFile(name)
	if err != nil {
		return nil, err
	}
	return diskFile{f.(*os.File), d}, nil
}

// TestFullDiskNeverStopsMonitoring: when the disk fills, Frame keeps
// returning nil, the error is logged once, the abandoned file is left
// consistent, and recording resumes in a new file (annotated) once there
// is room again.
func TestFullDiskNeverStopsMonitoring(t *testing.T) {
	disk := &fullDisk{}
	r, logs := newRecorder(t, Config{Rotate: time.Hour, Retry: 5 * time.Second, create: disk.create})
	r.Begin(testInfo(2, 100), t0)
	feed(t, r, 2, 100, 0, 350)
	first := r.Path()
	disk.full = true
	feed(t, r, 2, 100, 350, 3000) // 26.5 s on a full disk
	if r.Path() != "" {
		t.Fatalf("still writing %s on a full disk", r.Path())
	}
	if n := strings.Count(logs.String(), "level=ERROR"); n != 1 {
		t.Errorf("%d errors logged, want 1:\n%s", n, logs)
	}
	disk.full = false
	feed(t, r, 2, 100, 3000, 4200)
	second := r.Path()
	r.Close()
	if second == "" || second == first {
		t.Fatalf("recording did not resume: %q after %q\n%s", second, first, logs)
	}
	if !strings.Contains(logs.String(), "recording resumed") {
		t.Errorf("no resumption logged:\n%s", logs)
	}
	rd, _ := readFile(t, first)
	fi, _ := os.Stat(first)
	if h := rd.Header(); h.Records != 3 || fi.Size() != int64(h.HeaderBytes)+3*int64(h.RecordBytes()) || rd.Truncated() != nil {
		t.Errorf("abandoned file: %d records, %d bytes, truncated %v", h.Records, fi.Size(), rd.Truncated())
	}
	rd2, notes := readFile(t, second)
	st, _ := rd2.Start()
	// The disk had room again at 30 s; the next try after the failure at
	// the end of the fourth record (3.99 s) is 5 s later, … then at 33.99 s.
	if want := t0.Add(33990 * time.Millisecond); !st.Equal(want) {
		t.Errorf("resumed file starts %v, want %v", st, want)
	}
	res := find(notes, KindResumed)
	if len(res) != 1 || res[0].Get("lost") != "30.000s" {
		t.Errorf("resumed annotations %+v", res)
	}
	if s := r.Stats(); s.LostFrames != 3399-400 || s.Files != 2 {
		t.Errorf("stats %+v", s)
	}
}

// TestGaps: a short gap in the source is filled with the last samples and
// annotated; a gap longer than MaxFill starts a new file.
func TestGaps(t *testing.T) {
	r, _ := newRecorder(t, Config{})
	r.Begin(testInfo(2, 100), t0)
	feed(t, r, 2, 100, 0, 150)
	feed(t, r, 2, 100, 170, 300) // 0.2 s lost
	first := r.Path()
	feed(t, r, 2, 100, 300+100*int(MaxFill/time.Second)+100, 300+100*int(MaxFill/time.Second)+400)
	second := r.Path()
	r.Close()
	if first == second {
		t.Fatalf("a gap of %v did not start a new file", MaxFill+time.Second)
	}
	rd, notes := readFile(t, first)
	if rd.Header().Records != 3 {
		t.Errorf("first file: %d records, want 3 (2.8 s of signal and 0.2 s of filling, padded)", rd.Header().Records)
	}
	g := find(notes, KindGap)
	if len(g) != 1 || g[0].onset != 1500*time.Millisecond || g[0].dur != 200*time.Millisecond || g[0].Get("lost") != "0.200s" {
		t.Errorf("gap annotations %+v", g)
	}
	rec := rd.NewRecord()
	rd.ReadRecord(rec)
	rd.ReadRecord(rec)
	if v := rec.Samples[0][60]; math.Abs(v-value(0, 149)) > 0.05+1e-9 {
		t.Errorf("filled sample %g, want the last one before the gap %g", v, value(0, 149))
	}
	rd2, _ := readFile(t, second)
	if st, _ := rd2.Start(); !st.Equal(t0.Add(MaxFill + 4*time.Second)) {
		t.Errorf("second file starts %v", st)
	}
}

// TestRepairAtStart: files a killed daemon left (header -1, or a count
// behind the data, and an incomplete last record) are repaired by the
// next recorder on the same directory.
func TestRepairAtStart(t *testing.T) {
	for _, mode := range []string{CountAtClose, CountEveryRecord} {
		dir := t.TempDir()
		r, _ := newRecorder(t, Config{Dir: dir, HeaderCount: mode})
		r.Begin(testInfo(2, 100), t0)
		feed(t, r, 2, 100, 0, 450)
		r.Alert(&alert.Event{ID: "a1", OnsetOffset: time.Second, DetectedOffset: 2 * time.Second})
		feed(t, r, 2, 100, 450, 560)
		path := r.Path()
		// Killed: no Close; half a record more reached the disk.
		r.f.Write(make([]byte, 300))
		h, err := edf.ParseHeader(mustOpen(t, path))
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int64{CountAtClose: -1, CountEveryRecord: 5}[mode]; h.Records != want {
			t.Errorf("%s: header of the killed file says %d records, want %d", mode, h.Records, want)
		}
		r2, logs := newRecorder(t, Config{Dir: dir, HeaderCount: mode})
		if r2.Stats().Repaired != 1 || !strings.Contains(logs.String(), "recording repaired") {
			t.Errorf("%s: repaired %d, log:\n%s", mode, r2.Stats().Repaired, logs)
		}
		rd, notes := readFile(t, path)
		fi, _ := os.Stat(path)
		hh, _ := edf.ParseHeader(mustOpen(t, path))
		if hh.Records != 5 || fi.Size() != int64(hh.HeaderBytes)+5*int64(hh.RecordBytes()) || rd.Truncated() != nil {
			t.Errorf("%s: repaired file declares %d records in %d bytes", mode, hh.Records, fi.Size())
		}
		if a := find(notes, KindAlert); len(a) != 1 || a[0].Get("id") != "a1" {
			t.Errorf("%s: alert annotation lost: %+v", mode, notes)
		}
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestFrameAllocatesNothing: recording a frame allocates nothing in steady
// state, records (and their header count) included.
func TestFrameAllocatesNothing(t *testing.T) {
	for _, mode := range []string{CountEveryRecord, CountAtClose} {
		r, _ := newRecorder(t, Config{HeaderCount: mode})
		r.Begin(testInfo(8, 250), t0)
		feed(t, r, 8, 250, 0, 250)
		f := acquire.NewFrame(8)
		k := 250
		// One run is one record's worth of frames.
		allocs := testing.AllocsPerRun(20, func() {
			for i := 0; i < 250; i++ {
				f.Time = time.Duration(k) * 4 * time.Millisecond
				f.Samples[i%8] = float64(i)
				r.Frame(f)
				k++
			}
		})
		r.Close()
		if allocs != 0 {
			t.Errorf("%s: %v allocations per record", mode, allocs)
		}
	}
}

// TestBeginRefusesFractionalRates: records last 1 s, so the rate must be
// whole; the recorder says so and records nothing.
func TestBeginRefusesFractionalRates(t *testing.T) {
	r, _ := newRecorder(t, Config{})
	if err := r.Begin(testInfo(2, 250.5), t0); err == nil || !strings.Contains(err.Error(), "250.5 Hz") {
		t.Errorf("Begin: %v", err)
	}
	feed(t, r, 2, 250.5, 0, 600)
	if r.Path() != "" {
		t.Error("recording without a valid rate")
	}
}

func TestConfigErrorsNameTheKey(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{}, "dir"},
		{Config{Dir: "x", Rotate: 1500 * time.Millisecond}, "rotate"},
		{Config{Dir: "x", Quota: -1}, "quota"},
		{Config{Dir: "x", Range: math.NaN()}, "range_uv"},
		{Config{Dir: "x", HeaderCount: "sometimes"}, "header_count"},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Key != tt.want || !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want a ConfigError for %s", tt.cfg, err, tt.want)
		}
	}
}

// TestHourFileSize pins the size of an hour of 8 channels at 250 Hz: a
// header of 10 blocks and 3600 records of 8·250 samples and 256 bytes of
// annotations (258 in BDF: 86 three-byte samples).
func TestHourFileSize(t *testing.T) {
	for _, bdf := range []bool{false, true} {
		r, _ := newRecorder(t, Config{BDF: bdf})
		start := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
		r.Begin(testInfo(8, 250), start)
		f := acquire.NewFrame(8)
		for k := 0; k < 3600*250; k++ {
			f.Time = time.Duration(k) * 4 * time.Millisecond
			r.Frame(f)
		}
		path := r.Path()
		r.Close()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		want := int64(256*10 + 3600*(8*250*2+256))
		if bdf {
			want = 256*10 + 3600*(8*250*3+258)
		}
		if fi.Size() != want || r.Stats().Files != 1 {
			t.Errorf("BDF %v: an hour takes %d bytes in %d files, want %d in 1", bdf, fi.Size(), r.Stats().Files, want)
		}
		if got := r.RecordedBytes(); got != uint64(want) {
			t.Errorf("BDF %v: RecordedBytes %d, want the file's %d", bdf, got, want)
		}
		t.Logf("BDF %v: %d bytes an hour (%.1f MB)", bdf, fi.Size(), float64(fi.Size())/1e6)
	}
}

// TestUnwritableDirNeverStopsMonitoring: a directory that cannot be
// created is no error for New (monitoring must start); it is logged, and
// recording starts once the directory can be made.
func TestUnwritableDirNeverStopsMonitoring(t *testing.T) {
	base := t.TempDir()
	blocker := filepath.Join(base, "blocker")
	os.WriteFile(blocker, nil, 0o600) // a file where a directory is needed
	dir := filepath.Join(blocker, "recordings")
	r, logs := newRecorder(t, Config{Dir: dir, Retry: time.Second})
	if !strings.Contains(logs.String(), "record.dir cannot be created") {
		t.Errorf("not logged:\n%s", logs)
	}
	r.Begin(testInfo(2, 100), t0)
	feed(t, r, 2, 100, 0, 250)
	if r.Path() != "" || strings.Count(logs.String(), "level=ERROR") != 2 {
		t.Fatalf("path %q; log:\n%s", r.Path(), logs)
	}
	os.Remove(blocker)
	feed(t, r, 2, 100, 250, 500)
	if !strings.HasPrefix(r.Path(), dir) {
		t.Fatalf("not recording once the directory can be made:\n%s", logs)
	}
	r.Close()
}
