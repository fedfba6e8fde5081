package mqtt

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert"
)

// rawClient is an MQTT 3.1.1 client written byte by byte: the attacker's
// side of the broker tests, which needs no library and keeps nothing but
// its socket.
type rawClient struct{ net.Conn }

// appendString appends an MQTT string (16-bit length, then the bytes).
func appendString(b []byte, s string) []byte {
	return append(append(b, byte(len(s)>>8), byte(len(s))), s...)
}

// appendPacket appends a packet of type byte typ with body, its remaining
// length encoded as MQTT does.
func appendPacket(b []byte, typ byte, body []byte) []byte {
	b = append(b, typ)
	for n := len(body); ; {
		d := byte(n % 128)
		n /= 128
		if n > 0 {
			d |= 0x80
		}
		b = append(b, d)
		if n == 0 {
			break
		}
	}
	return append(b, body...)
}

// connectPacket is a CONNECT for id, with a clean session or not, and a
// user and password when user is not empty.
func connectPacket(id string, clean bool, user, password string) []byte {
	flags := byte(0)
	if clean {
		flags |= 0x02
	}
	if user != "" {
		flags |= 0xc0
	}
	body := appendString(nil, "MQTT")
	body = append(body, 4, flags, 0, 60) // protocol level 4 (3.1.1), keep-alive 60 s
	body = appendString(body, id)
	if user != "" {
		body = appendString(appendString(body, user), password)
	}
	return appendPacket(nil, 0x10, body)
}

// errRefused is a CONNACK with a return code other than 0.
var errRefused = errors.New("connection refused")

// rawConnect connects to addr and sends CONNECT; it returns the
// connection and whether the broker said a session was present, or
// errRefused (with the return code) when the broker answered with a
// refusal, or the error of a broker that hung up.
func rawConnect(addr, id string, clean bool, user, password string) (*rawClient, bool, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, false, err
	}
	if _, err := c.Write(connectPacket(id, clean, user, password)); err != nil {
		c.Close()
		return nil, false, err
	}
	var ack [4]byte
	if _, err := io.ReadFull(c, ack[:]); err != nil {
		c.Close()
		return nil, false, err
	}
	if ack[0] != 0x20 || ack[1] != 2 {
		c.Close()
		return nil, false, fmt.Errorf("not a CONNACK: % x", ack)
	}
	if ack[3] != 0 {
		c.Close()
		return nil, false, fmt.Errorf("%w: return code %d", errRefused, ack[3])
	}
	return &rawClient{c}, ack[2]&1 == 1, nil
}

// subscribe subscribes to filter with QoS 1 and waits for the SUBACK,
// skipping what the broker sends first (retained messages).
func (c *rawClient) subscribe(filter string) error {
	body := appendString([]byte{0, 1}, filter)
	if _, err := c.Write(appendPacket(nil, 0x82, append(body, 1))); err != nil {
		return err
	}
	for {
		typ, body, err := c.read()
		if err != nil {
			return err
		}
		if typ&0xf0 == 0x90 {
			if len(body) != 3 || body[2] > 2 {
				return fmt.Errorf("subscription to %s refused: % x", filter, body)
			}
			return nil
		}
	}
}

// read reads one packet: its type byte and body.
func (c *rawClient) read() (byte, []byte, error) {
	var h [1]byte
	if _, err := io.ReadFull(c, h[:]); err != nil {
		return 0, nil, err
	}
	typ, n := h[0], 0
	for shift := 0; ; shift += 7 {
		if _, err := io.ReadFull(c, h[:]); err != nil {
			return 0, nil, err
		}
		n |= int(h[0]&0x7f) << shift
		if h[0]&0x80 == 0 {
			break
		}
		if shift == 21 {
			return 0, nil, errors.New("remaining length longer than 4 bytes")
		}
	}
	body := make([]byte, n)
	_, err := io.ReadFull(c, body)
	return typ, body, err
}

// disconnect sends DISCONNECT and closes the connection.
func (c *rawClient) disconnect() {
	c.Write([]byte{0xe0, 0})
	c.Close()
}

// userClient connects a paho client as the broker user name (password
// testPassword, added with AddUser), in order, with a persistent session
// unless clean, disconnected when the test ends.
func userClient(t testing.TB, b *Broker, name string, clean bool) paho.Client {
	t.Helper()
	opts := paho.NewClientOptions().AddBroker(b.URL()).SetClientID(name).SetUsername(name).SetPassword(testPassword).
		SetCleanSession(clean).SetAutoReconnect(false).SetConnectRetry(false)
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.Wait() || tok.Error() != nil {
		t.Fatalf("%s: connect: %v", name, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	return c
}

// heapInUse returns the bytes of live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// testEvidence is e's evidence: channels of span at 512 Hz, every
// count used, so that its payload is about channels × span × 1.4 KB/s.
func testEvidence(e *alert.Event, channels int, span time.Duration) *alert.Evidence {
	ev := &alert.Evidence{AlertID: e.ID, Site: e.Site, Bed: e.Bed, Onset: e.Onset, DetectedAt: e.DetectedAt,
		Start: e.Onset.Add(-span / 2), Rate: 512}
	for c := range channels {
		ev.Channels = append(ev.Channels, fmt.Sprintf("C%d", c))
		x := make([]float32, 512*int(span/time.Second))
		for i := range x {
			x[i] = float32((i*7+c)%977) - 488
		}
		ev.Samples = append(ev.Samples, x)
	}
	return ev
}

// userSession connects the broker user name (password testPassword) with
// a persistent session, handing every message, in order, to the returned
// channel, and disconnects it when the test ends.
func userSession(t testing.TB, b *Broker, name string) (paho.Client, <-chan received) {
	t.Helper()
	ch := make(chan received, 1<<14)
	opts := paho.NewClientOptions().AddBroker(b.URL()).SetClientID(name).SetUsername(name).SetPassword(testPassword).
		SetCleanSession(false).SetAutoReconnect(false).SetConnectRetry(false).
		SetDefaultPublishHandler(func(_ paho.Client, m paho.Message) {
			ch <- received{topic: m.Topic(), payload: append([]byte(nil), m.Payload()...), retained: m.Retained()}
		})
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.Wait() || tok.Error() != nil {
		t.Fatalf("%s: connect: %v", name, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	return c, ch
}

// ghostAttack is issue 32's first attack: ghosts anonymous clients each
// connect with a persistent session under their own client ID, subscribe
// to everything with QoS 1 and disconnect, while the daemon publishes:
// every 10 ghosts an alert and its end, every 30 with 60 s of 8 channels
// of evidence. It returns the IDs of the alerts, once watch (a
// subscription to the bed's alerts) has received every one. (The daemon
// publishes no status meanwhile: mochi 2.7.9 writes a topic's retained
// message while a subscription to '#' reads it unlocked, and the race
// detector would report mochi's race, not ictal's.)
func ghostAttack(t testing.TB, b *authBroker, ghosts int, watch <-chan received) []string {
	t.Helper()
	var sent []string
	for i := range ghosts {
		c, present, err := rawConnect(b.Addr(), fmt.Sprintf("ghost-%d", i), false, "", "")
		if err != nil {
			t.Fatalf("ghost-%d: %v", i, err)
		}
		if present {
			t.Errorf("ghost-%d: a session was present at its first connection", i)
		}
		if err := c.subscribe("#"); err != nil {
			t.Fatalf("ghost-%d: %v", i, err)
		}
		c.disconnect()
		if i%10 == 0 {
			e := testEventN("ward-7", "bed-3")
			b.daemon.Alert(e)
			if i%30 == 0 {
				if err := b.daemon.Evidence(testEvidence(e, 8, time.Minute)); err != nil {
					t.Fatal(err)
				}
			}
			e.End = e.Onset.Add(time.Minute)
			b.daemon.EventEnd(e)
			sent = append(sent, e.ID)
		}
	}
	arrived := map[string]bool{}
	for len(arrived) < len(sent) {
		if r := <-watch; r.topic == bed3+"/alert" {
			arrived[alertID(r)] = true
		}
	}
	return sent
}

// floodAttack is issue 32's second attack: n anonymous connections, each
// sending CONNECT, those admitted kept open (and closed when the test
// ends). It returns how many the broker admitted and how many it refused
// (a refusal, or a connection closed at once).
func floodAttack(t testing.TB, b *Broker, n int) (admitted, refused int) {
	t.Helper()
	var held []*rawClient
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	for i := range n {
		c, _, err := rawConnect(b.Addr(), fmt.Sprintf("flood-%d", i), true, "", "")
		if err != nil {
			refused++
			continue
		}
		held = append(held, c)
	}
	return len(held), refused
}

// TestEmbeddedBrokerAbandonedSessions: 300 anonymous clients connect with
// a persistent session, subscribe to '#' with QoS 1 and go, while the
// daemon publishes (issue 32: RSS 47 → 138 MB and the OOM killer under
// the unit's limits). An anonymous client's session ends with its
// connection: each ghost, back with a persistent session, finds none; the
// broker's queues stay within their bound and the heap does not grow by
// what 300 sessions would hold (about 120 MB here); every alert reaches a
// legitimate subscriber, and the daemon was never disconnected.
func TestEmbeddedBrokerAbandonedSessions(t *testing.T) {
	b := startAuthBroker(t, BrokerOptions{})
	waitAcked(t, b.daemon, 0) // its retained status stored before anyone subscribes (see ghostAttack)
	nurse := subscribe(t, brokerClient(t, b.URL(), "nurse-station", true), bed3+"/alert")
	base := heapInUse()

	const ghosts = 300
	ghostAttack(t, b, ghosts, nurse) // every alert reaches the nurse
	for i := range ghosts {
		c, present, err := rawConnect(b.Addr(), fmt.Sprintf("ghost-%d", i), false, "", "")
		if err != nil {
			t.Fatalf("ghost-%d back: %v", i, err)
		}
		c.disconnect()
		if present {
			t.Errorf("ghost-%d, anonymous, found its persistent session when it came back", i)
		}
	}
	st := b.Stats()
	if st.PeakQueuedBytes > DefaultBrokerQueue || st.SessionQueuedBytes > DefaultBrokerSessionQueue {
		t.Errorf("queued for sessions: at most %d bytes in all, %d now in one; bounds %d and %d", st.PeakQueuedBytes, st.SessionQueuedBytes, DefaultBrokerQueue, DefaultBrokerSessionQueue)
	}
	grown := int64(heapInUse()) - int64(base)
	t.Logf("after %d ghosts: heap %+.1f MiB, %+v", ghosts, float64(grown)/(1<<20), st)
	if grown > 32<<20 {
		t.Errorf("the heap grew by %d MiB with %d abandoned sessions", grown>>20, ghosts)
	}
	if n := strings.Count(b.logs.String(), "mqtt: connected"); n != 1 {
		t.Errorf("the daemon connected %d times, want once", n)
	}
}

// TestEmbeddedBrokerBoundsQueuedBytes: users' persistent sessions that
// went away hold what the daemon publishes only up to the bounds, per
// session and in all, the least important dropped first: statuses and
// evidence go, every alert and end stays, and a user back finds every
// alert it missed. A connected subscriber gets everything.
func TestEmbeddedBrokerBoundsQueuedBytes(t *testing.T) {
	one := maxPacketSize + queuedOverhead // the smallest bound allowed: one evidence
	opt := BrokerOptions{SessionQueueBytes: one, QueueBytes: 3 * one}
	b := startAuthBroker(t, opt)
	waitAcked(t, b.daemon, 0) // its retained status stored before anyone subscribes (see ghostAttack)
	const users = 12
	for i := range users {
		name := fmt.Sprintf("away-%d", i)
		if err := b.AddUser(name, []byte(testPassword)); err != nil {
			t.Fatal(err)
		}
		// Exact topics, not '#': the daemon publishes retained statuses
		// next, and mochi would race reading them (see ghostAttack).
		c := userClient(t, b.Broker, name, false)
		filters := map[string]byte{bed3 + "/alert": 1, bed3 + "/end": 1, bed3 + "/evidence": 1, bed3 + "/status": 1}
		if tok := c.SubscribeMultiple(filters, func(paho.Client, paho.Message) {}); !tok.Wait() || tok.Error() != nil {
			t.Fatalf("%s: subscribe: %v", name, tok.Error())
		}
		c.Disconnect(100)
	}
	if err := b.AddUser("nurse", []byte(testPassword)); err != nil {
		t.Fatal(err)
	}
	nurse := make(chan received, 1<<14)
	if tok := userClient(t, b.Broker, "nurse", true).SubscribeMultiple(map[string]byte{bed3 + "/alert": 1, bed3 + "/status": 1},
		func(_ paho.Client, m paho.Message) {
			nurse <- received{topic: m.Topic(), payload: append([]byte(nil), m.Payload()...), retained: m.Retained()}
		}); !tok.Wait() || tok.Error() != nil {
		t.Fatalf("nurse: subscribe: %v", tok.Error())
	}

	var sent []string
	since := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC) // a fixed stamp: the statuses' content does not matter
	for i := range 60 {
		b.daemon.Status(alert.Status{State: alert.StateOnline, Since: since.Add(time.Duration(i) * time.Second)})
		if i%6 == 0 {
			e := testEventN("ward-7", "bed-3")
			b.daemon.Alert(e)
			if err := b.daemon.Evidence(testEvidence(e, 8, time.Minute)); err != nil {
				t.Fatal(err)
			}
			e.End = e.Onset.Add(time.Minute)
			b.daemon.EventEnd(e)
			sent = append(sent, e.ID)
		}
	}
	// A last status, after everything else (the publisher sends alerts
	// and ends before status): once the nurse has it, the broker has
	// handed every message to every session.
	last := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	b.daemon.Status(alert.Status{State: alert.StateArtifact, Since: last})
	got := map[string]bool{}
	for _, r := range until(t, nurse, "the last status", func(r received) bool {
		return r.topic == bed3+"/status" && strings.Contains(string(r.payload), "2026-12-01T10:00:00")
	}) {
		got[alertID(r)] = true
	}
	for _, id := range sent {
		if !got[id] {
			t.Errorf("alert %s did not reach the connected nurse", id)
		}
	}

	st := b.Stats()
	t.Logf("bounds %d per session, %d in all: %+v", opt.SessionQueueBytes, opt.QueueBytes, st)
	if st.PeakQueuedBytes > opt.QueueBytes || st.SessionQueuedBytes > opt.SessionQueueBytes {
		t.Errorf("queued: at most %d bytes in all (bound %d), %d in one session (bound %d)", st.PeakQueuedBytes, opt.QueueBytes, st.SessionQueuedBytes, opt.SessionQueueBytes)
	}
	if st.Dropped["status"] == 0 || st.Dropped["evidence"] == 0 || st.Dropped["alert"] != 0 || st.Dropped["end"] != 0 {
		t.Errorf("dropped %v: want statuses and evidence dropped, no alert or end", st.Dropped)
	}

	if st.Dropped["alert"] != 0 {
		t.FailNow() // what follows waits for every alert
	}

	// A user back finds every alert it missed (mochi resends them as it
	// connects, in the order of the second they were queued in, those of
	// one second in any order).
	_, back := userSession(t, b.Broker, "away-0")
	missed := map[string]bool{}
	for len(missed) < len(sent) {
		if r := <-back; r.topic == bed3+"/alert" {
			missed[alertID(r)] = true
		}
	}
	for _, id := range sent {
		if !missed[id] {
			t.Errorf("away-0 back received alerts %v, not %s", missed, id)
		}
	}
}

// TestEmbeddedBrokerConnectionFlood: 5,000 anonymous connections, each
// sending CONNECT, held open (issue 32: 4,466 accepted, then the OOM
// killer). The broker admits MaxConnections (64) in all and refuses the
// rest, counting each; the heap stays flat; the daemon's alert still
// reaches a subscriber connected before, and the daemon, cut off while
// every ordinary slot is taken, gets back in through those kept for it.
func TestEmbeddedBrokerConnectionFlood(t *testing.T) {
	b := startAuthBroker(t, BrokerOptions{})
	waitAcked(t, b.daemon, 0) // its retained status stored before anyone subscribes (see ghostAttack)
	alerts := subscribe(t, brokerClient(t, b.URL(), "nurse-station", true), bed3+"/alert")
	before := b.Stats()
	base := heapInUse()

	const n = 5000
	admitted, refused := floodAttack(t, b.Broker, n)
	st := b.Stats()
	if want := DefaultBrokerConnections - before.Connections; admitted != want {
		t.Errorf("%d flooding connections admitted, want %d (the limit, %d, less the %d open before)", admitted, want, DefaultBrokerConnections, before.Connections)
	}
	if got := st.Refused - before.Refused; got != uint64(refused) || admitted+refused != n {
		t.Errorf("the broker counted %d refusals, the flood saw %d (and %d admitted of %d)", got, refused, admitted, n)
	}
	grown := int64(heapInUse()) - int64(base)
	t.Logf("flood of %d: %d admitted, %d refused, heap %+.1f MiB, %+v", n, admitted, refused, float64(grown)/(1<<20), st)
	if grown > 32<<20 {
		t.Errorf("the heap grew by %d MiB with %d connections", grown>>20, n)
	}
	e := testEventN("ward-7", "bed-3")
	b.daemon.Alert(e)
	waitFor(t, alerts, "the alert during the flood", func(r received) bool { return alertID(r) == e.ID })

	// Cut the daemon off, an attacker taking its slot at once (the test
	// takes it before the daemon's connection closes): the daemon
	// reconnects through a slot kept for daemons, or is refused (the
	// broker counts a refusal: nobody else connects now).
	cl, ok := b.srv.Clients.Get(b.cfg.ClientID)
	if !ok {
		t.Fatal("the daemon's session is not on the broker")
	}
	b.lis.mu.Lock()
	b.lis.open++
	b.lis.mu.Unlock()
	cl.Stop(errors.New("cut off by the test"))
	waitUntil(t, "the daemon reconnected or refused", func() bool {
		return strings.Count(b.logs.String(), "mqtt: connected") >= 2 || b.Stats().Refused > st.Refused
	})
	if r := b.Stats().Refused; r > st.Refused {
		t.Fatalf("the daemon was refused %d times while the flood held every ordinary slot", r-st.Refused)
	}
	e2 := testEventN("ward-7", "bed-3")
	b.daemon.Alert(e2)
	waitFor(t, alerts, "the alert after the daemon reconnected", func(r received) bool { return alertID(r) == e2.ID })
}

// memLimitChild, set in a child's environment, makes
// TestEmbeddedBrokerAttacksUnderMemoryLimit run the attacks itself.
const memLimitChild = "ICTAL_TEST_BROKER_ATTACK_CHILD"

// TestEmbeddedBrokerAttacksUnderMemoryLimit runs both attacks of issue 32
// on the embedded broker, with the daemon publishing, in a child process
// under the unit's GOMEMLIMIT (100 MiB), and checks that the child's peak
// resident memory (VmHWM) stays below the unit's MemoryMax (128 MiB), at
// which the kernel would kill ictald. (Under the same limits the attacks
// took the daemon from 47 MB to the OOM killer.)
func TestEmbeddedBrokerAttacksUnderMemoryLimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	if os.Getenv("ICTAL_EMULATED") != "" && os.Getenv(memLimitChild) == "" {
		t.Skip("under qemu-user (cross/test): the test re-executes its own binary under GOMEMLIMIT, and qemu-user cannot exec a foreign-architecture binary without binfmt_misc; TestEmbeddedBrokerAbandonedSessions and TestEmbeddedBrokerConnectionFlood run the attacks in-process")
	}
	if os.Getenv(memLimitChild) == "1" {
		attackChild(t)
		return
	}
	args := []string{"-test.run=^TestEmbeddedBrokerAttacksUnderMemoryLimit$", "-test.v", "-test.count=1"}
	if d, ok := t.Deadline(); ok { // go test's -timeout: the child ends first, with its stacks
		args = append(args, fmt.Sprintf("-test.timeout=%v", time.Until(d)*9/10))
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), memLimitChild+"=1", "GOMEMLIMIT=100MiB")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	var before, after, peak int
	i := strings.Index(string(out), "rss_kib:")
	if i < 0 {
		t.Fatalf("the child reported no memory:\n%s", out)
	}
	if _, err := fmt.Sscanf(string(out[i:]), "rss_kib: before %d after %d peak %d", &before, &after, &peak); err != nil {
		t.Fatalf("the child's report: %v\n%s", err, out)
	}
	t.Logf("under GOMEMLIMIT=100MiB: RSS %.1f MiB before the attacks, %.1f after, peak %.1f", float64(before)/1024, float64(after)/1024, float64(peak)/1024)
	if peak >= 128<<10 && !raceEnabled {
		t.Errorf("peak RSS %d KiB: the unit's MemoryMax (128 MiB) would have ended ictald", peak)
	}
}

// attackChild runs the attacks in the child and prints its memory.
func attackChild(t *testing.T) {
	b := startAuthBroker(t, BrokerOptions{})
	waitAcked(t, b.daemon, 0) // its retained status stored before anyone subscribes (see ghostAttack)
	alerts := subscribe(t, brokerClient(t, b.URL(), "nurse-station", true), bed3+"/alert")
	before := procStatusKiB(t, "VmRSS")
	ghostAttack(t, b, 300, alerts) // every alert reaches the nurse
	if admitted, _ := floodAttack(t, b.Broker, 5000); admitted > DefaultBrokerConnections {
		t.Errorf("%d connections admitted", admitted)
	}
	e := testEventN("ward-7", "bed-3")
	b.daemon.Alert(e)
	waitFor(t, alerts, "the alert after the attacks", func(r received) bool { return alertID(r) == e.ID })
	fmt.Printf("rss_kib: before %d after %d peak %d\n", before, procStatusKiB(t, "VmRSS"), procStatusKiB(t, "VmHWM"))
}

// procStatusKiB returns a field of /proc/self/status, in KiB.
func procStatusKiB(t *testing.T, field string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			var n int
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &n); err != nil {
				t.Fatalf("%s: %q: %v", field, l, err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// fakeConn records the deadlines set on it; its writes fail with err.
type fakeConn struct {
	net.Conn // nil: the methods not overridden are not called
	err      error
	read     time.Time
	write    []time.Time
	closed   int
}

func (c *fakeConn) Write(p []byte) (int, error)        { return 0, c.err }
func (c *fakeConn) SetReadDeadline(t time.Time) error  { c.read = t; return nil }
func (c *fakeConn) SetWriteDeadline(t time.Time) error { c.write = append(c.write, t); return nil }
func (c *fakeConn) Close() error                       { c.closed++; return nil }

// TestCapConnDisconnectsStalledReader: every write to a client of the
// embedded broker has a deadline of its own (mochi's keep-alive deadline,
// which a client pinging keeps moving, applies to reads only), and a
// write that fails — a client that stopped reading for
// brokerWriteTimeout — closes the connection and frees its slot, so the
// messages mochi queues for it stop growing.
func TestCapConnDisconnectsStalledReader(t *testing.T) {
	l := newCapListener("tcp", "127.0.0.1:0", 1, nil)
	t0 := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return t0 }
	fc := &fakeConn{err: os.ErrDeadlineExceeded}
	c := &capConn{Conn: fc, l: l}
	l.open = 1
	keepAlive := t0.Add(time.Hour)
	c.SetDeadline(keepAlive)
	if _, err := c.Write([]byte{0x30, 0}); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("write: %v", err)
	}
	if !fc.read.Equal(keepAlive) || len(fc.write) != 1 || !fc.write[0].Equal(t0.Add(brokerWriteTimeout)) {
		t.Errorf("deadlines: read %v, writes %v; want the keep-alive for reads, one of brokerWriteTimeout for the write", fc.read, fc.write)
	}
	c.Close()
	if open, _ := l.counts(); fc.closed != 2 || open != 0 {
		t.Errorf("closed %d times (once by the failed write, once by mochi), %d slots in use; want the slot freed once", fc.closed, open)
	}
}

func (c *fakeConn) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 50000}
}

// fakeListener hands out conns, then fails as a closed listener.
type fakeListener struct {
	net.Listener // nil: the methods not overridden are not called
	conns        []net.Conn
}

func (l *fakeListener) Accept() (net.Conn, error) {
	if len(l.conns) == 0 {
		return nil, net.ErrClosed
	}
	c := l.conns[0]
	l.conns = l.conns[1:]
	return c, nil
}

// TestCapListenerSlots: the listener hands mochi at most max ordinary
// connections and daemonSlots reserved ones, closing the others at once
// and counting them; each connection handed over must send CONNECT
// within brokerConnectTimeout; a closed connection frees its slot.
func TestCapListenerSlots(t *testing.T) {
	const max = 2
	var fakes []*fakeConn
	fl := &fakeListener{}
	for range max + daemonSlots + 3 {
		c := &fakeConn{}
		fakes = append(fakes, c)
		fl.conns = append(fl.conns, c)
	}
	l := newCapListener("tcp", "127.0.0.1:0", max, slog.New(slog.DiscardHandler))
	l.listen = fl
	t0 := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return t0 }
	handed := make(chan *capConn, len(fakes))
	l.Serve(func(_ string, c net.Conn) error { handed <- c.(*capConn); return nil })
	var got []*capConn
	for range max + daemonSlots {
		got = append(got, <-handed)
	}
	for i, c := range fakes {
		admitted := i < max+daemonSlots
		if admitted && (c.closed != 0 || !c.read.Equal(t0.Add(brokerConnectTimeout))) {
			t.Errorf("connection %d: closed %d times, read deadline %v: want open, CONNECT due within %v", i, c.closed, c.read, brokerConnectTimeout)
		}
		if !admitted && c.closed != 1 {
			t.Errorf("connection %d beyond the slots: closed %d times, want once", i, c.closed)
		}
	}
	for _, c := range got { // handed over in any order
		for i, f := range fakes {
			if c.Conn == f && c.reserved != (i >= max) {
				t.Errorf("connection %d: reserved %v", i, c.reserved)
			}
		}
	}
	if open, refused := l.counts(); open != max+daemonSlots || refused != 3 {
		t.Errorf("%d open, %d refused; want %d and 3", open, refused, max+daemonSlots)
	}
	got[0].Close()
	got[1].Close()
	if open, _ := l.counts(); open != max+daemonSlots-2 {
		t.Errorf("%d open after two closed, want %d", open, max+daemonSlots-2)
	}
}
