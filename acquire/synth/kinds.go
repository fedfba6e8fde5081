package synth

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// SeizureKind names a kind of simulated seizure (doc.go describes each and
// cites where its parameters come from).
type SeizureKind string

// The seizure kinds.
const (
	// SeizureRhythmic is the kind of earlier versions, and the default: a
	// focal rhythmic 3–8 Hz discharge gliding in frequency. Its annotation
	// is "seizure" alone, so recordings made before kinds existed read the
	// same.
	SeizureRhythmic SeizureKind = "rhythmic"
	// SeizureLVFAOnset is a focal low-voltage fast (beta) onset that slows
	// through rhythmic theta to delta as it grows and spreads.
	SeizureLVFAOnset SeizureKind = "lvfa-onset"
	// SeizureLowAmplitude is a focal theta discharge barely above the
	// background.
	SeizureLowAmplitude SeizureKind = "low-amplitude"
	// SeizureDelta is a focal, irregular rhythmic delta discharge.
	SeizureDelta SeizureKind = "delta"
	// SeizureTonicClonic is a generalised tonic–clonic seizure: broadband
	// EMG on most channels (tonic), then EMG bursts slowing from 5 to 1 Hz
	// (clonic), accelerometer jerks, post-ictal generalised suppression.
	SeizureTonicClonic SeizureKind = "gtcs"
	// SeizureAbsence is a typical absence: generalised 3 Hz spike-and-wave
	// for 5–15 s, abrupt at both ends.
	SeizureAbsence SeizureKind = "absence"
)

// ArtifactKind names a kind of simulated artifact that mimics a seizure.
type ArtifactKind string

// The artifact kinds that mimic seizures.
const (
	// ArtifactChewing is rhythmic 1–2 Hz bursts of jaw-muscle EMG on the
	// temporal channels.
	ArtifactChewing ArtifactKind = "chewing"
	// ArtifactPatting is rhythmic 1.5–3 Hz movement potentials from
	// patting, frontal and spread over the scalp.
	ArtifactPatting ArtifactKind = "patting"
	// ArtifactRocking is rhythmic 1–2 Hz sway potentials on every channel
	// from rocking, seen by the accelerometer too.
	ArtifactRocking ArtifactKind = "rocking"
	// ArtifactElectrodePops is a run of electrode pops: repeated steps on
	// one electrode (the one or two derivations that use it).
	ArtifactElectrodePops ArtifactKind = "electrode-pops"
	// ArtifactSweat is sweat sway: a large drift below 0.5 Hz over a
	// region of the scalp, lasting minutes.
	ArtifactSweat ArtifactKind = "sweat"
)

// Text returns the kind's annotation: "seizure" for SeizureRhythmic,
// "seizure: " and the kind's name for the others (label matching finds
// the word "seizure" in all of them).
func (k SeizureKind) Text() string {
	if k == SeizureRhythmic {
		return TextSeizure
	}
	return TextSeizure + ": " + string(k)
}

// Text returns the kind's annotation, "artifact: " and its name; it never
// contains the word "seizure".
func (k ArtifactKind) Text() string { return "artifact: " + string(k) }

// seizureKinds lists the seizure kinds in the order -h shows them, with a
// line each.
var seizureKinds = []struct {
	kind  SeizureKind
	about string
}{
	{SeizureRhythmic, "focal 3–8 Hz rhythm gliding in frequency, spreading (the default; annotated \"seizure\")"},
	{SeizureLVFAOnset, "focal low-voltage fast (15–25 Hz) onset slowing to theta, then delta, growing and spreading"},
	{SeizureLowAmplitude, "focal 4–8 Hz rhythm only 1.2–2× the background"},
	{SeizureDelta, "focal irregular rhythmic delta (2–3.5 Hz slowing to 1.5–2.5 Hz)"},
	{SeizureTonicClonic, "generalised tonic–clonic: 10–20 s of EMG on most channels, then 30–60 s of clonic bursts slowing from 5 to 1 Hz"},
	{SeizureAbsence, "typical absence: generalised 3 Hz spike-and-wave for 5–15 s"},
}

// artifactKinds lists the artifact kinds in the order -h shows them.
var artifactKinds = []struct {
	kind  ArtifactKind
	about string
}{
	{ArtifactChewing, "1–2 Hz bursts of jaw-muscle EMG on the temporal channels, 5–30 s"},
	{ArtifactPatting, "1.5–3 Hz movement pulses, frontal and over the scalp, 10–60 s"},
	{ArtifactRocking, "1–2 Hz sway on every channel and the accelerometer, 10–60 s"},
	{ArtifactElectrodePops, "a run of steps on one electrode, 5–30 s"},
	{ArtifactSweat, "a drift below 0.5 Hz of 50–200 µV over a region, 1–5 min"},
}

// SeizureKinds returns every seizure kind.
func SeizureKinds() []SeizureKind {
	out := make([]SeizureKind, len(seizureKinds))
	for i, k := range seizureKinds {
		out[i] = k.kind
	}
	return out
}

// ArtifactKinds returns every artifact kind that mimics a seizure.
func ArtifactKinds() []ArtifactKind {
	out := make([]ArtifactKind, len(artifactKinds))
	for i, k := range artifactKinds {
		out[i] = k.kind
	}
	return out
}

// About describes the kind in a line, or returns "" for an unknown kind.
func (k SeizureKind) About() string {
	for _, s := range seizureKinds {
		if s.kind == k {
			return s.about
		}
	}
	return ""
}

// About describes the kind in a line, or returns "" for an unknown kind.
func (k ArtifactKind) About() string {
	for _, a := range artifactKinds {
		if a.kind == k {
			return a.about
		}
	}
	return ""
}

// ParseSeizureKinds parses a comma-separated list of seizure kinds
// ("lvfa-onset,gtcs"); spaces around names are ignored and a name may
// repeat (the seizures take the kinds in turn). An empty list gives nil
// (the default kind). An unknown name is an error that names it and lists
// the kinds.
func ParseSeizureKinds(list string) ([]SeizureKind, error) {
	var out []SeizureKind
	for _, name := range splitList(list) {
		k := SeizureKind(name)
		if k.About() == "" {
			return nil, fmt.Errorf("unknown seizure kind %q (kinds: %s)", name, joinKinds(SeizureKinds()))
		}
		out = append(out, k)
	}
	return out, nil
}

// ParseArtifactKinds parses a comma-separated list of artifact kinds
// ("chewing,sweat"), as ParseSeizureKinds does, except that a name may
// not repeat.
func ParseArtifactKinds(list string) ([]ArtifactKind, error) {
	var out []ArtifactKind
	for _, name := range splitList(list) {
		k := ArtifactKind(name)
		if k.About() == "" {
			return nil, fmt.Errorf("unknown artifact kind %q (kinds: %s)", name, joinKinds(ArtifactKinds()))
		}
		if slices.Contains(out, k) {
			return nil, fmt.Errorf("artifact kind %q listed twice", name)
		}
		out = append(out, k)
	}
	return out, nil
}

func splitList(list string) []string {
	var out []string
	if strings.TrimSpace(list) == "" {
		return nil
	}
	for _, f := range strings.Split(list, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

func joinKinds[K ~string](ks []K) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// Durations the literature fixes for the generalised kinds (doc.go).
const (
	absenceMin, absenceMax = 5 * time.Second, 15 * time.Second
	tonicMin, tonicMax     = 10 * time.Second, 20 * time.Second
	clonicMin, clonicMax   = 30 * time.Second, 60 * time.Second
)

// durations returns the shortest and longest seizure of kind k under cfg:
// the focal kinds last SeizureMin to SeizureMax, the generalised ones as
// long as the literature says.
func (k SeizureKind) durations(cfg Config) (lo, hi time.Duration) {
	switch k {
	case SeizureAbsence:
		return absenceMin, absenceMax
	case SeizureTonicClonic:
		return tonicMin + clonicMin, tonicMax + clonicMax
	}
	return cfg.SeizureMin, cfg.SeizureMax
}

// generalised reports whether the kind involves every channel from its
// onset.
func (k SeizureKind) generalised() bool {
	return k == SeizureAbsence || k == SeizureTonicClonic
}
