package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/chbmit"
	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/pipeline"
)

// chbmitRecord is the line of one held-out recording of `ictal chbmit`,
// of type "record": its event scores (internal/eval) by a model trained
// on the patient's other recordings. TrainingSeizures counts the
// summary's seizures; Seizures those of the held-out record after the
// event scoring's 90 s merge.
type chbmitRecord struct {
	Type             string  `json:"type"`
	Patient          string  `json:"patient"`
	File             string  `json:"file"`
	Training         int     `json:"training_records"`
	TrainingSeizures int     `json:"training_seizures"`
	TrainedWindows   int64   `json:"trained_windows"`
	Channels         int     `json:"channels"`
	Duration         float64 `json:"duration_s"`
	Windows          int64   `json:"windows"`
	Usable           int64   `json:"usable"`
	// The held-out record's seizures, then the alerts and false alarms.
	Seizures    int       `json:"seizures"`
	Detected    int       `json:"detected"`
	Sensitivity *float64  `json:"sensitivity"`
	Delays      []float64 `json:"delays_s"`
	MedianDelay *float64  `json:"median_delay_s"`
	Alerts      int       `json:"alerts"`
	FalseAlarms int       `json:"false_alarms"`
	FAPerDay    float64   `json:"false_alarms_per_24h"`
	Precision   *float64  `json:"precision"`
}

// chbmitScore are the pooled event scores of a patient's held-out
// recordings, or of all of them; null where undefined.
type chbmitScore struct {
	Records     int      `json:"records"`
	Seizures    int      `json:"seizures"`
	Detected    int      `json:"detected"`
	Sensitivity *float64 `json:"sensitivity"`
	FalseAlarms int      `json:"false_alarms"`
	FAPerDay    *float64 `json:"false_alarms_per_24h"`
	Hours       float64  `json:"hours"`
	MedianDelay *float64 `json:"median_delay_s"`
	// Records skipped (see chbmitSkipped) and the seizures they hold.
	SkippedRecords  int `json:"skipped_records"`
	SkippedSeizures int `json:"skipped_seizures"`
}

// chbmitSkipped is the line of a record left out because it lacks some
// of the channels its patient's other records are evaluated on (type
// "skipped"); it comes before the patient's line.
type chbmitSkipped struct {
	Type     string `json:"type"`
	Patient  string `json:"patient"`
	File     string `json:"file"`
	Seizures int    `json:"seizures"`
	Reason   string `json:"reason"`
}

// chbmitPatient is the line of type "patient" that follows a patient's
// records: the channels used and the pooled scores.
type chbmitPatient struct {
	Type     string   `json:"type"`
	Patient  string   `json:"patient"`
	Channels []string `json:"channels"`
	Left     []string `json:"channels_left_out"`
	chbmitScore
}

// chbmitOverall is the last line, of type "overall": the pooled scores,
// then the mean of the patients' sensitivities and the median of their
// false alarm rates (Shoeb and Guttag's "median false detection rate").
type chbmitOverall struct {
	Type     string `json:"type"`
	Patients int    `json:"patients"`
	chbmitScore
	MeanSensitivity *float64 `json:"mean_patient_sensitivity"`
	MedianFAPerDay  *float64 `json:"median_patient_false_alarms_per_24h"`
}

func scoreOf(t chbmit.Tally) chbmitScore {
	s := chbmitScore{Records: t.Records, Seizures: t.Seizures, Detected: t.Detected, Sensitivity: finite(t.Sensitivity()),
		FalseAlarms: t.FalseAlarms, FAPerDay: finite(t.FalseAlarmsPerDay()), Hours: t.Duration.Hours()}
	if d, ok := t.MedianDelay(); ok {
		s.MedianDelay = finite(d.Seconds())
	}
	return s
}

// runCHBMIT implements `ictal chbmit -data DIR [-patients LIST] [-workers N] [-text] [model flags]`.
func runCHBMIT(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("chbmit", "usage: ictal chbmit -data DIR [-patients chb01,chb03] [-workers N] [-text] [model flags]\n\nShoeb & Guttag's protocol on the CHB-MIT Scalp EEG Database, laid out as on\nPhysioNet (DIR/chb01/chb01-summary.txt, DIR/chb01/chb01_03.edf, …):\npatient-specific, leave one record out. Each record of a patient is held out\nin turn; a new model learns the patient's other records in the summary's\norder (as ictal train -labels does, from the summary's seizures), then the\nheld-out record is replayed with learning off and scored against the\nsummary's seizures (SzCORE event scoring, internal/eval). Every record is\nheld out, with or without seizures, so that false alarms are counted over\nall the recorded hours. A patient's records use the EEG channels common to\nall of them, by label (-channels chooses others); when none is (chb12), the\nrecords of other montages than the most frequent one are skipped, each\nreported. The patient's line names the channels used and those left out.\n\nPrints JSON lines: one \"record\" per held-out record, a \"skipped\" line per\nrecord skipped, a \"patient\" line after each patient's records, then an\n\"overall\" line; -text prints a table instead. Records are evaluated by\n-workers at a time; the output does not depend on it. See\ninternal/eval/README.md.", stderr)
	a := addProtocolFlags(fs, "`DIR` holding the database: chb01/chb01-summary.txt, chb01/chb01_01.edf, … (required)",
		"cases to evaluate, comma-separated (e.g. chb01,chb03; default: every chbNN folder in -data)")
	names, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	ps, err := chbmit.Patients(a.data, names)
	if err != nil {
		return err
	}
	return leaveOneOut(ps, &a.mf, a.workers, a.text, stdout, stderr)
}

// protocolArgs are the flags of the leave-one-record-out commands
// (`ictal chbmit`, `ictal siena`).
type protocolArgs struct {
	data, patients string
	workers        int
	text           bool
	mf             modelFlags
}

// addProtocolFlags defines the protocol's flags on fs, with the
// database's own help for -data and -patients.
func addProtocolFlags(fs *flag.FlagSet, dataHelp, patientsHelp string) *protocolArgs {
	a := &protocolArgs{}
	fs.StringVar(&a.data, "data", "", dataHelp)
	fs.StringVar(&a.patients, "patients", "", patientsHelp)
	fs.IntVar(&a.workers, "workers", runtime.NumCPU(), "held-out records evaluated at the same time (each on one core)")
	fs.BoolVar(&a.text, "text", false, "print a table per patient and overall instead of JSON lines")
	a.mf.add(fs)
	a.mf.addFrom(fs)
	return a
}

// parse parses args and returns the patients named (none: all).
func (a *protocolArgs) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := parseArgs(fs, args, 0, "unexpected arguments"); err != nil {
		return nil, err
	}
	switch {
	case a.data == "":
		fs.Usage()
		return nil, fmt.Errorf("-data is required")
	case a.workers < 1:
		return nil, fmt.Errorf("-workers %d: want at least 1", a.workers)
	}
	var names []string
	if a.patients != "" {
		for _, n := range strings.Split(a.patients, ",") {
			names = append(names, strings.TrimSpace(n))
		}
	}
	return names, nil
}

// leaveOneOut evaluates every patient's records, each held out in turn
// (`ictal chbmit`, `ictal siena`), and prints the lines or the table.
func leaveOneOut(ps []chbmit.Patient, mf *modelFlags, workers int, text bool, stdout, stderr io.Writer) error {
	cases, err := prepareCases(ps, mf)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := warnLogger(stderr)
	var out chbmitOutput = &chbmitJSON{enc: json.NewEncoder(stdout)}
	if text {
		out = &chbmitText{w: stdout}
	}
	if err := evaluateCases(ctx, cases, workers, log, out, stderr); err != nil {
		return err
	}
	return out.flush()
}

// chbmitCase is a patient with the records evaluated, those skipped,
// and the flags its records are opened with.
type chbmitCase struct {
	chbmit.Patient
	mf             modelFlags // -channels: the channels used
	channels, left []string
	files, skipped []chbmit.File
}

// prepareCases checks every patient before anything is trained: all
// records present, at least two to evaluate, and each holding the
// channels used: -channels, or those common to the patient's records
// (chbmit.Usable skips the records of other montages when none is).
func prepareCases(ps []chbmit.Patient, mf *modelFlags) ([]*chbmitCase, error) {
	var cases []*chbmitCase
	for _, p := range ps {
		if err := p.CheckFiles(); err != nil {
			return nil, err
		}
		c := &chbmitCase{Patient: p, mf: *mf, files: p.Summary.Files}
		if mf.channels != "" {
			c.channels = strings.Split(mf.channels, ",")
		} else {
			c.files, c.skipped = chbmit.Usable(p.Summary.Files)
			c.channels, c.left = chbmit.CommonChannels(c.files)
			c.mf.channels = strings.Join(c.channels, ",")
		}
		if n := len(c.files); n < 2 {
			return nil, fmt.Errorf("%s: %d of its records can be evaluated: leaving one out needs at least two", p.SummaryPath(), n)
		}
		for _, f := range c.files {
			r, _, err := c.mf.open(p.Path(f))
			if err != nil {
				return nil, fmt.Errorf("%s (listed at %s:%d): %w", f.Name, p.SummaryPath(), f.Line, err)
			}
			r.Close()
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// replay runs record f through the pipeline with *model, which it makes
// for the first record (*meta then describes its pipeline) and checks
// against the others, learning from the summary's seizures when mode is
// pipeline.LearnAnnotations.
func (c *chbmitCase) replay(ctx context.Context, f chbmit.File, model *classifier.Model, meta *modelfile.Meta, mode string, log *slog.Logger) (fileReport, error) {
	path := c.Path(f)
	r, _, err := c.mf.open(path)
	if err != nil {
		return fileReport{}, err
	}
	defer r.Close()
	if *model, err = trainModel(*model, meta, r, path, &c.mf); err != nil {
		return fileReport{}, err
	}
	rep, err := runFile(ctx, path, withLabels{Source: r, iv: f.Intervals()}, *model, meta, &c.mf, mode, nil, log)
	if err == nil && mode == pipeline.LearnAnnotations {
		meta.Training = append(meta.Training, trainedOn(path, rep))
	}
	return rep, err
}

// fold trains a new model on every record of the case but the i-th, in
// the summary's order, and scores the i-th with learning off.
func (c *chbmitCase) fold(ctx context.Context, i int, log *slog.Logger) (chbmitRecord, chbmit.Tally, error) {
	var (
		model classifier.Model
		meta  modelfile.Meta
	)
	test := c.files[i]
	rec := chbmitRecord{Type: "record", Patient: c.Name, File: test.Name, Delays: []float64{}}
	for j, f := range c.files {
		if j == i {
			continue
		}
		rep, err := c.replay(ctx, f, &model, &meta, pipeline.LearnAnnotations, log)
		if err != nil {
			return rec, chbmit.Tally{}, err
		}
		rec.Training++
		rec.TrainingSeizures += len(f.Seizures)
		rec.TrainedWindows += rep.LearnedPos + rep.LearnedNeg
	}
	rep, err := c.replay(ctx, test, &model, &meta, pipeline.LearnOff, log)
	if err != nil {
		return rec, chbmit.Tally{}, err
	}
	rec.Channels, rec.Duration, rec.Windows, rec.Usable, rec.Alerts = rep.Channels, rep.Duration, rep.Windows, rep.Usable, rep.Alerts
	rec.Seizures, rec.Detected, rec.FalseAlarms, rec.FAPerDay = rep.Seizures, rep.Detected, rep.FalseAlarms, rep.FAPerDay
	rec.Sensitivity, rec.Precision = rep.Sensitivity, rep.Precision
	t := chbmit.Tally{Records: 1, Seizures: rep.Seizures, Detected: rep.Detected, FalseAlarms: rep.FalseAlarms,
		Duration: time.Duration(rep.Duration * float64(time.Second))}
	for _, d := range rep.Delays {
		rec.Delays = append(rec.Delays, d)
		t.Delays = append(t.Delays, time.Duration(d*float64(time.Second)))
	}
	if rep.Detected > 0 {
		rec.MedianDelay = finite(rep.MedianDelay)
	}
	return rec, t, nil
}

// evaluateCases holds out every record of every case, by workers at a
// time, and gives the results to out in the cases' and summaries' order
// as they complete, each case's records followed by its line, then the
// overall line: the same output for any number of workers. The first
// error (in that order) stops the others and is returned.
func evaluateCases(ctx context.Context, cases []*chbmitCase, workers int, log *slog.Logger, out chbmitOutput, progress io.Writer) error {
	var jobs []*foldJob
	for _, c := range cases {
		for i := range c.files {
			jobs = append(jobs, &foldJob{c: c, i: i, done: make(chan struct{})})
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	wait := runFolds(ctx, jobs, workers, log)
	defer func() { cancel(); wait() }()
	var tot chbmitTotals
	var patient chbmit.Tally
	for k, j := range jobs {
		<-j.done
		if j.err != nil {
			return j.err
		}
		fmt.Fprintf(progress, "ictal chbmit: %d/%d %s: %d of %d seizures detected, %d false alarms\n", k+1, len(jobs), j.rec.File, j.rec.Detected, j.rec.Seizures, j.rec.FalseAlarms)
		if err := out.record(j.rec); err != nil {
			return err
		}
		patient.Add(j.t)
		if j.i < len(j.c.files)-1 {
			continue
		}
		p, err := j.c.patientLine(patient, out)
		if err != nil {
			return err
		}
		if err := out.patient(p); err != nil {
			return err
		}
		tot.add(p, patient)
		patient = chbmit.Tally{}
	}
	return out.overall(tot.overall(len(cases)))
}

// foldJob is record i of case c held out (chbmitCase.fold); its results
// are set when done is closed.
type foldJob struct {
	c    *chbmitCase
	i    int
	rec  chbmitRecord
	t    chbmit.Tally
	err  error
	done chan struct{}
}

// runFolds hands the jobs out in order to workers goroutines (at most one
// per job), which run each and close its done; a job handed out after ctx
// ends gets ctx's error instead. Every job is handed out, so the caller
// waits for each job's done in turn, or cancels ctx to finish the rest at
// once; wait returns when the workers have ended.
func runFolds(ctx context.Context, jobs []*foldJob, workers int, log *slog.Logger) (wait func()) {
	var wg sync.WaitGroup
	next := make(chan *foldJob)
	for range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				if j.err = ctx.Err(); j.err == nil {
					j.rec, j.t, j.err = j.c.fold(ctx, j.i, log)
				}
				close(j.done)
			}
		}()
	}
	go func() { // every job is handed out: the caller waits for each, or cancels
		for _, j := range jobs {
			next <- j
		}
		close(next)
	}()
	return wg.Wait
}

// patientLine gives out the "skipped" line of each record of the case
// that was skipped, and returns the case's "patient" line with t, the
// pooled scores of its held-out records.
func (c *chbmitCase) patientLine(t chbmit.Tally, out chbmitOutput) (chbmitPatient, error) {
	p := chbmitPatient{Type: "patient", Patient: c.Name, Channels: c.channels, Left: append([]string{}, c.left...), chbmitScore: scoreOf(t)}
	for _, f := range c.skipped {
		sk := chbmitSkipped{Type: "skipped", Patient: c.Name, File: f.Name, Seizures: len(f.Seizures),
			Reason: fmt.Sprintf("its montage lacks %d of the %d channels used: %s", len(f.Lacks(c.channels)), len(c.channels), strings.Join(f.Lacks(c.channels), " "))}
		if err := out.skipped(sk); err != nil {
			return p, err
		}
		p.SkippedRecords++
		p.SkippedSeizures += sk.Seizures
	}
	return p, nil
}

// chbmitTotals adds the patients up into the "overall" line.
type chbmitTotals struct {
	all chbmit.Tally
	// sens holds each patient's sensitivity where it is defined, faDay
	// each patient's false alarms per 24 h.
	sens, faDay                     []float64
	skippedRecords, skippedSeizures int
}

// add counts patient p, whose held-out records scored t.
func (s *chbmitTotals) add(p chbmitPatient, t chbmit.Tally) {
	s.skippedRecords += p.SkippedRecords
	s.skippedSeizures += p.SkippedSeizures
	if x := t.Sensitivity(); !math.IsNaN(x) {
		s.sens = append(s.sens, x)
	}
	s.faDay = append(s.faDay, t.FalseAlarmsPerDay())
	s.all.Add(t)
}

// overall returns the "overall" line of the patients added, of whom
// there are patients.
func (s *chbmitTotals) overall(patients int) chbmitOverall {
	o := chbmitOverall{Type: "overall", Patients: patients, chbmitScore: scoreOf(s.all)}
	o.SkippedRecords, o.SkippedSeizures = s.skippedRecords, s.skippedSeizures
	if len(s.sens) > 0 {
		o.MeanSensitivity = finite(mean(s.sens))
	}
	if len(s.faDay) > 0 {
		slices.Sort(s.faDay)
		o.MedianFAPerDay = finite((s.faDay[(len(s.faDay)-1)/2] + s.faDay[len(s.faDay)/2]) / 2)
	}
	return o
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// chbmitOutput prints the lines of `ictal chbmit`, in order.
type chbmitOutput interface {
	record(chbmitRecord) error
	skipped(chbmitSkipped) error
	patient(chbmitPatient) error
	overall(chbmitOverall) error
	flush() error
}

// chbmitJSON prints each line as it comes.
type chbmitJSON struct{ enc *json.Encoder }

func (j *chbmitJSON) record(r chbmitRecord) error   { return j.enc.Encode(r) }
func (j *chbmitJSON) skipped(s chbmitSkipped) error { return j.enc.Encode(s) }
func (j *chbmitJSON) patient(p chbmitPatient) error { return j.enc.Encode(p) }
func (j *chbmitJSON) overall(o chbmitOverall) error { return j.enc.Encode(o) }
func (j *chbmitJSON) flush() error                  { return nil }

// chbmitText collects a table row per patient and the overall one, and
// the channels each patient used, for -text.
type chbmitText struct {
	w           io.Writer
	rows, notes []string
}

func (t *chbmitText) record(chbmitRecord) error { return nil }

func (t *chbmitText) skipped(s chbmitSkipped) error {
	t.notes = append(t.notes, fmt.Sprintf("%s: %s skipped (%d seizures): %s", s.Patient, s.File, s.Seizures, s.Reason))
	return nil
}

func (t *chbmitText) patient(p chbmitPatient) error {
	t.rows = append(t.rows, textRow(p.Patient, p.chbmitScore))
	note := fmt.Sprintf("%s: %d channels used (%s)", p.Patient, len(p.Channels), strings.Join(p.Channels, " "))
	if len(p.Left) > 0 {
		note += "; left out: " + strings.Join(p.Left, " ")
	}
	t.notes = append(t.notes, note)
	return nil
}

func (t *chbmitText) overall(o chbmitOverall) error {
	t.rows = append(t.rows, textRow(fmt.Sprintf("overall (%d)", o.Patients), o.chbmitScore))
	if o.MeanSensitivity != nil && o.MedianFAPerDay != nil {
		t.notes = append(t.notes, fmt.Sprintf("mean of the patients' sensitivities %.3f, median of their false alarms per 24 h %.1f", *o.MeanSensitivity, *o.MedianFAPerDay))
	}
	return nil
}

func (t *chbmitText) flush() error {
	tw := tabwriter.NewWriter(t.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "patient\trecords\thours\tseizures\tdetected\tsensitivity\tfalse alarms\tFA/24h\tmedian delay (s)\t")
	for _, r := range t.rows {
		fmt.Fprintln(tw, r)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range t.notes {
		if _, err := fmt.Fprintln(t.w, n); err != nil {
			return err
		}
	}
	return nil
}

// textRow is a table row; "-" stands for an undefined score.
func textRow(name string, s chbmitScore) string {
	opt := func(v *float64, format string) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf(format, *v)
	}
	return fmt.Sprintf("%s\t%d\t%.2f\t%d\t%d\t%s\t%d\t%s\t%s\t", name, s.Records, s.Hours, s.Seizures, s.Detected,
		opt(s.Sensitivity, "%.3f"), s.FalseAlarms, opt(s.FAPerDay, "%.1f"), opt(s.MedianDelay, "%.1f"))
}
