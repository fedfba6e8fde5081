package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/journal"
	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/pipeline"
	"github.com/ictal/ictal/internal/record"
)

// Options are what the caller of Run adds to the configuration.
type Options struct {
	// Sinks receive everything besides the configured JSON-lines output.
	Sinks []alert.Sink
	// Ready is called when the source and the model are up.
	Ready func()
	// Window is called after every window with the pipeline's counters
	// (systemd's watchdog keep-alive and STATUS line).
	Window func(pipeline.Stats)
	// Reload delivers configurations re-read while running (SIGHUP: the
	// owner re-reads the file and sends it). Run resolves each one's
	// decision rule as it resolved its own at start (pipelineConfig: the
	// model's rule where [decision] leaves the default) and hands it to
	// the pipeline, which applies it; the other settings need a restart.
	Reload <-chan *Config
	// Program names the program and its version in the checkpoints'
	// metadata ("ictald v1.2.3"); empty means "ictald".
	Program string
	// MetricsListening, when set, is called with the metrics endpoint's
	// address once it listens (metrics.listen with port 0 picks one).
	MetricsListening func(addr string)
}

// Run runs the daemon until ctx is done or the source ends, then writes a
// final checkpoint. It returns an error when it could not start or the
// source failed. It starts with cfg.Check, the checks `ictald check` makes.
func Run(ctx context.Context, cfg *Config, log *slog.Logger, opt Options) (err error) {
	if err := cfg.Check(log); err != nil {
		return err
	}
	src, err := OpenSource(ctx, cfg.Source, log)
	if err != nil {
		return err
	}
	defer src.Close()
	info := src.Info()
	fcfg, err := cfg.FeaturesConfig()
	if err != nil {
		return err
	}
	model, meta, err := modelFor(cfg, fcfg, info, opt.Program, log)
	if err != nil {
		return err
	}
	out, err := openOutputs(ctx, cfg, opt, log)
	if err != nil {
		return err
	}
	defer out.close()
	hooks := pipeline.Hooks{Ready: opt.Ready, Window: opt.Window}
	met, stopMetrics := startMetrics(ctx, cfg, out.pub, opt, log)
	defer stopMetrics()
	if met != nil {
		hooks.Window = bothWindows(opt.Window, met.Window)
		if out.rec != nil {
			met.SetRecorder(out.rec)
		}
	}
	var ckpt *checkpointer
	if cfg.Checkpoint.Path != "" {
		ckpt = &checkpointer{path: cfg.Checkpoint.Path, meta: meta, log: log}
		hooks.Checkpoint = ckpt.write
	}
	pc := pipelineConfig(cfg, meta)
	if opt.Reload != nil {
		rules := make(chan alert.DetectorConfig, 1)
		pc.Rules = rules
		rctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go relayRules(rctx, opt.Reload, rules, meta)
	}
	p, err := pipeline.New(src, fcfg, model, pc, out.sinks, hooks, log)
	if err != nil {
		return err
	}
	if ckpt != nil {
		ckpt.p = p
	}
	if out.pub != nil {
		fctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go forwardLabels(fctx, out.pub, p, log, nil)
	}
	rule := pc.Detector
	if d, err := alert.NewDetector(rule); err == nil { // the pipeline's: the defaults filled in
		rule = d.Config()
	}
	log.Info("running", slog.String("source", cfg.Source.Type), slog.Int("channels", len(info.Channels)),
		slog.Float64("rate", info.Rate), slog.Int("features", p.Dim()), slog.String("site", cfg.Site.Site), slog.String("bed", cfg.Site.Bed),
		slog.Float64("threshold", rule.Threshold), slog.Int("k", rule.K), slog.Int("n", rule.N))
	err = p.Run(ctx)
	st := p.Stats()
	log.Info("stopped", slog.Int64("frames", st.Frames), slog.Int64("windows", st.Windows), slog.Int64("usable", st.Usable),
		slog.Int64("events", st.Events), slog.Int64("learned_pos", st.LearnedPos), slog.Int64("learned_neg", st.LearnedNeg),
		slog.Int64("labelled_agreed", st.Agreed), slog.Int64("checkpoints", st.Checkpoints), slog.Int64("checkpoint_errors", st.CheckpointErrs))
	return err
}

// pipelineConfig is the pipeline's configuration for cfg and a model
// described by meta: cfg's, with a per-channel model's scoring, and its
// decision rule where [decision] leaves the threshold, or k and n, to
// their defaults (modelfile.Meta.Configure). Run builds the pipeline with
// it and resolves every reloaded rule with it (relayRules), so that a
// reload resolves the rule exactly as the start did: an unchanged file
// keeps the day-one model's 0.787 and 5 of 6.
func pipelineConfig(cfg *Config, meta modelfile.Meta) pipeline.Config {
	return meta.Configure(cfg.PipelineConfig())
}

// relayRules hands the pipeline, on rules, the decision rule of every
// configuration reload delivers, resolved by pipelineConfig for the
// model meta describes, until ctx is done. A rule the pipeline has not
// taken yet is replaced by the newer one.
func relayRules(ctx context.Context, reload <-chan *Config, rules chan alert.DetectorConfig, meta modelfile.Meta) {
	for {
		var cfg *Config
		select {
		case <-ctx.Done():
			return
		case cfg = <-reload:
		}
		select {
		case <-rules:
		default:
		}
		rules <- pipelineConfig(cfg, meta).Detector
	}
}

// modelFor loads the model for features fcfg of a source described by
// info (LoadModel: the checkpoint, else the bootstrap model, else a new
// one), logs which, and returns it with the metadata its checkpoints are
// written with, naming program (default "ictald").
func modelFor(cfg *Config, fcfg features.Config, info acquire.Info, program string, log *slog.Logger) (classifier.Model, modelfile.Meta, error) {
	want, err := modelfile.Describe(fcfg, info)
	if err != nil {
		return nil, modelfile.Meta{}, err
	}
	model, meta, from, err := LoadModel(cfg.Checkpoint.Path, cfg.Classifier.Model, cfg.ClassifierConfig(want.Features.Dim), want, log)
	if err != nil {
		return nil, modelfile.Meta{}, err
	}
	meta.Program = program
	if meta.Program == "" {
		meta.Program = "ictald"
	}
	mc := model.Config()
	log.Info("model", slog.String("from", from), slog.String("algorithm", string(mc.Algorithm)), slog.String("learner", string(mc.Learner)),
		slog.Int("features", mc.Features), slog.Int("members", mc.Members))
	return model, meta, nil
}

// outputs are the sinks Run feeds: Options.Sinks, then the MQTT publisher
// (pub, nil without [mqtt]), the JSON-lines output and the session
// recorder (rec), each when configured.
type outputs struct {
	sinks []alert.Sink
	pub   *mqtt.Publisher
	rec   *record.Recorder
	stops []func() // in the order opened
}

// openOutputs starts the outputs cfg configures besides opt.Sinks. On an
// error it has closed those it had opened.
func openOutputs(ctx context.Context, cfg *Config, opt Options, log *slog.Logger) (*outputs, error) {
	o := &outputs{sinks: append([]alert.Sink(nil), opt.Sinks...)}
	pub, stopMQTT, err := startMQTT(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	o.stops = append(o.stops, stopMQTT)
	if pub != nil {
		o.pub = pub
		o.sinks = append(o.sinks, pub)
	}
	j, err := jsonLines(cfg.Output)
	if err != nil {
		o.close()
		return nil, err
	}
	if j != nil {
		o.stops = append(o.stops, func() { j.Close() }) // flushes
		o.sinks = append(o.sinks, j)
	}
	rec, err := openRecorder(cfg, opt.Program, log)
	if err != nil {
		o.close()
		return nil, err
	}
	if rec != nil {
		o.rec = rec
		o.stops = append(o.stops, func() { rec.Close() }) // the stop annotation, the file closed
		o.sinks = append(o.sinks, rec)
	}
	return o, nil
}

// close closes the outputs in the reverse order of opening: the recorder
// first, the MQTT connection last.
func (o *outputs) close() {
	for i := len(o.stops) - 1; i >= 0; i-- {
		o.stops[i]()
	}
}

// checkpointer writes the pipeline's checkpoints (Hooks.Checkpoint) to
// path with meta, stamped with the time written and, for a per-channel
// model, carrying the patient's baseline from p.
type checkpointer struct {
	path string
	meta modelfile.Meta
	p    *pipeline.Pipeline // set once the pipeline is built
	log  *slog.Logger
}

// write writes m's checkpoint.
func (c *checkpointer) write(m classifier.Model) error {
	start := time.Now()
	c.meta.Created = start.UTC()
	if c.meta.PerChannel() { // the patient's baseline goes with the model
		sc := *c.meta.Scoring
		sc.Baseline = c.p.Baseline()
		c.meta.Scoring = &sc
	}
	if err := modelfile.WriteFile(c.path, c.meta, m); err != nil {
		return err
	}
	c.log.Debug("checkpoint written", slog.String("path", c.path), slog.Duration("took", time.Since(start)))
	return nil
}

// ParseLevel maps a log.level value to a slog level (info by default).
func ParseLevel(s string) slog.Level {
	switch s {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelInfo
}

// NewLogger builds the daemon's logger on stderr (NewLoggerTo).
func NewLogger(format string, level *slog.LevelVar) *slog.Logger {
	return NewLoggerTo(os.Stderr, format, level)
}

// NewLoggerTo builds the daemon's logger on w in log.format ("text" or
// "json"). When w is standard error connected to systemd's journal, each
// line carries its syslog priority and no time (internal/journal).
func NewLoggerTo(w io.Writer, format string, level slog.Leveler) *slog.Logger {
	return slog.New(journal.NewHandler(w, format, &slog.HandlerOptions{Level: level}))
}

// jsonLines is the configured JSON-lines output: none, standard output
// ("-") or a file appended to.
func jsonLines(o OutputConfig) (*alert.JSONLines, error) {
	switch o.JSONL {
	case "":
		return nil, nil
	case "-":
		return alert.NewJSONLines(os.Stdout, nil, o.Scores), nil
	}
	f, err := os.OpenFile(o.JSONL, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("output.jsonl: %w", err)
	}
	return alert.NewJSONLines(f, f, o.Scores), nil
}
