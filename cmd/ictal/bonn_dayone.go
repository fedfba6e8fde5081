package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ictal/ictal/internal/bonn"
	"github.com/ictal/ictal/internal/dayone/recipe"
	"github.com/ictal/ictal/internal/modelfile"
)

// dayOneReport is the JSON line `ictal bonn day-one` prints.
type dayOneReport struct {
	Type           string  `json:"type"`
	File           string  `json:"file"`
	Half           string  `json:"half,omitempty"`
	Segments       int     `json:"segments"`
	Windows        int     `json:"windows"`
	SeizureWindows int     `json:"seizure_windows"`
	censorReport           // the chosen bound's (0: none)
	PredictedFA    float64 `json:"predicted_false_alarms_per_24h"`
	OtherSegments  int     `json:"other_segments"`
	Slope          float64 `json:"slope"`
	Intercept      float64 `json:"intercept"`
	// Censors: what every bound tried did out of fold.
	Censors []censorReport `json:"censors"`
}

// censorReport is one bound's out-of-fold result: its AUCs and the rule
// the procedure would choose with it.
type censorReport struct {
	Censor          float64 `json:"censor"`
	OOFWindowAUC    float64 `json:"oof_window_auc"`
	OOFSegmentAUC   float64 `json:"oof_segment_auc"`
	Threshold       float64 `json:"threshold"`
	K               int     `json:"k"`
	N               int     `json:"n"`
	RuleSensitivity float64 `json:"rule_sensitivity"`
	RuleFalseAlarms int     `json:"rule_false_alarm_segments"`
}

func reportOf(c recipe.CensorResult) censorReport {
	return censorReport{Censor: c.Censor, OOFWindowAUC: c.OOFWindowAUC, OOFSegmentAUC: c.OOFSegmentAUC,
		Threshold: c.Rule.Threshold, K: c.Rule.K, N: c.Rule.N, RuleSensitivity: c.RuleSensitivity, RuleFalseAlarms: c.RuleFalseAlarms}
}

// writeDayOne builds the generic per-channel model from the Bonn segments
// under data (one half of them with half, the sets of one task with task) and writes it to path: the
// same bytes for the same data, seed and program (the file records the
// command, not the time or the build).
func writeDayOne(data, path, half, task string, mf *modelFlags, stdout io.Writer) error {
	if data == "" || path == "" {
		return fmt.Errorf("day-one needs -data DIR and -o FILE")
	}
	sets := bonn.Sets
	if task != "" { // for measuring: the shipped model learns every set
		neg, ok := bonn.Tasks[task]
		if !ok {
			return fmt.Errorf("-task %q: want S-Z, S-F or S-all", task)
		}
		sets = append([]string{"S"}, neg...)
	}
	meta, d, n, err := buildDayOne(data, half, sets, mf, mf.seed)
	if err != nil {
		return err
	}
	if err := modelfile.WriteFile(path, meta, d.Model); err != nil {
		return err
	}
	r := dayOneReport{Type: "day-one", File: path, Half: half, Segments: n, Windows: d.Windows, SeizureWindows: d.Positives,
		PredictedFA: d.PredictedFAPerDay, OtherSegments: d.Negatives, Slope: d.Scoring.Slope, Intercept: d.Scoring.Intercept}
	for _, c := range d.Censors {
		r.Censors = append(r.Censors, reportOf(c))
		if c.Censor == d.Scoring.Censor {
			r.censorReport = reportOf(c)
		}
	}
	return json.NewEncoder(stdout).Encode(r)
}

// buildDayOne builds the day-one model (recipe.Build) from the Bonn
// segments of sets under data, one half of each set with half (loadHalf),
// and returns it with how many segments it learned from.
func buildDayOne(data, half string, sets []string, mf *modelFlags, seed uint64) (modelfile.Meta, *recipe.DayOne, int, error) {
	segs, err := loadHalf(data, half, sets...)
	if err != nil {
		return modelfile.Meta{}, nil, 0, err
	}
	var censors []float64
	if mf.censors != "" {
		if censors, err = recipe.ParseCensors(mf.censors); err != nil {
			return modelfile.Meta{}, nil, 0, fmt.Errorf("-censors: %w", err)
		}
	}
	meta, d, err := recipe.Build(segs, half, mf.features(), mf.classifierConfig(0), seed, censors)
	return meta, d, len(segs), err
}
