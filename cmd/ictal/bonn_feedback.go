package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ictal/ictal/internal/bonn"
	"github.com/ictal/ictal/internal/pipeline"
)

// feedbackMinutes is the length of feedback-eval's recordings when
// -minutes is not given.
const feedbackMinutes = 180

// Runs of feedback-eval: the test recording replayed from the day-one
// model without learning, and with the simulated clinician's feedback.
const (
	phaseNoFeedback = "no-feedback"
	phaseFeedback   = "feedback"
)

// feedbackFlags are the flags of `ictal bonn feedback-eval` beside the
// shared ones.
type feedbackFlags struct {
	seeds               string
	text                bool
	markDelay           time.Duration
	trainHalf, testHalf string
	learnAgreed         bool
}

func (f *feedbackFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&f.seeds, "seeds", "", "feedback-eval: run seeds A to B (\"1-5\") and add them up (default: -seed)")
	fs.BoolVar(&f.text, "text", false, "feedback-eval: print a Markdown table instead of JSON lines")
	fs.DurationVar(&f.markDelay, "mark-delay", bonn.DefaultMarkDelay, "feedback-eval: the simulated clinician marks a seizure without an alert this long after it ends")
	fs.StringVar(&f.trainHalf, "train-half", "a", "feedback-eval: the segments the day-one model is built from (a, b, or a quarter: aa, ab, …)")
	fs.StringVar(&f.testHalf, "test-half", "b", "feedback-eval: the segments the test recordings are spliced from (disjoint from -train-half)")
	fs.BoolVar(&f.learnAgreed, "learn-agreed", false, "feedback-eval: also learn the labelled windows the detector already decided as labelled (learning.learn_agreed)")
}

// feedbackRecord is one JSON line of `ictal bonn feedback-eval`: one part
// of the test recordings of Seeds replayed one way (Run). Seizures and
// false alarms count in the part where they start (SzCORE event scoring
// of the whole recording), labels in the part where they were due.
type feedbackRecord struct {
	Type        string   `json:"type"`  // "feedback"
	Seeds       string   `json:"seeds"` // "3", or "1-5" for a sum
	Run         string   `json:"run"`   // no-feedback or feedback
	Part        string   `json:"part"`  // first, middle, last or all
	Algorithm   string   `json:"algorithm"`
	Learner     string   `json:"learner"`
	MarkDelay   float64  `json:"mark_delay_s"`
	Minutes     float64  `json:"minutes"`
	Seizures    int      `json:"seizures"`
	Detected    int      `json:"detected"`
	Sensitivity *float64 `json:"sensitivity"`
	FalseAlarms int      `json:"false_alarms"`
	FAPerDay    float64  `json:"false_alarms_per_24h"`
	Sent        int      `json:"labels_sent"`
	Confirmed   int      `json:"confirmed"`
	Rejected    int      `json:"rejected"`
	Marked      int      `json:"marked"`
	Applied     int      `json:"labels_applied"`
	Refused     int      `json:"labels_refused"`
	Unsent      int      `json:"labels_unsent"`
	// Refusals counts the refused labels by the pipeline's reason (part
	// "all" only).
	Refusals map[string]int `json:"refused_reasons,omitempty"`
}

// feedbackResult is one seed's (or a sum's) parts of both runs, and the
// reasons of the refused labels.
type feedbackResult struct {
	seeds    string
	off, fb  [bonn.Parts]bonn.Part
	refusals map[string]int
}

// add adds r's counts to s.
func (s *feedbackResult) add(r feedbackResult) {
	for i := range s.off {
		s.off[i].Add(r.off[i])
		s.fb[i].Add(r.fb[i])
	}
	if s.refusals == nil {
		s.refusals = map[string]int{}
	}
	for k, n := range r.refusals {
		s.refusals[k] += n
	}
}

// parseSeeds reads -seeds: "A-B" with A <= B, or one seed "A"; at most
// 1000 seeds.
func parseSeeds(s string) ([]uint64, error) {
	lo, hi, ok := strings.Cut(s, "-")
	if !ok {
		hi = lo
	}
	a, err1 := strconv.ParseUint(lo, 10, 64)
	b, err2 := strconv.ParseUint(hi, 10, 64)
	switch {
	case err1 != nil || err2 != nil:
		return nil, fmt.Errorf("-seeds %q: want A-B (such as 1-5) or one seed", s)
	case a > b:
		return nil, fmt.Errorf("-seeds %q: %d is after %d", s, a, b)
	case b-a >= 1000:
		return nil, fmt.Errorf("-seeds %q: more than 1000 seeds", s)
	}
	var out []uint64
	for x := a; ; x++ {
		out = append(out, x)
		if x == b {
			return out, nil
		}
	}
}

// feedbackEvaluate implements `ictal bonn feedback-eval`: for each seed,
// the odd-numbered segments make a day-one model (recipe.Build, as
// `ictal bonn day-one -half a`), and a test recording spliced from the
// even-numbered ones is replayed twice from copies of it: learning off,
// and learning from the simulated clinician's feedback.
func feedbackEvaluate(fs *flag.FlagSet, data, plotDir string, rate float64, fb feedbackFlags, mf *modelFlags, stdout, stderr io.Writer) error {
	if data == "" {
		return errors.New("-data is required")
	}
	minutes := float64(feedbackMinutes)
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "minutes" {
			minutes, _ = strconv.ParseFloat(f.Value.String(), 64)
		}
	})
	if err := checkMinutes(minutes); err != nil {
		return err
	}
	if strings.HasPrefix(fb.trainHalf, fb.testHalf) || strings.HasPrefix(fb.testHalf, fb.trainHalf) {
		return fmt.Errorf("-train-half %q and -test-half %q share segments: want disjoint halves (a and b, aa and ab, …)", fb.trainHalf, fb.testHalf)
	}
	seeds := []uint64{mf.seed}
	if fb.seeds != "" {
		var err error
		if seeds, err = parseSeeds(fb.seeds); err != nil {
			return err
		}
	}
	progress := json.NewEncoder(stderr) // the recordings written and each replay's report
	b, stop := newBonnReplay(mf, "", progress, stderr)
	defer stop()
	cc := bonn.ConcatConfig{Duration: time.Duration(minutes * float64(time.Minute)), SeizureRate: rate}
	var results []feedbackResult
	for _, seed := range seeds {
		m := *mf
		m.seed, cc.Seed, m.learnAgreed = seed, seed, fb.learnAgreed
		b.mf = &m
		r, err := feedbackSeed(b, data, fb, cc, progress)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	if len(results) > 1 {
		sum := feedbackResult{seeds: fb.seeds}
		for _, r := range results {
			sum.add(r)
		}
		results = append(results, sum)
	}
	if err := writeFeedback(stdout, results, fb.text, feedbackRecord{Type: "feedback", Algorithm: mf.alg, Learner: mf.learner, MarkDelay: fb.markDelay.Seconds()}); err != nil {
		return err
	}
	if plotDir == "" {
		return nil
	}
	last := results[len(results)-1]
	title := fmt.Sprintf("Bonn spliced, %s + %s, %d × %g min, seeds %s", mf.alg, mf.learner, len(seeds), minutes, last.seeds)
	return bonn.PlotFeedback(filepath.Join(plotDir, "feedback_thirds.png"), title, last.off, last.fb)
}

// feedbackSeed writes one seed's recordings into a temporary folder,
// trains the day-one model and replays the test recording both ways.
func feedbackSeed(b *bonnReplay, data string, fb feedbackFlags, cc bonn.ConcatConfig, progress *json.Encoder) (feedbackResult, error) {
	res := feedbackResult{seeds: strconv.FormatUint(cc.Seed, 10), refusals: map[string]int{}}
	dir, err := os.MkdirTemp("", "ictal-bonn-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	test, ctest := filepath.Join(dir, "bonn-test.edf"), cc
	ctest.Seed = cc.Seed + 1 // as concat-eval's test recording
	if err := writeConcat(data, test, fb.testHalf, ctest, progress); err != nil {
		return res, err
	}
	model, err := halfDayOne(data, fb.trainHalf, b.mf, cc.Seed)
	if err != nil {
		return res, err
	}
	m, mm, err := model()
	if err != nil {
		return res, err
	}
	off, err := b.run(test, m, mm, phaseNoFeedback, pipeline.LearnOff)
	if err != nil {
		return res, err
	}
	if m, mm, err = model(); err != nil {
		return res, err
	}
	clin := bonn.NewClinician(off.annotations, fb.markDelay)
	on, err := b.run(test, m, mm, phaseFeedback, pipeline.LearnFeedback, clin)
	if err != nil {
		return res, err
	}
	dur := time.Duration(on.rep.Duration * float64(time.Second))
	clin.Finish(dur)
	res.off = bonn.Split(off.annotations, off.events, nil, dur)
	res.fb = bonn.Split(on.annotations, on.events, clin.Decisions(), dur)
	for _, d := range clin.Decisions() {
		if d.Acked && !d.Applied {
			res.refusals[d.Reason]++
		}
	}
	return res, nil
}

// writeFeedback prints the results: JSON lines starting from head, or a
// Markdown table.
func writeFeedback(w io.Writer, results []feedbackResult, text bool, head feedbackRecord) error {
	if text {
		return feedbackTable(w, results, head)
	}
	enc := json.NewEncoder(w)
	for _, r := range results {
		for _, run := range []string{phaseNoFeedback, phaseFeedback} {
			parts := r.off
			if run == phaseFeedback {
				parts = r.fb
			}
			var all bonn.Part
			for i, p := range parts {
				all.Add(p)
				if err := enc.Encode(feedbackRecordOf(head, r.seeds, run, bonn.PartNames[i], p)); err != nil {
					return err
				}
			}
			rec := feedbackRecordOf(head, r.seeds, run, "all", all)
			if run == phaseFeedback {
				rec.Refusals = r.refusals
			}
			if err := enc.Encode(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// feedbackRecordOf is head with one part's figures.
func feedbackRecordOf(head feedbackRecord, seeds, run, part string, p bonn.Part) feedbackRecord {
	r := head
	r.Seeds, r.Run, r.Part, r.Minutes = seeds, run, part, p.Duration.Minutes()
	r.Seizures, r.Detected, r.Sensitivity = p.Seizures, p.Detected, finite(p.Sensitivity())
	r.FalseAlarms, r.FAPerDay = p.FalseAlarms, p.FalseAlarmsPerDay()
	r.Sent, r.Confirmed, r.Rejected, r.Marked = p.Sent, p.Confirmed, p.Rejected, p.Marked
	r.Applied, r.Refused, r.Unsent = p.Applied, p.Refused, p.Unsent
	return r
}

// feedbackTable prints one row per seed and part, the two runs side by
// side (no feedback → feedback), then the refusals' reasons.
func feedbackTable(w io.Writer, results []feedbackResult, head feedbackRecord) error {
	var b strings.Builder
	b.WriteString("| seeds | part | seizures | detected | sensitivity | false alarms | FA / 24 h | labels sent (confirm / reject / mark) | applied | refused | unsent |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		var off, fb bonn.Part
		for i := range r.off {
			off.Add(r.off[i])
			fb.Add(r.fb[i])
			feedbackRow(&b, r.seeds, bonn.PartNames[i], r.off[i], r.fb[i])
		}
		feedbackRow(&b, r.seeds, "all", off, fb)
	}
	fmt.Fprintf(&b, "\nEach cell: no feedback → feedback (the day-one model, %s + %s, learning from the simulated clinician; mark delay %gs).\n",
		head.Algorithm, head.Learner, head.MarkDelay)
	last := results[len(results)-1] // the sum, when there are several seeds
	for _, k := range slices.Sorted(maps.Keys(last.refusals)) {
		fmt.Fprintf(&b, "Refused %d× (seeds %s): %s\n", last.refusals[k], last.seeds, k)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func feedbackRow(b *strings.Builder, seeds, part string, off, fb bonn.Part) {
	fmt.Fprintf(b, "| %s | %s | %d | %d → %d | %s → %s | %d → %d | %.1f → %.1f | %d (%d / %d / %d) | %d | %d | %d |\n",
		seeds, part, off.Seizures, off.Detected, fb.Detected, ratio(off.Sensitivity()), ratio(fb.Sensitivity()),
		off.FalseAlarms, fb.FalseAlarms, off.FalseAlarmsPerDay(), fb.FalseAlarmsPerDay(),
		fb.Sent, fb.Confirmed, fb.Rejected, fb.Marked, fb.Applied, fb.Refused, fb.Unsent)
}

// ratio prints a ratio with three decimals, "–" when undefined.
func ratio(v float64) string {
	if v != v {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
