package features

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNewRejectsInvalidConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string // part of the message naming the field
	}{
		{"no channels", Config{Rate: 256}, "Channels 0"},
		{"negative channels", Config{Channels: -2, Rate: 256}, "Channels -2"},
		{"labels of the wrong length", Config{Channels: 2, Rate: 256, Labels: []string{"Fp1"}}, "Labels has 1 entries for 2 Channels"},
		{"empty label", Config{Channels: 2, Rate: 256, Labels: []string{"Fp1", ""}}, "Labels[1] is empty"},
		{"repeated label", Config{Channels: 3, Rate: 256, Labels: []string{"Fp1", "F7", "Fp1"}}, `Labels[2] "Fp1" repeats Labels[0]`},
		{"zero rate", Config{Channels: 1}, "Rate 0 Hz"},
		{"rate too low for gamma", Config{Channels: 1, Rate: 60}, "Rate 60 Hz"},
		{"rate below the lowest supported", Config{Channels: 1, Rate: 99.9}, "lowest rate supported is 100 Hz"},
		{"NaN rate", Config{Channels: 1, Rate: nan()}, "Rate NaN Hz"},
		{"infinite rate", Config{Channels: 1, Rate: inf()}, "Rate +Inf Hz"},
		{"negative window", Config{Channels: 1, Rate: 256, Window: -time.Second}, "Window -1s is negative"},
		{"negative step", Config{Channels: 1, Rate: 256, Step: -time.Second}, "Step -1s is negative"},
		{"window of 3 samples", Config{Channels: 1, Rate: 256, Window: 10 * time.Millisecond}, "Window 10ms at 256 Hz is 3 samples"},
		{"window too long", Config{Channels: 1, Rate: 256, Window: 2 * time.Hour}, "Window 2h0m0s at 256 Hz is 1843200 samples, more than 1048576"},
		{"too many channels for a 32-bit board", Config{Channels: 1 << 20, Rate: 256}, "Channels 1048576 × Window 2s at 256 Hz is 536870912 samples, more than 67108864"},
		{"step too long", Config{Channels: 1, Rate: 256, Step: 2 * time.Hour}, "Step 2h0m0s at 256 Hz is 1843200 samples, more than 1048576"},
		{"step under one sample", Config{Channels: 1, Rate: 256, Step: time.Millisecond}, "Step 1ms at 256 Hz is 0.256 samples"},
		{"window too short for delta", Config{Channels: 1, Rate: 256, Window: 250 * time.Millisecond}, "the δ band 0.5–4 Hz holds no spectral bin"},
		{"no features", Config{Channels: 1, Rate: 256, Features: []Feature{}}, "Features is empty"},
		{"unknown feature", Config{Channels: 1, Rate: 256, Features: []Feature{RMS, 99}}, "Features[1] is Feature(99)"},
		{"repeated feature", Config{Channels: 1, Rate: 256, Features: []Feature{RMS, LineLength, RMS}}, "Features[2] rms is listed twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil {
				t.Fatal("New succeeded, want an error")
			}
			if !errors.Is(err, ErrConfig) {
				t.Errorf("error %q does not wrap ErrConfig", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
		})
	}
}

func TestShortWindowWithoutSpectralFeatures(t *testing.T) {
	// Time-domain features need no spectral resolution: a quarter-second
	// window is fine when no spectral feature is asked for.
	e, err := New(Config{Channels: 1, Rate: 256, Window: 250 * time.Millisecond, Step: 125 * time.Millisecond,
		Features: []Feature{LineLength, HjorthMobility}})
	if err != nil {
		t.Fatal(err)
	}
	if e.Window() != 64 || e.Dim() != 2 {
		t.Errorf("Window() = %d, Dim() = %d; want 64, 2", e.Window(), e.Dim())
	}
}

func TestNamesAndDim(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{
			"default channel names",
			Config{Channels: 2, Rate: 256, Features: []Feature{LineLength, AlphaRel}},
			[]string{"ch0/line_length", "ch0/alpha_rel", "ch1/line_length", "ch1/alpha_rel"},
		},
		{
			"labels and summaries",
			Config{Channels: 2, Rate: 256, Labels: []string{"Fp1-F7", "F7-T7"}, Features: []Feature{SpectralEdge}, Summaries: true},
			[]string{"Fp1-F7/spectral_edge", "F7-T7/spectral_edge",
				"max/line_length", "median/line_length", "max/delta_theta_rel", "median/delta_theta_rel"},
		},
		{
			"summaries only",
			Config{Channels: 3, Rate: 256, Features: []Feature{}, Summaries: true},
			[]string{"max/line_length", "median/line_length", "max/delta_theta_rel", "median/delta_theta_rel"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Names(); !slices.Equal(got, tt.want) {
				t.Errorf("Names() = %q, want %q", got, tt.want)
			}
			if e.Dim() != len(tt.want) {
				t.Errorf("Dim() = %d, want %d", e.Dim(), len(tt.want))
			}
		})
	}
}

func TestAllFeaturesAreNamedAndParse(t *testing.T) {
	all := AllFeatures()
	if len(all) != 17 {
		t.Fatalf("AllFeatures has %d features, want 17", len(all))
	}
	e, err := New(Config{Channels: 1, Rate: 256})
	if err != nil {
		t.Fatal(err)
	}
	names := e.Names()
	for i, f := range all {
		if names[i] != "ch0/"+f.String() {
			t.Errorf("Names()[%d] = %q, want ch0/%v", i, names[i], f)
		}
		g, err := ParseFeature(f.String())
		if err != nil || g != f {
			t.Errorf("ParseFeature(%q) = %v, %v; want %v", f.String(), g, err, f)
		}
	}
	if _, err := ParseFeature("alpha"); !errors.Is(err, ErrUnknownFeature) {
		t.Errorf("ParseFeature(alpha): %v, want ErrUnknownFeature", err)
	}
}

func TestConfigIsCopied(t *testing.T) {
	labels := []string{"A", "B"}
	feats := []Feature{RMS}
	e, err := New(Config{Channels: 2, Rate: 256, Labels: labels, Features: feats})
	if err != nil {
		t.Fatal(err)
	}
	labels[0], feats[0] = "Z", LineLength
	if got := e.Names(); got[0] != "A/rms" {
		t.Errorf("after changing the caller's slices, Names()[0] = %q, want A/rms", got[0])
	}
}

func TestSelectedFeaturesMatchTheFullVector(t *testing.T) {
	s := mixtureSignal(mixture)
	full := firstVector(t, Config{Channels: 2, Rate: 256}, s)
	tests := []struct {
		name  string
		feats []Feature
	}{
		{"time-domain only, no FFT", []Feature{TeagerEnergy, RMS, ZeroCrossings}},
		{"spectral and time-domain, reordered", []Feature{SpectralEdge, LineLength, GammaRel, DeltaPower}},
		{"one feature", []Feature{HjorthComplexity}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := firstVector(t, Config{Channels: 2, Rate: 256, Features: tt.feats}, s)
			for c := 0; c < 2; c++ {
				for i, f := range tt.feats {
					got, want := x[c*len(tt.feats)+i], full[c*int(numFeatures)+int(f)]
					if got != want {
						t.Errorf("channel %d %v = %v, in the full vector %v", c, f, got, want)
					}
				}
			}
		})
	}
}

// Config.Dim and Extractor.Index agree with the extractor's names.
func TestDimAndIndex(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"all features", Config{Channels: 3, Rate: 256}},
		{"two features and summaries", Config{Channels: 4, Rate: 250, Features: []Feature{RMS, LineLength}, Summaries: true}},
		{"summaries only", Config{Channels: 2, Rate: 173.61, Features: []Feature{}, Summaries: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := tt.cfg.Dim()
			if err != nil {
				t.Fatal(err)
			}
			e, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if d != e.Dim() {
				t.Fatalf("Config.Dim %d, Extractor.Dim %d", d, e.Dim())
			}
			names := e.Names()
			for c := range tt.cfg.Channels {
				for f := Feature(0); f < numFeatures; f++ {
					i := e.Index(c, f)
					want := -1
					for j, n := range names {
						if n == fmt.Sprintf("ch%d/%s", c, f) {
							want = j
						}
					}
					if i != want {
						t.Errorf("Index(%d, %s) = %d, want %d", c, f, i, want)
					}
				}
			}
			if e.Index(-1, RMS) != -1 || e.Index(tt.cfg.Channels, RMS) != -1 {
				t.Error("a channel out of range has an index")
			}
		})
	}
	if _, err := (Config{Channels: 0, Rate: 256}).Dim(); !errors.Is(err, ErrConfig) {
		t.Errorf("Dim of an invalid config: %v", err)
	}
}
