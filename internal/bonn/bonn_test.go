package bonn

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/internal/datadir"
)

func TestParseSegmentErrors(t *testing.T) {
	good := strings.Repeat("1\r\n", SegmentSamples)
	tests := []struct{ name, in, want string }{
		{"not a number", "12\r\nx\r\n", "seg.txt:2: \"x\" is not a 16-bit integer"},
		{"out of range", "70000\n", "seg.txt:1: \"70000\""},
		{"too short", "1\n2\n", "seg.txt: 2 samples, want 4097"},
		{"too long", good + "1\r\n", "seg.txt: 4098 samples"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSegment(strings.NewReader(tt.in), "seg.txt")
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want ErrFormat with %q", err, tt.want)
			}
		})
	}
	if x, err := ParseSegment(strings.NewReader(good), "seg.txt"); err != nil || len(x) != SegmentSamples {
		t.Errorf("%d samples, %v", len(x), err)
	}
}

func TestLoadAllSets(t *testing.T) {
	segs, err := Load(datadir.Path(t, "data", "eeg", "bonn"), Sets...)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, s := range segs {
		n[s.Set]++
	}
	for _, set := range Sets {
		if n[set] != 80 {
			t.Errorf("set %s: %d segments, want 80", set, n[set])
		}
	}
}

// TestConcatRefusesBadConfig: a seizure rate outside [0, 1] (NaN
// included), a negative duration and a pool without background are
// errors, before anything is written.
func TestConcatRefusesBadConfig(t *testing.T) {
	seg := func(set string) Segment {
		return Segment{Set: set, Name: set + "001.txt", X: make([]float64, SegmentSamples)}
	}
	both := []Segment{seg("S"), seg("Z")}
	for _, tt := range []struct {
		name string
		segs []Segment
		cfg  ConcatConfig
		want string
	}{
		{"rate NaN", both, ConcatConfig{SeizureRate: math.NaN()}, "seizure rate NaN"},
		{"rate negative", both, ConcatConfig{SeizureRate: -0.1}, "seizure rate -0.1"},
		{"rate above 1", both, ConcatConfig{SeizureRate: 1.5}, "seizure rate 1.5"},
		{"negative duration", both, ConcatConfig{Duration: -time.Minute}, "duration -1m0s"},
		{"no background", []Segment{seg("S")}, ConcatConfig{}, "need both"},
	} {
		f, err := os.Create(filepath.Join(t.TempDir(), "c.edf"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Concat(f, tt.segs, tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.want)
		}
		if st, err := f.Stat(); err != nil {
			t.Fatal(err)
		} else if st.Size() != 0 {
			t.Errorf("%s: %d bytes written", tt.name, st.Size())
		}
		f.Close()
	}
}

// TestConcatRoundTrip splices a 10-minute recording, reads it back with
// the EDF replay and checks the seizures, the samples and the rate.
func TestConcatRoundTrip(t *testing.T) {
	segs, err := Load(datadir.Path(t, "data", "eeg", "bonn"), "S", "Z")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.edf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	ivs, err := Concat(f, segs, ConcatConfig{Duration: 10 * time.Minute, SeizureRate: 0.5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if len(ivs) < 2 {
		t.Fatalf("%d seizures", len(ivs))
	}
	for i := 1; i < len(ivs); i++ {
		if gap := ivs[i].Start - ivs[i-1].End; gap < 90*time.Second {
			t.Errorf("seizures %d and %d only %v apart", i-1, i, gap)
		}
	}
	r, err := edf.OpenReplay(path, edf.ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if info := r.Info(); info.Rate != Rate || len(info.Channels) != 1 {
		t.Fatalf("info %+v", info)
	}
	got := r.Intervals()
	if len(got) != len(ivs) {
		t.Fatalf("%d annotated seizures, wrote %d", len(got), len(ivs))
	}
	for i := range got {
		if !got[i].Seizure || (got[i].Start-ivs[i].Start).Abs() > time.Millisecond {
			t.Errorf("seizure %d: %+v, wrote %+v", i, got[i], ivs[i])
		}
	}
	// The first ictal segment's samples are where the annotation says.
	name := strings.TrimPrefix(ivs[0].Text, "seizure ")
	var want []float64
	for _, s := range segs {
		if s.Name == name {
			want = s.X
		}
	}
	fr := acquire.NewFrame(1)
	first := int64(ivs[0].Start.Seconds()*Rate + 0.5)
	for k := int64(0); k < first+int64(len(want)); k++ {
		if err := r.ReadFrame(fr); err != nil {
			t.Fatal(err)
		}
		// 16-bit EDF over ±2048: a step of 4096/65535 counts.
		if k >= first && abs(fr.Samples[0]-want[k-first]) > 0.07 {
			t.Fatalf("sample %d of %s: %v, want %v", k-first, name, fr.Samples[0], want[k-first])
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func FuzzParseSegment(f *testing.F) {
	b, err := os.ReadFile(datadir.Path(f, "data", "eeg", "bonn", "N", "N001.TXT"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("1\n-2\r\n 3 \n")
	f.Fuzz(func(t *testing.T, in string) {
		x, err := ParseSegment(strings.NewReader(in), "f.txt")
		if err != nil {
			if !errors.Is(err, ErrFormat) && !strings.Contains(err.Error(), "token too long") {
				t.Fatalf("error without ErrFormat: %v", err)
			}
			return
		}
		if len(x) != SegmentSamples {
			t.Fatalf("%d samples", len(x))
		}
	})
}

func sprint(xy interface {
	Len() int
	XY(int) (float64, float64)
}) string {
	var parts []string
	for i := range xy.Len() {
		x, y := xy.XY(i)
		parts = append(parts, fmt.Sprintf("{%v %v}", x, y))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
