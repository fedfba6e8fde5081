package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/internal/cli"
	"github.com/ictal/ictal/internal/eval"
)

// scoreReport is the JSON line printed by `ictal score`, of type
// "evaluation" ("score" is a window's score in replay's output).
type scoreReport struct {
	Type        string    `json:"type"`
	Ref         string    `json:"ref"`
	Hyp         string    `json:"hyp"`
	Duration    float64   `json:"duration_s"`
	Seizures    int       `json:"seizures"`
	Events      int       `json:"hyp_events"`
	Detected    int       `json:"detected"`
	FalseAlarms int       `json:"false_alarms"`
	Sensitivity *float64  `json:"sensitivity"`
	Precision   *float64  `json:"precision"`
	F1          *float64  `json:"f1"`
	FAPerDay    float64   `json:"false_alarms_per_24h"`
	Delays      []float64 `json:"delays_s"`
	MedianDelay *float64  `json:"median_delay_s"`
	SampleSens  *float64  `json:"sample_sensitivity"`
	SamplePrec  *float64  `json:"sample_precision"`
	SampleF1    *float64  `json:"sample_f1"`
	SampleFPDay float64   `json:"sample_false_positive_s_per_24h"`
}

// runScore implements `ictal score -ref REF -hyp HYP [-duration D]`.
func runScore(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("score", "usage: ictal score -ref REF -hyp HYP [-duration D]\n\nScores detections the way SzCORE does (timescoring's rules: any overlap with\nthe seizure extended by 30 s before and 60 s after, events closer than 90 s\nmerged, longer than 300 s split) plus the detection delay per seizure, and\nsecond-by-second sample scores. Formats are told by extension: .edf/.bdf,\n.tsv, anything else JSON lines. Prints one JSON line; null is an undefined\nscore (no seizure, or no detection).", stderr)
	ref := fs.String("ref", "", "reference seizures: EDF+ (annotations), SzCORE events.tsv, or JSON lines")
	hyp := fs.String("hyp", "", "detections: JSON lines of ictal replay, SzCORE events.tsv, or EDF+")
	duration := fs.Duration("duration", 0, "recording duration (default: from the reference, else the hypothesis)")
	seizure := fs.String("seizure", "", "regexp marking seizure annotations in EDF+ files (default: text containing \"seizure\")")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *ref == "" || *hyp == "" || fs.NArg() != 0 {
		fs.Usage()
		return errors.New("-ref and -hyp are required")
	}
	var re *regexp.Regexp
	if *seizure != "" {
		var err error
		if re, err = compileSeizure(*seizure); err != nil {
			return err
		}
	}
	r, err := readEvents(*ref, time.Time{}, re)
	if err != nil {
		return err
	}
	h, err := readEvents(*hyp, r.Start, re)
	if err != nil {
		return err
	}
	d := *duration
	if d == 0 {
		d = r.Duration
	}
	if d == 0 {
		d = h.Duration
	}
	if d <= 0 {
		return errors.New("the recording's duration is unknown: give -duration")
	}
	sum := eval.Events(r.Events, h.Events, d, eval.DefaultParams())
	smp := eval.Samples(r.Events, h.Events, d)
	rep := scoreReport{Type: "evaluation", Ref: *ref, Hyp: *hyp, Duration: d.Seconds(), Seizures: len(sum.Seizures), Events: len(sum.Hypotheses),
		Detected: sum.Detected, FalseAlarms: sum.FalseAlarms, Sensitivity: finite(sum.Sensitivity), Precision: finite(sum.Precision),
		F1: finite(sum.F1), FAPerDay: sum.FalseAlarmsPerDay, Delays: delaySeconds(sum.Delays), SampleSens: finite(smp.Sensitivity),
		SamplePrec: finite(smp.Precision), SampleF1: finite(smp.F1), SampleFPDay: smp.FalsePosPerDay}
	if len(sum.Delays) > 0 {
		m := sum.MedianDelay.Seconds()
		rep.MedianDelay = &m
	}
	return json.NewEncoder(stdout).Encode(rep)
}

// readEvents reads seizure events from an EDF+, events.tsv or JSON-lines
// file; origin converts JSON lines' wall-clock times when the file has no
// summary line.
func readEvents(path string, origin time.Time, re *regexp.Regexp) (eval.Recording, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".edf" || ext == ".bdf" {
		rd, err := edf.Open(path)
		if err != nil {
			return eval.Recording{}, err
		}
		h := rd.Header()
		rec := eval.Recording{Duration: time.Duration(h.Records) * h.RecordDuration}
		if start, err := rd.Start(); err == nil {
			rec.Start = start
		}
		rd.Close()
		rp, err := edf.OpenReplay(path, edf.ReplayConfig{Seizure: re})
		if err != nil {
			return eval.Recording{}, err
		}
		defer rp.Close()
		rec.Events = eval.FromIntervals(rp.Intervals())
		return rec, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return eval.Recording{}, err
	}
	defer f.Close()
	if ext == ".tsv" {
		return eval.ReadTSV(f, path)
	}
	return eval.ReadJSONL(f, path, origin)
}
