package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/internal/datadir"
)

// TestReplayChannels checks replay's "channels" line on an OpenBCI sleep
// recording with EOG, EMG, ECG, trigger and accelerometer channels: the
// EEG used, every other channel left out with its reason (the reader's
// annotation signals too), -channels overriding the choice, -montage
// labelling what is used, and a recording with no EEG refused.
func TestReplayChannels(t *testing.T) {
	bdf := datadir.Path(t, "data", "eeg", "edf-conformance", "mne-testing-data", "multiple_annotation_chans.bdf")
	eeg := strings.Fields("A1 A2 C3 C4 F3 Fz F4 P3 Pz P4 O1 O2")
	first := func(args ...string) (channelsReport, fileReport) {
		t.Helper()
		out, errOut, code := runIctal(append([]string{"replay"}, args...)...)
		if code != 0 {
			t.Fatalf("replay %v: exit %d: %s", args, code, errOut)
		}
		var (
			c channelsReport
			f fileReport
		)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if err := json.Unmarshal([]byte(lines[0]), &c); err != nil {
			t.Fatalf("%s: %v", lines[0], err)
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &f); err != nil {
			t.Fatalf("%s: %v", lines[len(lines)-1], err)
		}
		return c, f
	}
	c, f := first(bdf)
	if c.Type != "channels" || c.File != bdf || c.By != acquire.ByLabels || !slices.Equal(c.Used, eeg) || f.Channels != len(eeg) {
		t.Errorf("channels %+v, file record's channels %d; want %q", c, f.Channels, eeg)
	}
	reasons := map[string]string{}
	for _, o := range c.LeftOut {
		reasons[o.Label] = o.Reason
	}
	for label, want := range map[string]string{"EMG": "signal type EMG", "EOG": "signal type EOG", "Trigger": "triggers", "ECG": "signal type ECG",
		"acc3": "not a voltage", "BDF Annotations": "annotation signal"} {
		if !strings.Contains(reasons[label], want) {
			t.Errorf("%q left out because %q, want %q", label, reasons[label], want)
		}
	}
	if n := len(c.LeftOut); n != 34-len(eeg) {
		t.Errorf("%d channels left out, want %d", n, 34-len(eeg))
	}

	c, f = first("-channels", "C3,ecg", "-montage", "C3-ref,heart", bdf)
	if c.By != acquire.BySelection || !slices.Equal(c.Used, []string{"C3", "ECG"}) || f.Channels != 2 ||
		!slices.Contains(c.LeftOut, acquire.Omitted{Label: "Fz", Reason: "not selected"}) {
		t.Errorf("-channels C3,ecg: %+v, %d channels", c, f.Channels)
	}
	if _, errOut, code := runIctal("replay", "-montage", "Fp1,Fp2", bdf); code == 0 || !strings.Contains(errOut, "-montage: acquire: 2 labels for 12 channels") {
		t.Errorf("a montage of the wrong length: exit %d: %s", code, errOut)
	}
	if _, errOut, code := runIctal("replay", "-channels", "Cz", bdf); code == 0 || !strings.Contains(errOut, `-channels: acquire: no channel "Cz"`) {
		t.Errorf("a channel that is not there: exit %d: %s", code, errOut)
	}

	noEEG := filepath.Join(t.TempDir(), "psg.edf")
	writePSG(t, noEEG)
	_, errOut, code := runIctal("replay", noEEG)
	if code == 0 || !strings.Contains(errOut, `no EEG channel among its 2 channels: "ECG": signal type ECG (the heart); "Resp nasal": signal type Resp (respiration) (-channels names them)`) {
		t.Errorf("a recording without EEG: exit %d: %s", code, errOut)
	}
}

// writePSG writes a minute of an EDF+ recording (of 1 s records, with no
// start date) holding only ECG and respiration.
func writePSG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spec := edf.SignalSpec{PhysicalDimension: "uV", PhysicalMin: -1000, PhysicalMax: 1000, SamplesPerRecord: 256}
	ecg, resp := spec, spec
	ecg.Label, resp.Label = "ECG", "Resp nasal"
	w, err := edf.NewWriter(f, edf.WriterConfig{RecordDuration: 1e9, Signals: []edf.SignalSpec{ecg, resp}})
	if err != nil {
		t.Fatal(err)
	}
	frame := []float64{0, 0}
	for range 60 * 256 {
		if err := w.WriteFrame(frame); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
