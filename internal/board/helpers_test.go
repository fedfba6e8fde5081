package board

import (
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
	"github.com/ictal/ictal/internal/syncbuf"
)

const (
	testSite     = "ward-7"
	testPassword = "correct horse battery"
)

// syncBuffer is a log destination safe for concurrent writes.
type syncBuffer = syncbuf.Buffer

// testBoard is a board run by a test.
type testBoard struct {
	srv   *Server
	url   string
	cfg   Config
	log   *syncBuffer
	stop  context.CancelFunc
	done  chan error
	audit string
}

// testConfig is a board configuration for site ward-7 with users alice
// and bob in a temporary directory; broker may be "" (no broker).
func testConfig(t testing.TB, broker string) Config {
	t.Helper()
	dir := t.TempDir()
	users := filepath.Join(dir, "users")
	for _, u := range []string{"alice", "bob"} {
		if err := AddUser(users, u, []byte(testPassword)); err != nil {
			t.Fatal(err)
		}
	}
	if broker == "" {
		broker = "tcp://127.0.0.1:1"
	}
	return Config{Site: testSite, Users: users, Audit: filepath.Join(dir, "audit.jsonl"),
		MQTT:     mqtt.Connection{Brokers: []string{broker}, ConnectTimeout: 2 * time.Second},
		ClientID: "board-test-" + strings.ReplaceAll(t.Name(), "/", "-")}
}

// newServer makes a Server without serving it.
func newServer(t testing.TB, cfg Config) (*Server, *syncBuffer) {
	t.Helper()
	var buf syncBuffer
	s, err := New(cfg, slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	return s, &buf
}

// serveBoard serves a board on a free loopback port, over HTTPS when cfg
// has a TLS certificate, until the test ends.
func serveBoard(t testing.TB, cfg Config) *testBoard {
	t.Helper()
	s, buf := newServer(t, cfg)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	scheme := "http://"
	if cfg.TLSCert != "" {
		scheme = "https://"
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &testBoard{srv: s, url: scheme + l.Addr().String(), cfg: cfg, log: buf, stop: cancel, done: make(chan error, 1), audit: cfg.Audit}
	go func() { b.done <- s.Serve(ctx, l) }()
	t.Cleanup(b.close)
	return b
}

// startBoard serves a board (serveBoard) and waits until it is connected
// to the broker (healthz 200).
func startBoard(t testing.TB, cfg Config) *testBoard {
	t.Helper()
	b := serveBoard(t, cfg)
	waitUntil(t, "board connected to the broker", func() bool {
		resp, err := http.Get(b.url + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return b
}

// close stops the board and waits for Serve to return.
func (b *testBoard) close() {
	if b.stop == nil {
		return
	}
	b.stop()
	b.stop = nil
	<-b.done
}

// waitUntil polls cond until it holds. It has no deadline: what it waits
// for must happen, however busy the machine, and a wait that never ends
// is a hang, which go test's -timeout reports; what names the wait for
// the reader.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		time.Sleep(10 * time.Millisecond)
	}
}

// startWithDaemon starts a broker and a board on it, and a client in the
// daemon's place subscribed to every bed's feedback. It returns the
// board, that client and the feedback payloads as they arrive.
func startWithDaemon(t testing.TB) (*testBoard, paho.Client, <-chan []byte) {
	t.Helper()
	mq := startBroker(t)
	b := startBoard(t, testConfig(t, mq.URL("tcp")))
	daemon := mosquittotest.Client(t, mq.URL("tcp"), "daemon")
	feedback := make(chan []byte, 16)
	if tok := daemon.Subscribe(topic("+", "feedback"), 1, func(_ paho.Client, m paho.Message) { feedback <- m.Payload() }); !tok.Wait() || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	return b, daemon, feedback
}

// startBroker runs mosquitto with persistence.
func startBroker(t testing.TB) *mosquittotest.Broker {
	return mosquittotest.Start(t, mosquittotest.Opts{Persistence: true})
}

func topic(bed, kind string) string { return "ictal/" + testSite + "/" + bed + "/" + kind }

// testEvent is an alert on bed detected at now.
func testEvent(bed string, now time.Time) *alert.Event {
	return &alert.Event{ID: alert.NewID(), Site: testSite, Bed: bed, Onset: now.Add(-6 * time.Second), DetectedAt: now,
		Score: 0.93, Algorithm: "UOB", Channels: []string{"T7-P7", "F7-T7", "FP1-F7"}}
}

// testEvidence is 26 s of a growing 4 Hz rhythm on the event's channels
// at 256 Hz.
func testEvidence(e *alert.Event) *alert.Evidence {
	const rate = 256
	start := e.Onset.Add(-alert.EvidenceBefore)
	n := int((e.DetectedAt.Add(alert.EvidenceAfter).Sub(start)).Seconds() * rate)
	ev := &alert.Evidence{AlertID: e.ID, Site: e.Site, Bed: e.Bed, Onset: e.Onset, DetectedAt: e.DetectedAt,
		Start: start, Rate: rate, Channels: e.Channels}
	for c := range e.Channels {
		xs := make([]float32, n)
		for i := range xs {
			t := float64(i) / rate
			amp := 20.0
			if t > alert.EvidenceBefore.Seconds() {
				amp = 150
			}
			xs[i] = float32(amp*math.Sin(2*math.Pi*4*t+float64(c)) + 8*math.Sin(2*math.Pi*11*t))
		}
		ev.Samples = append(ev.Samples, xs)
	}
	return ev
}

// auditRecords reads the audit log.
func auditRecords(t testing.TB, path string) []auditRecord {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []auditRecord
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var r auditRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// alertCount returns how many alerts (with their alert payload) the board
// lists.
func (s *Server) alertCount() int {
	s.ward.mu.Lock()
	defer s.ward.mu.Unlock()
	n := 0
	for _, e := range s.ward.alerts {
		if e.Alert != nil {
			n++
		}
	}
	return n
}
