package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
)

// Hooks are called from the pipeline's goroutine.
type Hooks struct {
	// Checkpoint saves the model; called every Config.CheckpointEvery of
	// wall-clock time and when Run ends. Errors are logged and counted,
	// never fatal: monitoring goes on without a fresh checkpoint.
	Checkpoint func(classifier.Model) error
	// Window is called after every window with the pipeline's counters
	// so far; its owner decides what to do with them (the daemon sends
	// its systemd watchdog keep-alive and STATUS line from it, so a stuck
	// pipeline, not just a dead process, is restarted).
	Window func(Stats)
	// Ready is called once, when the first frame has been read: the
	// source and the model are up.
	Ready func()
}

// Stats counts what the pipeline did.
type Stats struct {
	Frames, Gaps                int64
	Windows, Usable             int64
	LearnedPos, LearnedNeg      int64
	Unlabelled                  int64 // windows whose overlap with a seizure made their label ambiguous
	Events, Suppressed          int64
	LabelsApplied, LabelsUnused int64
	Evicted                     int64 // buffered windows that aged out unlearned
	Checkpoints, CheckpointErrs int64
	ModelErrors, SinkErrors     int64
}

// Pipeline wires Source → Extractor → Model → Detector → Sinks, with signal
// quality gating, learning and checkpoints, in one goroutine (Run). The
// hot path — read a frame, push it, and every step extract, score, decide
// and learn — allocates nothing in steady state.
type Pipeline struct {
	cfg    Config
	src    acquire.Source
	info   acquire.Info
	labels []string
	ext    *features.Extractor
	model  classifier.Model
	det    *alert.Detector
	sinks  sinks
	log    *slog.Logger
	hooks  Hooks

	frame  *acquire.Frame
	x      []float64
	period time.Duration // one sample
	winLen time.Duration
	qual   *quality

	annot  *intervalSet // LearnAnnotations
	buf    *ring        // LearnFeedback
	labelC chan alert.Label
	detNew *alert.Detector // waiting for the current event to end

	state    alert.State
	event    *alert.Event // in progress
	alerts   []alertRecord
	llIndex  []int     // index of each channel's line length in x, or nil
	baseline []float64 // per channel: running mean of line length on quiet windows
	baseSet  bool      // baseline holds a first value
	order    []int     // scratch for ranking channels
	wall0    time.Time
	lastCkpt time.Time
	now      func() time.Time
	stats    Stats
	ready    bool
}

// alertRecord remembers an alert so feedback can refer to it by ID.
type alertRecord struct {
	id         string
	onset, end time.Duration // end 0 while in progress
}

const maxAlertRecords = 256

// New builds a pipeline for src scoring with model. The extractor is built
// from fcfg with the source's channels and rate filled in; the model's
// dimension must match it.
func New(src acquire.Source, fcfg features.Config, model classifier.Model, cfg Config, sinks []alert.Sink, hooks Hooks, log *slog.Logger) (*Pipeline, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	info := src.Info()
	if len(info.Channels) == 0 {
		return nil, fmt.Errorf("%w: the source has no channels", ErrConfig)
	}
	labels := make([]string, len(info.Channels))
	for i, ch := range info.Channels {
		labels[i] = strings.TrimPrefix(ch.Label, "EEG ")
	}
	fcfg.Channels, fcfg.Labels, fcfg.Rate = len(labels), uniqueLabels(labels), info.Rate
	ext, err := features.New(fcfg)
	if err != nil {
		return nil, fmt.Errorf("pipeline: features: %w", err)
	}
	if got, want := model.Config().Features, ext.Dim(); got != want {
		return nil, fmt.Errorf("%w: the model takes %d features, the extractor makes %d (%d channels)", ErrConfig, got, want, len(labels))
	}
	det, err := alert.NewDetector(c.Detector)
	if err != nil {
		return nil, err
	}
	p := &Pipeline{
		cfg: c, src: src, info: info, labels: labels, ext: ext, model: model, det: det,
		log: log, hooks: hooks,
		frame:  acquire.NewFrame(len(labels)),
		x:      make([]float64, ext.Dim()),
		period: time.Duration(float64(time.Second) / info.Rate),
		winLen: time.Duration(float64(ext.Window()) / info.Rate * float64(time.Second)),
		labelC: make(chan alert.Label, 64),
		now:    time.Now,
	}
	p.sinks = newSinks(sinks, log, &p.stats.SinkErrors)
	p.qual = newQuality(len(labels), ext.Window(), c.Quality.FlatMicrovolts)
	switch c.Learning.Mode {
	case LearnAnnotations:
		lab, ok := src.(acquire.Labeled)
		if !ok {
			return nil, fmt.Errorf("%w: learning.mode annotations needs a source with annotations (a recording or the simulated patient)", ErrConfig)
		}
		p.annot = newIntervalSet(lab.Intervals())
	case LearnFeedback:
		step := fcfg.Step
		if step == 0 {
			step = features.DefaultStep
		}
		n := int(c.Learning.Buffer/step) + 1
		p.buf = newRing(n, ext.Dim())
	}
	for i, name := range ext.Names() {
		if strings.HasSuffix(name, "/line_length") {
			p.llIndex = append(p.llIndex, i)
		}
	}
	if len(p.llIndex) != len(labels) {
		p.llIndex = nil // line length not among the features: alerts name no channel
	}
	p.baseline = make([]float64, len(labels))
	p.order = make([]int, len(labels))
	return p, nil
}

// uniqueLabels makes channel labels distinct for feature names (recordings
// may repeat a label).
func uniqueLabels(in []string) []string {
	seen := map[string]int{}
	out := make([]string, len(in))
	for i, l := range in {
		if l == "" {
			l = fmt.Sprintf("ch%d", i)
		}
		if n := seen[l]; n > 0 {
			out[i] = fmt.Sprintf("%s#%d", l, n+1)
		} else {
			out[i] = l
		}
		seen[l]++
	}
	return out
}

// Labels returns the channel through which late labels (clinician
// feedback) reach the pipeline. Sends must not block the sender: use a
// select with a default case and count what was dropped.
func (p *Pipeline) Labels() chan<- alert.Label { return p.labelC }

// applyReconfigure takes a new decision rule from Config.Rules, if one is
// waiting, and swaps the detector when no event is in progress, so an
// event is never cut short or duplicated by a reload. An invalid rule is
// logged and ignored: the current one stays.
func (p *Pipeline) applyReconfigure() {
	select {
	case d := <-p.cfg.Rules:
		det, err := alert.NewDetector(d)
		if err != nil {
			p.log.Error("new decision rule rejected; the current one stays", slog.Any("err", err))
			break
		}
		p.detNew = det
	default:
	}
	if p.detNew != nil && p.event == nil {
		p.stats.Suppressed += int64(p.det.Suppressed())
		p.det, p.detNew = p.detNew, nil
		p.log.Info("decision rule reloaded", slog.Any("rule", p.det.Config()))
	}
}

// Stats returns the counters. It is not synchronised with a running
// pipeline: call it after Run returns, or take them from Hooks.Window.
func (p *Pipeline) Stats() Stats {
	s := p.stats
	s.Suppressed += int64(p.det.Suppressed())
	if p.buf != nil {
		s.Evicted = int64(p.buf.evicted)
	}
	return s
}

// Dim returns the dimension of the feature vectors.
func (p *Pipeline) Dim() int { return p.ext.Dim() }

// wall converts an offset from the start of the recording to wall-clock
// time: from the source's start time, or from when Run began if the source
// does not know it.
func (p *Pipeline) wall(d time.Duration) time.Time { return p.wall0.Add(d) }

// Run reads the source until it ends (io.EOF: nil), ctx is done (nil) or it
// fails (the error). It finishes an event in progress, calls the
// checkpoint hook, and leaves the sinks open (their owner closes them).
func (p *Pipeline) Run(ctx context.Context) error {
	p.wall0 = p.info.Start
	if p.wall0.IsZero() {
		p.wall0 = p.now()
	}
	p.lastCkpt = p.now()
	var runErr error
	for ctx.Err() == nil {
		done, err := p.step()
		if err != nil && ctx.Err() == nil {
			p.setState(alert.StateSignalLost, "source failed: "+err.Error(), p.frameEnd())
			runErr = fmt.Errorf("pipeline: reading the source: %w", err)
		}
		if done || err != nil {
			break
		}
	}
	p.finish()
	return runErr
}

// step reads and processes one frame; done is true at the end of the
// source.
func (p *Pipeline) step() (done bool, err error) {
	if err := p.src.ReadFrame(p.frame); err != nil {
		if errors.Is(err, io.EOF) {
			return true, nil
		}
		return false, err
	}
	if !p.ready {
		p.ready = true
		if p.hooks.Ready != nil {
			p.hooks.Ready()
		}
	}
	p.stats.Frames++
	if p.frame.Flags&acquire.FlagGap != 0 {
		p.stats.Gaps++
		p.ext.Reset()
	}
	p.qual.update(p.frame)
	if p.ext.Push(p.frame.Samples) {
		p.window()
	}
	return false, nil
}

// frameEnd is the offset of the end of the latest frame.
func (p *Pipeline) frameEnd() time.Duration { return p.frame.Time + p.period }

// window processes a completed window.
func (p *Pipeline) window() {
	if len(p.cfg.Rules) > 0 || p.detNew != nil {
		p.applyReconfigure()
	}
	end := p.frameEnd()
	start := end - p.winLen
	p.stats.Windows++
	kind, ch := p.qual.window()
	if kind == okay && p.ext.Invalid() > 0 {
		kind = invalidProblem
	}
	usable := kind == okay
	x := p.ext.Vector(p.x)
	var score float64
	if usable {
		p.stats.Usable++
		s, err := p.model.Score(x)
		if err != nil {
			p.stats.ModelErrors++
			p.log.Error("scoring failed", slog.Any("err", err))
			usable = false
		}
		score = s
	}
	if kind != okay {
		st, reason := stateOf(kind, ch, p.labels)
		p.setState(st, reason, end)
	} else if p.state != alert.StateOnline {
		p.setState(alert.StateOnline, "signal good", end)
	}
	dec := p.det.Window(start, end, score, usable)
	if dec.Ended && p.event != nil {
		p.endEvent(dec.End, dec.Score)
	}
	if dec.Started {
		p.startEvent(dec, x)
	} else if dec.Active && p.event != nil {
		p.event.Score = dec.Score
	}
	if usable && !dec.Active && p.llIndex != nil {
		p.updateBaseline(x)
	}
	p.emit(alert.Score{T: p.wall(end), Offset: end, Score: score, Usable: usable})
	if usable {
		p.learn(start, end, x)
	}
	if p.buf != nil {
		p.drainLabels(end)
		p.ageOut(end)
	}
	if now := p.now(); now.Sub(p.lastCkpt) >= p.cfg.CheckpointEvery {
		p.lastCkpt = now
		p.checkpoint()
	}
	if p.hooks.Window != nil {
		p.hooks.Window(p.Stats())
	}
}

func (p *Pipeline) emit(s alert.Score) { p.sinks.score(s) }

// setState publishes a change of the monitor's state.
func (p *Pipeline) setState(s alert.State, reason string, at time.Duration) {
	if s == p.state {
		return
	}
	p.state = s
	st := alert.Status{State: s, Since: p.wall(at), Reason: reason}
	p.log.Info("state", slog.String("state", string(s)), slog.String("reason", reason))
	p.sinks.state(st)
}

// updateBaseline tracks each channel's typical line length on quiet,
// usable windows (exponential average over about a minute of windows).
func (p *Pipeline) updateBaseline(x []float64) {
	const a = 1.0 / 60
	for c, i := range p.llIndex {
		if !p.baseSet {
			p.baseline[c] = x[i]
		} else {
			p.baseline[c] += a * (x[i] - p.baseline[c])
		}
	}
	p.baseSet = true
}

// topChannels names the channels whose line length stands out most above
// their baseline in x.
func (p *Pipeline) topChannels(x []float64) []string {
	if p.llIndex == nil || p.cfg.TopChannels == 0 {
		return nil
	}
	for c := range p.order {
		p.order[c] = c
	}
	dev := func(c int) float64 { return x[p.llIndex[c]] - p.baseline[c] }
	n := min(p.cfg.TopChannels, len(p.order))
	for i := 0; i < n; i++ { // partial selection sort: n is tiny
		best := i
		for j := i + 1; j < len(p.order); j++ {
			if dev(p.order[j]) > dev(p.order[best]) {
				best = j
			}
		}
		p.order[i], p.order[best] = p.order[best], p.order[i]
	}
	out := make([]string, 0, n)
	for _, c := range p.order[:n] {
		if dev(c) > 0 {
			out = append(out, p.labels[c])
		}
	}
	return out
}

func (p *Pipeline) startEvent(dec alert.Decision, x []float64) {
	p.stats.Events++
	e := &alert.Event{
		ID: alert.NewID(), Site: p.cfg.Site, Bed: p.cfg.Bed,
		Onset: p.wall(dec.Onset), DetectedAt: p.wall(dec.Detected),
		OnsetOffset: dec.Onset, DetectedOffset: dec.Detected,
		Score: dec.Score, Algorithm: p.model.Config().Algorithm,
		Channels: p.topChannels(x),
	}
	p.event = e
	p.remember(alertRecord{id: e.ID, onset: dec.Onset})
	p.log.Info("seizure detected", slog.String("id", e.ID), slog.Duration("onset", dec.Onset), slog.Float64("score", dec.Score))
	p.sinks.alert(e)
}

func (p *Pipeline) endEvent(end time.Duration, score float64) {
	e := p.event
	p.event = nil
	e.End, e.EndOffset, e.Score = p.wall(end), end, score
	for i := range p.alerts {
		if p.alerts[i].id == e.ID {
			p.alerts[i].end = end
		}
	}
	p.sinks.eventEnd(e)
}

func (p *Pipeline) remember(r alertRecord) {
	if len(p.alerts) == maxAlertRecords {
		copy(p.alerts, p.alerts[1:])
		p.alerts = p.alerts[:maxAlertRecords-1]
	}
	p.alerts = append(p.alerts, r)
}

// learn applies the learning mode to a usable window.
func (p *Pipeline) learn(start, end time.Duration, x []float64) {
	switch p.cfg.Learning.Mode {
	case LearnAnnotations:
		pos, ok := labelOf(p.annot.overlap(start, end), end-start, p.cfg.Learning.MinOverlap)
		if !ok {
			p.stats.Unlabelled++
			return
		}
		p.train(x, pos)
	case LearnFeedback:
		p.buf.push(start, end, x)
	}
}

func (p *Pipeline) train(x []float64, pos bool) {
	if err := p.model.Learn(x, pos); err != nil {
		p.stats.ModelErrors++
		p.log.Error("learning failed", slog.Any("err", err))
		return
	}
	if pos {
		p.stats.LearnedPos++
	} else {
		p.stats.LearnedNeg++
	}
}

// drainLabels applies the labels that have arrived.
func (p *Pipeline) drainLabels(now time.Duration) {
	for {
		select {
		case l := <-p.labelC:
			p.applyLabel(l, now)
		default:
			return
		}
	}
}

// applyLabel learns the buffered windows a label covers. A window is
// learned once, with the first label that covers it.
func (p *Pipeline) applyLabel(l alert.Label, now time.Duration) {
	var a, b time.Duration
	if l.AlertID != "" {
		found := false
		for _, r := range p.alerts {
			if r.id == l.AlertID {
				a, b, found = r.onset, r.end, true
				if b == 0 {
					b = now
				}
			}
		}
		if !found {
			p.stats.LabelsUnused++
			p.log.Warn("feedback for an unknown alert dropped", slog.String("alert_id", l.AlertID), slog.String("from", l.From))
			return
		}
	} else {
		a, b = l.Start.Sub(p.wall0), l.End.Sub(p.wall0)
	}
	if b <= a {
		p.stats.LabelsUnused++
		p.log.Warn("empty label interval dropped", slog.String("from", l.From))
		return
	}
	set := &intervalSet{start: []time.Duration{a}, end: []time.Duration{b}}
	learned := 0
	for i := 0; i < p.buf.size; i++ {
		w := p.buf.at(i)
		if w.learned {
			continue
		}
		o := set.overlap(w.start, w.end)
		if o <= 0 {
			continue
		}
		if float64(o) < p.cfg.Learning.MinOverlap*float64(w.end-w.start) {
			continue
		}
		p.train(w.x, l.Seizure)
		w.learned = true
		learned++
	}
	if learned == 0 {
		p.stats.LabelsUnused++
		p.log.Warn("label covers no buffered window", slog.Duration("start", a), slog.Duration("end", b), slog.String("from", l.From))
		return
	}
	p.stats.LabelsApplied++
	p.log.Info("label applied", slog.Bool("seizure", l.Seizure), slog.Int("windows", learned), slog.String("from", l.From))
}

// ageOut learns buffered windows older than the negative horizon as
// negatives, when that policy is on.
func (p *Pipeline) ageOut(now time.Duration) {
	h := p.cfg.Learning.NegativeHorizon
	if h <= 0 {
		return
	}
	// Windows before p.buf.aged were handled by an earlier call.
	first := max(p.buf.aged-(p.buf.pushed-int64(p.buf.size)), 0)
	for i := int(first); i < p.buf.size; i++ {
		w := p.buf.at(i)
		if w.end > now-h {
			return
		}
		if !w.learned {
			p.train(w.x, false)
			w.learned = true
		}
		p.buf.aged = p.buf.pushed - int64(p.buf.size) + int64(i) + 1
	}
}

func (p *Pipeline) checkpoint() {
	if p.hooks.Checkpoint == nil {
		return
	}
	if err := p.hooks.Checkpoint(p.model); err != nil {
		p.stats.CheckpointErrs++
		p.log.Error("checkpoint failed", slog.Any("err", err))
		return
	}
	p.stats.Checkpoints++
}

// finish ends an event in progress and saves the model.
func (p *Pipeline) finish() {
	if dec := p.det.Flush(); dec.Ended && p.event != nil {
		p.endEvent(dec.End, dec.Score)
	}
	if p.buf != nil {
		p.drainLabels(p.frameEnd())
	}
	p.checkpoint()
}
