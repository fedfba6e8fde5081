package recipe

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

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
// and features give the same bytes). censors are the censoring bounds to
// choose from (DayOneConfig.Censors; nil: DefaultCensors).
func Build(segs []bonn.Segment, half string, fc features.Config, mc classifier.Config, seed uint64, censors []float64) (modelfile.Meta, *DayOne, error) {
	d, err := BuildDayOne(segs, DayOneConfig{Model: mc, Features: fc, Seed: seed, Censors: censors})
	if err != nil {
		return modelfile.Meta{}, nil, err
	}
	meta, err := modelfile.Describe(fc, acquire.Info{Rate: bonn.Rate, Channels: []acquire.Channel{{Label: "EEG"}}})
	if err != nil {
		return modelfile.Meta{}, nil, err
	}
	meta.Program = dayone.Program(half, seed)
	if censors != nil && !slices.Equal(censors, DefaultCensors) {
		meta.Program += " -censors " + FormatCensors(censors)
	}
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

// FormatCensors writes censoring bounds as the -censors flag takes them:
// "0,8,4,2,1,0.5".
func FormatCensors(cs []float64) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = strconv.FormatFloat(c, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// ParseCensors reads FormatCensors' list: bounds in nats, 0 for none,
// at least one.
func ParseCensors(s string) ([]float64, error) {
	var cs []float64
	for _, f := range strings.Split(s, ",") {
		c, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(c >= 0) || math.IsInf(c, 1) {
			return nil, fmt.Errorf("censoring bound %q: want 0 (none) or a finite positive number of nats", f)
		}
		cs = append(cs, c)
	}
	return cs, nil
}
