package acquire

import (
	"errors"
	"strings"
	"testing"
)

// FuzzChooseEEG feeds labels and units, seeded from real recordings'
// (testdata/fuzz/FuzzChooseEEG), to the label rules: they never panic, a
// channel left out always has a reason, electrode names do not depend on
// case, and a one-channel source is either used or an ErrNoEEG error.
func FuzzChooseEEG(f *testing.F) {
	for _, s := range []struct{ label, unit string }{
		{"EEG Fp1-Ref", "uV"}, {"POL $A1", "uV"}, {"FP1-F7", "uV"}, {"T8-P8-1", ""}, {"acc1", "G"}, {"Status", "Boolean"},
		{"EXG Channel 0", "uV"}, {"EEG(sec)", "uV"}, {"C3-A2", "mV"}, {"REF_EEG REF_EEG", "uV"},
	} {
		f.Add(s.label, s.unit)
	}
	f.Fuzz(func(t *testing.T, label, unit string) {
		v, why := classify(Channel{Label: label, Unit: unit, Rate: 256}, 256)
		if (v == notEEG) != (why != "") {
			t.Errorf("classify(%q, %q) = %v, %q", label, unit, v, why)
		}
		if isDerivation(strings.ToUpper(label)) != isDerivation(strings.ToLower(label)) {
			t.Errorf("isDerivation(%q) depends on case", label)
		}
		info := Info{Rate: 256, Channels: []Channel{{Label: label, Unit: unit, Rate: 256}}}
		c, err := ChooseEEG(info, nil)
		switch {
		case err != nil && !errors.Is(err, ErrNoEEG):
			t.Errorf("%q: %v", label, err)
		case err != nil && !strings.Contains(err.Error(), why):
			t.Errorf("%q: %v does not give the reason %q", label, err, why)
		case err == nil && (len(c.Used) != 1 || len(c.Omitted) != 0):
			t.Errorf("%q: %+v", label, c)
		}
	})
}
