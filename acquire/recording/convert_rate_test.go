package recording

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/acquire/resample"
	"github.com/ictal/ictal/internal/datadir"
)

// want resamples the frames of the recording at path in memory, as
// ConvertAt must write them.
func want(t *testing.T, path string, rate resample.Rate) [][]float64 {
	t.Helper()
	src, r := frames(t, path)
	rs, err := sourceResampler(r.Info(), rate)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]float64
	pop := func() {
		for {
			y := make([]float64, len(r.Info().Channels))
			if !rs.Pop(y) {
				return
			}
			out = append(out, y)
		}
	}
	for _, f := range src {
		rs.Push(f.Samples)
		pop()
	}
	rs.End()
	pop()
	return out
}

// Real files resampled up and down: the file written holds, at the new
// rate, the samples the resampler gives (to within the quantisation step:
// the physical ranges hold the resampled signal, nothing is clipped),
// with whole records of the chosen duration, the source's start, labels
// and annotations at their times.
func TestConvertAt(t *testing.T) {
	eeg := filepath.Join(datadir.Dir(t), "data", "eeg")
	tests := []struct {
		in      string
		rate    string
		record  float64
		bdf     bool
		written int64
	}{
		{"chbmit/excerpts/chb01_03_Seizure.edf", "100", 1, false, 4100}, // 41 s
		{"chbmit/excerpts/chb01_03_Seizure.edf", "500", 1, false, 20500},
		{"chbmit/excerpts/chb01_03_Seizure.edf", "173.61", 100, false, 7119}, // ⌈41·173.61⌉
		{"edf-conformance/edfreader-r/edfPlusC.edf", "256", 1, false, 5120},  // 20 s at 200 Hz
		{"edf-conformance/edfreader-r/edfPlusC.edf", "100.5", 2, false, 2010},
		{"edf-conformance/edfreader-r/bdfPlusC.bdf", "128", 1, true, 2560},
		{"openbci/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt", "256", 1, true, 23030}, // ⌈22490·256/250⌉
	}
	for _, tt := range tests {
		t.Run(tt.in+"@"+tt.rate, func(t *testing.T) {
			in := filepath.Join(eeg, tt.in)
			rate, err := resample.ParseRate(tt.rate)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out.edf")
			c, err := ConvertAt(in, out, rate, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.BDF != tt.bdf || c.Record != tt.record || c.Written != tt.written || c.Rate != rate.Hz() || c.Resampler == "" {
				t.Errorf("converted %+v", c)
			}
			exp := want(t, in, rate)
			dst, rd := frames(t, out)
			_, rs := frames(t, in)
			info := rd.Info()
			if math.Abs(info.Rate-rate.Hz()) > 1e-9*rate.Hz() || int64(len(exp)) != c.Written {
				t.Fatalf("rate %v Hz, %d frames expected, %+v", info.Rate, len(exp), c)
			}
			spr := int(rate.Hz()*tt.record + 0.5)
			if len(dst)%spr != 0 || len(dst) < len(exp) || len(dst)-len(exp) >= spr {
				t.Fatalf("%d frames written for %d, records of %d", len(dst), len(exp), spr)
			}
			if !info.Start.Equal(rs.Info().Start) {
				t.Errorf("start %v, the source's %v", info.Start, rs.Info().Start)
			}
			bits := 16
			if tt.bdf {
				bits = 24
			}
			for ch := range info.Channels {
				if a, b := rs.Info().Channels[ch].Label, info.Channels[ch].Label; a != b {
					t.Errorf("channel %d label %q, the source's %q", ch, b, a)
				}
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, f := range exp {
					lo, hi = min(lo, f[ch]), max(hi, f[ch])
				}
				step := (hi - lo + 2) / (math.Exp2(float64(bits)) - 1)
				for i, f := range exp {
					if d := math.Abs(dst[i].Samples[ch] - f[ch]); d > step/2*(1+1e-9)+1e-9 {
						t.Fatalf("channel %d frame %d: %v written as %v (step %v)", ch, i, f[ch], dst[i].Samples[ch], step)
					}
				}
			}
			if got, want := rd.Intervals(), rs.Intervals(); len(got) != len(want) {
				t.Errorf("annotations %+v, the source's %+v", got, want)
			} else {
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("annotation %d: %+v, the source's %+v", i, got[i], want[i])
					}
				}
			}
		})
	}
}

// An event annotated at 7.3 s in a 256-Hz file is, at 100 Hz, still at
// 7.3 s: the annotation's onset and duration unchanged, the pulse's
// largest sample the frame nearest 7.3 s.
func TestConvertAtEvent(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "event.edf")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	wr, err := edf.NewWriter(f, edf.WriterConfig{Start: start, RecordDuration: time.Second, Signals: []edf.SignalSpec{
		{Label: "EEG C3", PhysicalDimension: "uV", PhysicalMin: -500, PhysicalMax: 500, SamplesPerRecord: 256},
		{Label: "EEG C4", PhysicalDimension: "uV", PhysicalMin: -500, PhysicalMax: 500, SamplesPerRecord: 256},
	}})
	if err != nil {
		t.Fatal(err)
	}
	const t0 = 7.3
	for k := range 20 * 256 {
		d := (float64(k)/256 - t0) / 0.03
		v := 300 * math.Exp(-d*d/2)
		if err := wr.WriteFrame([]float64{v, -v}); err != nil {
			t.Fatal(err)
		}
	}
	if err := wr.Annotate(7300*time.Millisecond, 1500*time.Millisecond, "Seizure onset"); err != nil {
		t.Fatal(err)
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := filepath.Join(dir, "event100.edf")
	if _, err := ConvertAt(in, out, resample.Rate{Num: 100, Den: 1}, nil); err != nil {
		t.Fatal(err)
	}
	dst, rd := frames(t, out)
	peak := 0
	for k := range dst {
		if dst[k].Samples[0] > dst[peak].Samples[0] {
			peak = k
		}
	}
	if peak != 730 || dst[peak].Time != 7300*time.Millisecond || math.Abs(dst[peak].Samples[1]+dst[peak].Samples[0]) > 0.05 {
		t.Errorf("pulse peaks at frame %d (%v), want 730 (7.3 s)", peak, dst[peak].Time)
	}
	iv := rd.Intervals()
	if len(iv) != 1 || iv[0].Start != 7300*time.Millisecond || iv[0].End != 8800*time.Millisecond || !iv[0].Seizure {
		t.Errorf("annotations %+v, want the seizure onset at 7.3 s for 1.5 s", iv)
	}
	if !rd.Info().Start.Equal(start) {
		t.Errorf("start %v, want %v", rd.Info().Start, start)
	}
}

// Frames an OpenBCI file lost are filled before resampling and annotated
// at their time.
func TestConvertAtGap(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "gap.txt")
	var b strings.Builder
	b.WriteString("%OpenBCI Raw EXG Data\n%Number of channels = 8\n%Sample Rate = 250 Hz\n%Board = OpenBCI_GUI$BoardCytonSerial\n")
	b.WriteString("Sample Index, EXG Channel 0, EXG Channel 1, EXG Channel 2, EXG Channel 3, EXG Channel 4, EXG Channel 5, EXG Channel 6, EXG Channel 7, Timestamp\n")
	for i := range 500 {
		if i == 100 || i == 101 {
			continue
		}
		b.WriteString(itoa(i%256) + strings.Repeat(", 42", 8) + ", " + strconv.FormatInt(1557936053329+4*int64(i), 10) + "\n")
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gap.bdf")
	c, err := ConvertAt(in, out, resample.Rate{Num: 125, Den: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Filled != 2 || c.Frames != 498 || c.Written != 250 {
		t.Fatalf("%+v", c)
	}
	dst, rd := frames(t, out)
	for k, f := range dst {
		if math.Abs(f.Samples[3]-42) > 1e-3 {
			t.Fatalf("frame %d: %v, want 42", k, f.Samples[3])
		}
	}
	found := false
	for _, iv := range rd.Intervals() {
		found = found || iv.Text == "gap: 2 frames lost" && iv.Start == 400*time.Millisecond
	}
	if !found {
		t.Errorf("no gap annotation at 0.4 s: %+v", rd.Intervals())
	}
}

// Rates outside 1 to 65536 Hz, or whose whole samples need records longer
// than 100 s, are refused with an error naming the rate.
func TestConvertAtRefuses(t *testing.T) {
	in := datadir.Path(t, "data", "eeg", "chbmit", "excerpts", "chb01_03_Seizure.edf")
	tests := []struct {
		rate resample.Rate
		want string
	}{
		{resample.Rate{Num: 1, Den: 2}, "rate 0.5 Hz: want 1 to 65536 Hz"},
		{resample.Rate{Num: 65537, Den: 1}, "rate 65537 Hz: want 1 to 65536 Hz"},
		{resample.Rate{Num: 0, Den: 1}, "want 1 to 65536 Hz"},
		{resample.Rate{Num: 333333, Den: 1000}, "rate 333.333 Hz: a data record holding a whole number of samples would last 1000 s"},
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "out.edf")
		if _, err := ConvertAt(in, out, tt.rate, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.rate, err, tt.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s written", tt.rate, out)
		}
	}
}
