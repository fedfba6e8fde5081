package recipe

import (
	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/bonn"
	"github.com/ictal/ictal/internal/dayone"
	"github.com/ictal/ictal/internal/modelfile"
)

// Build builds a day-one model from the Bonn segments segs (all of them,
// or one half, as half names it: "a" or "b" for the odd or even numbered,
// "" for all) with BuildDayOne, and returns it with the
// metadata its file records: the features and conditioning, no montage
// or rate (it fits any), its scoring and decision rule, the segments it
// learned from, and Program (the command, so that the same data, seed
// and features give the same bytes).
func Build(segs []bonn.Segment, half string, fc features.Config, mc classifier.Config, seed uint64) (modelfile.Meta, *DayOne, error) {
	d, err := BuildDayOne(segs, DayOneConfig{Model: mc, Features: fc, Seed: seed})
	if err != nil {
		return modelfile.Meta{}, nil, err
	}
	meta, err := modelfile.Describe(fc, acquire.Info{Rate: bonn.Rate, Channels: []acquire.Channel{{Label: "EEG"}}})
	if err != nil {
		return modelfile.Meta{}, nil, err
	}
	meta.Program = dayone.Program(half, seed)
	meta.Rate, meta.Channels = 0, nil
	meta.Scoring = &d.Scoring
	meta.Rule = &modelfile.Rule{Threshold: d.Rule.Threshold, K: d.Rule.K, N: d.Rule.N}
	for _, set := range []string{"Z", "O", "N", "F", "S"} {
		r := modelfile.Recording{File: "bonn/" + set}
		for _, s := range segs {
			if s.Set == set {
				r.Duration += float64(len(s.X)) / bonn.Rate
				if s.Ictal() {
					r.Seizures++
				}
			}
		}
		meta.Training = append(meta.Training, r)
	}
	return meta, d, nil
}
