package mqtt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

// The password file of the security tests.
var testUsers = map[string]string{
	"ictald-ward-7-bed-3": "bed3-Zq8!pass",
	"ictald-ward-7-bed-4": "bed4-Lm2?pass",
	"clinician-alice":     "alice-Wx5%pass",
	"ictal-board":         "board-Tr7&pass",
}

// startSecureMosquitto runs mosquitto with a TLS listener requiring a
// client certificate, a password file, the ACL of testdata and client IDs
// bound to usernames (the configuration README.md documents).
func startSecureMosquitto(t *testing.T) (*mosquittotest.Broker, *mosquittotest.PKI) {
	acl, err := os.ReadFile(filepath.Join("testdata", "mosquitto", "acl"))
	if err != nil {
		t.Fatal(err)
	}
	pki := mosquittotest.NewPKI(t)
	return mosquittotest.Start(t, mosquittotest.Opts{Users: testUsers, ACL: string(acl), PKI: pki, MaxPacketSize: maxPacketSize,
		UsernameAsClientID: true}), pki
}

// secureConn is user's connection to b with the test PKI.
func secureConn(b *mosquittotest.Broker, pki *mosquittotest.PKI, user string) Connection {
	return Connection{Brokers: []string{b.URL("ssl")}, CAFile: pki.CA, CertFile: pki.ClientCert, KeyFile: pki.ClientKey,
		Username: user, Password: testUsers[user], ConnectTimeout: 2 * time.Second}
}

func TestMQTTTLSPasswordsAndPerBedACL(t *testing.T) {
	b, pki := startSecureMosquitto(t)
	const bed3 = "ictal/ward-7/bed-3"

	// The daemon reads its password from a file.
	pwFile := filepath.Join(t.TempDir(), "mqtt-password")
	if err := os.WriteFile(pwFile, []byte(testUsers["ictald-ward-7-bed-3"]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := testMQTTConfig(t, b.URL("ssl"))
	cfg.Connection = secureConn(b, pki, "ictald-ward-7-bed-3")
	cfg.Password, cfg.PasswordFile = "", pwFile
	cfg.ServerName = "broker.ward-7.test" // in the server certificate
	alice := testClient(t, secureConn(b, pki, "clinician-alice"), "alice", true)
	seen := subscribe(t, alice, "ictal/ward-7/#")
	m := newTestMQTT(t, cfg, nil)

	waitFor(t, seen, "bed-3 online, read by the clinician", isState(bed3+"/status", alert.StateOnline))
	real1 := testEventN("ward-7", "bed-3")
	m.Alert(real1)
	waitFor(t, seen, "bed-3's alert", func(r received) bool { return alertID(r) == real1.ID })

	// Forgeries: another bed's daemon and the clinician publish on bed-3's
	// alert topic; another bed's daemon sends bed-3 feedback. The broker
	// acknowledges them (MQTT 3.1.1) and discards them. Then the clinician
	// sends two invalid and one valid feedback.
	bed4 := testClient(t, secureConn(b, pki, "ictald-ward-7-bed-4"), "ictald-ward-7-bed-4", true)
	forged := testEventN("ward-7", "bed-3")
	for i, p := range []struct {
		c       paho.Client
		topic   string
		payload string
	}{
		{bed4, bed3 + "/alert", string(alert.AppendAlert(nil, forged))},
		{alice, bed3 + "/alert", string(alert.AppendAlert(nil, forged))},
		{bed4, bed3 + "/status", alert.OfflinePayload},
		{bed4, bed3 + "/feedback", `{"v":1,"alert_id":"` + forged.ID + `","verdict":"confirmed"}`},
		{alice, bed3 + "/feedback", `{"v":1,"alert_id":"` + real1.ID + `","verdict":"maybe"}`},
		{alice, bed3 + "/feedback", `{"v":1,"alert_id":"` + real1.ID + `","verdict":"confirmed"}` + strings.Repeat(" ", alert.MaxFeedbackSize)},
		{alice, bed3 + "/feedback", `{"v":1,"alert_id":"` + real1.ID + `","verdict":"rejected"}`},
	} {
		tok := p.c.Publish(p.topic, 1, false, p.payload)
		if !tok.Wait() || tok.Error() != nil {
			t.Fatalf("publish %d: %v", i, tok.Error())
		}
	}
	if lab := <-m.Labels(); lab.AlertID != real1.ID || lab.Seizure {
		t.Errorf("first label %+v; want the clinician's rejection of %s", lab, real1.ID)
	}
	// The label is counted just after it is handed over: wait for it.
	s := m.Stats()
	for ; s.Labels < 1; s = m.Stats() {
		time.Sleep(time.Millisecond)
	}
	if s.RejectedFeedback != 2 || s.Labels != 1 {
		t.Errorf("stats %+v: want 2 rejected, 1 label", s)
	}
	// The clinician is answered: each malformed message is refused, on
	// bed-3's feedback/ack topic, with the reason (in either order: the
	// test client takes messages concurrently).
	want := map[string]bool{`field \"verdict\"`: false, "more than 4096": false}
	for range want {
		waitFor(t, seen, "the two refusals", func(r received) bool {
			if r.topic != bed3+"/feedback/ack" || !strings.Contains(string(r.payload), `"status":"refused"`) {
				return false
			}
			for why, got := range want {
				if !got && strings.Contains(string(r.payload), why) {
					want[why] = true
					return true
				}
			}
			return false
		})
	}
	// Feedback under the clinician's own name carries it as the sender; the
	// broker refuses the same under another's.
	for _, p := range []struct{ topic, id string }{{bed3 + "/feedback/from/clinician-bob", forged.ID}, {bed3 + "/feedback/from/clinician-alice", real1.ID}} {
		if tok := alice.Publish(p.topic, 1, false, `{"v":1,"alert_id":"`+p.id+`","verdict":"confirmed"}`); !tok.Wait() || tok.Error() != nil {
			t.Fatalf("publish on %s: %v", p.topic, tok.Error())
		}
	}
	if lab := <-m.Labels(); lab.AlertID != real1.ID || lab.Sender != "clinician-alice" {
		t.Errorf("label %+v; want the confirmation of %s from sender clinician-alice", lab, real1.ID)
	}
	// The clinician saw no forged alert or status before the next real alert.
	real2 := testEventN("ward-7", "bed-3")
	m.Alert(real2)
	waitFor(t, seen, "the second alert", func(r received) bool {
		if alertID(r) == forged.ID || isState(bed3+"/status", alert.StateOffline)(r) {
			t.Errorf("forgery delivered: %s %s", r.topic, r.payload)
		}
		return alertID(r) == real2.ID
	})
}

func TestMQTTSecretsNeverLogged(t *testing.T) {
	b, pki := startSecureMosquitto(t)
	const secret = "Secr3t-Never-In-Logs"
	pwFile := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pwFile, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, wantErr string
		conn          func() Connection
	}{
		{"wrong password", "not Authorized", func() Connection {
			c := secureConn(b, pki, "ictald-ward-7-bed-3")
			c.Password = secret
			return c
		}},
		{"password file, wrong user", "not Authorized", func() Connection {
			c := secureConn(b, pki, "nobody")
			c.Password, c.PasswordFile = "", pwFile
			return c
		}},
		{"broker certificate from an unknown CA", "certificate", func() Connection {
			c := secureConn(b, pki, "ictald-ward-7-bed-3")
			c.Password, c.CAFile = secret, pki.OtherCA
			return c
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log, buf := testLogger()
			cfg := testMQTTConfig(t, "")
			cfg.Connection = tt.conn()
			m := newTestMQTT(t, cfg, log)
			m.Alert(testEventN("ward-7", "bed-3"))
			for !strings.Contains(buf.String(), "connection attempt failed") {
				time.Sleep(20 * time.Millisecond)
			}
			m.Close()
			out := buf.String()
			if !strings.Contains(out, tt.wantErr) {
				t.Errorf("log does not say %q:\n%s", tt.wantErr, out)
			}
			if strings.Contains(out, secret) {
				t.Errorf("the password is in the log:\n%s", out)
			}
		})
	}
}

// TestMQTTBrokerDisconnectsOversizePackets: the documented broker
// configuration bounds packets (max_packet_size), so that a user allowed
// to publish feedback cannot send the daemon a message of hundreds of
// megabytes, which paho would allocate whole on a small board: mosquitto
// disconnects the sender, and the daemon still takes the next feedback.
func TestMQTTBrokerDisconnectsOversizePackets(t *testing.T) {
	b, pki := startSecureMosquitto(t)
	cfg := testMQTTConfig(t, b.URL("ssl"))
	cfg.Connection = secureConn(b, pki, "ictald-ward-7-bed-3")
	m := newTestMQTT(t, cfg, nil)
	waitAcked(t, m, 0)
	// alice does not reconnect once mosquitto has thrown her out: with
	// use_username_as_clientid her connection and the next one are both
	// "clinician-alice", and a reconnection racing the next one would
	// take the client ID from it (as it did under qemu in cross/test).
	aliceConn := secureConn(b, pki, "clinician-alice")
	opts, err := aliceConn.ClientOptions("alice-big")
	if err != nil {
		t.Fatal(err)
	}
	alice := paho.NewClient(opts.SetCleanSession(true).SetAutoReconnect(false).SetConnectRetry(false))
	if tok := alice.Connect(); !tok.Wait() || tok.Error() != nil {
		t.Fatalf("alice: connect: %v", tok.Error())
	}
	big := `{"v":1,"alert_id":"x","verdict":"confirmed"}` + strings.Repeat(" ", 2*maxPacketSize)
	alice.Publish(bed3+"/feedback", 0, false, big).Wait()
	// mosquitto names the client by its user (use_username_as_clientid).
	waitUntil(t, "mosquitto disconnects the sender", func() bool { return strings.Contains(b.Log(), "clinician-alice disconnected due to oversize packet") })
	alice.Disconnect(0)
	e := testEventN("ward-7", "bed-3")
	next := testClient(t, secureConn(b, pki, "clinician-alice"), "alice", true)
	if tok := next.Publish(bed3+"/feedback", 1, false, `{"v":1,"alert_id":"`+e.ID+`","verdict":"rejected"}`); !tok.Wait() || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	if lab := <-m.Labels(); lab.AlertID != e.ID {
		t.Errorf("label %+v, want the rejection of %s", lab, e.ID)
	}
	if s := m.Stats(); s.RejectedFeedback != 0 {
		t.Errorf("%d feedback messages refused by the daemon: the oversize one reached it", s.RejectedFeedback)
	}
}

// TestReadmeDocumentsTheTestedACL: README.md shows the very ACL file the
// security test runs mosquitto with.
func TestReadmeDocumentsTheTestedACL(t *testing.T) {
	acl, err := os.ReadFile(filepath.Join("testdata", "mosquitto", "acl"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```\n"+string(acl)+"```\n") {
		t.Error("README.md does not quote testdata/mosquitto/acl verbatim")
	}
	for _, directive := range []string{"require_certificate true", "allow_anonymous false", "password_file", "acl_file", "persistence true", "tls_version tlsv1.2",
		fmt.Sprintf("max_packet_size %d", maxPacketSize), "use_username_as_clientid true"} {
		if !strings.Contains(string(readme), directive) {
			t.Errorf("README.md's mosquitto configuration lacks %q", directive)
		}
	}
}

// TestMosquittoClientIDsBoundToUsers: with the documented configuration
// (use_username_as_clientid) a user connecting under the daemon's or the
// ward board's client ID gets a session under its own name and kicks
// neither (issue 32: without it, a clinician's mosquitto_sub -i
// ictald-ward-7-bed-3 disconnected the daemon at every reconnection and
// its alerts arrived up to a minute late). The daemon connects once and
// never loses its connection, the board neither, and every alert reaches
// the board (under its own user and ACL block, with a persistent session
// as ictal board has).
func TestMosquittoClientIDsBoundToUsers(t *testing.T) {
	b, pki := startSecureMosquitto(t)
	log, logs := testLogger()
	cfg := testMQTTConfig(t, b.URL("ssl"))
	cfg.Connection = secureConn(b, pki, "ictald-ward-7-bed-3")
	m := newTestMQTT(t, cfg, log)

	const boardID = "ictal-board-ward-7" // ictal board's default client ID
	bc := secureConn(b, pki, "ictal-board")
	opts, err := bc.ClientOptions(boardID)
	if err != nil {
		t.Fatal(err)
	}
	var boardLost atomic.Int32
	opts.SetCleanSession(false).SetAutoReconnect(true).SetMaxReconnectInterval(200 * time.Millisecond).
		SetConnectionLostHandler(func(paho.Client, error) { boardLost.Add(1) })
	board := paho.NewClient(opts)
	if tok := board.Connect(); !tok.Wait() || tok.Error() != nil {
		t.Fatalf("the board: connect: %v", tok.Error())
	}
	t.Cleanup(func() { board.Disconnect(100) })
	seen := subscribe(t, board, "ictal/ward-7/#")
	waitAcked(t, m, 0)

	daemonID := m.Config().ClientID // ictald-ward-7-bed-3, its username
	for i, id := range []string{daemonID, boardID, daemonID, boardID} {
		// The clinician, as mosquitto_sub -i ID would; mosquitto admits
		// her, under her own name.
		alice := testClient(t, secureConn(b, pki, "clinician-alice"), id, true)
		e := testEventN("ward-7", "bed-3")
		m.Alert(e)
		// The alert arrives, unless the daemon or the board was kicked
		// off first: then the test stops, not to wait for their
		// reconnection.
		kicked := func() bool { return boardLost.Load() > 0 || strings.Contains(logs.String(), "connection lost") }
		for arrived := false; !arrived && !kicked(); {
			select {
			case r := <-seen:
				arrived = alertID(r) == e.ID
			case <-time.After(5 * time.Millisecond):
			}
		}
		if kicked() {
			t.Fatalf("the clinician under client ID %s (%d) kicked the daemon or the board (board lost %d times):\n%s", id, i, boardLost.Load(), logs.String())
		}
		alice.Disconnect(100)
	}
	if n := strings.Count(logs.String(), "mqtt: connected"); n != 1 || strings.Contains(logs.String(), "connection lost") {
		t.Errorf("the daemon connected %d times (want once, never losing its connection):\n%s", n, logs.String())
	}
	if n := boardLost.Load(); n != 0 {
		t.Errorf("the board lost its connection %d times", n)
	}
}
