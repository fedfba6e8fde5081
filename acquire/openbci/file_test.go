package openbci

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/internal/datadir"
)

const guiRows = 22490 // rows of the shared GUI recording (MANIFEST.md)

func guiPath(t testing.TB) string {
	return datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
}

// readAll reads every frame of src.
func readAll(t testing.TB, src acquire.Source) []acquire.Frame {
	t.Helper()
	var out []acquire.Frame
	for {
		f := acquire.NewFrame(len(src.Info().Channels))
		err := src.ReadFrame(f)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("frame %d: %v", len(out), err)
		}
		out = append(out, *f)
	}
}

// The real GUI recording reads exactly: every EXG value equals the one the
// test's own independent parser (loadGUI, strings.Split and
// strconv.ParseFloat per field) reads from the same text.
func TestFileGUIRecording(t *testing.T) {
	f, err := OpenFile(guiPath(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info := f.Info()
	if f.Format() != FormatGUI || f.Board() != "BoardCytonSerial" || info.Rate != 250 || len(info.Channels) != 8 {
		t.Fatalf("format %s board %q rate %v channels %d", f.Format(), f.Board(), info.Rate, len(info.Channels))
	}
	if got := info.Channels[3]; got.Label != "EXG Channel 3" || got.Unit != "uV" || got.Rate != 250 {
		t.Errorf("channel 3 = %+v", got)
	}
	if want := time.UnixMilli(1557936053329).UTC(); !info.Start.Equal(want) {
		t.Errorf("start %v, want %v (first timestamp 1557936053329 ms)", info.Start, want)
	}
	frames := readAll(t, f)
	want := loadGUI(t, guiRows)
	if len(frames) != guiRows || f.Rows() != guiRows || f.Truncated() {
		t.Fatalf("%d frames (%d rows, truncated %v), want %d", len(frames), f.Rows(), f.Truncated(), guiRows)
	}
	for i, fr := range frames {
		if fr.Seq != uint64(i) || fr.Flags != 0 {
			t.Fatalf("frame %d: seq %d flags %v (the counter never skips in this file)", i, fr.Seq, fr.Flags)
		}
		for c := range 8 {
			if fr.Samples[c] != want[i].uV[c] {
				t.Fatalf("frame %d channel %d: %v, the text says %v", i, c, fr.Samples[c], want[i].uV[c])
			}
		}
	}
	if last := frames[len(frames)-1].Time; last != time.Duration(float64(guiRows-1)/250*float64(time.Second)) {
		t.Errorf("last frame at %v", last)
	}
	if len(f.Intervals()) != 0 {
		t.Errorf("markers %v: the file's marker column is all 0", f.Intervals())
	}
}

const guiHeader = "%OpenBCI Raw EXG Data\n%Number of channels = 8\n%Sample Rate = 250 Hz\n%Board = OpenBCI_GUI$BoardCytonSerial\n" +
	"Sample Index, EXG Channel 0, EXG Channel 1, EXG Channel 2, EXG Channel 3, EXG Channel 4, EXG Channel 5, EXG Channel 6, EXG Channel 7, Accel Channel 0, Accel Channel 1, Accel Channel 2, Not Used, Digital Channel 0 (D11), Digital Channel 1 (D12), Digital Channel 2 (D13), Digital Channel 3 (D17), Not Used, Digital Channel 4 (D18), Analog Channel 0, Analog Channel 1, Analog Channel 2, Timestamp, Marker Channel, Timestamp (Formatted)\n"

func guiRow(idx int, v float64, marker int) string {
	return fmt.Sprintf("%d, %.2f, 2.00, 3.00, 4.00, 5.00, 6.00, 7.00, 8.00, 0.040, 0.420, 0.238,0,0,0,0,0,0,0,0,0,0, %d,%d, 12:00:53.329\r\n",
		idx, v, int64(1557936053329)+4*int64(idx), marker)
}

func TestFileGUIGapsMarkersTruncation(t *testing.T) {
	var b strings.Builder
	b.WriteString(guiHeader)
	for _, idx := range []int{254, 255, 0, 3, 4} { // 1 and 2 dropped
		m := 0
		if idx == 3 {
			m = 2
		}
		b.WriteString(guiRow(idx, float64(idx)+0.25, m))
	}
	b.WriteString("5, 1.0") // the GUI was killed mid-row
	f, err := NewFile(strings.NewReader(b.String()), "t.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	frames := readAll(t, f)
	wantSeq := []uint64{0, 1, 2, 5, 6}
	if len(frames) != len(wantSeq) {
		t.Fatalf("%d frames", len(frames))
	}
	for i, fr := range frames {
		gap := fr.Flags&acquire.FlagGap != 0
		if fr.Seq != wantSeq[i] || gap != (i == 3) {
			t.Errorf("frame %d: seq %d gap %v", i, fr.Seq, gap)
		}
	}
	if frames[3].Samples[0] != 3.25 || frames[3].Time != 20*time.Millisecond {
		t.Errorf("frame 3: %v at %v", frames[3].Samples[0], frames[3].Time)
	}
	if !f.Truncated() {
		t.Error("the torn last row is not reported")
	}
	if iv := f.Intervals(); len(iv) != 1 || iv[0].Start != 20*time.Millisecond || iv[0].Text != "marker 2" || iv[0].Seizure {
		t.Errorf("markers %+v", iv)
	}
}

func TestFileMalformed(t *testing.T) {
	good := guiRow(0, 1, 0)
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "empty file"},
		{"not openbci", "%hello\n", "not an OpenBCI GUI recording"},
		{"no column line", "%OpenBCI Raw EXG Data\n%Sample Rate = 250 Hz\n", "ends before its column line"},
		{"bad rate", strings.Replace(guiHeader, "250 Hz", "fast", 1), "Sample Rate"},
		{"bad channels", strings.Replace(guiHeader, "= 8", "= -8", 1), "Number of channels"},
		{"channels contradict", strings.Replace(guiHeader, "= 8", "= 16", 1), "the header says 16 channels"},
		{"no rate", strings.Replace(guiHeader, "%Sample Rate = 250 Hz\n", "", 1), "no %Sample Rate"},
		{"short row", guiHeader + "0, 1, 2\n", "t.txt:6: 3 columns, want 25"},
		{"NaN", guiHeader + strings.Replace(good, "2.00", "NaN", 1), "t.txt:6: column 3: \"NaN\": want a finite number"},
		{"text", guiHeader + strings.Replace(good, "3.00", "x", 1), "column 4: \"x\""},
		{"counter", guiHeader + strings.Replace(good, "0, 1.00", "300, 1.00", 1), "column 1: 300: want the Cyton's sample counter"},
		{"brainflow width", "1\t2\t3\n", "(3 columns; Cyton has 24"},
		{"long line", strings.Repeat("1,", maxLine), "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := NewFile(strings.NewReader(tt.text), "t.txt", nil)
			if err == nil {
				fr := acquire.NewFrame(len(f.Info().Channels))
				for err == nil {
					err = f.ReadFrame(fr)
				}
				if err == io.EOF {
					err = nil
				}
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if !errors.Is(err, ErrFormat) {
				t.Errorf("%v does not wrap ErrFormat", err)
			}
		})
	}
}

// brainFlowRow is one row of a BrainFlow Cyton file as DataFilter.write_file
// writes it (tab-separated, %f).
func brainFlowRow(cols, pkg int, exg []float64, ts float64, marker float64, stamp, mk int) string {
	v := make([]string, cols)
	for i := range v {
		v[i] = "0.000000"
	}
	v[0] = fmt.Sprintf("%f", float64(pkg))
	for i, x := range exg {
		v[1+i] = fmt.Sprintf("%f", x)
	}
	v[stamp] = fmt.Sprintf("%f", ts)
	v[mk] = fmt.Sprintf("%f", marker)
	return strings.Join(v, "\t") + "\n"
}

func TestFileBrainFlow(t *testing.T) {
	tests := []struct {
		name  string
		board Board
		opts  *FileOpts
	}{
		{"cyton", BoardCyton, nil},
		{"cyton-daisy", BoardCytonDaisy, nil},
		{"ganglion", BoardGanglion, nil},
		{"cyton-daisy named", BoardCytonDaisy, &FileOpts{Board: "cyton-daisy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bd := tt.board
			var b strings.Builder
			exg := make([]float64, len(bd.EEG))
			for i := range 4 {
				for c := range exg {
					exg[c] = -12.5 + float64(i*100+c)
				}
				m := 0.0
				if i == 2 {
					m = 7
				}
				b.WriteString(brainFlowRow(bd.Columns, i, exg, 1700000000.25+float64(i)/bd.Rate, m, bd.Stamp, bd.Marker))
			}
			f, err := NewFile(strings.NewReader(b.String()), "bf.csv", tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if f.Format() != FormatBrainFlow || f.Board() != bd.Name || f.Info().Rate != bd.Rate || len(f.Info().Channels) != len(bd.EEG) {
				t.Fatalf("%s %s %v %d", f.Format(), f.Board(), f.Info().Rate, len(f.Info().Channels))
			}
			if want := time.Unix(1700000000, 250e6).UTC(); !f.Info().Start.Equal(want) {
				t.Errorf("start %v, want %v", f.Info().Start, want)
			}
			frames := readAll(t, f)
			if len(frames) != 4 || frames[3].Samples[len(bd.EEG)-1] != -12.5+float64(300+len(bd.EEG)-1) {
				t.Fatalf("frames %v", frames)
			}
			if iv := f.Intervals(); len(iv) != 1 || iv[0].Text != "marker 7" || iv[0].Start != time.Duration(2/bd.Rate*float64(time.Second)) {
				t.Errorf("markers %+v", iv)
			}
		})
	}
}

func TestFileLabels(t *testing.T) {
	labels := []string{"Fp1", "Fp2", "C3", "C4", "T5", "T6", "O1", "O2"}
	f, err := NewFile(strings.NewReader(guiHeader+guiRow(0, 1, 0)), "t.txt", &FileOpts{Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Info().Channels[4].Label; got != "T5" {
		t.Errorf("label %q", got)
	}
	if _, err := NewFile(strings.NewReader(guiHeader), "t.txt", &FileOpts{Labels: labels[:3]}); err == nil {
		t.Error("3 labels for 8 channels accepted")
	}
	if _, err := NewFile(strings.NewReader("1\t2\n"), "t.txt", &FileOpts{Board: "muse"}); err == nil || !strings.Contains(err.Error(), `unknown BrainFlow board "muse"`) {
		t.Errorf("unknown board: %v", err)
	}
}

// OpenFile checks the whole file before the first frame: a bad row near
// the end is an error at open, not after an hour of monitoring.
func TestOpenFileChecksEveryRow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.txt")
	text := guiHeader + guiRow(0, 1, 0) + guiRow(1, 1, 0) + "2, oops\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(path, nil); err == nil || !strings.Contains(err.Error(), "bad.txt:8") {
		t.Fatalf("OpenFile = %v, want an error at line 8", err)
	}
}

func guiText(rows int) []byte {
	var b bytes.Buffer
	b.WriteString(guiHeader)
	for i := range rows {
		b.WriteString(guiRow(i%256, float64(i)*0.01, 0))
	}
	return b.Bytes()
}

func TestFileReadFrameAllocs(t *testing.T) {
	const rows = 3000
	f, err := NewFile(bytes.NewReader(guiText(rows)), "t.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	fr := acquire.NewFrame(8)
	if err := f.ReadFrame(fr); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(rows-100, func() {
		if err := f.ReadFrame(fr); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("ReadFrame allocates %v per frame", a)
	}
}

func BenchmarkFileGUI(b *testing.B) {
	text := guiText(10000)
	fr := acquire.NewFrame(8)
	b.SetBytes(int64(len(text)) / 10000)
	b.ReportAllocs()
	var f *File
	for i := 0; b.Loop(); i++ {
		if i%10000 == 0 {
			var err error
			if f, err = NewFile(bytes.NewReader(text), "t.txt", nil); err != nil {
				b.Fatal(err)
			}
		}
		if err := f.ReadFrame(fr); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzFile(f *testing.F) {
	real, err := os.ReadFile(filepath.Join(datadir.Dir(f), "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(real[:4096])
	f.Add([]byte(guiHeader + guiRow(0, 1, 0) + "1, 2"))
	f.Add([]byte(brainFlowRow(24, 0, []float64{1, 2, 3, 4, 5, 6, 7, 8}, 1.7e9, 1, 22, 23)))
	f.Add([]byte(brainFlowRow(32, 0, make([]float64, 16), 1.7e9, 0, 30, 31)))
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := NewFile(bytes.NewReader(b), "fuzz", nil)
		if err != nil {
			return
		}
		info := src.Info()
		if len(info.Channels) == 0 || !(info.Rate > 0) {
			t.Fatalf("accepted a file with %d channels at %v Hz", len(info.Channels), info.Rate)
		}
		fr := acquire.NewFrame(len(info.Channels))
		var prev uint64
		for n := 0; ; n++ {
			err := src.ReadFrame(fr)
			if err != nil {
				return
			}
			if n > 0 && fr.Seq <= prev {
				t.Fatalf("seq %d after %d", fr.Seq, prev)
			}
			prev = fr.Seq
		}
	})
}
