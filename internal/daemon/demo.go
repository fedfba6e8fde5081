package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/synth"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/eval"
	"github.com/ictal/ictal/internal/pipeline"
)

// DemoOptions configures `ictald demo`.
type DemoOptions struct {
	Duration time.Duration // the monitored recording (default 5 min)
	Seed     uint64
	// Speed plays the monitored recording at this multiple of real time;
	// 0 picks one that takes about 20 s.
	Speed    float64
	Channels int // default 8
	Seizures int // in the monitored recording (default: one per 2.5 min, at least 1)
	// TrainDuration and TrainSeizures describe the first recording, on
	// which the model learns before monitoring (default 30 min, 5).
	TrainDuration time.Duration
	TrainSeizures int
	Site, Bed     string
	// MQTTListen, when set, runs an embedded MQTT broker there (falling
	// back to a free port if it is taken) and publishes the monitored
	// recording's alerts and status through it, as ictald does; the demo
	// subscribes to ictal/# and shows what arrives.
	MQTTListen string
	// BoardListen, with MQTTListen, runs the ward board (ictal board)
	// there on the embedded broker (a free port if it is taken), prints
	// its URL and a one-time login, and has a simulated clinician confirm
	// true alerts and reject false ones through the board's HTTP API.
	BoardListen string
	// Linger keeps the broker and the board up this long after the
	// recording ends (or until ctx is done), for a person to look around.
	Linger time.Duration

	// clinicianBlind, in tests, has the demo's clinician judge every
	// alert as if the recording held no seizure, so that it presses
	// Reject: the simulated patient gives the detector few false alarms
	// to reject.
	clinicianBlind bool

	// sink, when set (by tests), is one more sink of the monitored
	// recording's pipeline.
	sink alert.Sink
	// now is the clock the recordings end at (tests fix it; default
	// time.Now).
	now func() time.Time
}

// Demo trains a model on a first simulated recording, then monitors a
// second one with seizures at an accelerated pace through the whole
// pipeline, printing each alert as it is raised and a summary to out.
func Demo(ctx context.Context, o DemoOptions, out io.Writer, log *slog.Logger) (eval.Summary, error) {
	// The pipeline's sinks and the MQTT subscriber print from different
	// goroutines: every line goes through one locked writer.
	out = &syncWriter{w: out}
	o = o.withDefaults()
	if !(o.Speed > 0) || math.IsInf(o.Speed, 0) {
		return eval.Summary{}, fmt.Errorf("-speed %v: want a multiple of real time > 0 (0: about 20 s in all)", o.Speed)
	}
	if need := time.Duration(o.Seizures) * (synth.SeizureGap + synth.ShortestSeizure); o.Duration < need {
		return eval.Summary{}, fmt.Errorf("-duration %v is too short for %d seizures: at least %v", o.Duration, o.Seizures, need)
	}
	fcfg := features.Config{}
	model, err := o.train(ctx, fcfg, out, log)
	if err != nil {
		return eval.Summary{}, err
	}
	sum, annotated, err := o.monitor(ctx, fcfg, model, out, log)
	if err != nil {
		return eval.Summary{}, err
	}
	printSummary(out, sum, annotated)
	return sum, ctx.Err()
}

// withDefaults fills in the zero options.
func (o DemoOptions) withDefaults() DemoOptions {
	if o.now == nil {
		o.now = time.Now
	}
	if o.Duration == 0 {
		o.Duration = 5 * time.Minute
	}
	if o.Channels == 0 {
		o.Channels = 8
	}
	if o.Seizures == 0 {
		o.Seizures = max(1, int(o.Duration/(150*time.Second)))
	}
	if o.TrainDuration == 0 {
		o.TrainDuration = 30 * time.Minute
	}
	if o.TrainSeizures == 0 {
		o.TrainSeizures = 5
	}
	if o.Speed == 0 {
		o.Speed = max(1, float64(o.Duration)/float64(20*time.Second))
	}
	if o.Site == "" {
		o.Site = "demo"
	}
	if o.Bed == "" {
		o.Bed = "bed-1"
	}
	return o
}

// patient is a simulated recording of d with n seizures from start.
func (o DemoOptions) patient(d time.Duration, n int, seed uint64, start time.Time) (*synth.Patient, error) {
	c := synth.DefaultConfig()
	c.Channels, c.Duration, c.Seizures, c.Seed = o.Channels, d, n, seed
	// Short recordings get shorter seizures, so each still fits in its
	// slot with synth.SeizureGap around it.
	if n > 0 {
		if room := d/time.Duration(n) - synth.SeizureGap; room < c.SeizureMax || c.SeizureMax == 0 {
			c.SeizureMax = min(synth.DefaultSeizureMax, room)
			c.SeizureMin = min(synth.DefaultSeizureMin, c.SeizureMax)
		}
	}
	c.Start = start
	return synth.New(c)
}

// demoStarts returns when the simulated recordings start: the monitored
// one ends at now (to the second below), the training one just before it.
// Played faster than real time, a recording of the last o.Duration never
// stamps an alert, a status or a score later than the wall clock; one
// starting now would run ahead of it by the speed (an alert at 10:07
// raised at 10:02:20).
func (o DemoOptions) demoStarts(now time.Time) (train, monitor time.Time) {
	monitor = now.UTC().Truncate(time.Second).Add(-o.Duration)
	return monitor.Add(-o.TrainDuration), monitor
}

// train learns a model prequentially on a first recording, as fast as
// possible.
func (o DemoOptions) train(ctx context.Context, fcfg features.Config, out io.Writer, log *slog.Logger) (classifier.Model, error) {
	trainStart, _ := o.demoStarts(o.now())
	train, err := o.patient(o.TrainDuration, o.TrainSeizures, o.Seed, trainStart)
	if err != nil {
		return nil, err
	}
	probe := fcfg
	probe.Channels, probe.Rate = o.Channels, train.Info().Rate
	dim, err := probe.Dim()
	if err != nil {
		return nil, err
	}
	model, err := classifier.New(classifier.Config{Algorithm: classifier.UOB, Features: dim, Seed: o.Seed})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "ictald demo: training %s/%s on a %v simulated recording (%d channels, %d seizures)…\n",
		model.Config().Algorithm, model.Config().Learner, o.TrainDuration, o.Channels, o.TrainSeizures)
	start := time.Now()
	tp, err := pipeline.New(train, fcfg, model, pipeline.Config{Learning: pipeline.Learning{Mode: pipeline.LearnAnnotations}}, nil, pipeline.Hooks{}, log)
	if err != nil {
		return nil, err
	}
	if err := tp.Run(ctx); err != nil {
		return nil, err
	}
	ts := tp.Stats()
	fmt.Fprintf(out, "  learned %d windows (%d seizure) in %.1fs\n", ts.LearnedPos+ts.LearnedNeg, ts.LearnedPos, time.Since(start).Seconds())
	return model, ctx.Err()
}

// monitor plays a second recording through the whole pipeline, paced,
// with the alerts printed and, with MQTTListen, published.
// It returns the scores and the number of seizures in the recording.
func (o DemoOptions) monitor(ctx context.Context, fcfg features.Config, model classifier.Model, out io.Writer, log *slog.Logger) (eval.Summary, int, error) {
	_, start := o.demoStarts(o.now())
	mon, err := o.patient(o.Duration, o.Seizures, o.Seed+1000, start)
	if err != nil {
		return eval.Summary{}, 0, err
	}
	annotated, scored := seizureCounts(mon.Intervals(), o.Duration)
	fmt.Fprintf(out, "ictald demo: monitoring a simulated recording of the last %v (%s–%s UTC) with %s at %.0f× real time (%.0fs)\n",
		o.Duration, start.Format("15:04:05"), start.Add(o.Duration).Format("15:04:05"), seizureWords(annotated, scored),
		o.Speed, (o.Duration / time.Duration(o.Speed)).Seconds())
	printer := &printer{w: out, quietStatus: o.MQTTListen != ""}
	sinks := []alert.Sink{printer}
	if o.sink != nil {
		sinks = append(sinks, o.sink)
	}
	var pub *mqtt.Publisher
	var clin *demoClinician
	if o.MQTTListen != "" {
		var stop func()
		if pub, clin, stop, err = o.startWard(ctx, mon, out, log); err != nil {
			return eval.Summary{}, 0, err
		}
		defer stop()
		sinks = append(sinks, pub)
		if clin != nil {
			sinks = append(sinks, clin)
		}
	}
	var src acquire.Source = acquire.NewPaced(ctx, mon, o.Speed)
	if clin != nil {
		src = &judgedEnd{Source: src, clin: clin, ctx: ctx}
	}
	// The monitored recording learns only from the clinician's feedback,
	// as a bed does.
	mp, err := pipeline.New(src, fcfg, model, pipeline.Config{Site: o.Site, Bed: o.Bed, Learning: pipeline.Learning{Mode: pipeline.LearnFeedback}}, sinks, pipeline.Hooks{}, log)
	if err != nil {
		return eval.Summary{}, 0, err
	}
	stopForwarding := func() {}
	if pub != nil {
		stopForwarding = forwardDemoLabels(ctx, pub, mp, clin, log)
		defer stopForwarding()
	}
	if err := mp.Run(ctx); err != nil {
		return eval.Summary{}, 0, err
	}
	if pub != nil && o.Linger > 0 {
		// The pipeline has ended: feedback given while the board stays up
		// is answered, refused, rather than queued for nobody.
		stopForwarding()
		rctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go refuseLabels(rctx, pub, "the demo's recording has ended: the monitor no longer learns")
	}
	if clin != nil {
		fmt.Fprintln(out, clin.report())
		if o.Linger > 0 {
			fmt.Fprintf(out, "ictald demo: the ward board stays up at %s for %v (Ctrl-C ends it)\n", clin.board.url, o.Linger)
			select {
			case <-ctx.Done():
			case <-time.After(o.Linger):
			}
		}
	}
	return eval.Match(mon.Intervals(), printer.events(), o.Duration), annotated, nil
}

// startWard starts, for the monitored recording mon, the embedded MQTT
// broker and the publisher of its alerts and, with BoardListen, the ward
// board and the simulated clinician who judges mon's alerts on it (nil
// without). stop ends them, the board first; on an error, startWard has
// stopped what it started.
func (o DemoOptions) startWard(ctx context.Context, mon *synth.Patient, out io.Writer, log *slog.Logger) (pub *mqtt.Publisher, clin *demoClinician, stop func(), err error) {
	pub, boardConn, stopMQTT, err := demoMQTT(ctx, o, out, log)
	if err != nil {
		return nil, nil, nil, err
	}
	if o.BoardListen == "" {
		return pub, nil, stopMQTT, nil
	}
	b, err := startDemoBoard(ctx, o, boardConn, out, log)
	if err != nil {
		stopMQTT()
		return nil, nil, nil, err
	}
	clin = &demoClinician{ctx: ctx, board: b, seizures: mon.Intervals(), out: out, changed: make(chan struct{})}
	if o.clinicianBlind {
		clin.seizures = nil
	}
	return pub, clin, func() { b.stop(); stopMQTT() }, nil
}

// forwardDemoLabels forwards the feedback pub receives to mp, each label
// handed over counted by clin (when not nil), until stop is called.
// stop waits for the forwarding to end; calling it again does nothing.
func forwardDemoLabels(ctx context.Context, pub *mqtt.Publisher, mp *pipeline.Pipeline, clin *demoClinician, log *slog.Logger) (stop func()) {
	fctx, cancel := context.WithCancel(ctx)
	forwarded := make(chan struct{})
	var seen interface{ labelled() }
	if clin != nil {
		seen = clin
	}
	go func() {
		defer close(forwarded)
		forwardLabels(fctx, pub, mp, log, seen)
	}()
	return func() { cancel(); <-forwarded }
}

// refuseLabels answers every feedback message pub receives with a
// refusal that gives reason, until ctx is done.
func refuseLabels(ctx context.Context, pub *mqtt.Publisher, reason string) {
	for {
		select {
		case <-ctx.Done():
			return
		case l, ok := <-pub.Labels():
			if !ok {
				return
			}
			a := alert.AckOf(l)
			a.Reason, a.At = reason, time.Now().UTC()
			pub.Ack(a)
		}
	}
}

// seizureCounts returns the number of seizures among ivs and the number
// of reference events SzCORE scores them as: seizures less than 90 s
// apart are one event, one longer than 300 s is several.
func seizureCounts(ivs []acquire.Interval, d time.Duration) (annotated, scored int) {
	ref := eval.FromIntervals(ivs)
	return len(ref), len(eval.Events(ref, nil, d, eval.DefaultParams()).Seizures)
}

// seizureWords says how many seizures there are and, when SzCORE scores
// them as another number of events, why.
func seizureWords(annotated, scored int) string {
	s := fmt.Sprintf("%d seizures", annotated)
	if annotated == 1 {
		s = "1 seizure"
	}
	switch {
	case scored < annotated:
		s += fmt.Sprintf(" (scored as %d: SzCORE counts seizures less than 90 s apart as one)", scored)
	case scored > annotated:
		s += fmt.Sprintf(" (scored as %d: SzCORE splits a seizure longer than 300 s)", scored)
	}
	return s
}

// printSummary prints the demo's scores and each seizure's fate.
// annotated is the number of seizures in the recording, which SzCORE may
// score as another number of events.
func printSummary(out io.Writer, sum eval.Summary, annotated int) {
	fmt.Fprintf(out, "summary: %s, %d detected, %d missed, %d false alarms (SzCORE scoring: sensitivity %s, precision %s, F1 %s, %.1f false alarms per 24 h, median delay %.1fs)\n",
		seizureWords(annotated, len(sum.Seizures)), sum.Detected, len(sum.Seizures)-sum.Detected, sum.FalseAlarms,
		ratio(sum.Sensitivity), ratio(sum.Precision), ratio(sum.F1), sum.FalseAlarmsPerDay, sum.MedianDelay.Seconds())
	for i, r := range sum.Seizures {
		if r.Detected {
			fmt.Fprintf(out, "  seizure %d  %s–%s  detected, delay %.1fs\n", i+1, clock(r.Start), clock(r.End), r.Delay.Seconds())
		} else {
			fmt.Fprintf(out, "  seizure %d  %s–%s  MISSED\n", i+1, clock(r.Start), clock(r.End))
		}
	}
}

// ratio formats a score in [0, 1], "n/a" when undefined (NaN).
func ratio(v float64) string {
	if v != v {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", v)
}

// clock formats an offset as h:mm:ss.
func clock(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
}

// syncWriter serialises writes; fmt.Fprintf makes one Write per line.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// printer is a Sink that prints alerts, event ends and state changes for
// a person, and keeps the events (an alert.EventLog) for the summary.
type printer struct {
	mu  sync.Mutex
	w   io.Writer
	log alert.EventLog
	// quietStatus leaves the changes of state to the MQTT subscriber,
	// which prints each as it arrives: one line per change.
	quietStatus bool
}

func (p *printer) Alert(e *alert.Event) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log.Alert(e)
	_, err := fmt.Fprintf(p.w, "  %s  SEIZURE ALERT  onset %s  score %.2f  channels %s  id %s\n",
		clock(e.DetectedOffset), clock(e.OnsetOffset), e.Score, strings.Join(e.Channels, " "), e.ID)
	return err
}

func (p *printer) EventEnd(e *alert.Event) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log.EventEnd(e)
	_, err := fmt.Fprintf(p.w, "  %s  event ended    onset %s  end %s  peak score %.2f\n", clock(e.EndOffset), clock(e.OnsetOffset), clock(e.EndOffset), e.Score)
	return err
}

func (p *printer) Status(s alert.Status) error {
	if p.quietStatus {
		return nil
	}
	_, err := fmt.Fprintf(p.w, "  status %s (%s)\n", s.State, s.Reason)
	return err
}

func (p *printer) events() []alert.Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]alert.Event(nil), p.log.Events()...)
}
