package recording

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/internal/datadir"
)

// frames reads every frame of the recording at path.
func frames(t *testing.T, path string) ([]acquire.Frame, Recording) {
	t.Helper()
	r, _, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	var out []acquire.Frame
	for {
		f := acquire.NewFrame(len(r.Info().Channels))
		if err := r.ReadFrame(f); err == io.EOF {
			return out, r
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, *f)
	}
}

func TestConvert(t *testing.T) {
	eeg := filepath.Join(datadir.Dir(t), "data", "eeg")
	tests := []struct {
		in      string
		bdf     bool
		annots  int
		started bool
	}{
		{"openbci/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt", true, 0, true},
		{"edf-conformance/edfreader-r/edfPlusC.edf", false, 2, true},
		{"edf-conformance/edfreader-r/bdfPlusC.bdf", true, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in := filepath.Join(eeg, tt.in)
			out := filepath.Join(t.TempDir(), "out.edf")
			c, err := Convert(in, out, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.BDF != tt.bdf || c.Annotations != tt.annots || c.Filled != 0 {
				t.Errorf("converted %+v", c)
			}
			src, rs := frames(t, in)
			dst, rd := frames(t, out)
			if int64(len(src)) != c.Frames || len(dst) < len(src) || len(dst)-len(src) >= int(c.Rate*c.Record) {
				t.Fatalf("%d frames in, %d out (%+v)", len(src), len(dst), c)
			}
			if !rs.Info().Start.Equal(rd.Info().Start) {
				t.Errorf("start %v, the source's %v", rd.Info().Start, rs.Info().Start)
			}
			bits := 16
			if tt.bdf {
				bits = 24
			}
			for ch := range rs.Info().Channels {
				if a, b := rs.Info().Channels[ch].Label, rd.Info().Channels[ch].Label; a != b {
					t.Errorf("channel %d label %q, the source's %q", ch, b, a)
				}
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, f := range src {
					lo, hi = min(lo, f.Samples[ch]), max(hi, f.Samples[ch])
				}
				// The header's 8-character physical limits widen the range
				// by less than 1 µV on each side.
				step := (hi - lo + 2) / (math.Exp2(float64(bits)) - 1)
				for i, f := range src {
					if d := math.Abs(dst[i].Samples[ch] - f.Samples[ch]); d > step/2*(1+1e-9)+1e-9 {
						t.Fatalf("channel %d frame %d: %v written as %v (step %v)", ch, i, f.Samples[ch], dst[i].Samples[ch], step)
					}
				}
			}
			var texts []string
			for _, iv := range rd.Intervals() {
				texts = append(texts, iv.Text)
			}
			for _, iv := range rs.Intervals() {
				if !strings.Contains(strings.Join(texts, "\n"), iv.Text) {
					t.Errorf("annotation %q lost (have %q)", iv.Text, texts)
				}
			}
		})
	}
}

func TestConvertGap(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "gap.txt")
	var b strings.Builder
	b.WriteString("%OpenBCI Raw EXG Data\n%Number of channels = 8\n%Sample Rate = 250 Hz\n%Board = OpenBCI_GUI$BoardCytonSerial\n")
	b.WriteString("Sample Index, EXG Channel 0, EXG Channel 1, EXG Channel 2, EXG Channel 3, EXG Channel 4, EXG Channel 5, EXG Channel 6, EXG Channel 7, Timestamp\n")
	for i := range 300 {
		if i == 100 || i == 101 {
			continue
		}
		b.WriteString(itoa(i%256) + strings.Repeat(", "+itoa(i), 8) + ", " + strconv.FormatInt(1557936053329+4*int64(i), 10) + "\n")
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gap.bdf")
	c, err := Convert(in, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Filled != 2 || c.Frames != 298 {
		t.Fatalf("%+v", c)
	}
	dst, rd := frames(t, out)
	if dst[100].Samples[0] != dst[99].Samples[0] || math.Abs(dst[102].Samples[0]-102) > 1e-3 {
		t.Errorf("around the gap: %v %v %v", dst[99].Samples[0], dst[100].Samples[0], dst[102].Samples[0])
	}
	found := false
	for _, iv := range rd.Intervals() {
		found = found || iv.Text == "gap: 2 frames lost" && iv.Start == 400e6
	}
	if !found {
		t.Errorf("no gap annotation at 0.4 s: %+v", rd.Intervals())
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
