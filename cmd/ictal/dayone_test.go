package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
)

// TestDayOneQuietOnRealNonSeizureEEG: `ictal replay -learn off FILE`,
// with no -model (the day-one model), raises no alert on the real
// recordings of people without seizures stored in ../shared: the OpenBCI
// Cyton session (blinks, jaw clenches, alpha), the OpenBCI sleep
// recording, and the clinical exports among the EDF conformance files;
// and it scores their usable windows, on any montage and rate.
func TestDayOneQuietOnRealNonSeizureEEG(t *testing.T) {
	for _, f := range []struct {
		path   []string
		usable bool // long and clean enough for usable windows
	}{
		{[]string{"openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"}, true},
		{[]string{"edf-conformance", "mne-testing-data", "multiple_annotation_chans.bdf"}, true},
		{[]string{"edf-conformance", "mne-testing-data", "chtypes_edf.edf"}, false},
		{[]string{"edf-conformance", "mne-python", "test_edf_stim_channel.edf"}, true},
		{[]string{"edf-conformance", "mne-python", "duplicate_channel_labels.edf"}, true},
	} {
		path := datadir.Path(t, append([]string{"data", "eeg"}, f.path...)...)
		var out, errb bytes.Buffer
		if code := run([]string{"replay", "-learn", "off", path}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", path, code, errb.String())
		}
		var file struct {
			Alerts, Channels int
			Usable           int64
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, `"type":"alert"`) {
				t.Errorf("%s: alert %s", f.path[len(f.path)-1], line)
			}
			if strings.Contains(line, `"type":"file"`) {
				if err := json.Unmarshal([]byte(line), &file); err != nil {
					t.Fatal(err)
				}
			}
		}
		if file.Channels == 0 || f.usable && file.Usable == 0 {
			t.Errorf("%s: %d channels, %d usable windows scored", f.path[len(f.path)-1], file.Channels, file.Usable)
		}
	}
}
