package metrics

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/synth"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/metrics/metricstest"
	"github.com/ictal/ictal/internal/pipeline"
)

// fakeClock is a clock the test moves; safe for the pipeline's goroutine
// and the HTTP server's.
type fakeClock struct{ ns atomic.Int64 }

func newClock() *fakeClock {
	c := &fakeClock{}
	c.ns.Store(time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *fakeClock) now() time.Time      { return time.Unix(0, c.ns.Load()) }
func (c *fakeClock) add(d time.Duration) { c.ns.Add(int64(d)) }
func (c *fakeClock) set(t time.Time)     { c.ns.Store(t.UnixNano()) }
func (c *fakeClock) since0(d time.Duration) time.Time {
	return time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC).Add(d)
}

func TestHealth(t *testing.T) {
	tests := []struct {
		name     string
		windowAt time.Duration // when a window was reported, after the start; <0: none
		now      time.Duration // when /healthz is asked
		ok       bool
		reason   string
	}{
		{"starting", -1, 10 * time.Second, true, "starting: no window yet"},
		{"no window since the start", -1, 31 * time.Second, false, "stalled: no window in the 31s since the start"},
		{"running", 40 * time.Second, 41 * time.Second, true, "ok: 7 windows, 5 usable, lag 250ms"},
		{"running, at the limit", 40 * time.Second, 70 * time.Second, true, "ok: 7 windows"},
		{"stalled", 40 * time.Second, 71 * time.Second, false, "stalled: no window for 31s (after 7 windows)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			m := newAt(Options{}, c.now)
			if tt.windowAt >= 0 {
				c.set(c.since0(tt.windowAt))
				m.Window(pipeline.Stats{Windows: 7, Usable: 5, Lag: 250 * time.Millisecond})
			}
			c.set(c.since0(tt.now))
			ok, reason := m.Health()
			if ok != tt.ok || !strings.HasPrefix(reason, tt.reason) {
				t.Errorf("Health() = %v %q, want %v %q", ok, reason, tt.ok, tt.reason)
			}
			srv := httptest.NewServer(m.Handler())
			defer srv.Close()
			want := http.StatusOK
			if !tt.ok {
				want = http.StatusServiceUnavailable
			}
			if code, body := metricstest.Get(t, srv.URL+"/healthz"); code != want || !strings.HasPrefix(body, tt.reason) {
				t.Errorf("GET /healthz: %d %q, want %d %q", code, body, want, tt.reason)
			}
		})
	}
}

// Counting is the pipeline's Hooks.Window: it must not allocate.
func TestWindowAllocatesNothing(t *testing.T) {
	m := New(Options{})
	s := pipeline.Stats{Windows: 1}
	if n := testing.AllocsPerRun(100, func() { s.Windows++; m.Window(s) }); n != 0 {
		t.Errorf("Window allocates %v times", n)
	}
}

// fakeMQTT is a publisher's counters.
type fakeMQTT struct {
	st        mqtt.Stats
	connected bool
}

func (f *fakeMQTT) Stats() mqtt.Stats { return f.st }
func (f *fakeMQTT) Connected() bool   { return f.connected }

// fakeRecorder is a session recorder.
type fakeRecorder struct {
	n   uint64
	dir string
}

func (f *fakeRecorder) RecordedBytes() uint64 { return f.n }
func (f *fakeRecorder) Dir() string           { return f.dir }

// Every counter of the pipeline, the publisher, the checkpoint and the
// recorder reaches its series.
func TestCollectMapsEveryCounter(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "model.ckpt")
	if err := os.WriteFile(ckpt, []byte("model"), 0o600); err != nil {
		t.Fatal(err)
	}
	written := time.Date(2026, 11, 26, 7, 55, 0, 0, time.UTC)
	os.Chtimes(ckpt, written, written)
	q := &fakeMQTT{connected: true, st: mqtt.Stats{Queued: 3, Published: 40, Acked: 38, DroppedScores: 5, DroppedStatus: 1,
		DroppedOffline: 7, Labels: 2, DroppedLabels: 1, RejectedFeedback: 4, StoreDegraded: true, StoreHeld: 6, StoreDropped: 9}}
	c := newClock()
	m := newAt(Options{Version: "v1.2.3", Checkpoint: ckpt, Dirs: []Dir{{"mqtt_store", dir}}, MQTT: q}, c.now)
	m.SetRecorder(&fakeRecorder{n: 123456, dir: dir})
	m.Window(pipeline.Stats{Frames: 25600, Gaps: 2, Windows: 99, Usable: 90, SignalLost: 3, ElectrodeOff: 4, Artifact: 2, Partial: 5,
		Events: 2, Suppressed: 1, LabelsApplied: 3, LabelsUnused: 1, LearnedPos: 20, LearnedNeg: 50, Agreed: 7, Evicted: 8,
		Checkpoints: 4, CheckpointErrs: 1, ModelErrors: 1, SinkErrors: 2, SignalTime: 100 * time.Second, Lag: -1500 * time.Millisecond,
		Buffered: 11, BufferCap: 3601})
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	s := metricstest.Scrape(t, srv.URL)
	want := map[string]float64{
		`ictal_build_info{version="v1.2.3"}`:                                        1,
		`ictal_frames_total`:                                                        25600,
		`ictal_gaps_total`:                                                          2,
		`ictal_windows_total{quality="usable"}`:                                     90,
		`ictal_windows_total{quality="signal_lost"}`:                                3,
		`ictal_windows_total{quality="electrode_off"}`:                              4,
		`ictal_windows_total{quality="artifact"}`:                                   2,
		`ictal_windows_partial_total`:                                               5,
		`ictal_signal_seconds_total`:                                                100,
		`ictal_pipeline_lag_seconds`:                                                -1.5,
		`ictal_last_window_timestamp_seconds`:                                       float64(c.now().Unix()),
		`ictal_pipeline_healthy`:                                                    1,
		`ictal_events_total`:                                                        2,
		`ictal_events_suppressed_total`:                                             1,
		`ictal_labels_total{result="applied"}`:                                      3,
		`ictal_labels_total{result="refused"}`:                                      1,
		`ictal_model_updates_total{label="seizure"}`:                                20,
		`ictal_model_updates_total{label="non_seizure"}`:                            50,
		`ictal_labelled_windows_agreed_total`:                                       7,
		`ictal_late_label_evicted_windows_total`:                                    8,
		`ictal_late_label_buffer_windows`:                                           11,
		`ictal_late_label_buffer_capacity_windows`:                                  3601,
		`ictal_model_errors_total`:                                                  1,
		`ictal_sink_errors_total`:                                                   2,
		`ictal_checkpoints_total`:                                                   4,
		`ictal_checkpoint_failures_total`:                                           1,
		`ictal_checkpoint_last_success_timestamp_seconds`:                           float64(written.Unix()),
		`ictal_recording_bytes_total`:                                               123456,
		`ictal_mqtt_connected`:                                                      1,
		`ictal_mqtt_queue_messages`:                                                 3,
		`ictal_mqtt_published_messages_total`:                                       40,
		`ictal_mqtt_acked_messages_total`:                                           38,
		`ictal_mqtt_dropped_messages_total{kind="score",reason="queue_full"}`:       5,
		`ictal_mqtt_dropped_messages_total{kind="status",reason="queue_full"}`:      1,
		`ictal_mqtt_dropped_messages_total{kind="score",reason="disconnected"}`:     7,
		`ictal_mqtt_dropped_messages_total{kind="qos1",reason="store_memory_full"}`: 9,
		`ictal_mqtt_feedback_messages_total{result="delivered"}`:                    2,
		`ictal_mqtt_feedback_messages_total{result="dropped"}`:                      1,
		`ictal_mqtt_feedback_messages_total{result="rejected"}`:                     4,
		`ictal_mqtt_store_degraded`:                                                 1,
		`ictal_mqtt_store_held_messages`:                                            6,
	}
	for series, v := range want {
		if got, ok := s[series]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", series, got, ok, v)
		}
	}
	for _, d := range []string{"checkpoint", "mqtt_store", "recording"} {
		if v := s[`ictal_disk_free_bytes{dir="`+d+`",path="`+dir+`"}`]; v <= 0 {
			t.Errorf("disk free of %s: %v", d, v)
		}
	}
	if s["process_resident_memory_bytes"] <= 0 || s["go_goroutines"] <= 0 {
		t.Error("no process or Go runtime metrics")
	}
}

// Without checkpoints, MQTT or a recorder, their series are absent rather
// than zero: a zero would read as "never written" or "disconnected".
func TestCollectLeavesOutWhatIsNotConfigured(t *testing.T) {
	m := New(Options{})
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	for series := range metricstest.Scrape(t, srv.URL) {
		for _, absent := range []string{"ictal_checkpoint", "ictal_mqtt_", "ictal_recording_", "ictal_disk_free_bytes", "ictal_last_window_timestamp_seconds"} {
			if strings.HasPrefix(series, absent) {
				t.Errorf("%s exported", series)
			}
		}
	}
}

// promlint's checks of Prometheus' naming conventions: counters end in
// _total, units are base units named in the metric, help on every one.
func TestMetricNamesFollowConventions(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "model.ckpt")
	os.WriteFile(ckpt, nil, 0o600)
	m := New(Options{Checkpoint: ckpt, MQTT: &fakeMQTT{}})
	m.SetRecorder(&fakeRecorder{dir: dir})
	m.Window(pipeline.Stats{})
	problems, err := testutil.CollectAndLint(&collector{m: m})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

// stepSource serves a simulated patient's frames as the test releases
// them, and blocks in between: a stalled amplifier.
type stepSource struct {
	*synth.Patient
	grant   chan int      // frames release lets through
	waiting chan struct{} // receives when ReadFrame blocks, every frame granted read
	ctx     context.Context
	left    int // frames granted and not yet read (the reader's own)
}

func (s *stepSource) ReadFrame(f *acquire.Frame) error {
	for s.left == 0 {
		select {
		case s.waiting <- struct{}{}:
		case <-s.ctx.Done():
			return io.EOF
		}
		select {
		case n := <-s.grant:
			s.left += n
		case <-s.ctx.Done():
			return io.EOF
		}
	}
	s.left--
	return s.Patient.ReadFrame(f)
}

// release lets n more frames through and waits until the pipeline has
// processed them all and asks for the next: a grant is one message, so
// the reader cannot find it half given and report itself blocked early.
func (s *stepSource) release(n int) {
	s.grant <- n
	<-s.waiting
}

// A real pipeline, scraped over HTTP: the counters move between two
// scrapes as frames arrive; when the source blocks and the (test's) clock
// moves past StallAfter, /healthz says 503; when frames flow again, 200.
func TestScrapeRunningPipelineAndStall(t *testing.T) {
	cfg := synth.DefaultConfig()
	cfg.Channels, cfg.Duration, cfg.Seizures, cfg.Seed = 4, time.Minute, 0, 1
	patient, err := synth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	src := &stepSource{Patient: patient, grant: make(chan int), waiting: make(chan struct{}), ctx: ctx}
	clock := newClock()
	m := newAt(Options{StallAfter: 30 * time.Second}, clock.now)
	fcfg := features.Config{}
	model := newModel(t, src, fcfg)
	p, err := pipeline.New(src, fcfg, model, pipeline.Config{}, []alert.Sink{alert.NewJSONLines(io.Discard, nil, false)}, pipeline.Hooks{Window: m.Window}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()

	rate := int(src.Info().Rate)
	<-src.waiting
	src.release(5 * rate) // 5 s: windows ending at 2, 3, 4, 5 s
	first := metricstest.Scrape(t, srv.URL)
	clock.add(3 * time.Second)
	src.release(3 * rate) // 3 s more: 3 more windows
	second := metricstest.Scrape(t, srv.URL)
	moved := []struct {
		series      string
		first, then float64
	}{
		{"ictal_frames_total", float64(5 * rate), float64(8 * rate)},
		{"ictal_signal_seconds_total", 5, 8},
		{"ictal_last_window_timestamp_seconds", float64(clock.since0(0).Unix()), float64(clock.since0(3 * time.Second).Unix())},
	}
	for _, mv := range moved {
		if first[mv.series] != mv.first || second[mv.series] != mv.then {
			t.Errorf("%s: %v then %v, want %v then %v", mv.series, first[mv.series], second[mv.series], mv.first, mv.then)
		}
	}
	windows := func(s metricstest.Samples) float64 {
		var n float64
		for _, q := range []string{"usable", "signal_lost", "electrode_off", "artifact"} {
			n += s[`ictal_windows_total{quality="`+q+`"}`]
		}
		return n
	}
	if windows(first) != 4 || windows(second) != 7 {
		t.Errorf("windows %v then %v, want 4 then 7", windows(first), windows(second))
	}
	if code, body := metricstest.Get(t, srv.URL+"/healthz"); code != http.StatusOK {
		t.Errorf("running: /healthz %d %s", code, body)
	}

	// The source blocks; 31 s pass without a window.
	clock.add(31 * time.Second)
	if code, body := metricstest.Get(t, srv.URL+"/healthz"); code != http.StatusServiceUnavailable || !strings.HasPrefix(body, "stalled: no window for 31s") {
		t.Errorf("stalled: /healthz %d %s", code, body)
	}
	if h := metricstest.Scrape(t, srv.URL)["ictal_pipeline_healthy"]; second["ictal_pipeline_healthy"] != 1 || h != 0 {
		t.Errorf("ictal_pipeline_healthy %v while running, %v stalled; want 1, 0", second["ictal_pipeline_healthy"], h)
	}
	src.release(rate)
	if code, body := metricstest.Get(t, srv.URL+"/healthz"); code != http.StatusOK {
		t.Errorf("flowing again: /healthz %d %s", code, body)
	}
}

// newModel returns a UOB model sized for the features fcfg extracts from
// src's channels.
func newModel(t *testing.T, src acquire.Source, fcfg features.Config) classifier.Model {
	t.Helper()
	info := src.Info()
	fcfg.Channels, fcfg.Rate = len(info.Channels), info.Rate
	dim, err := fcfg.Dim()
	if err != nil {
		t.Fatal(err)
	}
	m, err := classifier.New(classifier.Config{Algorithm: "UOB", Features: dim, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
