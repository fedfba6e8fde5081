package daemon

import (
	"context"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/internal/metrics"
	"github.com/ictal/ictal/internal/pipeline"
)

// MetricsConfig configures the Prometheus endpoint and health check
// (internal/metrics).
type MetricsConfig struct {
	// Listen is host:port for GET /metrics and GET /healthz; empty: off.
	// ictald.service lets the daemon reach localhost only: keep it on a
	// loopback address unless a drop-in allows the Prometheus server.
	Listen string `toml:"listen"`
}

// validateMetrics checks the [metrics] section.
func (c *Config) validateMetrics() error {
	if c.Metrics.Listen == "" {
		return nil
	}
	if _, port, err := net.SplitHostPort(c.Metrics.Listen); err != nil || port == "" {
		return fieldErr("metrics.listen", "%q: want host:port, e.g. 127.0.0.1:9851", c.Metrics.Listen)
	}
	return nil
}

// metricsRetry is how often startMetrics tries again to listen on an
// address it could not.
var metricsRetry = 10 * time.Second

// startMetrics listens on metrics.listen and serves the metrics until
// the returned stop function is called (nil, and a stop that does
// nothing, when metrics are off). pub may be nil (no MQTT). An address it
// cannot listen on (another process holds the port) does not stop the
// daemon, whose job is detection: it logs an ERROR and tries again every
// metricsRetry, counting meanwhile, so the metrics are whole once served.
func startMetrics(ctx context.Context, cfg *Config, pub *mqtt.Publisher, opt Options, log *slog.Logger) (*metrics.Metrics, func()) {
	if cfg.Metrics.Listen == "" {
		return nil, func() {}
	}
	o := metrics.Options{Version: opt.Program, Checkpoint: cfg.Checkpoint.Path}
	if pub != nil {
		o.MQTT = pub
		o.Dirs = append(o.Dirs, metrics.Dir{Name: "mqtt_store", Path: pub.Config().StoreDir})
	}
	m := metrics.New(o)
	ln, err := net.Listen("tcp", cfg.Metrics.Listen)
	if err != nil {
		log.Error("metrics: cannot listen; detection goes on without /metrics and /healthz, listening is tried again",
			slog.String("listen", cfg.Metrics.Listen), slog.Duration("every", metricsRetry), slog.Any("err", err))
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ln == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(metricsRetry):
			}
			ln, err = net.Listen("tcp", cfg.Metrics.Listen)
		}
		log.Info("metrics listening", slog.String("url", "http://"+ln.Addr().String()+"/metrics"))
		if opt.MetricsListening != nil {
			opt.MetricsListening(ln.Addr().String())
		}
		if err := metrics.Serve(ctx, ln, m.Handler()); err != nil {
			log.Error("metrics: serving stopped", slog.Any("err", err))
		}
	}()
	return m, func() { cancel(); wg.Wait() }
}

// bothWindows calls a, if set, then b after every window.
func bothWindows(a, b func(pipeline.Stats)) func(pipeline.Stats) {
	if a == nil {
		return b
	}
	return func(s pipeline.Stats) { a(s); b(s) }
}
