package mqtt

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
	"github.com/ictal/ictal/internal/users"
)

// The embedded broker's users file of these tests holds one clinician,
// written as `ictal board user add` writes it.
const (
	testUser     = "clinician-alice"
	testPassword = "alice-Wx5%pass"
	bed3         = "ictal/ward-7/bed-3"
)

// authBroker is the embedded broker with a users file, and bed-3's daemon
// admitted and connected.
type authBroker struct {
	*Broker
	daemon *Publisher
	cfg    Config      // the daemon's, with its generated credentials
	logs   *syncBuffer // the daemon's log
}

func startAuthBroker(t *testing.T, opt BrokerOptions) *authBroker {
	t.Helper()
	if opt.UsersFile == "" {
		opt.UsersFile = filepath.Join(t.TempDir(), "users")
		if err := users.Add(opt.UsersFile, testUser, []byte(testPassword)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := StartBroker("127.0.0.1:0", &opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	cfg := testMQTTConfig(t, b.URL())
	if err := b.AdmitPublisher(&cfg); err != nil {
		t.Fatal(err)
	}
	log, logs := testLogger()
	return &authBroker{Broker: b, daemon: newTestMQTT(t, cfg, log), cfg: cfg, logs: logs}
}

// connect connects a paho client that hands messages over in order,
// returning the broker's refusal as an error; lost is closed when an
// admitted connection is lost.
func connect(b *Broker, id, user, password string, will string) (c paho.Client, lost chan struct{}, err error) {
	lost = make(chan struct{})
	opts := paho.NewClientOptions().AddBroker(b.URL()).SetClientID(id).SetUsername(user).SetPassword(password).
		SetAutoReconnect(false).SetConnectRetry(false).SetCleanSession(true).SetConnectTimeout(time.Minute).
		SetConnectionLostHandler(func(paho.Client, error) { close(lost) })
	if will != "" {
		opts.SetWill(bed3+"/status", will, 1, true)
	}
	c = paho.NewClient(opts)
	tok := c.Connect()
	tok.Wait() // a broker that never answers is a hang: go test -timeout
	return c, lost, tok.Error()
}

// testConnect connects an admitted client, disconnected when the test
// ends.
func testConnect(t *testing.T, b *Broker, id, user, password string) (paho.Client, chan struct{}) {
	t.Helper()
	c, lost, err := connect(b, id, user, password, "")
	if err != nil {
		t.Fatalf("%s (user %q): connect: %v", id, user, err)
	}
	t.Cleanup(func() { c.Disconnect(100) })
	return c, lost
}

// message is one publication of a test.
type message struct {
	topic    string
	qos      byte
	retained bool
	payload  string
}

// forge publishes msgs on c, then a QoS 1 message on topic that the
// broker refuses: an MQTT 3.1.1 client is disconnected for it. The broker
// handles a client's packets in order, so once the connection is lost
// every message has been dealt with.
func forge(t *testing.T, c paho.Client, lost chan struct{}, refused string, msgs ...message) {
	t.Helper()
	for _, m := range msgs {
		c.Publish(m.topic, m.qos, m.retained, m.payload)
	}
	c.Publish(refused, 1, false, "refused")
	<-lost // a broker that kept the client would leave the test to go test's -timeout
}

// runMosquitto runs tool (mosquitto_pub or mosquitto_sub) with args
// against b and returns its output and error. A refused QoS 1 publish
// makes the broker close the connection, so mosquitto_pub has returned
// only once the broker has dealt with its message.
func runMosquitto(t *testing.T, b *Broker, tool string, args ...string) (string, error) {
	t.Helper()
	host, port, _ := strings.Cut(b.Addr(), ":")
	cmd := exec.Command(mosquittotest.Tool(t, tool), append([]string{"-h", host, "-p", port}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run() // a tool that never ends is a hang: go test -timeout
	return out.String(), err
}

// until returns what ch delivers up to and including the first message
// stop matches.
func until(t *testing.T, ch <-chan received, what string, stop func(received) bool) []received {
	t.Helper()
	var seen []received
	waitFor(t, ch, what, func(r received) bool {
		seen = append(seen, r)
		return stop(r)
	})
	return seen
}

// noneContains fails the test for every message that contains a marker.
func noneContains(t *testing.T, seen []received, markers ...string) {
	t.Helper()
	for _, r := range seen {
		for _, m := range markers {
			if strings.Contains(string(r.payload), m) {
				t.Errorf("forged message delivered: %s %s", r.topic, r.payload)
			}
		}
	}
}

// feedback is a valid verdict on alert id.
func feedback(id string) string { return `{"v":1,"alert_id":"` + id + `","verdict":"confirmed"}` }

// isFeedbackOn matches the feedback on alert id.
func isFeedbackOn(id string) func(received) bool {
	return func(r received) bool { return r.topic == bed3+"/feedback" && strings.Contains(string(r.payload), id) }
}

// firstLabel is the first label the daemon delivers.
func firstLabel(t *testing.T, m *Publisher) alert.Label {
	t.Helper()
	return <-m.Labels()
}

func TestEmbeddedBrokerAnonymousSubscribesNeverPublishes(t *testing.T) {
	b := startAuthBroker(t, BrokerOptions{})
	// Anonymous subscription works, and the daemon's retained status is
	// there.
	watcher, _ := testConnect(t, b.Broker, "watcher", "", "")
	seen := subscribe(t, watcher, "ictal/#")
	online := waitFor(t, seen, "bed-3 online", isState(bed3+"/status", alert.StateOnline))

	forged := testEventN("ward-7", "bed-3")
	forgedAlert := string(alert.AppendAlert(nil, forged))
	const future = `{"v":1,"state":"online","since":"2030-01-01T00:00:00.000Z"}`
	// mosquitto_pub, anonymous, QoS 1: each publish is refused.
	for _, args := range [][]string{
		{"-q", "1", "-t", bed3 + "/alert", "-m", forgedAlert},
		{"-q", "1", "-r", "-t", bed3 + "/status", "-m", future},
		{"-q", "1", "-t", bed3 + "/feedback", "-m", feedback(forged.ID)},
	} {
		if out, err := runMosquitto(t, b.Broker, "mosquitto_pub", args...); err == nil {
			t.Errorf("anonymous mosquitto_pub %v succeeded: %s", args, out)
		}
	}
	// paho, anonymous, QoS 0 (dropped silently) then QoS 1.
	c, lost := testConnect(t, b.Broker, "forger", "", "")
	forge(t, c, lost, bed3+"/alert",
		message{bed3 + "/alert", 0, false, forgedAlert},
		message{bed3 + "/status", 0, true, future},
		message{bed3 + "/feedback", 0, false, feedback(forged.ID)})

	// Then the clinician sends feedback on a real alert: what the watcher
	// sees before it would include any forgery that got through.
	real := testEventN("ward-7", "bed-3")
	b.daemon.Alert(real)
	alice, _ := testConnect(t, b.Broker, "alice", testUser, testPassword)
	if tok := alice.Publish(bed3+"/feedback", 1, false, feedback(real.ID)); !tok.Wait() || tok.Error() != nil {
		t.Fatalf("the clinician's feedback: %v", tok.Error())
	}
	noneContains(t, until(t, seen, "the clinician's feedback", isFeedbackOn(real.ID)), forged.ID, "2030")
	if l := firstLabel(t, b.daemon); l.AlertID != real.ID {
		t.Errorf("the daemon's first label is on %s, want the clinician's on %s", l.AlertID, real.ID)
	}
	// The retained status is still the daemon's.
	late, _ := testConnect(t, b.Broker, "late-watcher", "", "")
	r := waitFor(t, subscribe(t, late, bed3+"/status"), "the retained status", func(received) bool { return true })
	if !r.retained || string(r.payload) != string(online.payload) {
		t.Errorf("retained status %s (retained %v), want the daemon's %s", r.payload, r.retained, online.payload)
	}
}

func TestEmbeddedBrokerUserPublishesFeedbackNotAlerts(t *testing.T) {
	b := startAuthBroker(t, BrokerOptions{})
	watcher, _ := testConnect(t, b.Broker, "watcher", "", "")
	seen := subscribe(t, watcher, "ictal/#")
	waitFor(t, seen, "bed-3 online", isState(bed3+"/status", alert.StateOnline))

	// The user may not publish the daemon's topics, nor feedback to a bed
	// this broker does not serve.
	forged := testEventN("ward-7", "bed-3")
	c, lost := testConnect(t, b.Broker, "alice-forging", testUser, testPassword)
	forge(t, c, lost, bed3+"/alert",
		message{bed3 + "/alert", 0, false, string(alert.AppendAlert(nil, forged))},
		message{bed3 + "/status", 0, true, alert.OfflinePayload},
		message{bed3 + "/feedback/ack", 0, false, `{"v":1,"status":"applied","alert_id":"` + forged.ID + `"}`},
		message{"ictal/ward-7/bed-4/feedback", 0, false, feedback(forged.ID)},
		message{bed3 + "/feedback/from/someone-else", 0, false, feedback(forged.ID)})
	if out, err := runMosquitto(t, b.Broker, "mosquitto_pub", "-u", testUser, "-P", testPassword, "-q", "1", "-t", bed3+"/evidence", "-m", forged.ID); err == nil {
		t.Errorf("mosquitto_pub of evidence by a user succeeded: %s", out)
	}

	// Feedback on its bed goes through, from mosquitto_pub too.
	real := testEventN("ward-7", "bed-3")
	if out, err := runMosquitto(t, b.Broker, "mosquitto_pub", "-u", testUser, "-P", testPassword, "-q", "1",
		"-t", bed3+"/feedback", "-m", feedback(real.ID)); err != nil {
		t.Fatalf("mosquitto_pub of the clinician's feedback: %v: %s", err, out)
	}
	noneContains(t, until(t, seen, "the clinician's feedback", isFeedbackOn(real.ID)), forged.ID, `"offline"`)
	if l := firstLabel(t, b.daemon); l.AlertID != real.ID {
		t.Errorf("the daemon's first label is on %s, want the clinician's on %s", l.AlertID, real.ID)
	}
	// Under its own name, too: the daemon then knows the sender.
	named := testEventN("ward-7", "bed-3")
	if out, err := runMosquitto(t, b.Broker, "mosquitto_pub", "-u", testUser, "-P", testPassword, "-q", "1",
		"-t", bed3+"/feedback/from/"+testUser, "-m", feedback(named.ID)); err != nil {
		t.Fatalf("mosquitto_pub of the clinician's feedback under its name: %v: %s", err, out)
	}
	if l := firstLabel(t, b.daemon); l.AlertID != named.ID || l.Sender != testUser {
		t.Errorf("the daemon's label is on %s from %q, want %s from %q", l.AlertID, l.Sender, named.ID, testUser)
	}
}

func TestEmbeddedBrokerRefusesDaemonClientID(t *testing.T) {
	b := startAuthBroker(t, BrokerOptions{})
	watcher, _ := testConnect(t, b.Broker, "watcher", "", "")
	seen := subscribe(t, watcher, "ictal/#")
	online := waitFor(t, seen, "bed-3 online", isState(bed3+"/status", alert.StateOnline))
	id := b.cfg.ClientID

	// mosquitto_sub, anonymous, under the daemon's client ID.
	if out, err := runMosquitto(t, b.Broker, "mosquitto_sub", "-i", id, "-t", "ictal/#", "-C", "1"); err == nil {
		t.Errorf("mosquitto_sub -i %s admitted: %s", id, out)
	}
	// paho: an anonymous client under the daemon's ID (with a will like
	// the daemon's, which would say it is offline); the daemon's username
	// with another ID and a guessed password; a user, admitted under its
	// own name (its client ID), which takes nothing of the daemon's.
	for _, tt := range []struct {
		name, id, user, password, will string
		admitted                       bool
	}{
		{"anonymous", id, "", "", alert.OfflinePayload, false},
		{"user", id, testUser, testPassword, "", true},
		{"daemon's username, another password", id, id, "guessed-password", "", false},
		{"daemon's username, another ID", "ictald-2", id, "guessed-password", "", false},
	} {
		c, _, err := connect(b.Broker, tt.id, tt.user, tt.password, tt.will)
		if err == nil {
			c.Disconnect(0)
		}
		if (err == nil) != tt.admitted {
			t.Errorf("%s under client ID %s: %v, want admitted %v", tt.name, tt.id, err, tt.admitted)
		}
	}
	// The daemon is still connected: its next alert arrives with no
	// status change before it, and it connected once. (The watcher may
	// receive the daemon's first status twice, retained and live, when it
	// subscribed as the daemon published it: the same payload is no
	// change.)
	real := testEventN("ward-7", "bed-3")
	b.daemon.Alert(real)
	for _, r := range until(t, seen, "the daemon's alert", func(r received) bool { return alertID(r) == real.ID }) {
		if r.topic == bed3+"/status" && string(r.payload) != string(online.payload) {
			t.Errorf("status changed while others tried the daemon's client ID: %s", r.payload)
		}
	}
	if n := strings.Count(b.logs.String(), "mqtt: connected"); n != 1 {
		t.Errorf("the daemon connected %d times, want once:\n%s", n, b.logs.String())
	}
}

func TestEmbeddedBrokerRefusesBadCredentials(t *testing.T) {
	open := startAuthBroker(t, BrokerOptions{})
	closed := startAuthBroker(t, BrokerOptions{Anonymous: AnonymousNone})
	tests := []struct {
		name           string
		b              *authBroker
		user, password string
		will           string
		admitted       bool
	}{
		{"user", open, testUser, testPassword, "", true},
		{"wrong password", open, testUser, "alice-wrong-pass", "", false},
		{"unknown user", open, "mallory", testPassword, "", false},
		{"anonymous", open, "", "", "", true},
		{"anonymous with a will on the status", open, "", "", alert.OfflinePayload, false},
		{"user with a will on the status", open, testUser, testPassword, alert.OfflinePayload, false},
		{"anonymous refused", closed, "", "", "", false},
		{"user where anonymous is refused", closed, testUser, testPassword, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, err := connect(tt.b.Broker, "client", tt.user, tt.password, tt.will)
			if err == nil {
				c.Disconnect(0)
			}
			if (err == nil) != tt.admitted {
				t.Errorf("connect: %v, want admitted %v", err, tt.admitted)
			}
		})
	}
	// mosquitto's own client, with a wrong password.
	if out, err := runMosquitto(t, open.Broker, "mosquitto_sub", "-u", testUser, "-P", "alice-wrong-pass", "-t", "ictal/#", "-C", "1"); err == nil {
		t.Errorf("mosquitto_sub with a wrong password admitted: %s", out)
	}
}

func TestBrokerOptionsValidate(t *testing.T) {
	tests := []struct {
		name  string
		opt   BrokerOptions
		field string
	}{
		{"anonymous", BrokerOptions{Anonymous: "publish"}, "Anonymous"},
		{"missing users file", BrokerOptions{UsersFile: filepath.Join(t.TempDir(), "none")}, "UsersFile"},
		{"negative connections", BrokerOptions{MaxConnections: -1}, "MaxConnections"},
		{"too many connections", BrokerOptions{MaxConnections: 5000}, "MaxConnections"},
		{"queue beyond the unit's memory", BrokerOptions{QueueBytes: 1 << 30}, "QueueBytes"},
		{"session queue below one evidence", BrokerOptions{SessionQueueBytes: 1 << 20}, "SessionQueueBytes"},
		{"negative session queue", BrokerOptions{SessionQueueBytes: -1}, "SessionQueueBytes"},
		{"queue below the session's", BrokerOptions{SessionQueueBytes: 8 << 20, QueueBytes: 4 << 20}, "QueueBytes"},
		{"negative queue", BrokerOptions{QueueBytes: -1}, "QueueBytes"},
		{"session expiry under a second", BrokerOptions{SessionExpiry: time.Millisecond}, "SessionExpiry"},
		{"session expiry over a day", BrokerOptions{SessionExpiry: 25 * time.Hour}, "SessionExpiry"},
	}
	for _, tt := range tests {
		var ce *ConfigError
		if err := tt.opt.Validate(); !errors.As(err, &ce) || ce.Field != tt.field {
			t.Errorf("%s: %v, want a ConfigError on %s", tt.name, err, tt.field)
		}
	}
	if err := (BrokerOptions{Anonymous: AnonymousNone}).Validate(); err != nil {
		t.Errorf("valid options: %v", err)
	}
	// A session queue above the default raises the total's default with it.
	if err := (BrokerOptions{SessionQueueBytes: 32 << 20}).Validate(); err != nil {
		t.Errorf("a large session queue: %v", err)
	}
}

// TestEmbeddedBrokerDefaults: the broker runs with its documented bounds:
// abandoned sessions kept 2 hours (mochi's default is 136 years), 128
// writes pending per client (mochi's 8192 cost 64 KiB per connection).
func TestEmbeddedBrokerDefaults(t *testing.T) {
	b, err := StartBroker("127.0.0.1:0", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	caps := b.srv.Options.Capabilities
	if got := time.Duration(caps.MaximumSessionExpiryInterval) * time.Second; got != 2*time.Hour {
		t.Errorf("sessions expire after %v, want 2h", got)
	}
	if caps.MaximumClientWritesPending != brokerWritesPending || b.lis.max != DefaultBrokerConnections ||
		b.queues.sessionMax != DefaultBrokerSessionQueue || b.queues.totalMax != DefaultBrokerQueue {
		t.Errorf("writes pending %d, connections %d, session queue %d, queue %d: not the defaults", caps.MaximumClientWritesPending,
			b.lis.max, b.queues.sessionMax, b.queues.totalMax)
	}
}

// TestEmbeddedBrokerClientIDBelongsToItsUser: a user's client ID is its
// name, whatever it asks for (mosquitto's use_username_as_clientid). So
// another user connecting under the board's configured client ID, while
// the board is away, does not lock the board out, and kicks nobody when
// the board is back; an anonymous client may not use a user's name; the
// user's own second connection takes its session over.
func TestEmbeddedBrokerClientIDBelongsToItsUser(t *testing.T) {
	b := startAuthBroker(t, BrokerOptions{})
	if err := b.AddUser("ictal-board", []byte(testPassword)); err != nil {
		t.Fatal(err)
	}
	const boardID = "ictal-board-ward-7" // ictal board's default
	board, _ := testConnect(t, b.Broker, boardID, "ictal-board", testPassword)
	board.Disconnect(100) // the board restarts, say
	// Meanwhile the clinician connects under the board's client ID.
	_, aliceLost := testConnect(t, b.Broker, boardID, testUser, testPassword)
	for _, tt := range []struct {
		name, id string
		admitted bool
	}{
		{"the board's configured ID", boardID, true},
		{"the board's name", "ictal-board", false},
		{"a user's name", testUser, false},
	} {
		c, _, err := connect(b.Broker, tt.id, "", "", "")
		if err == nil {
			c.Disconnect(0)
		}
		if (err == nil) != tt.admitted {
			t.Errorf("anonymous under %s (%s): %v, want admitted %v", tt.name, tt.id, err, tt.admitted)
		}
	}
	// The board is back, under its configured ID; the alert published
	// now reaches it, and the clinician is still connected.
	board, boardLost := testConnect(t, b.Broker, boardID, "ictal-board", testPassword)
	seen := subscribe(t, board, bed3+"/alert")
	e := testEventN("ward-7", "bed-3")
	b.daemon.Alert(e)
	waitFor(t, seen, "the alert", func(r received) bool { return alertID(r) == e.ID })
	select {
	case <-aliceLost:
		t.Error("the board's connection kicked the clinician's")
	default:
	}
	// The board's own second connection, under any ID, takes its session
	// over.
	c, _, err := connect(b.Broker, "ictal-board-desk-2", "ictal-board", testPassword, "")
	if err != nil {
		t.Fatalf("the user's own second connection refused: %v", err)
	}
	defer c.Disconnect(0)
	<-boardLost // the first connection is taken over by the second
}
