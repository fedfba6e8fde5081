package daemon

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
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

// TestListenAddresses: metrics.listen and mqtt.listen are refused, naming
// the key, unless they are host:port with a port in 0..65535 and a host
// that is empty, an IP address or a host name.
func TestListenAddresses(t *testing.T) {
	tests := []struct {
		addr string
		want string // "" accepted
	}{
		{"127.0.0.1:9851", ""},
		{"[::1]:0", ""},
		{"[fe80::1]:9851", ""},
		{":9851", ""},
		{"localhost:9851", ""},
		{"board-3.ward.example:9851", ""},
		{"999.999.1.1:99999", `port "99999"`},
		{"127.0.0.1:65536", `port "65536"`},
		{"127.0.0.1:http", `port "http"`},
		{"127.0.0.1:", `port ""`},
		{"9851", "want host:port"},
		{"999.999.1.1:9851", `host "999.999.1.1" is not an IP address`},
		{"10.0.0:9851", `host "10.0.0" is not an IP address`},
		{"bad_host:9851", `host "bad_host" is not an IP address`},
		{"-board:9851", `host "-board" is not an IP address`},
	}
	for _, tt := range tests {
		for _, key := range []string{"metrics.listen", "mqtt.listen"} {
			section, name, _ := strings.Cut(key, ".")
			text := "[source]\ntype = \"synth\"\n[checkpoint]\npath = \"/tmp/m\"\n[" + section + "]\n" + name + " = \"" + tt.addr + "\"\n"
			if section == "mqtt" {
				text += "broker = \"embedded\"\n"
			}
			_, err := ParseConfig(text, "ictald.toml")
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("%s = %q: %v", key, tt.addr, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), key+`: "`+tt.addr+`": `+tt.want)):
				t.Errorf("%s = %q: %v, want %s", key, tt.addr, err, tt.want)
			}
		}
	}
}

// dnsServer answers the Go resolver's queries over conn (TCP framing: a
// two-byte length before each message) with rcode, until conn closes.
func dnsServer(conn net.Conn, rcode byte) {
	defer conn.Close()
	for {
		var n [2]byte
		if _, err := io.ReadFull(conn, n[:]); err != nil {
			return
		}
		msg := make([]byte, binary.BigEndian.Uint16(n[:]))
		if _, err := io.ReadFull(conn, msg); err != nil || len(msg) < 12 {
			return
		}
		msg[2] |= 0x80        // a response
		msg[3] = 0x80 | rcode // recursion available, the rcode
		if _, err := conn.Write(append(n[:], msg...)); err != nil {
			return
		}
	}
}

// TestCheckResolvesListenHosts: Check, which run calls, refuses a listen
// address whose host name does not exist (the DNS says so: NXDOMAIN),
// naming the key, and accepts one it cannot resolve for now (no DNS
// server answers, the ward network down at boot) with a warning, for run
// keeps monitoring and tries to listen again. The resolver is Go's own,
// talking to a DNS server in the test through a pipe: nothing leaves the
// process.
func TestCheckResolvesListenHosts(t *testing.T) {
	defer func(f func(context.Context, string) ([]string, error)) { lookupHost = f }(lookupHost)
	tests := []struct {
		name string
		dial func() (net.Conn, error)
		want string // the error; "" accepted with a warning
	}{
		{"name that does not exist", func() (net.Conn, error) {
			client, server := net.Pipe()
			go dnsServer(server, 3) // NXDOMAIN
			return client, nil
		}, `metrics.listen: "no-such-board.invalid:9851": host "no-such-board.invalid" does not resolve`},
		{"no DNS server answers", func() (net.Conn, error) {
			return nil, errors.New("network is unreachable")
		}, ""},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) { return tt.dial() }}
			lookupHost = r.LookupHost
			cfg, err := ParseConfig(merge(checkBase(dir), "[metrics]\nlisten = \"no-such-board.invalid:9851\"\n"), "ictald.toml")
			if err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			err = cfg.Check(slog.New(slog.NewTextHandler(&logs, nil)))
			if tt.want != "" {
				if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Check: %v, want %s", err, tt.want)
				}
				return
			}
			if err != nil || !strings.Contains(logs.String(), "level=WARN msg=\"metrics.listen: its host name could not be resolved now") {
				t.Errorf("Check: %v, log %s; want it accepted with a warning", err, logs.String())
			}
		})
	}
	// A name this machine knows without the DNS resolves.
	lookupHost = net.DefaultResolver.LookupHost
	cfg, err := ParseConfig(merge(checkBase(dir), "[metrics]\nlisten = \"localhost:9851\"\n"), "ictald.toml")
	if err == nil {
		err = cfg.Check(nil)
	}
	if err != nil {
		t.Errorf("localhost: %v", err)
	}
}
