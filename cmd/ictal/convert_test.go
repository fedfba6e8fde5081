package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/internal/datadir"
)

// The real OpenBCI recording converts to a BDF+ file that the EDF reader
// opens with every frame, the channel names given and the start time kept.
func TestConvertOpenBCI(t *testing.T) {
	in := datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
	out := filepath.Join(t.TempDir(), "session.bdf")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"convert", "-labels", "Fp1,Fp2,C3,C4,P7,P8,O1,O2", in, out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep struct {
		BDF    bool  `json:"bdf"`
		Frames int64 `json:"frames"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || !rep.BDF || rep.Frames != 22490 {
		t.Fatalf("report %s (%v)", stdout.String(), err)
	}
	r, err := edf.OpenReplay(out, edf.ReplayConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	info := r.Info()
	if len(info.Channels) != 8 || info.Channels[7].Label != "O2" || info.Rate != 250 || info.Start.UnixMilli() != 1557936053329 {
		t.Errorf("converted file: %d channels, last %q, %v Hz, start %v", len(info.Channels), info.Channels[7].Label, info.Rate, info.Start)
	}
	if code := run([]string{"convert", in}, &stdout, &stderr); code == 0 {
		t.Error("convert with one argument succeeded")
	}
}

// The CHB-MIT seizure excerpt (23 channels, 256 Hz, 41 s) converted to
// 100 Hz and to 500 Hz opens again in the EDF reader at that rate, 41 s
// long, every channel kept.
func TestConvertRate(t *testing.T) {
	in := datadir.Path(t, "data", "eeg", "chbmit", "excerpts", "chb01_03_Seizure.edf")
	tests := []struct {
		rate   string
		hz     float64
		frames int64
	}{
		{"100", 100, 4100},
		{"500", 500, 20500},
	}
	for _, tt := range tests {
		t.Run(tt.rate, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "chb01_03.edf")
			var stdout, stderr bytes.Buffer
			if code := run([]string{"convert", "-rate", tt.rate, in, out}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			var rep struct {
				Rate       float64 `json:"rate_hz"`
				SourceRate float64 `json:"source_rate_hz"`
				Frames     int64   `json:"frames"`
				Written    int64   `json:"frames_out"`
				Record     float64 `json:"record_s"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Rate != tt.hz || rep.SourceRate != 256 || rep.Frames != 41*256 || rep.Written != tt.frames || rep.Record != 1 {
				t.Fatalf("report %s (%v)", stdout.String(), err)
			}
			r, err := edf.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			h := r.Header()
			if h.Format() != "EDF+C" || len(h.Signals) != 24 || h.Rate(0) != tt.hz || h.Rate(22) != tt.hz || h.Signals[22].Label != "T8-P8" {
				t.Errorf("header: %s, %d signals, %v Hz, last %q", h.Format(), len(h.Signals), h.Rate(0), h.Signals[22].Label)
			}
			if d := time.Duration(h.Records) * h.RecordDuration; d != 41*time.Second {
				t.Errorf("%d records of %v: %v, want 41 s", h.Records, h.RecordDuration, d)
			}
		})
	}
}

// -rate outside 1 to 65536 Hz, or not a number, is refused with an error
// naming the flag, and nothing is written.
func TestConvertRateRefused(t *testing.T) {
	in := datadir.Path(t, "data", "eeg", "chbmit", "excerpts", "chb01_03_Seizure.edf")
	tests := []struct{ rate, want string }{
		{"0.5", "-rate 0.5: want 1 to 65536 Hz"},
		{"0", `-rate "0": want a rate in Hz`},
		{"-100", `-rate "-100": want a rate in Hz`},
		{"70000", "-rate 70000: want 1 to 65536 Hz"},
		{"abc", `-rate "abc": want a rate in Hz`},
		{"NaN", `-rate "NaN": want a rate in Hz`},
		{"Inf", `-rate "Inf": want a rate in Hz`},
		{"333.333", "-rate 333.333: a data record holding a whole number of samples would last 1000 s"},
	}
	for _, tt := range tests {
		t.Run(tt.rate, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.edf")
			_, stderr, code := runIctal("convert", "-rate", tt.rate, in, out)
			if code == 0 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want an error saying %q", code, stderr, tt.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s written", out)
			}
		})
	}
}
