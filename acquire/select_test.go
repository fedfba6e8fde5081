package acquire

import (
	"io"
	"strings"
	"testing"
)

// counting is a source whose channel c holds 100c + the frame number, with
// channel 1 off and channel 3 saturated.
type counting struct {
	fixed
	n int
}

func (s *counting) ReadFrame(f *Frame) error {
	if s.n == 3 {
		return io.EOF
	}
	if len(f.Samples) != len(s.info.Channels) {
		return ErrFrameSize
	}
	f.Reset()
	f.Seq = uint64(s.n)
	for c := range f.Samples {
		f.Samples[c] = float64(100*c + s.n)
	}
	f.LeadOff, f.Saturated, f.Flags = 1<<1, 1<<3, FlagLeadOff|FlagSaturated
	s.n++
	return nil
}

func TestSelect(t *testing.T) {
	chans := []Channel{{Label: "EEG Fp1"}, {Label: "EEG Fp2"}, {Label: "ECG"}, {Label: "EEG O1"}}
	src := &counting{fixed: fixed{info: Info{Rate: 128, Channels: chans}}}
	s, err := Select(src, []string{"o1", "EEG Fp2"})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Info().Channels; len(got) != 2 || got[0].Label != "EEG O1" || got[1].Label != "EEG Fp2" {
		t.Fatalf("channels %+v", got)
	}
	f := NewFrame(2)
	for i := range 3 {
		if err := s.ReadFrame(f); err != nil {
			t.Fatal(err)
		}
		if f.Samples[0] != float64(300+i) || f.Samples[1] != float64(100+i) || f.LeadOff != 1<<1 || f.Saturated != 1<<0 ||
			f.Flags != FlagLeadOff|FlagSaturated || f.Seq != uint64(i) {
			t.Fatalf("frame %d: %+v", i, f)
		}
	}
	if err := s.ReadFrame(f); err != io.EOF {
		t.Errorf("after the last frame: %v", err)
	}
	if err := s.ReadFrame(NewFrame(4)); err != ErrFrameSize {
		t.Errorf("a frame of the wrapped size: %v", err)
	}
	src.n = 0
	if n := testing.AllocsPerRun(2, func() { s.ReadFrame(f) }); n != 0 {
		t.Errorf("ReadFrame allocates %v times", n)
	}
	for _, tt := range []struct {
		labels []string
		want   string
	}{
		{[]string{"Cz"}, `no channel "Cz"`},
		{[]string{"Fp1", "EEG Fp1"}, `channel "EEG Fp1" selected twice`},
	} {
		if _, err := Select(src, tt.labels); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Select(%q) = %v, want %q", tt.labels, err, tt.want)
		}
	}
	dup := &fixed{info: Info{Channels: []Channel{{Label: "EEG F1"}, {Label: "EEG f1"}}}}
	if _, err := Select(dup, []string{"F1"}); err == nil || !strings.Contains(err.Error(), "matches both") {
		t.Errorf("an ambiguous label: %v", err)
	}
}
