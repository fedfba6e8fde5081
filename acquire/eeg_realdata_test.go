package acquire_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/recording"
	"github.com/ictal/ictal/internal/datadir"
)

// refs returns "EEG X-Ref" for each X.
func refs(names ...string) []string {
	l := make([]string, len(names))
	for i, n := range names {
		l[i] = "EEG " + n + "-Ref"
	}
	return l
}

// TestChooseEEGRealFiles checks the channels ChooseEEG keeps in recordings
// written by other tools: clinical, polysomnographic and OpenBCI ones with
// ECG, EOG, SaO2, accelerometer, trigger and status channels, and test
// generator files whose channels name nothing.
func TestChooseEEGRealFiles(t *testing.T) {
	generator := []string{"squarewave", "ramp", "pulse", "noise", "sine 1 Hz", "sine 8 Hz", "sine 8.5 Hz", "sine 15 Hz", "sine 17 Hz", "sine 50 Hz"}
	biosemi := strings.Fields("Fp1 AF7 AF3 F1 F3 F5 F7 FT7 FC5 FC3 FC1 C1 C3 C5 T7 TP7 CP5 CP3 CP1 P1 P3 P5 P7 P9 PO7 PO3 O1 Iz Oz POz Pz CPz " +
		"Fpz Fp2 AF8 AF4 AFz Fz F2 F4 F6 F8 FT8 FC6 FC4 FC2 FCz Cz C2 C4 C6 T8 TP8 CP6 CP4 CP2 P2 P4 P6 P8 P10 PO8 PO4 O2")
	nihon := append(refs("Fp1", "Fp2", "F3", "F4", "C3", "C4", "P3", "P4", "O1", "O2", "F7", "F8", "T7", "T8", "P7", "P8", "Fz", "Cz", "Pz"),
		"EEG A1-Ref", "EEG A2-Ref", "POL T1", "POL T2")
	nihon = append(nihon, refs("F9", "T9", "P9", "F10", "T10", "P10")...)
	stim := strings.Fields("Fp1 Fp2 F7 F3 Fz F4 F8 T3 C3 Cz C4 T4 T5 P3 Pz P4 T6 O1 O2")
	for i := range stim {
		stim[i] = "EEG " + stim[i]
	}
	tests := []struct {
		path    []string
		by      string
		want    []string
		omitted map[string]string // label → a part of the reason
	}{
		{[]string{"mne-testing-data", "chtypes_edf.edf"}, acquire.ByLabels, nihon, map[string]string{
			"POL E": `input "E" is not an EEG electrode`, "POL PG1": "not an EEG electrode", "POL $A1": "not an EEG electrode",
			"POL DC01": "not an EEG electrode", "ECG ECG1": "signal type ECG", "SaO2 X9": "signal type SaO2"}},
		{[]string{"mne-testing-data", "multiple_annotation_chans.bdf"}, acquire.ByLabels,
			strings.Fields("A1 A2 C3 C4 F3 Fz F4 P3 Pz P4 O1 O2"), map[string]string{
				"EMG": "signal type EMG", "EOG": "signal type EOG", "Trigger": "triggers", "ECG": "signal type ECG",
				"acc1": `unit "G" is not a voltage`}},
		{[]string{"mne-python", "test_edf_stim_channel.edf"}, acquire.ByLabels, stim, map[string]string{
			"EOG VEOG_I": "signal type EOG", "REF_EEG REF_EEG": "not an EEG electrode name (channels named as EEG: 19)",
			"ECG ECG2": "signal type ECG", "DIG DTRIG": "triggers"}},
		{[]string{"mne-python", "test.bdf"}, acquire.ByLabels, biosemi, nil},
		{[]string{"mne-testing-data", "test_bdf_stim_channel.bdf"}, acquire.ByLabels, []string{"C3", "C4", "Cz"},
			map[string]string{"Status": "triggers"}},
		{[]string{"mne-python", "duplicate_channel_labels.edf"}, acquire.ByLabels, []string{"EEG F1-Ref", "EEG F2-Ref", "EEG F1-Ref"}, nil},
		{[]string{"pyedflib", "test_subsecond.edf"}, acquire.ByLabels, []string{"Fp1"}, nil},
		{[]string{"pyedflib", "test_utf8.edf"}, acquire.ByLabels, []string{"Fp1"}, nil},
		{[]string{"pyedflib", "test_generator.bdf"}, acquire.ByVoltage, []string{"sine 5Hz"}, nil},
		{[]string{"pyedflib", "test_generator_datarec_generator_2.bdf"}, acquire.ByVoltage, []string{"sine 2.5Hz"}, nil},
		{[]string{"edfreader-r", "edfPlusC.edf"}, acquire.ByVoltage, generator, map[string]string{"ECG": "signal type ECG"}},
		{[]string{"edfreader-r", "edfPlusD.edf"}, acquire.ByVoltage, generator, map[string]string{"ECG": "signal type ECG"}},
		{[]string{"edfreader-r", "bdfPlusC.bdf"}, acquire.ByVoltage, generator, map[string]string{"ECG": "signal type ECG"}},
		{[]string{"mne-testing-data", "test_utf8_annotations.edf"}, acquire.ByVoltage, generator, map[string]string{"ECG": "signal type ECG"}},
		{[]string{"edfize", "simulated-01.edf"}, acquire.ByLabels, []string{"EEG(sec)"}, nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.path, "/"), func(t *testing.T) {
			path := datadir.Path(t, append([]string{"data", "eeg", "edf-conformance"}, tt.path...)...)
			r, _, err := recording.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			info := r.Info()
			c, err := acquire.ChooseEEG(info, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Labels(info); c.By != tt.by || !slices.Equal(got, tt.want) {
				t.Errorf("by %s %q,\nwant by %s %q", c.By, got, tt.by, tt.want)
			}
			if len(c.Used)+len(c.Omitted) != len(info.Channels) {
				t.Errorf("%d used and %d omitted of %d channels", len(c.Used), len(c.Omitted), len(info.Channels))
			}
			reasons := map[string]string{}
			for _, o := range c.Omitted {
				if o.Reason == "" {
					t.Errorf("%q omitted without a reason", o.Label)
				}
				reasons[o.Label] = o.Reason
			}
			for l, want := range tt.omitted {
				if !strings.Contains(reasons[l], want) {
					t.Errorf("%q omitted because %q, want %q", l, reasons[l], want)
				}
			}
		})
	}
}

// TestChooseEEGOpenBCIGUI checks that the 8 EXG channels of an OpenBCI GUI
// recording, which name no electrode, are all EEG (the accelerometer
// columns are not channels of the source at all) and that SelectEEG then
// leaves the source as it is.
func TestChooseEEGOpenBCIGUI(t *testing.T) {
	r, _, err := recording.Open(datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	src, c, err := acquire.SelectEEG(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, 8)
	for i := range want {
		want[i] = fmt.Sprintf("EXG Channel %d", i)
	}
	if got := c.Labels(r.Info()); c.By != acquire.ByVoltage || !slices.Equal(got, want) || len(c.Omitted) != 0 {
		t.Errorf("by %s %q, omitted %v; want every EXG channel by voltage", c.By, got, c.Omitted)
	}
	if src != acquire.Source(r) {
		t.Errorf("SelectEEG wrapped a source whose channels are all EEG in a %T", src)
	}
}

// TestSelectEEGNothing checks that a recording without EEG is an error
// naming what it holds.
func TestSelectEEGNothing(t *testing.T) {
	info := acquire.Info{Rate: 1, Channels: []acquire.Channel{{Label: "SaO2", Unit: "%", Rate: 1}, {Label: "ECG", Unit: "mV", Rate: 1}}}
	_, err := acquire.ChooseEEG(info, nil)
	if !errors.Is(err, acquire.ErrNoEEG) || !strings.Contains(err.Error(), `"SaO2": unit "%" is not a voltage; "ECG": signal type ECG`) {
		t.Errorf("got %v", err)
	}
}
