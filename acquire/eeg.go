package acquire

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// How ChooseEEG decided, in EEGChoice.By.
const (
	// BySelection: an explicit list of labels (a configuration's, a
	// -channels flag's) chose the channels.
	BySelection = "selection"
	// ByLabels: the channels' labels did, by their EDF+ signal type
	// ("EEG Fp1", "ECG ECG1") or their electrode names ("Fp1-F7").
	ByLabels = "labels"
	// ByVoltage: no label names a channel as EEG, so every channel in
	// volts at the common rate whose label names nothing else is EEG (the
	// numbered channels of an OpenBCI board or of a test generator).
	ByVoltage = "voltage"
)

// ErrNoEEG is returned (wrapped, with what was found) by ChooseEEG and
// SelectEEG when no channel of a source is EEG.
var ErrNoEEG = errors.New("acquire: no EEG channel")

// Omitted is a channel ChooseEEG left out, and why.
type Omitted struct {
	Label  string `json:"label"`
	Reason string `json:"reason"`
}

// EEGChoice is which channels of a source are EEG: those used, in the
// order served, and each other one with the reason it was left out.
type EEGChoice struct {
	By      string    // BySelection, ByLabels or ByVoltage
	Used    []int     // indices into Info.Channels, in the order served
	Omitted []Omitted // the other channels, in the source's order
}

// Labels returns the labels of the channels used.
func (c EEGChoice) Labels(info Info) []string {
	l := make([]string, len(c.Used))
	for i, ch := range c.Used {
		l[i] = info.Channels[ch].Label
	}
	return l
}

// ChooseEEG decides which of a source's channels are EEG, by these rules
// in order (acquire's README.md explains them):
//
//  1. A selection (labels, matched as Select matches them) wins: exactly
//     those channels, in that order.
//  2. A channel not in volts (uV, µV, mV, V, nV, microvolts; no unit is allowed) or at
//     a rate other than the source's is not EEG.
//  3. An EDF+ signal type decides where a label starts with one ("EEG
//     Fp1", "ECG1", "EEG(sec)"): EEG, SEEG, ECoG and iEEG are EEG; ECG,
//     EOG, EMG, Resp, SaO2, Temp, Event and the other types are not; a
//     Nihon Kohden "POL" input is EEG when an electrode name follows ("POL
//     T1") and not otherwise ("POL E", "POL $A1", "POL DC01").
//  4. A label naming 10-20/10-10 electrodes ("Fp1", "Fp1-F7", "C3-A2",
//     "Cz-Ref") is EEG.
//  5. A label naming something else ("Status", "Trigger", "acc1", "X",
//     "Chin", "Leg", "LOC-ROC", anything containing EOG, ECG, EKG, EMG,
//     TRIG, Resp, SpO2 or SaO2) is not.
//  6. The channels left (names that say nothing, "EXG Channel 0", "sine
//     8 Hz") are EEG when no channel is named as EEG by rules 3 and 4 and
//     their unit is a voltage; otherwise they are left out. An unused
//     slot's mark ("-", ".", "--0") is left out either way.
//
// A source with no EEG channel is an error wrapping ErrNoEEG that lists
// every channel and why it was left out.
func ChooseEEG(info Info, selection []string) (EEGChoice, error) {
	if len(info.Channels) == 0 {
		return EEGChoice{}, fmt.Errorf("%w: the source has no channels", ErrNoEEG)
	}
	if len(selection) > 0 {
		idx, err := matchLabels(info, selection)
		if err != nil {
			return EEGChoice{}, err
		}
		c := EEGChoice{By: BySelection, Used: idx}
		for i, ch := range info.Channels {
			if !slices.Contains(idx, i) {
				c.Omitted = append(c.Omitted, Omitted{ch.Label, "not selected"})
			}
		}
		return c, nil
	}
	verdicts := make([]verdict, len(info.Channels))
	reasons := make([]string, len(info.Channels))
	named := 0
	for i, ch := range info.Channels {
		verdicts[i], reasons[i] = classify(ch, info.Rate)
		if verdicts[i] == isEEG {
			named++
		}
	}
	c := EEGChoice{By: ByLabels}
	if named == 0 {
		c.By = ByVoltage
	}
	for i, ch := range info.Channels {
		v, why := verdicts[i], reasons[i]
		if v == unnamed {
			switch {
			case named > 0:
				v, why = notEEG, fmt.Sprintf("not an EEG electrode name (channels named as EEG: %d)", named)
			case isUnusedSlot(ch.Label):
				v, why = notEEG, "an unused slot (the label has no letter or digit)"
			case !isVoltage(ch.Unit):
				v, why = notEEG, "no unit, and no channel is named as EEG"
			default:
				v = isEEG
			}
		}
		if v == isEEG {
			c.Used = append(c.Used, i)
		} else {
			c.Omitted = append(c.Omitted, Omitted{ch.Label, why})
		}
	}
	if len(c.Used) == 0 {
		var b strings.Builder
		for i, o := range c.Omitted {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%q: %s", o.Label, o.Reason)
		}
		return EEGChoice{}, fmt.Errorf("%w among its %d channels: %s", ErrNoEEG, len(info.Channels), b.String())
	}
	return c, nil
}

// SelectEEG returns src serving the channels ChooseEEG finds EEG, and the
// choice. When that is every channel in order, src itself is returned;
// otherwise a Selected, which passes src's intervals through.
func SelectEEG(src Source, selection []string) (Source, EEGChoice, error) {
	info := src.Info()
	c, err := ChooseEEG(info, selection)
	if err != nil {
		return nil, EEGChoice{}, err
	}
	all := len(c.Used) == len(info.Channels)
	for i, ch := range c.Used {
		all = all && ch == i
	}
	if all {
		return src, c, nil
	}
	return newSelected(src, c.Used), c, nil
}

// verdict is what a channel's own description says of it.
type verdict uint8

const (
	notEEG  verdict = iota
	isEEG           // named as EEG by its signal type or electrodes
	unnamed         // named as nothing: EEG only where no channel is named
)

// classify applies rules 2 to 5 of ChooseEEG to one channel of a source
// whose common rate is rate.
func classify(ch Channel, rate float64) (verdict, string) {
	if ch.Unit != "" && !isVoltage(ch.Unit) {
		return notEEG, fmt.Sprintf("unit %q is not a voltage", ch.Unit)
	}
	if ch.Rate > 0 && rate > 0 && ch.Rate != rate {
		return notEEG, fmt.Sprintf("rate %g Hz differs from the common %g Hz", ch.Rate, rate)
	}
	label := strings.TrimSpace(ch.Label)
	if head, sensor, ok := strings.Cut(label, " "); ok && strings.EqualFold(head, "POL") {
		sensor = strings.TrimSpace(sensor)
		if isDerivation(sensor) {
			return isEEG, ""
		}
		return notEEG, fmt.Sprintf("polygraphic input %q is not an EEG electrode", sensor)
	}
	if t, ok := leading(label, signalTypes); ok {
		if t.what == "" {
			return isEEG, ""
		}
		return notEEG, fmt.Sprintf("signal type %s (%s)", label[:len(t.word)], t.what)
	}
	if isDerivation(label) {
		return isEEG, ""
	}
	if t, ok := leading(label, otherNames); ok {
		return notEEG, "names a channel of " + t.what
	}
	up := strings.ToUpper(label)
	for _, t := range otherWords {
		if strings.Contains(up, t.word) {
			return notEEG, "names a channel of " + t.what
		}
	}
	return unnamed, ""
}

// isVoltage reports whether unit is a voltage: the units acquire/edf
// converts to µV, µ in Latin-1 (a byte 0xB5, as some EDF writers store
// it) and the words spelt out.
func isVoltage(unit string) bool {
	unit = strings.TrimSpace(unit)
	if strings.HasPrefix(unit, "\xb5") { // before ToLower makes it U+FFFD
		unit = "u" + unit[1:]
	}
	switch strings.ToLower(unit) {
	case "uv", "µv", "μv", "mv", "v", "nv",
		"microvolt", "microvolts", "millivolt", "millivolts", "volt", "volts":
		return true
	}
	return false
}

// isUnusedSlot reports whether label marks an unused slot of a montage:
// one or more "-" or "." and nothing else ("-", "."), or such a mark with
// a repeat mark after it ("--0", as tools number CHB-MIT's repeats).
func isUnusedSlot(label string) bool {
	l := strings.TrimSpace(label)
	if i := strings.LastIndexByte(l, '-'); i > 0 && digits(l[i+1:]) {
		l = l[:i]
	}
	return l != "" && strings.Trim(l, "-.") == ""
}

// kind is a word a label may start with or contain, and what it says the
// channel records ("" for EEG).
type kind struct{ word, what string }

// leading returns the kind whose word label starts with, in any case,
// followed by the end of the label or by anything but a letter ("ECG",
// "ECG1", "ECG ECG1", "EEG(sec)"; not "ECGx").
func leading(label string, kinds []kind) (kind, bool) {
	for _, k := range kinds {
		n := len(k.word)
		if len(label) >= n && strings.EqualFold(label[:n], k.word) && (len(label) == n || !isLetter(label[n])) {
			return k, true
		}
	}
	return kind{}, false
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// signalTypes are the EDF+ signal types (EDF+ specification, "Standard
// texts and polarity rules": EEG ECG EOG ERG EMG MEG MCG EP Temp Resp
// SaO2 Light Sound Event) and the other ones recordings use (intracranial
// EEG, EKG, SpO2, DC inputs, MNE's Stim, Misc, Bio, DBS). "POL" is decided
// by the input's name in classify.
var signalTypes = []kind{
	{"EEG", ""}, {"SEEG", ""}, {"ECoG", ""}, {"iEEG", ""},
	{"ECG", "the heart"}, {"EKG", "the heart"}, {"EOG", "the eyes"}, {"ERG", "the retina"},
	{"EMG", "muscle"}, {"MEG", "magnetic fields"}, {"MCG", "magnetic fields"}, {"EP", "evoked potentials"},
	{"Temp", "temperature"}, {"Resp", "respiration"}, {"SaO2", "oxygen saturation"}, {"SpO2", "oxygen saturation"},
	{"Light", "light"}, {"Sound", "sound"}, {"Event", "events"}, {"DC", "a DC input"},
	{"Stim", "stimuli"}, {"Misc", "something else"}, {"Bio", "something else"}, {"DBS", "deep brain stimulation"},
}

// otherNames are the words that start the labels of channels that are not
// EEG, when no signal type says so.
var otherNames = []kind{
	{"LOC", "the eyes"}, {"ROC", "the eyes"},
	{"Chin", "muscle"}, {"Leg", "muscle"}, {"LAT", "muscle"}, {"RAT", "muscle"},
	{"Flow", "respiration"}, {"Airflow", "respiration"}, {"Thor", "respiration"}, {"Thorax", "respiration"},
	{"Abd", "respiration"}, {"Abdo", "respiration"}, {"Abdomen", "respiration"}, {"Snore", "respiration"},
	{"Nasal", "respiration"}, {"Cannula", "respiration"}, {"Effort", "respiration"}, {"Therm", "respiration"},
	{"Pleth", "oxygen saturation"}, {"HR", "the heart"},
	{"Status", "triggers or events"}, {"Trigger", "triggers or events"}, {"Marker", "triggers or events"},
	{"Mark", "triggers or events"}, {"Events", "triggers or events"},
	{"Accel", "motion"}, {"Acc", "motion"}, {"Gyro", "motion"}, {"Position", "motion"}, {"Activity", "motion"},
	{"X", "motion"}, {"Y", "motion"}, {"Z", "motion"},
	{"Temperature", "temperature"}, {"Audio", "sound"}, {"Mic", "sound"}, {"Photic", "light"}, {"Lux", "light"},
	{"Battery", "the device"}, {"Timestamp", "the device"}, {"Time", "the device"}, {"Sample", "the device"},
	{"Counter", "the device"}, {"GSR", "skin conductance"}, {"EDA", "skin conductance"},
}

// otherWords are the upper-case words that mark a channel as not EEG
// wherever they stand in its label ("VEOG_I", "REOG", "DTRIG").
var otherWords = []kind{
	{"EOG", "the eyes"}, {"ECG", "the heart"}, {"EKG", "the heart"}, {"EMG", "muscle"},
	{"TRIG", "triggers or events"}, {"RESP", "respiration"}, {"SPO2", "oxygen saturation"}, {"SAO2", "oxygen saturation"},
}
