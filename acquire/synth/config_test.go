package synth

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		field string
	}{
		{"negative channels", Config{Channels: -1}, "Channels:"},
		{"too many channels", Config{Channels: 65}, "Channels:"},
		{"labels do not match channels", Config{Channels: 3, Labels: []string{"a", "b"}}, "Labels:"},
		{"too many labels", Config{Labels: DefaultLabels(65)}, "Labels:"},
		{"empty label", Config{Labels: []string{"Fp1-F7", ""}}, "Labels[1]:"},
		{"repeated label", Config{Labels: []string{"Fp1-F7", "F7-T7", "Fp1-F7"}}, "Labels[2]:"},
		{"rate too low", Config{Rate: 32}, "Rate:"},
		{"rate too high", Config{Rate: 32768}, "Rate:"},
		{"negative duration", Config{Duration: -time.Second}, "Duration:"},
		{"duration under a second", Config{Duration: 500 * time.Millisecond}, "Duration:"},
		{"seizures too short", Config{SeizureMin: 5 * time.Second}, "SeizureMin:"},
		{"max below min", Config{SeizureMin: time.Minute, SeizureMax: 40 * time.Second}, "SeizureMax:"},
		{"max too long", Config{SeizureMax: time.Hour}, "SeizureMax:"},
		{"negative count", Config{Seizures: -2}, "Seizures:"},
		{"too many seizures", Config{Duration: 10 * time.Minute, Seizures: 5}, "Seizures:"},
		{"count disagrees with onsets", Config{Seizures: 2, Onsets: []time.Duration{time.Minute}}, "Seizures:"},
		{"negative onset", Config{Onsets: []time.Duration{-time.Second}}, "Onsets[0]:"},
		{"onset too late", Config{Duration: 10 * time.Minute, Onsets: []time.Duration{time.Minute, 9 * time.Minute}}, "Onsets[1]:"},
		{"onsets overlap", Config{Onsets: []time.Duration{time.Minute, 2 * time.Minute}}, "Onsets[1]:"},
		{"onsets out of order", Config{Onsets: []time.Duration{10 * time.Minute, 5 * time.Minute}}, "Onsets[1]:"},
		{"negative blink rate", Config{BlinksPerMinute: -1}, "BlinksPerMinute:"},
		{"NaN blink rate", Config{BlinksPerMinute: math.NaN()}, "BlinksPerMinute:"},
		{"muscle rate too high", Config{MusclePerMinute: 11}, "MusclePerMinute:"},
		{"infinite muscle rate", Config{MusclePerMinute: math.Inf(1)}, "MusclePerMinute:"},
		{"unknown seizure kind", Config{SeizureKinds: []SeizureKind{SeizureAbsence, "tonic"}}, "SeizureKinds[1]:"},
		{"unknown artifact kind", Config{ArtifactKinds: []ArtifactKind{"blink"}}, "ArtifactKinds[0]:"},
		{"repeated artifact kind", Config{ArtifactKinds: []ArtifactKind{ArtifactSweat, ArtifactChewing, ArtifactSweat}}, "ArtifactKinds[2]:"},
		{"negative artifact rate", Config{ArtifactKinds: ArtifactKinds(), ArtifactsPerHour: -1}, "ArtifactsPerHour:"},
		{"NaN artifact rate", Config{ArtifactsPerHour: math.NaN()}, "ArtifactsPerHour:"},
		{"artifact rate too high", Config{ArtifactsPerHour: 121}, "ArtifactsPerHour:"},
		// A tonic–clonic seizure lasts up to 80 s whatever SeizureMax says.
		{"tonic-clonic seizures do not fit", Config{Duration: 10 * time.Minute, Seizures: 5, SeizureMax: 30 * time.Second,
			SeizureKinds: []SeizureKind{SeizureAbsence, SeizureTonicClonic}}, "Seizures:"},
		{"tonic-clonic onset too late", Config{Duration: 10 * time.Minute, SeizureMax: 30 * time.Second,
			Onsets: []time.Duration{9 * time.Minute}, SeizureKinds: []SeizureKind{SeizureTonicClonic}}, "Onsets[0]:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.cfg)
			if err == nil {
				t.Fatalf("New accepted %+v: %v", tt.cfg, p)
			}
			if !errors.Is(err, ErrConfig) {
				t.Errorf("error %v does not wrap ErrConfig", err)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q does not name %s", err, tt.field)
			}
			// The field is there for callers to map, not parse.
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field+":" != tt.field {
				t.Errorf("error %v: no *ConfigError with Field %s", err, strings.TrimSuffix(tt.field, ":"))
			}
		})
	}
}

func TestNewFillsDefaults(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	got := p.Config()
	if got.Channels != 8 || got.Rate != 256 || got.Duration != 30*time.Minute || got.SeizureMin != 30*time.Second ||
		got.SeizureMax != 90*time.Second || !got.Start.Equal(DefaultStart) || strings.Join(got.Labels, " ") != strings.Join(DefaultLabels(8), " ") {
		t.Errorf("defaults: %+v", got)
	}
	if got.Seizures != 0 || got.BlinksPerMinute != 0 || len(p.Intervals()) != 0 {
		t.Errorf("zero config has seizures or artifacts: %+v", p.Intervals())
	}
	if p.Frames() != 30*60*256 {
		t.Errorf("Frames() = %d", p.Frames())
	}
	q, err := New(Config{Labels: []string{"EEG T7-P7", "Cz", "left ear"}})
	if err != nil || q.Config().Channels != 3 {
		t.Fatalf("labels alone: %v, %+v", err, q.Config())
	}
	if s := q.sites[0]; s.a != (point{-1, 0}) || s.b != (point{-0.81, -0.59}) {
		t.Errorf("EEG T7-P7 placed at %+v", s)
	}
}

func TestDefaultLabelsFollowTheMontage(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, ""},
		{4, "Fp1-F7 F7-T7 T7-P7 P7-O1"},
		{8, "Fp1-F7 F7-T7 T7-P7 P7-O1 Fp1-F3 F3-C3 C3-P3 P3-O1"},
		{26, strings.Join(montage, " ") + " E24 E25 E26"},
	}
	for _, tt := range tests {
		if got := strings.Join(DefaultLabels(tt.n), " "); got != tt.want {
			t.Errorf("DefaultLabels(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	for _, l := range montage {
		a, b, _ := strings.Cut(l, "-")
		if _, ok := lookupElectrode(a); !ok {
			t.Errorf("%s: unknown electrode %s", l, a)
		}
		if _, ok := lookupElectrode(b); !ok {
			t.Errorf("%s: unknown electrode %s", l, b)
		}
	}
}
