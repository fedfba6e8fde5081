package acquire

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestIsElectrode(t *testing.T) {
	yes := "Fp1 Fp2 Fpz FPZ fp1 AF7 AF10 AFz F1 F10 Fz FT7 FT10 FC6 FCz T1 T3 T6 T10 C5 Cz TP9 CP3 CPz P10 Pz PO9 POz O1 O9 O10 Oz Iz I1 Nz A1 A2 M1 M2"
	no := "Fp3 Fp FT6 FTz FC7 Tz T11 C7 TP6 O3 I3 A3 Mz E E1 X1 Fp01 F0 F11 F100 Z z 1 Ref EXG1 Status PG1 $A1 DC01"
	for _, n := range strings.Fields(yes) {
		if !isElectrode(n) {
			t.Errorf("%q is not an electrode", n)
		}
	}
	for _, n := range append(strings.Fields(no), "") {
		if isElectrode(n) {
			t.Errorf("%q is an electrode", n)
		}
	}
}

func TestIsDerivation(t *testing.T) {
	derivation := map[string]bool{
		"Fp1": true, "FP1-F7": true, "C3-A2": true, "Fpz-Cz": true, "Fp1 - F7": true,
		"Fp1-Ref": true, "C3-AVG": true, "Cz-LE": true,
		"T8-P8-0": true, "T8-P8-1": true, // CHB-MIT's second T8-P8
		"Ref-Fp1": false, "Fp1-": false, "-": false, "--0": false, "Fp1-F7-F8": false, "LOC-ROC": false,
		"E1-M2":   false, // AASM's eye electrode against a mastoid
		"Fp1-X":   false,
		"EEG Fp1": false, // the type is classify's business
	}
	for label, want := range derivation {
		if got := isDerivation(label); got != want {
			t.Errorf("isDerivation(%q) = %v, want %v", label, got, want)
		}
	}
}

// uv is an EEG-like channel at 256 Hz.
func uv(label string) Channel { return Channel{Label: label, Unit: "uV", Rate: 256} }

func TestChooseEEG(t *testing.T) {
	tests := []struct {
		name, by      string
		chans         []Channel
		selection     []string
		want, omitted []string // omitted: "label: part of the reason"
	}{
		{"a selection wins, in its order, over every other rule", BySelection,
			[]Channel{uv("EEG Fp1"), uv("ECG"), {Label: "acc1", Unit: "G", Rate: 256}, uv("EEG O1")}, []string{"o1", "ECG", "acc1"},
			[]string{"EEG O1", "ECG", "acc1"}, []string{"EEG Fp1: not selected"}},
		{"EDF+ signal types decide", ByLabels,
			[]Channel{uv("EEG Fp1-Ref"), uv("EOG LOC"), uv("EMG Chin"), uv("Resp oro-nasal"), uv("Temp rectal"), uv("Event marker"), uv("SEEG LA1"), uv("ECG1"), uv("EEG(sec)")},
			nil, []string{"EEG Fp1-Ref", "SEEG LA1", "EEG(sec)"},
			[]string{"EOG LOC: signal type EOG (the eyes)", "EMG Chin: signal type EMG", "Resp oro-nasal: signal type Resp", "Temp rectal: signal type Temp",
				"Event marker: signal type Event", "ECG1: signal type ECG"}},
		{"a type decides even where the name is an electrode's", ByLabels,
			[]Channel{uv("EOG Fp1"), uv("Fp2")}, nil, []string{"Fp2"}, []string{"EOG Fp1: signal type EOG"}},
		{"POL inputs by their names", ByLabels,
			[]Channel{uv("POL T1"), uv("POL Fp1-F7"), uv("POL E"), uv("POL X1"), uv("POL $A1"), uv("POL DC01")}, nil, []string{"POL T1", "POL Fp1-F7"}, []string{`POL E: polygraphic input "E"`, `POL X1: polygraphic input "X1"`, `POL $A1: polygraphic input "$A1"`, "POL DC01: polygraphic"}},
		{"electrode names without a type, and what the others name", ByLabels,
			[]Channel{uv("FP1-F7"), uv("T8-P8-0"), uv("C3-A2"), uv("LOC-ROC"), uv("ECG"), uv("VNS"), uv("-"), uv("Status"), uv("Trigger"), uv("X"), uv("Chin1"), uv("Leg/L"), uv("SpO2"), uv("Pleth"), uv("Light"), uv("Sound"), uv("Position"), uv("REOG"), uv("Marker")},
			nil, []string{"FP1-F7", "T8-P8-0", "C3-A2"},
			[]string{"LOC-ROC: the eyes", "ECG: signal type ECG", "VNS: not an EEG electrode name (channels named as EEG: 3)", "-: not an EEG electrode name",
				"Status: triggers", "Trigger: triggers", "X: motion", "Chin1: muscle", "Leg/L: muscle", "SpO2: signal type SpO2", "Pleth: oxygen",
				"Light: signal type Light", "Sound: signal type Sound", "Position: motion", "REOG: the eyes", "Marker: triggers"}},
		{"units and rates rule out what names do not", ByLabels,
			[]Channel{uv("Cz"), {Label: "Pz", Unit: "degC", Rate: 256}, {Label: "Oz", Unit: "uV", Rate: 128}, {Label: "Fz", Rate: 256}, {Label: "C3", Unit: "mV", Rate: 256},
				{Label: "C4", Unit: "\xb5V", Rate: 256}, {Label: "P3", Unit: " Microvolts", Rate: 256}},
			nil, []string{"Cz", "Fz", "C3", "C4", "P3"}, []string{`Pz: unit "degC" is not a voltage`, "Oz: rate 128 Hz differs from the common 256 Hz"}},
		{"nothing named as EEG: the voltage channels that name nothing else", ByVoltage,
			[]Channel{uv("EXG Channel 0"), uv("EXG Channel 1"), uv("Trigger"), {Label: "aux", Rate: 256}, {Label: "acc", Unit: "g", Rate: 256}},
			nil, []string{"EXG Channel 0", "EXG Channel 1"},
			[]string{"Trigger: triggers", "aux: no unit, and no channel is named as EEG", `acc: unit "g"`}},
		{"unused slots are not EEG even where nothing is named", ByVoltage,
			[]Channel{uv("F7-CS2"), uv("-"), uv("--0"), uv(" . "), uv("-1"), uv("EXG Channel 0")},
			nil, []string{"F7-CS2", "-1", "EXG Channel 0"},
			[]string{"-: an unused slot", "--0: an unused slot", " . : an unused slot"}},
		{"named channels leave the unnamed ones out", ByLabels,
			[]Channel{uv("EXG1"), uv("Cz")}, nil, []string{"Cz"}, []string{"EXG1: not an EEG electrode name (channels named as EEG: 1)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := Info{Rate: 256, Channels: tt.chans}
			c, err := ChooseEEG(info, tt.selection)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Labels(info); c.By != tt.by || !slices.Equal(got, tt.want) {
				t.Errorf("by %s %q, want by %s %q", c.By, got, tt.by, tt.want)
			}
			if len(c.Omitted) != len(tt.omitted) {
				t.Errorf("omitted %q, want %q", c.Omitted, tt.omitted)
				return
			}
			for i, o := range c.Omitted {
				label, reason, _ := strings.Cut(tt.omitted[i], ": ")
				if o.Label != label || !strings.Contains(o.Reason, reason) {
					t.Errorf("omitted %q because %q, want %q because %q", o.Label, o.Reason, label, reason)
				}
			}
		})
	}
}

func TestChooseEEGErrors(t *testing.T) {
	two := Info{Rate: 256, Channels: []Channel{uv("EEG F1"), uv("EEG f1")}}
	tests := []struct {
		name      string
		info      Info
		selection []string
		want      string
		noEEG     bool
	}{
		{"no channels", Info{Rate: 256}, nil, "the source has no channels", true},
		{"nothing is EEG", Info{Rate: 256, Channels: []Channel{uv("ECG"), {Label: "aux", Rate: 256}}}, nil,
			`among its 2 channels: "ECG": signal type ECG (the heart); "aux": no unit, and no channel is named as EEG`, true},
		{"a selected label that is not there", two, []string{"Cz"}, `no channel "Cz"`, false},
		{"an ambiguous selection", two, []string{"F1"}, "matches both", false},
		{"a channel selected twice", two, []string{"EEG F1", "EEG F1"}, "selected twice", false},
	}
	for _, tt := range tests {
		_, err := ChooseEEG(tt.info, tt.selection)
		if err == nil || !strings.Contains(err.Error(), tt.want) || errors.Is(err, ErrNoEEG) != tt.noEEG {
			t.Errorf("%s: %v, want %q (ErrNoEEG %v)", tt.name, err, tt.want, tt.noEEG)
		}
		if _, _, err := SelectEEG(&fixed{info: tt.info}, tt.selection); err == nil {
			t.Errorf("%s: SelectEEG accepted it", tt.name)
		}
	}
}

// TestSelectEEG checks that SelectEEG serves the EEG channels of a
// recording with others, and returns one that is all EEG as it is.
func TestSelectEEG(t *testing.T) {
	chans := []Channel{uv("EEG Fp1"), uv("EEG Fp2"), uv("ECG"), uv("EEG O1")}
	src := &counting{fixed: fixed{info: Info{Rate: 256, Channels: chans}}}
	s, c, err := SelectEEG(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Info().Channels; len(got) != 3 || got[2].Label != "EEG O1" || !slices.Equal(c.Used, []int{0, 1, 3}) {
		t.Fatalf("channels %+v, used %v", got, c.Used)
	}
	f := NewFrame(3)
	if err := s.ReadFrame(f); err != nil || f.Samples[2] != 300 || f.Saturated != 1<<2 {
		t.Errorf("first frame %+v: %v", f, err)
	}
	all := &fixed{info: Info{Rate: 256, Channels: []Channel{uv("Fp1-F7"), uv("F7-T7")}}}
	if s, _, err := SelectEEG(all, nil); err != nil || s != Source(all) {
		t.Errorf("all EEG: %T %v", s, err)
	}
	if s, _, err := SelectEEG(all, []string{"F7-T7", "Fp1-F7"}); err != nil || s == Source(all) || s.Info().Channels[0].Label != "F7-T7" {
		t.Errorf("all EEG in another order: %T %v", s, err)
	}
}
