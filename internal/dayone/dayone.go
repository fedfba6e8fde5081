// Package dayone holds ictal's generic seizure model: the model a bed
// scores with before any clinician has taught it anything, when no model
// is configured (`ictald run` without classifier.model or a checkpoint,
// `ictal replay` without -model).
//
// It is a per-channel model (pipeline.Scoring): online UnderOverBagging
// of ten Gaussian naive-Bayes members grading each channel's 17 features
// relative to the channel's own background, so it serves any montage
// (1, 8, 16 or 23 channels, referential or bipolar) at any rate from
// features.MinRate (100 Hz) up. It was trained on real EEG: all 400 segments of the Bonn epilepsy
// data set in ../shared/data/eeg/bonn (Andrzejak RG, Lehnertz K, Rieke C,
// Mormann F, David P, Elger CE (2001), Phys. Rev. E 64, 061907; CC BY 4.0):
// the 80 ictal segments of set S as seizure, the 320 of sets Z, O (scalp,
// healthy, eyes open and closed), N and F (intracranial, seizure-free) as
// background. How it was built, the bound on each feature's evidence in a
// channel's margin (censoring, classifier.CensoredGrader: 1 nat), its
// calibration and its decision rule are recipe.BuildDayOne's documented
// procedure (package recipe), on those data only.
//
// The file bonn.model records its provenance (`ictal model info`) and is
// rebuilt byte for byte by
//
//	go run ./cmd/ictal bonn day-one -data ../shared/data/eeg/bonn -o internal/dayone/bonn.model
//
// which TestRebuildsByteForByte checks.
package dayone

import (
	_ "embed"
	"fmt"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/modelfile"
)

//go:embed bonn.model
var model []byte

// Seed is the seed the shipped model was built with.
const Seed = 1

// Program is what a day-one model file records as the program that wrote
// it: the command, without a version or time, so that the same command on
// the same data writes the same bytes.
func Program(half string, seed uint64) string {
	p := "ictal bonn day-one"
	if half != "" {
		p += " -half " + half
	}
	if seed != Seed {
		p += fmt.Sprintf(" -seed %d", seed)
	}
	return p
}

// Bytes returns the shipped model file.
func Bytes() []byte { return model }

// Load decodes the shipped model (a new copy each call).
func Load() (modelfile.Meta, classifier.Model, error) {
	meta, m, err := modelfile.Decode(model)
	if err != nil {
		return modelfile.Meta{}, nil, fmt.Errorf("dayone: the embedded model: %w", err)
	}
	return meta, m, nil
}
