package metrics

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/internal/pipeline"
)

// DefaultStallAfter is how long /healthz waits for a window before it
// reports the pipeline stalled: systemd's watchdog period (WatchdogSec= in
// ictald.service), after which the daemon is restarted anyway.
const DefaultStallAfter = 30 * time.Second

// Options configure Metrics.
type Options struct {
	// Version is exported in ictal_build_info.
	Version string
	// StallAfter is how long without a window makes /healthz fail
	// (0: DefaultStallAfter).
	StallAfter time.Duration
	// Checkpoint is the checkpoint file (checkpoint.path); its
	// modification time is the last successful checkpoint, its directory
	// has its free space exported. Empty: no checkpoints.
	Checkpoint string
	// Dirs are more directories whose free space is exported, by name
	// (the MQTT store: "mqtt_store").
	Dirs []Dir
	// MQTT is the publisher, nil without MQTT.
	MQTT MQTT
}

// Dir is a directory whose file system's free space is exported as
// ictal_disk_free_bytes{dir=Name, path=Path}.
type Dir struct{ Name, Path string }

// MQTT is what the metrics need of the MQTT publisher (*mqtt.Publisher).
type MQTT interface {
	Stats() mqtt.Stats
	Connected() bool
}

// Recorder is what a session recorder reports (SetRecorder): the bytes
// it has written since the daemon started, and the directory it writes
// to, whose free space is exported as dir="recording".
type Recorder interface {
	RecordedBytes() uint64
	Dir() string
}

// Metrics is the daemon's Prometheus registry and health check. Its Window
// method is the pipeline's Hooks.Window: it keeps a copy of the counters
// under a mutex and allocates nothing, so counting costs the hot path one
// struct copy per window; the metrics are built from that copy when
// Prometheus scrapes.
type Metrics struct {
	opt   Options
	now   func() time.Time
	start time.Time
	reg   *prometheus.Registry

	mu       sync.Mutex
	stats    pipeline.Stats
	windowAt time.Time // when the latest window was processed; zero before the first
	rec      Recorder
}

// New returns metrics for a daemon starting now.
func New(opt Options) *Metrics {
	return newAt(opt, time.Now)
}

func newAt(opt Options, now func() time.Time) *Metrics {
	if opt.StallAfter <= 0 {
		opt.StallAfter = DefaultStallAfter
	}
	m := &Metrics{opt: opt, now: now, start: now(), reg: prometheus.NewRegistry()}
	m.reg.MustRegister(&collector{m: m}, collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Window records the pipeline's counters after a window (Hooks.Window).
// It allocates nothing.
func (m *Metrics) Window(s pipeline.Stats) {
	now := m.now()
	m.mu.Lock()
	m.stats, m.windowAt = s, now
	m.mu.Unlock()
}

// SetRecorder exports a session recorder's bytes and its directory's free
// space from the next scrape on.
func (m *Metrics) SetRecorder(r Recorder) {
	m.mu.Lock()
	m.rec = r
	m.mu.Unlock()
}

// snapshot returns the latest counters, when they were reported, and the
// recorder.
func (m *Metrics) snapshot() (pipeline.Stats, time.Time, Recorder) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stats, m.windowAt, m.rec
}

// Health says whether the pipeline makes progress: a window within
// StallAfter (or, before the first window, StallAfter since the start),
// with a one-line reason either way.
func (m *Metrics) Health() (ok bool, reason string) {
	s, at, _ := m.snapshot()
	now := m.now()
	if at.IsZero() {
		waited := now.Sub(m.start)
		if waited > m.opt.StallAfter {
			return false, fmt.Sprintf("stalled: no window in the %v since the start", waited.Round(time.Second))
		}
		return true, "starting: no window yet"
	}
	if since := now.Sub(at); since > m.opt.StallAfter {
		return false, fmt.Sprintf("stalled: no window for %v (after %d windows)", since.Round(time.Second), s.Windows)
	}
	return true, fmt.Sprintf("ok: %d windows, %d usable, lag %v", s.Windows, s.Usable, s.Lag.Round(time.Millisecond))
}

// Handler serves GET /metrics (the Prometheus text format) and GET
// /healthz (200 while the pipeline makes progress, 503 when it has
// stalled; the body says why).
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		ok, reason := m.Health()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		fmt.Fprintln(w, reason)
	})
	return mux
}
