package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/journal"
	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/pipeline"
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
	// Rules delivers new decision rules (SIGHUP: the owner re-reads the
	// configuration and sends its rule); the pipeline applies them.
	Rules <-chan alert.DetectorConfig
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
	want, err := modelfile.Describe(fcfg, info)
	if err != nil {
		return err
	}
	model, meta, from, err := LoadModel(cfg.Checkpoint.Path, cfg.Classifier.Model, cfg.ClassifierConfig(want.Features.Dim), want, log)
	if err != nil {
		return err
	}
	meta.Program = opt.Program
	if meta.Program == "" {
		meta.Program = "ictald"
	}
	mc := model.Config()
	log.Info("model", slog.String("from", from), slog.String("algorithm", string(mc.Algorithm)), slog.String("learner", string(mc.Learner)),
		slog.Int("features", mc.Features), slog.Int("members", mc.Members))

	sinks := append([]alert.Sink(nil), opt.Sinks...)
	pub, stopMQTT, err := startMQTT(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stopMQTT()
	if pub != nil {
		sinks = append(sinks, pub)
	}
	if j, err := jsonLines(cfg.Output); err != nil {
		return err
	} else if j != nil {
		defer j.Close() // flushes
		sinks = append(sinks, j)
	}
	rec, err := openRecorder(cfg, opt.Program, log)
	if err != nil {
		return err
	}
	if rec != nil {
		defer rec.Close() // after Run: the stop annotation, the file closed
		sinks = append(sinks, rec)
	}
	hooks := pipeline.Hooks{Ready: opt.Ready, Window: opt.Window}
	met, stopMetrics, err := startMetrics(ctx, cfg, pub, opt, log)
	if err != nil {
		return err
	}
	defer stopMetrics()
	if met != nil {
		hooks.Window = bothWindows(opt.Window, met.Window)
		if rec != nil {
			met.SetRecorder(rec)
		}
	}
	var p *pipeline.Pipeline
	if cfg.Checkpoint.Path != "" {
		path := cfg.Checkpoint.Path
		hooks.Checkpoint = func(m classifier.Model) error {
			start := time.Now()
			meta.Created = start.UTC()
			if meta.PerChannel() { // the patient's baseline goes with the model
				sc := *meta.Scoring
				sc.Baseline = p.Baseline()
				meta.Scoring = &sc
			}
			if err := modelfile.WriteFile(path, meta, m); err != nil {
				return err
			}
			log.Debug("checkpoint written", slog.String("path", path), slog.Duration("took", time.Since(start)))
			return nil
		}
	}
	pc := cfg.PipelineConfig()
	pc.Rules = opt.Rules
	pc = meta.Configure(pc) // a per-channel model's scoring; its rule where [decision] leaves the default
	p, err = pipeline.New(src, fcfg, model, pc, sinks, hooks, log)
	if err != nil {
		return err
	}
	if pub != nil {
		fctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go forwardLabels(fctx, pub, p, log, nil)
	}
	log.Info("running", slog.String("source", cfg.Source.Type), slog.Int("channels", len(info.Channels)),
		slog.Float64("rate", info.Rate), slog.Int("features", p.Dim()), slog.String("site", cfg.Site.Site), slog.String("bed", cfg.Site.Bed))
	err = p.Run(ctx)
	st := p.Stats()
	log.Info("stopped", slog.Int64("frames", st.Frames), slog.Int64("windows", st.Windows), slog.Int64("usable", st.Usable),
		slog.Int64("events", st.Events), slog.Int64("learned_pos", st.LearnedPos), slog.Int64("learned_neg", st.LearnedNeg),
		slog.Int64("checkpoints", st.Checkpoints), slog.Int64("checkpoint_errors", st.CheckpointErrs))
	return err
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
