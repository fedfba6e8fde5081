package mqtt

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/internal/syncbuf"
)

// received is one message seen by a test subscriber.
type received struct {
	topic    string
	payload  []byte
	retained bool
	at       time.Time
}

// testClient connects a plain paho client (a clinician's, or a receiver
// with a persistent session when clean is false) and disconnects it when
// the test ends.
func testClient(t testing.TB, conn Connection, id string, clean bool) paho.Client {
	t.Helper()
	opts, err := conn.ClientOptions(id)
	if err != nil {
		t.Fatal(err)
	}
	opts.SetCleanSession(clean).SetAutoReconnect(true).SetMaxReconnectInterval(200 * time.Millisecond).
		SetConnectRetry(false).SetResumeSubs(true).SetOrderMatters(false)
	c := paho.NewClient(opts)
	tok := c.Connect()
	if !tok.Wait() || tok.Error() != nil {
		t.Fatalf("test client %s: connect: %v", id, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	return c
}

// brokerClient connects a plain client to the broker at url, as
// testClient does.
func brokerClient(t testing.TB, url, id string, clean bool) paho.Client {
	t.Helper()
	return testClient(t, Connection{Brokers: []string{url}}, id, clean)
}

// subscribe subscribes c to filter with QoS 1 and returns what arrives.
func subscribe(t testing.TB, c paho.Client, filter string) <-chan received {
	t.Helper()
	ch := make(chan received, 1<<14)
	tok := c.Subscribe(filter, 1, func(_ paho.Client, m paho.Message) {
		ch <- received{m.Topic(), append([]byte(nil), m.Payload()...), m.Retained(), time.Now()}
	})
	if !tok.Wait() || tok.Error() != nil {
		t.Fatalf("subscribe %s: %v", filter, tok.Error())
	}
	return ch
}

// waitFor returns the first message on ch satisfying ok, however long it
// takes (see waitUntil); what names the wait for the reader.
func waitFor(t testing.TB, ch <-chan received, what string, ok func(received) bool) received {
	t.Helper()
	for {
		if r := <-ch; ok(r) {
			return r
		}
	}
}

// isState matches a status payload with the given state.
func isState(topic string, s alert.State) func(received) bool {
	return func(r received) bool {
		var p struct{ State alert.State }
		return r.topic == topic && json.Unmarshal(r.payload, &p) == nil && p.State == s
	}
}

// alertID returns the "id" of an alert payload, or "".
func alertID(r received) string {
	var p struct {
		ID  string
		End *string
	}
	if json.Unmarshal(r.payload, &p) != nil || p.End != nil {
		return ""
	}
	return p.ID
}

// testEventN is an alert with a fresh ID.
func testEventN(site, bed string) *alert.Event {
	now := time.Now()
	return &alert.Event{ID: alert.NewID(), Site: site, Bed: bed, Onset: now.Add(-4 * time.Second), DetectedAt: now,
		Score: 0.93, Algorithm: "UOB", Channels: []string{"T7-P7", "F7-T7"}}
}

// syncBuffer is a log destination safe for concurrent writes.
type syncBuffer = syncbuf.Buffer

// testLogger logs at debug level into a buffer.
func testLogger() (*slog.Logger, *syncBuffer) {
	var b syncBuffer
	return slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug})), &b
}

// testMQTTConfig is a publisher for ward-7/bed-3 on broker with quick
// reconnection.
func testMQTTConfig(t testing.TB, broker string) Config {
	return Config{
		Connection: Connection{Brokers: []string{broker}, ConnectTimeout: 2 * time.Second},
		Site:       "ward-7", Bed: "bed-3", StoreDir: t.TempDir(),
		MaxReconnectInterval: 500 * time.Millisecond, CloseTimeout: 3 * time.Second,
	}
}

// newTestMQTT starts a publisher closed when the test ends.
func newTestMQTT(t testing.TB, cfg Config, log *slog.Logger) *Publisher {
	t.Helper()
	m, err := New(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// waitUntil polls cond until it holds. It has no deadline: what it waits
// for must happen, however busy the machine, and a wait that never ends
// is a hang, which go test's -timeout reports with every goroutine's
// stack. what names the wait for the reader.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		time.Sleep(5 * time.Millisecond)
	}
}

// waitAcked waits until the broker has acknowledged more than n of m's
// QoS 1 messages; n = 0: its retained status, so m is connected (and
// subscribed to feedback).
func waitAcked(t testing.TB, m *Publisher, n uint64) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("more than %d messages acknowledged", n), func() bool { return m.Stats().Acked > n })
}

// waitPublished waits until m has handed a message to its client.
func waitPublished(t *testing.T, m *Publisher) {
	t.Helper()
	waitUntil(t, "a message published", func() bool { return m.Stats().Published > 0 })
}

// silentBroker accepts TCP connections and reads what clients send, but
// never answers: a connection attempt to it stays pending until the
// client gives up.
type silentBroker struct {
	addr     string
	connects chan struct{} // a CONNECT packet arrived
	mu       sync.Mutex
	accepted int
	open     int
}

// startSilentBroker listens on loopback until the test ends.
func startSilentBroker(t testing.TB) *silentBroker {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &silentBroker{addr: l.Addr().String(), connects: make(chan struct{}, 16)}
	var conns []net.Conn
	t.Cleanup(func() {
		l.Close()
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			b.mu.Lock()
			b.accepted++
			b.open++
			conns = append(conns, c)
			b.mu.Unlock()
			go func() {
				defer func() {
					b.mu.Lock()
					b.open--
					b.mu.Unlock()
				}()
				first := make([]byte, 1)
				if _, err := io.ReadFull(c, first); err != nil {
					return
				}
				if first[0] == 0x10 { // CONNECT
					select {
					case b.connects <- struct{}{}:
					default:
					}
				}
				io.Copy(io.Discard, c) // until the client hangs up
			}()
		}
	}()
	return b
}

// waitConnect waits for a client's CONNECT.
func (b *silentBroker) waitConnect(t testing.TB) {
	t.Helper()
	<-b.connects
}

// counts returns the connections accepted so far and those still open.
func (b *silentBroker) counts() (accepted, open int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.accepted, b.open
}
