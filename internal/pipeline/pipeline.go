package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/features/artifact"
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
	Frames, Gaps           int64
	Windows, Usable        int64
	LearnedPos, LearnedNeg int64
	Unlabelled             int64 // windows whose overlap with a seizure made their label ambiguous
	// Windows not scored, by cause: frames lost; an electrode off, a
	// saturated or flat channel or invalid samples; an artifact. A window
	// that a per-channel score scores on the other channels is Usable,
	// and counted in Partial too.
	SignalLost, ElectrodeOff, Artifact int64
	Partial                            int64
	Events, Suppressed                 int64
	LabelsApplied, LabelsUnused        int64
	Relabelled                         int64 // windows a later label took from an earlier one within its grace period
	Agreed                             int64 // labelled windows not learned: the detector had decided them so (Learning.LearnAgreed)
	Evicted                            int64 // buffered windows that aged out unlearned
	Checkpoints, CheckpointErrs        int64
	ModelErrors, SinkErrors            int64
	// SignalTime is the signal processed so far: the end of the latest
	// window, from the start of the source. Lag is how far it trails the
	// wall-clock time since Run began: for a live source, the pipeline's
	// delay behind real time (growing when it cannot keep up, or when
	// the source loses time it does not report as a gap); negative for a
	// recording replayed faster than real time.
	SignalTime, Lag time.Duration
	// Buffered is the number of windows in the late-label buffer
	// (LearnFeedback), BufferCap how many it holds (0: no buffer).
	Buffered, BufferCap int
}

// Pipeline wires Source → Extractor → Model → Detector → Sinks, with signal
// quality gating, learning and checkpoints, in one goroutine (Run). The
// hot path — read a frame, push it, and every step extract, score, decide
// and learn — allocates nothing in steady state.
type Pipeline struct {
	cfg      Config
	src      acquire.Source
	info     acquire.Info
	channels []string // channel names, as alerts and states name them
	ext      *features.Extractor
	model    classifier.Model
	sc       *scorer // features → score, and what the model learns
	sinks    sinks
	frames   []FrameSink // frames.go
	log      *slog.Logger
	hooks    Hooks

	frame  *acquire.Frame
	x      []float64
	period time.Duration // one sample
	winLen time.Duration

	qual      *quality     // signal-quality gating
	bad       []int        // the channels quality.bad finds, len(channels) of room
	offCh     []int        // the channels of the electrode-off state last published
	offScored int          // and how many channels it said were scored
	art       *artifacts   // artifact gating; nil when off
	mot       *motor       // the motor-seizure detector; nil when off
	rank      *ranking     // the channels an alert names
	ev        *events      // decisions → events, reloads
	annot     *intervalSet // LearnAnnotations: the recording's seizures
	late      *lateLabels  // LearnFeedback: buffered windows, late labels
	evid      *evidence    // alerts' EEG; nil without an EvidenceSink
	labelC    chan alert.Label

	state    alert.State
	frozen   time.Duration // end of the window an event began freezing the baseline at; -1: none
	wall0    time.Time
	started  time.Time // when Run began, for Stats.Lag
	lastCkpt time.Time
	ctx      context.Context // Run's; nil before Run
	now      func() time.Time
	stats    Stats
	ready    bool
}

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
	feats := fcfg.Features
	if feats == nil {
		feats = features.AllFeatures()
	}
	sc, err := newScorer(c.Scoring, model, ext, fcfg.Labels, feats, log)
	if err != nil {
		return nil, err
	}
	det, err := alert.NewDetector(c.Detector)
	if err != nil {
		return nil, err
	}
	p := &Pipeline{
		cfg: c, src: src, info: info, channels: labels, ext: ext, model: model, sc: sc, frozen: -1,
		log: log, hooks: hooks,
		frame:  acquire.NewFrame(len(labels)),
		x:      make([]float64, ext.Dim()),
		period: time.Duration(float64(time.Second) / info.Rate),
		winLen: time.Duration(float64(ext.Window()) / info.Rate * float64(time.Second)),
		labelC: make(chan alert.Label, 64),
		now:    time.Now,
	}
	if err := p.wireStages(det, sinks, fcfg.Step); err != nil {
		return nil, err
	}
	if err := p.wireLearning(fcfg.Step); err != nil {
		return nil, err
	}
	return p, nil
}

// wireStages builds the stages after the scorer: the sinks, signal-quality
// and artifact gating, the channel ranking, the alerts' evidence and the
// events det decides. step is the features' step (0: the default).
func (p *Pipeline) wireStages(det *alert.Detector, sinks []alert.Sink, step time.Duration) error {
	c, labels := p.cfg, p.channels
	p.sinks = newSinks(sinks, p.log, &p.stats.SinkErrors)
	p.frames = frameSinks(sinks)
	p.qual = newQuality(len(labels), p.ext.Window(), c.Quality.FlatMicrovolts)
	p.bad = make([]int, 0, len(labels))
	p.offCh = make([]int, 0, len(labels))
	if !c.Artifact.Off {
		var err error
		if p.art, err = newArtifacts(c.Artifact, p.ext, labels, step); err != nil {
			return err
		}
	}
	p.rank = newRanking(p.ext, labels, c.TopChannels)
	p.rank.byScore = p.sc.top
	if len(p.sinks.evidence) > 0 {
		p.evid = newEvidence(labels, p.info.Rate, &p.sinks, p.wall)
	}
	p.ev = &events{det: det, rules: c.Rules, site: c.Site, bed: c.Bed, algorithm: string(p.model.Config().Algorithm),
		rank: p.rank, sinks: &p.sinks, log: p.log, wall: p.wall, count: &p.stats.Events, suppressed: &p.stats.Suppressed}
	if p.evid != nil {
		p.ev.onAlert = p.evid.alert
	}
	var err error
	p.mot, err = newMotor(c.Motor, p.art, labels, *p.ev)
	return err
}

// motorEvents returns the motor detector's events, nil when it is off.
func (p *Pipeline) motorEvents() *events {
	if p.mot == nil {
		return nil
	}
	return p.mot.ev
}

// wireLearning sets up what the learning mode learns from: the source's
// annotations (LearnAnnotations) or the late-label buffer
// (LearnFeedback). step is the features' step (0: the default).
func (p *Pipeline) wireLearning(step time.Duration) error {
	c := p.cfg
	switch c.Learning.Mode {
	case LearnAnnotations:
		lab, ok := p.src.(acquire.Labeled)
		if !ok {
			return fmt.Errorf("%w: learning.mode annotations needs a source with annotations (a recording or the simulated patient)", ErrConfig)
		}
		p.annot = newIntervalSet(lab.Intervals())
	case LearnFeedback:
		n, err := bufferWindows(c.Learning.Buffer, step, p.ext.Dim())
		if err != nil {
			return err
		}
		p.late = &lateLabels{buf: newRing(n, p.ext.Dim()), x: make([]float64, p.ext.Dim()), in: p.labelC,
			minOverlap: c.Learning.MinOverlap, horizon: c.Learning.NegativeHorizon, maxInterval: c.Learning.MaxInterval,
			grace: c.Learning.Grace, learnAgreed: c.Learning.LearnAgreed, events: p.ev, motor: p.motorEvents(), offset: func(t time.Time) time.Duration { return t.Sub(p.wall0) }, wall: p.wall,
			train: p.train, ack: p.ack, stats: &p.stats, log: p.log, stopping: p.stopping}
	}
	return nil
}

// bufferWindows returns how many windows of dim features, one per step
// (0: the default), the late-label buffer keeps to cover buffer; a
// ConfigError on learning.buffer when they would take more than
// MaxBufferBytes, records and vectors together (windowBytes).
func bufferWindows(buffer, step time.Duration, dim int) (int, error) {
	if step == 0 {
		step = features.DefaultStep
	}
	n := int(buffer/step) + 1
	per := windowBytes(dim)
	if bytes := int64(n) * per; bytes > MaxBufferBytes {
		fits := time.Duration(MaxBufferBytes/per-1) * step
		return 0, &ConfigError{"learning.buffer", buffer, fmt.Sprintf("keeps %d windows of %d features, %.1f MiB (%d bytes a window: its %d-byte record and its vector): more than %d MiB; at most %v with these features",
			n, dim, float64(bytes)/(1<<20), per, per-int64(dim)*4, MaxBufferBytes>>20, fits)}
	}
	return n, nil
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

// Stats returns the counters. It is not synchronised with a running
// pipeline: call it after Run returns, or take them from Hooks.Window.
func (p *Pipeline) Stats() Stats {
	s := p.stats
	s.Suppressed += int64(p.ev.det.Suppressed())
	if p.mot != nil {
		s.Suppressed += int64(p.mot.ev.det.Suppressed())
	}
	if p.late != nil {
		s.Evicted = int64(p.late.buf.evicted)
		s.Buffered, s.BufferCap = p.late.buf.size, p.late.buf.capacity
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
//
// ctx is checked before every frame and, while late labels make it learn
// many buffered windows at once, before every window it learns, so the
// longest it goes on after ctx is done is one frame's processing or one
// Learn (bounded by the classifier's Config validation, see
// classifier.MaxLearnWork), and then the final checkpoint.
func (p *Pipeline) Run(ctx context.Context) error {
	p.ctx = ctx
	p.wall0 = p.info.Start
	if p.wall0.IsZero() {
		p.wall0 = p.now()
	}
	p.lastCkpt = p.now()
	p.started = p.lastCkpt
	if p.late != nil {
		p.late.buf.reserve()
	}
	p.beginFrames()
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
	p.recordFrame()
	if p.frame.Flags&acquire.FlagGap != 0 {
		p.stats.Gaps++
		p.ext.Reset()
		p.sc.gap()
		if p.art != nil {
			p.art.gate.Reset()
		}
		if p.evid != nil {
			p.evid.gap()
		}
	}
	p.qual.update(p.frame)
	ready := p.ext.Push(p.frame.Samples)
	if p.evid != nil {
		p.evid.push(p.frame.Time, p.ext.Conditioned())
	}
	if ready {
		p.window()
	}
	return false, nil
}

// gating is what keeps a window from being scored, or from being scored
// on every channel.
type gating struct {
	kind, ch int // the problem (okay: none) and the channel it names
	art      artifact.Verdict
	// dropped: a per-channel score leaves out the channels of a
	// channel-local quality problem (kind); eye: those of an eye artifact.
	dropped, eye bool
	// judged: the artifact rules judged the window (not settling): its
	// EMG channels are known.
	judged bool
	// lapsed: the artifact rules would gate the window (art), but their
	// episode has gated windows for artifact.Config.Gate already: it is
	// scored on every channel.
	lapsed bool
}

// scored reports whether the window is scored, on some channels at least.
func (g gating) scored() bool { return g.kind == okay || g.dropped && channelLocal(g.kind) }

// counted is the cause under which a window not scored is counted (okay
// for a scored one).
func (g gating) counted() int {
	if g.scored() {
		return okay
	}
	return g.kind
}

// gate judges the window of the extractor's last Vector: its signal
// quality and artifacts. A per-channel
// score leaves out the channels of a lead-off, saturation or flat line,
// and the frontal channels of an eye artifact (its rule requires the
// channels behind them to be quiet), and scores the window on the
// others when at least TopK remain; a gap, invalid samples and any other
// artifact gate the window: muscle and movement reach neighbouring
// channels below the rules' thresholds.
func (p *Pipeline) gate() gating {
	var g gating
	g.kind, g.ch = p.qual.window()
	if g.kind == okay && p.ext.Invalid() > 0 {
		g.kind = invalidProblem
	}
	p.bad = p.bad[:0]
	if channelLocal(g.kind) {
		p.bad = p.qual.bad(p.bad)
		g.dropped = p.sc.leaveOut(p.bad)
	}
	if !g.scored() || p.art == nil {
		return g
	}
	g.art = p.art.judge(p.sc.leftOut())
	g.judged = g.art.Kind != artifact.Settling
	if g.art.Kind != artifact.None {
		if g.eye = g.art.Kind == artifact.Eye && p.sc.leaveOut(g.art.Channels); !g.eye {
			g.kind = artifactProblem
		}
	}
	// An artifact verdict may delay a detection, never hide a seizure:
	// an episode gates windows for at most artifact.Config.Gate.
	switch {
	case g.kind != artifactProblem:
		p.art.clean(g.art)
	case p.art.lapsed(g.art):
		g.kind, g.lapsed = okay, true
	}
	return g
}

// stopping reports whether Run's context is done.
func (p *Pipeline) stopping() bool { return p.ctx != nil && p.ctx.Err() != nil }

// frameEnd is the offset of the end of the latest frame.
func (p *Pipeline) frameEnd() time.Duration { return p.frame.Time + p.period }

// window processes a completed window: quality gating, score, state,
// decision, learning, checkpoint, report.
func (p *Pipeline) window() {
	end := p.frameEnd()
	start := end - p.winLen
	p.stats.Windows++
	x := p.ext.Vector(p.x)
	g := p.gate()
	if p.mot != nil {
		var emg []bool
		if g.judged {
			emg = p.art.det.EMG()
		}
		p.mot.window(start, end, emg, p.sc.leftOut())
	}
	p.count(g.counted())
	score, v, usable := p.score(g.scored(), x)
	partial := g.dropped || g.eye
	if usable && partial {
		p.stats.Partial++
	}
	switch {
	case g.kind == artifactProblem || g.eye && !g.dropped || g.lapsed:
		p.setArtifact(g.art, g.eye, g.lapsed, end)
	case g.kind != okay:
		p.setQuality(g, usable, end)
	case p.state != alert.StateOnline:
		p.setState(alert.StateOnline, "signal good", end)
	}
	active := p.ev.window(start, end, score, usable, x)
	if usable && !active && !partial && !g.lapsed {
		p.rank.update(x)
	}
	// A lapsed artifact's window is scored, but it is no background.
	if usable && !p.freezes(active, end) && !g.lapsed {
		p.sc.background(x)
	}
	p.sc.include()
	p.sinks.score(alert.Score{T: p.wall(end), Offset: end, Score: score, Usable: usable})
	// A window with channels left out is learned on the others only: their
	// features are NaN in v (scorer.include).
	if usable {
		p.learn(start, end, v, p.ev.det.Positive(score))
	}
	if p.late != nil {
		p.late.drain(end)
		p.late.finalise(end)
		p.late.ageOut(end)
	} else {
		p.refuseLabels()
	}
	now := p.now()
	p.stats.SignalTime, p.stats.Lag = end, now.Sub(p.started)-end
	if now.Sub(p.lastCkpt) >= p.cfg.CheckpointEvery {
		p.lastCkpt = now
		p.checkpoint()
	}
	if p.hooks.Window != nil {
		p.hooks.Window(p.Stats())
	}
}

// count counts a gated window by its cause.
func (p *Pipeline) count(kind int) {
	switch kind {
	case okay:
	case gapProblem:
		p.stats.SignalLost++
	case artifactProblem:
		p.stats.Artifact++
	default:
		p.stats.ElectrodeOff++
	}
}

// score scores a window that passed the quality gate and returns the
// vector the model learns (scorer.score); a model error makes it
// unusable.
func (p *Pipeline) score(usable bool, x []float64) (float64, []float64, bool) {
	if !usable {
		p.sc.gap()
		return 0, x, false
	}
	p.stats.Usable++
	s, v, err := p.sc.score(x)
	if err != nil {
		p.stats.ModelErrors++
		p.log.Error("scoring failed", slog.Any("err", err))
		p.sc.gap()
		return 0, v, false
	}
	return s, v, true
}

// freezes reports whether the window ending at end is kept out of the
// patient's baseline: while an event is in progress, for at most
// MaxFreeze (a background that keeps alerting is a new normal, and is
// taken in after it).
func (p *Pipeline) freezes(active bool, end time.Duration) bool {
	if !active {
		p.frozen = -1
		return false
	}
	if p.frozen < 0 {
		p.frozen = end
	}
	return end-p.frozen < MaxFreeze
}

// setState publishes a change of the monitor's state.
func (p *Pipeline) setState(s alert.State, reason string, at time.Duration) {
	if s == p.state {
		return
	}
	level := slog.LevelInfo
	if s == alert.StateOnline && p.state == alert.StateArtifact {
		level = slog.LevelDebug // an artifact's end: see setArtifact
	}
	p.state = s
	st := alert.Status{State: s, Since: p.wall(at), Reason: reason}
	p.log.Log(context.Background(), level, "state", slog.String("state", string(s)), slog.String("reason", reason))
	p.sinks.state(st)
}

// setQuality publishes the state of a signal-quality problem (signal-lost,
// electrode-off), naming the channels with a lead-off, saturation or flat
// line and, when the window was scored on the others, how many; again
// when those change.
func (p *Pipeline) setQuality(g gating, scored bool, at time.Duration) {
	st := stateFor(g.kind)
	n := 0
	if g.dropped && scored {
		n = p.sc.scoredChannels()
	}
	if st == p.state && (st != alert.StateElectrodeOff || slices.Equal(p.offCh, p.bad) && n == p.offScored) {
		return // nothing new, and nothing allocated
	}
	st, reason := stateOf(g.kind, g.ch, p.channels)
	p.state = st
	p.offCh, p.offScored = append(p.offCh[:0], p.bad...), n
	var names []string
	for _, c := range p.bad {
		names = append(names, p.channels[c])
	}
	if n > 0 {
		reason += fmt.Sprintf("; the other %d channels are scored", n)
	}
	p.log.Info("state", slog.String("state", string(st)), slog.String("reason", reason))
	p.sinks.state(alert.Status{State: st, Since: p.wall(at), Reason: reason, Channels: names, Scored: n})
}

// setArtifact publishes the state artifact, again when the kind or the
// channels change; partial says that the other channels are scored,
// lapsed that every channel is (the episode's gate has lapsed).
func (p *Pipeline) setArtifact(v artifact.Verdict, partial, lapsed bool, at time.Duration) {
	if p.state == alert.StateArtifact && p.art.same(v, lapsed) {
		return
	}
	scored := len(p.channels)
	if p.sc.perChannel() {
		scored = p.sc.scoredChannels()
	}
	p.art.remember(v, lapsed)
	names := make([]string, len(v.Channels))
	for i, c := range v.Channels {
		names[i] = p.channels[c]
	}
	p.state = alert.StateArtifact
	reason := v.Kind.String() // settling names no channel
	if len(names) > 0 {
		reason += " on " + strings.Join(names, ", ")
	}
	switch {
	case partial:
		reason += fmt.Sprintf("; the other %d channels are scored", scored)
	case lapsed:
		reason += fmt.Sprintf("; scored on all %d channels: an artifact delays scoring, it never stops it", scored)
		partial = true
	}
	// Blinks, movement and muscle come and go every few seconds in awake
	// patients: at info level they would fill the journal with thousands
	// of lines an hour. They are logged at debug, as are their ends; the
	// published status, the recording's annotations and the windows
	// counted by quality (ictal_windows_total) keep every one.
	p.log.Debug("state", slog.String("state", string(alert.StateArtifact)), slog.String("reason", reason))
	st := alert.Status{State: alert.StateArtifact, Since: p.wall(at), Reason: reason, Artifact: v.Kind.String(), Channels: names}
	if partial {
		st.Scored = scored
	}
	p.sinks.state(st)
}

// learn applies the learning mode to a usable window; decided is the
// detector's decision on it (its score above the threshold), which the
// late-label buffer keeps for Learning.LearnAgreed.
func (p *Pipeline) learn(start, end time.Duration, x []float64, decided bool) {
	switch p.cfg.Learning.Mode {
	case LearnAnnotations:
		pos, ok := labelOf(p.annot.overlap(start, end), end-start, p.cfg.Learning.MinOverlap)
		if !ok {
			p.stats.Unlabelled++
			return
		}
		p.train(x, pos)
	case LearnFeedback:
		p.late.push(start, end, x, decided)
	}
}

func (p *Pipeline) train(x []float64, pos bool) {
	if _, err := p.sc.learn(x, pos); err != nil {
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

// ack stamps a label's acknowledgement with the time and hands it to the
// sinks.
func (p *Pipeline) ack(a alert.Ack) {
	a.At = p.now()
	p.sinks.ack(a)
}

// refuseLabels answers the labels that arrive when the pipeline does not
// learn from feedback: each is acknowledged as refused, none is applied.
func (p *Pipeline) refuseLabels() {
	for {
		select {
		case lab := <-p.labelC:
			p.stats.LabelsUnused++
			a := alert.AckOf(lab)
			a.Reason = "this monitor does not learn from feedback (learning.mode " + p.cfg.Learning.Mode + ")"
			p.log.Warn("feedback refused: not learning from feedback", slog.String("mode", p.cfg.Learning.Mode), slog.String("by", lab.By))
			p.ack(a)
		default:
			return
		}
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
	p.ev.flush()
	if p.mot != nil {
		p.mot.ev.flush()
	}
	if p.evid != nil {
		p.evid.flush()
	}
	if p.late != nil {
		p.late.drain(p.frameEnd())
		p.late.finaliseAll()
	} else {
		p.refuseLabels()
	}
	p.checkpoint()
}
