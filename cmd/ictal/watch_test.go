package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
	"github.com/ictal/ictal/internal/syncbuf"
)

func TestWatchLine(t *testing.T) {
	at := time.Date(2026, 11, 21, 9, 30, 20, 0, time.UTC)
	loc := func(s string) string { // a UTC clock time as the local one printed
		tt, _ := time.Parse(time.RFC3339, "2026-11-21T"+s+"Z")
		return tt.Local().Format("15:04:05")
	}
	prefix := at.Local().Format("2006-01-02 15:04:05") + "  ward-7/bed-3  "
	e := &alert.Event{ID: "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", Site: "ward-7", Bed: "bed-3",
		Onset: at.Add(-5 * time.Second), DetectedAt: at, End: at.Add(40 * time.Second), Score: 0.934, Algorithm: "UOB", Channels: []string{"T7-P7", "F7-T7"}}
	tests := []struct {
		name, topic, payload string
		retained             bool
		want                 string
	}{
		{"alert", "ictal/ward-7/bed-3/alert", string(alert.AppendAlert(nil, e)), false,
			prefix + "SEIZURE ALERT  onset " + loc("09:30:15") + "  score 0.93  channels T7-P7,F7-T7  (UOB, id 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b)"},
		{"motor alert", "ictal/ward-7/bed-3/alert", string(alert.AppendAlert(nil, withKind(e, alert.KindMotor))), false,
			prefix + "MOTOR SEIZURE ALERT (convulsive)  onset " + loc("09:30:15") + "  score 0.93  channels T7-P7,F7-T7  (UOB, id 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b)"},
		{"status epilepticus alert", "ictal/ward-7/bed-3/alert", string(alert.AppendAlert(nil, withKind(e, alert.KindStatusEpilepticus))), false,
			prefix + "STATUS EPILEPTICUS ALERT (seizure lasting 5 min or more)  onset " + loc("09:30:15") + "  score 0.93  channels T7-P7,F7-T7  (UOB, id 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b)"},
		{"seizure kind written out", "ictal/ward-7/bed-3/alert", strings.Replace(string(alert.AppendAlert(nil, e)), `]}`, `],"kind":"seizure"}`, 1), false,
			prefix + "SEIZURE ALERT  onset " + loc("09:30:15") + "  score 0.93  channels T7-P7,F7-T7  (UOB, id 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b)"},
		{"unknown kind", "ictal/ward-7/bed-3/alert", `{"v":1,"id":"x","onset":"2026-11-21T09:30:15Z","score":1,"kind":"absence"}`, false,
			prefix + `MALFORMED alert message (field "kind": "absence" is not a kind of the contract (seizure, motor or status-epilepticus)): "{\"v\":1,\"id\":\"x\",\"onset\":\"2026-11-21T09:30:15Z\",\"score\":1,\"kind\":\"absence\"}"`},
		{"event end", "ictal/ward-7/bed-3/end", string(alert.AppendEventEnd(nil, e)), false,
			prefix + "seizure ended  onset " + loc("09:30:15") + "  end " + loc("09:31:00") + "  (id 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b)"},
		{"retained status", "ictal/ward-7/bed-3/status", string(alert.AppendStatus(nil, alert.Status{State: alert.StateElectrodeOff, Since: at})), true,
			prefix + "status ELECTRODE-OFF since " + loc("09:30:20") + "  (retained)"},
		{"artifact", "ictal/ward-7/bed-3/status", string(alert.AppendStatus(nil, alert.Status{State: alert.StateArtifact, Since: at, Artifact: "muscle", Channels: []string{"C3", "P7"}})), false,
			prefix + "status ARTIFACT (muscle on C3,P7) since " + loc("09:30:20")},
		{"electrode off, scored around", "ictal/ward-7/bed-3/status", string(alert.AppendStatus(nil, alert.Status{State: alert.StateElectrodeOff, Since: at, Channels: []string{"T7"}, Scored: 22})), false,
			prefix + "status ELECTRODE-OFF (T7) since " + loc("09:30:20") + ", monitoring the other 22 channels"},
		{"blink, scored around", "ictal/ward-7/bed-3/status", string(alert.AppendStatus(nil, alert.Status{State: alert.StateArtifact, Since: at, Artifact: "eye", Channels: []string{"Fp1", "Fp2"}, Scored: 6})), false,
			prefix + "status ARTIFACT (eye on Fp1,Fp2) since " + loc("09:30:20") + ", monitoring the other 6 channels"},
		{"settling", "ictal/ward-7/bed-3/status", string(alert.AppendStatus(nil, alert.Status{State: alert.StateArtifact, Since: at, Artifact: "settling"})), false,
			prefix + "status ARTIFACT (settling) since " + loc("09:30:20")},
		{"last will", "ictal/ward-7/bed-3/status", alert.OfflinePayload, true, prefix + "status OFFLINE: monitor not connected  (retained)"},
		{"score", "ictal/ward-7/bed-3/score", string(alert.AppendScore(nil, alert.Score{T: at, Score: 0.25})), false, prefix + "score 0.250 at " + loc("09:30:20")},
		{"feedback", "ictal/ward-7/bed-3/feedback", `{"v":1,"alert_id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","verdict":"confirmed"}`, false,
			prefix + "feedback: alert 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b confirmed"},
		{"evidence", "ictal/ward-7/bed-3/evidence", string(alert.AppendEvidence(nil, &alert.Evidence{AlertID: e.ID, Rate: 256, Channels: []string{"T7", "F7"}, Samples: [][]float32{make([]float32, 512*13), make([]float32, 512*13)}})), false,
			prefix + "evidence for alert 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b: T7,F7, 26.0 s at 256 Hz"},
		{"ack applied", "ictal/ward-7/bed-3/feedback/ack", string(alert.AppendAck(nil, alert.Ack{AlertID: e.ID, Verdict: "confirmed", By: "alice", Applied: true, Windows: 9, At: at})), false,
			prefix + "feedback APPLIED: confirmed alert 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b by alice, learned on 9 windows"},
		{"ack refused", "ictal/ward-7/bed-3/feedback/ack", string(alert.AppendAck(nil, alert.Ack{Reason: "not JSON", At: at})), false,
			prefix + "feedback REFUSED: a malformed message: not JSON"},
		{"ack of a correction", "ictal/ward-7/bed-3/feedback/ack", string(alert.AppendAck(nil, alert.Ack{AlertID: e.ID, Verdict: "rejected", By: "bob", Sender: "clinician-bob",
			Applied: true, Windows: 9, Replaced: 9, FinalAt: at.Add(time.Minute), Note: `replaces the seizure label by "alice" on 9 windows (it was within its grace period)`, At: at})), false,
			prefix + "feedback APPLIED: rejected alert 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b by bob (sender clinician-bob), learned on 9 windows, final at " +
				at.Add(time.Minute).Local().Format("15:04:05") + `; replaces the seizure label by "alice" on 9 windows (it was within its grace period)`},
		{"feedback under a name", "ictal/ward-7/bed-3/feedback/from/clinician-bob", `{"v":1,"alert_id":"` + e.ID + `","verdict":"rejected"}`, false,
			prefix + "feedback: alert 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b rejected"},
		{"bad evidence", "ictal/ward-7/bed-3/evidence", `{"v":1}`, false, prefix + `MALFORMED evidence message (alert: invalid evidence: field "alert_id": "" is not a UUID): "{\"v\":1}"`},
		{"not JSON", "ictal/ward-7/bed-3/alert", "SEIZURE!!", false, prefix + `MALFORMED alert message (invalid JSON: invalid character 'S' looking for beginning of value): "SEIZURE!!"`},
		{"wrong version", "ictal/ward-7/bed-3/status", `{"v":2,"state":"online"}`, false, prefix + `MALFORMED status message ("v" is not 1): "{\"v\":2,\"state\":\"online\"}"`},
		{"unknown state", "ictal/ward-7/bed-3/status", `{"v":1,"state":"asleep","since":"2026-11-21T09:30:20Z"}`, false, prefix + `MALFORMED status message (unknown state "asleep"): "{\"v\":1,\"state\":\"asleep\",\"since\":\"2026-11-21T09:30:20Z\"}"`},
		{"alert without onset", "ictal/ward-7/bed-3/alert", `{"v":1,"id":"x","score":1}`, false, prefix + `MALFORMED alert message ("onset": "" is not an RFC 3339 time): "{\"v\":1,\"id\":\"x\",\"score\":1}"`},
		{"long binary payload cut", "ictal/ward-7/bed-3/alert", "\xff" + strings.Repeat("a", 200), false, prefix + `MALFORMED alert message (not UTF-8): "\xff` + strings.Repeat("a", 119) + `"… (201 bytes)`},
		{"unknown topic", "ictal/ward-7/bed-3/video", `{"v":1}`, false, prefix[:len(prefix)-len("ward-7/bed-3  ")] + `ward-7/bed-3  MALFORMED video message (unknown topic kind "video"): "{\"v\":1}"`},
		// Escape sequences and bidirectional overrides from the network
		// reach the terminal escaped.
		{"escapes in an alert", "ictal/ward-7/bed-3/alert",
			strings.Replace(strings.Replace(string(alert.AppendAlert(nil, e)), `"UOB"`, `"UOB\u001b]0;pwned\u0007\u001b[2J"`, 1), `"T7-P7"`, `"T7\u202eP7\u009b"`, 1), false,
			prefix + `SEIZURE ALERT  onset ` + loc("09:30:15") + `  score 0.93  channels T7\u202eP7\u009b,F7-T7  (UOB\x1b]0;pwned\a\x1b[2J, id 8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b)`},
		{"escapes in the topic", "ictal/ward-7/bed-\x1b[31m3/score", string(alert.AppendScore(nil, alert.Score{T: at, Score: 0.25})), false,
			prefix[:len(prefix)-len("ward-7/bed-3  ")] + `ward-7/bed-\x1b[31m3  score 0.250 at ` + loc("09:30:20")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := watchLine(tt.topic, []byte(tt.payload), tt.retained, at); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// withKind returns a copy of e of the given kind.
func withKind(e *alert.Event, kind string) *alert.Event {
	c := *e
	c.Kind = kind
	return &c
}

// FuzzWatchLine: whatever topic and payload arrive, the line printed
// holds printable UTF-8 only: no byte the terminal would take as a
// control.
func FuzzWatchLine(f *testing.F) {
	at := time.Date(2026, 11, 21, 9, 30, 20, 0, time.UTC)
	e := &alert.Event{ID: "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", Site: "ward-7", Bed: "bed-3",
		Onset: at, DetectedAt: at, Score: 0.5, Algorithm: "UOB\x1b[2J", Channels: []string{"T7\u202e"}}
	f.Add("ictal/ward-7/bed-3/alert", alert.AppendAlert(nil, e))
	f.Add("ictal/ward-7/bed-3/alert", alert.AppendAlert(nil, withKind(e, alert.KindMotor)))
	f.Add("ictal/ward-7/bed-3/alert", alert.AppendAlert(nil, withKind(e, "motor\u001b[2J")))
	f.Add("ictal/ward-7/bed-3/status", alert.AppendStatus(nil, alert.Status{State: alert.StateArtifact, Since: at, Artifact: "eye\a", Channels: []string{"Fp1"}}))
	f.Add("ictal/w/b/feedback/from/\x9b", []byte(`{"v":1,"alert_id":"\u001b","verdict":"confirmed"}`))
	f.Add("ictal/w/b/feedback/ack", []byte("\xff\x1b"))
	f.Fuzz(func(t *testing.T, topic string, payload []byte) {
		line := watchLine(topic, payload, false, at)
		if !utf8.ValidString(line) {
			t.Fatalf("line not UTF-8: %q", line)
		}
		if i := strings.IndexFunc(line, func(r rune) bool { return !unicode.IsPrint(r) }); i >= 0 {
			t.Fatalf("line holds %q at byte %d: %q", line[i:i+1], i, line)
		}
	})
}

// testMosquitto is mosquitto admitting anonymous clients to everything.
type testMosquitto struct{ *mosquittotest.Broker }

// URL returns the broker's tcp:// URL.
func (b testMosquitto) URL() string { return b.Broker.URL("tcp") }

// testBroker starts the broker of the command tests: an anonymous
// mosquitto, since they publish alerts and status as anybody, which the
// embedded broker allows its bed's daemon alone.
func testBroker(t *testing.T) testMosquitto {
	t.Helper()
	return testMosquitto{mosquittotest.Start(t, mosquittotest.Opts{})}
}

func TestWatchPrintsAlertsStatusAndMalformed(t *testing.T) {
	b := testBroker(t)
	pub := mosquittotest.Client(t, b.URL(), "test-publisher")
	now := time.Now()
	mosquittotest.Publish(t, pub, "ictal/ward-7/bed-3/status", true, alert.AppendStatus(nil, alert.Status{State: alert.StateOnline, Since: now}))
	// The retained status is printed once: a watcher whose client
	// subscribed twice on connecting (paho resuming a stored SUBSCRIBE
	// beside onConnect's) printed it twice, both retained (2 runs in 8).

	var stdout, stderr syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- runWatch([]string{"-broker", b.URL(), "-count", "4"}, &stdout, &stderr) }()
	for !strings.Contains(stdout.String(), "status online") {
		select {
		case err := <-done:
			t.Fatalf("watch ended: %v\n%s", err, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	e := &alert.Event{ID: alert.NewID(), Site: "ward-7", Bed: "bed-3", Onset: now, DetectedAt: now, Score: 0.9, Algorithm: "UOB", Channels: []string{"T7-P7"}}
	mosquittotest.Publish(t, pub, "ictal/ward-7/bed-3/score", false, alert.AppendScore(nil, alert.Score{T: now, Score: 0.9})) // not shown without -scores
	mosquittotest.Publish(t, pub, "ictal/ward-7/bed-3/alert", false, alert.AppendAlert(nil, e))
	mosquittotest.Publish(t, pub, "ictal/ward-7/bed-3/alert", false, []byte("{not json"))
	mosquittotest.Publish(t, pub, "ictal/ward-7/bed-3/status", false, []byte(alert.OfflinePayload))
	err := <-done
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	want := []string{"status online since", "SEIZURE ALERT  onset", "MALFORMED alert message", "status OFFLINE"}
	if len(lines) != len(want) {
		t.Fatalf("printed:\n%s", stdout.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], "ward-7/bed-3  "+w) {
			t.Errorf("line %d %q does not say %q", i, lines[i], w)
		}
	}
	if !strings.Contains(lines[1], e.ID) || !strings.HasSuffix(lines[0], "(retained)") {
		t.Errorf("printed:\n%s", stdout.String())
	}
}

func TestWatchFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if err := runWatch([]string{"-broker", "tcp://127.0.0.1:1", "-timeout", "200ms"}, &out, &errb); err == nil || !strings.Contains(err.Error(), "connect to tcp://127.0.0.1:1") {
		t.Errorf("unreachable broker: %v", err)
	}
	if err := runWatch([]string{"-broker", "ftp://x"}, &out, &errb); err == nil || !strings.Contains(err.Error(), `scheme "ftp"`) {
		t.Errorf("bad scheme: %v", err)
	}
	if err := runWatch([]string{"stray"}, &out, &errb); err == nil {
		t.Error("stray argument accepted")
	}
}

// A watcher's session is persistent: an alert published while it is away
// is printed when it comes back under the same client ID; with -clean it
// is not.
// markerSince is the time of the live marker's status (any fixed time).
var markerSince = time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)

func TestWatchPersistentSessionMissesNothing(t *testing.T) {
	b := testBroker(t)
	pub := mosquittotest.Client(t, b.URL(), "test-publisher")
	// watch runs ictal watch until it has printed n lines. Once it is
	// connected, a live status marker is published, so that a watcher
	// that missed what it should have printed still prints n lines and
	// the test fails instead of waiting. The marker goes with QoS 0: when
	// it is sent just after the watcher left, the broker does not queue
	// it for the watcher's persistent session (it would stand in the next
	// run's backlog in place of what that run must print).
	watch := func(n int, args ...string) string {
		var stdout, stderr syncbuf.Buffer
		done := make(chan error, 1)
		go func() {
			done <- runWatch(append([]string{"-broker", b.URL(), "-count", strconv.Itoa(n)}, args...), &stdout, &stderr)
		}()
		for marked := false; ; {
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("watch %v: %v\n%s", args, err, stderr.String())
				}
				return stdout.String()
			case <-time.After(10 * time.Millisecond):
				if !marked && strings.Contains(stderr.String(), "watching") {
					marked = true
					if tok := pub.Publish("ictal/ward-7/bed-9/status", 0, false, alert.AppendStatus(nil, alert.Status{State: alert.StateSignalLost, Since: markerSince})); !tok.Wait() || tok.Error() != nil {
						t.Fatalf("publish the marker: %v", tok.Error())
					}
				}
			}
		}
	}
	now := time.Now()
	first := &alert.Event{ID: alert.NewID(), Site: "ward-7", Bed: "bed-3", Onset: now, DetectedAt: now, Score: 0.9, Algorithm: "UOB"}
	away := &alert.Event{ID: alert.NewID(), Site: "ward-7", Bed: "bed-3", Onset: now, DetectedAt: now, Score: 0.8, Algorithm: "UOB"}

	// Join the session and leave it: subscribe, see the retained status.
	mosquittotest.Publish(t, pub, "ictal/ward-7/bed-3/status", true, alert.AppendStatus(nil, alert.Status{State: alert.StateOnline, Since: now}))
	if out := watch(1, "-client-id", "desk-1"); !strings.Contains(out, "status online") {
		t.Fatalf("first run printed:\n%s", out)
	}
	// While nobody watches, an alert: the next run prints it (and the
	// retained status again, in either order).
	mosquittotest.Publish(t, pub, "ictal/ward-7/bed-3/alert", false, alert.AppendAlert(nil, first))
	if out := watch(2, "-client-id", "desk-1"); !strings.Contains(out, first.ID) {
		t.Fatalf("the alert published while away was not printed on return:\n%s", out)
	}
	// A clean session sees nothing of what was published before it
	// connected but the retained status.
	mosquittotest.Publish(t, pub, "ictal/ward-7/bed-3/alert", false, alert.AppendAlert(nil, away))
	if out := watch(1, "-client-id", "desk-2", "-clean"); strings.Contains(out, away.ID) || !strings.Contains(out, "status online") {
		t.Fatalf("clean session printed:\n%s", out)
	}
}
