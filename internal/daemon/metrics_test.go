package daemon

import (
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/internal/metrics/metricstest"
	"github.com/ictal/ictal/internal/pipeline"
)

// TestRunServesMetricsAndHealth runs the daemon on a simulated patient
// with the embedded broker and scrapes it over HTTP: the counters move
// between two scrapes, the MQTT connection and the checkpoint show, and
// /healthz says 200 while windows flow.
func TestRunServesMetricsAndHealth(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "model.ckpt")
	cfg, err := ParseConfig(simulatedPatient+`
[checkpoint]
path = "`+ckpt+`"
every = "1s"
[mqtt]
broker = "embedded"
listen = "127.0.0.1:0"
[metrics]
listen = "127.0.0.1:0"
`, "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	r := startRun(t, cfg, Options{Program: "ictald test", MetricsListening: func(a string) { addr <- a }})
	logs, done := r.logs, r.done
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case err := <-done:
		t.Fatalf("the daemon stopped: %v\n%s", err, logs.String())
	}
	windows := func(s metricstest.Samples) float64 {
		return s[`ictal_windows_total{quality="usable"}`] + s[`ictal_windows_total{quality="signal_lost"}`] +
			s[`ictal_windows_total{quality="electrode_off"}`] + s[`ictal_windows_total{quality="artifact"}`]
	}
	// scrapeUntil scrapes until ok holds; the daemon ending fails the test.
	scrapeUntil := func(what string, ok func(metricstest.Samples) bool) metricstest.Samples {
		for {
			s := metricstest.Scrape(t, base)
			if ok(s) {
				return s
			}
			select {
			case err := <-done:
				t.Fatalf("the daemon stopped waiting for %s: %v\n%s", what, err, logs.String())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	first := scrapeUntil("a window and the broker", func(s metricstest.Samples) bool {
		return windows(s) > 0 && s["ictal_mqtt_connected"] == 1
	})
	// The success timestamp is the checkpoint file's modification time,
	// there as soon as the file is written; the counters reach the
	// metrics with the next window's stats: wait for both.
	second := scrapeUntil("more windows and a checkpoint", func(s metricstest.Samples) bool {
		_, ok := s["ictal_checkpoint_last_success_timestamp_seconds"]
		return windows(s) > windows(first) && ok && s["ictal_checkpoints_total"] > 0
	})
	for _, series := range []string{"ictal_frames_total", "ictal_signal_seconds_total", "ictal_last_window_timestamp_seconds", "ictal_mqtt_published_messages_total"} {
		if !(second[series] > first[series]) {
			t.Errorf("%s did not move: %v then %v", series, first[series], second[series])
		}
	}
	for _, series := range []string{`ictal_build_info{version="ictald test"}`, "ictal_late_label_buffer_capacity_windows", "ictal_checkpoints_total",
		`ictal_disk_free_bytes{dir="checkpoint",path="` + dir + `"}`, `ictal_disk_free_bytes{dir="mqtt_store",path="` + filepath.Join(dir, "mqtt") + `"}`} {
		if !(second[series] > 0) {
			t.Errorf("%s = %v", series, second[series])
		}
	}
	// Played at 20× real time, the signal runs ahead of the clock.
	if lag, ok := second["ictal_pipeline_lag_seconds"]; !ok || lag >= 0 {
		t.Errorf("lag %v (present %v), want negative at 20× real time", lag, ok)
	}
	if code, body := metricstest.Get(t, base+"/healthz"); code != http.StatusOK || !strings.HasPrefix(body, "ok: ") {
		t.Errorf("/healthz while running: %d %s", code, body)
	}
	r.stop(t)
	if !strings.Contains(logs.String(), `msg="metrics listening" url=http://127.0.0.1:`) {
		t.Errorf("the endpoint is not logged:\n%s", logs.String())
	}
}

// TestRunDetectsWhileTheMetricsPortIsTaken: with metrics.listen held by
// another process, the daemon still runs the pipeline (it is a monitor
// first), logs an ERROR, and serves the metrics, counted from the start,
// once the port is free.
func TestRunDetectsWhileTheMetricsPortIsTaken(t *testing.T) {
	defer func(d time.Duration) { metricsRetry = d }(metricsRetry)
	metricsRetry = 20 * time.Millisecond
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(simulatedPatient+"[metrics]\nlisten = \""+held.Addr().String()+"\"\n", "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	windows := make(chan struct{}, 3)
	r := startRun(t, cfg, Options{
		MetricsListening: func(a string) { addr <- a },
		Window: func(pipeline.Stats) {
			select {
			case windows <- struct{}{}:
			default: // counted enough; never hold the pipeline up
			}
		},
	})
	for range 3 {
		select {
		case <-windows:
		case err := <-r.done:
			t.Fatalf("the daemon stopped: %v\n%s", err, r.logs)
		}
	}
	if !strings.Contains(r.logs.String(), `level=ERROR msg="metrics: cannot listen; detection goes on`) {
		t.Errorf("no ERROR about the port:\n%s", r.logs)
	}
	select {
	case a := <-addr:
		t.Fatalf("listening on %s while the port is held", a)
	default:
	}
	held.Close()
	base := "http://" + <-addr
	if code, body := metricstest.Get(t, base+"/healthz"); code != http.StatusOK || !strings.HasPrefix(body, "ok: ") {
		t.Errorf("/healthz once listening: %d %s", code, body)
	}
	r.stop(t)
}
