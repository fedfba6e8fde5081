package features

import (
	"errors"
	"fmt"
)

// Feature identifies one per-channel feature. Its String is the suffix of
// the feature's name in Names ("line_length" in "Fp1-F7/line_length").
type Feature uint8

// The per-channel features, in the order AllFeatures returns them. doc.go
// gives each one's definition and unit.
const (
	LineLength       Feature = iota // log line length per second, log(µV/s)
	RMS                             // log root mean square, log(µV)
	DeltaPower                      // log δ band power (0.5–4 Hz), log(µV²)
	ThetaPower                      // log θ band power (4–8 Hz), log(µV²)
	AlphaPower                      // log α band power (8–13 Hz), log(µV²)
	BetaPower                       // log β band power (13–30 Hz), log(µV²)
	GammaPower                      // log γ band power (30–min(70, fs/2) Hz), log(µV²)
	DeltaRel                        // δ power / total 0.5–min(70, fs/2) Hz power, in [0, 1]
	ThetaRel                        // θ power / total power, in [0, 1]
	AlphaRel                        // α power / total power, in [0, 1]
	BetaRel                         // β power / total power, in [0, 1]
	GammaRel                        // γ power / total power, in [0, 1]
	HjorthMobility                  // Hjorth mobility expressed as a frequency, Hz
	HjorthComplexity                // Hjorth complexity, dimensionless
	ZeroCrossings                   // zero crossings of the mean-removed signal per second, 1/s
	SpectralEdge                    // 90 % spectral edge frequency, Hz
	TeagerEnergy                    // log mean Teager–Kaiser energy, log(µV²·Hz²)

	numFeatures = iota
)

var featureNames = [numFeatures]string{
	LineLength:       "line_length",
	RMS:              "rms",
	DeltaPower:       "delta_power",
	ThetaPower:       "theta_power",
	AlphaPower:       "alpha_power",
	BetaPower:        "beta_power",
	GammaPower:       "gamma_power",
	DeltaRel:         "delta_rel",
	ThetaRel:         "theta_rel",
	AlphaRel:         "alpha_rel",
	BetaRel:          "beta_rel",
	GammaRel:         "gamma_rel",
	HjorthMobility:   "hjorth_mobility",
	HjorthComplexity: "hjorth_complexity",
	ZeroCrossings:    "zero_crossings",
	SpectralEdge:     "spectral_edge",
	TeagerEnergy:     "teager_energy",
}

// String returns the feature's name, e.g. "line_length", or "Feature(n)"
// for a value that is not one of the constants.
func (f Feature) String() string {
	if f < numFeatures {
		return featureNames[f]
	}
	return fmt.Sprintf("Feature(%d)", uint8(f))
}

// spectral reports whether f needs the window's power spectrum.
func (f Feature) spectral() bool {
	return f >= DeltaPower && f <= GammaRel || f == SpectralEdge
}

// AllFeatures returns every per-channel feature, in the order of the
// constants; it is the default for Config.Features.
func AllFeatures() []Feature {
	all := make([]Feature, numFeatures)
	for i := range all {
		all[i] = Feature(i)
	}
	return all
}

// ErrUnknownFeature is returned (wrapped) by ParseFeature for a name that is
// not a feature's.
var ErrUnknownFeature = errors.New("features: unknown feature")

// ParseFeature returns the feature whose String is name, for configuration
// files and command lines.
func ParseFeature(name string) (Feature, error) {
	for i, n := range featureNames {
		if n == name {
			return Feature(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownFeature, name)
}
