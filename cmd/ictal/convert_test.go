package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

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
