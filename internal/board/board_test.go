package board

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

func TestParseTopic(t *testing.T) {
	tests := []struct {
		topic, bed, kind string
		ok               bool
	}{
		{"ictal/ward-7/bed-3/alert", "bed-3", "alert", true},
		{"ictal/ward-7/bed-3/feedback/ack", "bed-3", "feedback/ack", true},
		{"ictal/ward-7/bed-3/evidence", "bed-3", "evidence", true},
		{"ictal/ward-7/bed-3/feedback", "bed-3", "feedback", true},
		{"ictal/ward-7/bed-3/feedback/from/clinician-alice", "bed-3", "feedback", true},
		{"ictal/ward-7/bed-3/feedback/from/", "", "", false},
		{"ictal/ward-7/bed-3/feedback/from/a/b", "", "", false},
		{"ictal/ward-8/bed-3/alert", "", "", false},
		{"ictal/ward-7/bed 3/alert", "", "", false},
		{"ictal/ward-7/<script>/alert", "", "", false},
		{"ictal/ward-7/bed-3/other", "", "", false},
		{"ictal/ward-7/bed-3", "", "", false},
		{"ictal/ward-7//alert", "", "", false},
	}
	for _, tt := range tests {
		bed, kind, ok := parseTopic(testSite, tt.topic)
		if bed != tt.bed || kind != tt.kind || ok != tt.ok {
			t.Errorf("parseTopic(%q) = %q, %q, %v; want %q, %q, %v", tt.topic, bed, kind, ok, tt.bed, tt.kind, tt.ok)
		}
	}
}

// TestIngestBoundsTheBeds: messages that would add a bed beyond maxBeds
// are dropped with a log line; the beds the board has keep being updated.
func TestIngestBoundsTheBeds(t *testing.T) {
	s, logs := newServer(t, testConfig(t, ""))
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) // the beds' signal time; no clock is read
	status := alert.AppendStatus(nil, alert.Status{State: alert.StateOnline, Since: now})
	for i := range maxBeds + 1 {
		s.ingest(topic(fmt.Sprintf("bed-%d", i), "status"), status, now)
	}
	s.ingest(topic("bed-0", "score"), alert.AppendScore(nil, alert.Score{T: now, Score: 0.5}), now)
	s.ward.mu.Lock()
	beds, scored := len(s.ward.beds), len(s.ward.beds["bed-0"].Scores)
	s.ward.mu.Unlock()
	if beds != maxBeds || scored != 1 {
		t.Errorf("%d beds, bed-0 scored %d times; want %d and 1", beds, scored, maxBeds)
	}
	if !strings.Contains(logs.String(), fmt.Sprintf(`bed \"bed-%d\" would be one more than the %d beds`, maxBeds, maxBeds)) {
		t.Errorf("the refused bed is not logged:\n%s", logs)
	}
}

func TestIngestDropsMalformedAndOversizedMessages(t *testing.T) {
	s, logs := newServer(t, testConfig(t, ""))
	now := time.Now()
	e := testEvent("bed-3", now)
	good := alert.AppendAlert(nil, e)
	ev := alert.AppendEvidence(nil, testEvidence(e))
	huge := append([]byte(`{"v":1,"alert_id":"`+e.ID+`","pad":"`), make([]byte, alert.MaxEvidenceSize)...)
	bad := []struct{ name, topic, payload string }{
		{"alert not JSON", topic("bed-3", "alert"), `{"v":1,`},
		{"alert unknown field", topic("bed-3", "alert"), strings.Replace(string(good), `"v":1`, `"v":1,"x":2`, 1)},
		{"alert of another bed", topic("bed-4", "alert"), string(good)},
		{"alert oversized", topic("bed-3", "alert"), string(good[:len(good)-1]) + `,"algorithm":"` + strings.Repeat("x", alert.MaxAlertSize) + `"}`},
		{"alert score NaN-ish", topic("bed-3", "alert"), strings.Replace(string(good), `"score":0.93`, `"score":7`, 1)},
		{"alert of an unknown kind", topic("bed-3", "alert"), strings.Replace(string(good), `]}`, `],"kind":"absence"}`, 1)},
		{"evidence truncated", topic("bed-3", "evidence"), string(ev[:len(ev)/2])},
		{"evidence oversized", topic("bed-3", "evidence"), string(huge)},
		{"status unknown state", topic("bed-3", "status"), `{"v":1,"state":"asleep","since":"2026-11-21T10:00:00Z"}`},
		{"score out of range", topic("bed-3", "score"), `{"v":1,"t":"2026-11-21T10:00:00Z","score":-1}`},
		{"ack malformed", topic("bed-3", "feedback/ack"), `{"v":1,"status":"maybe"}`},
		{"bed not an identifier", "ictal/ward-7/bed%3/alert", string(good)},
	}
	for _, b := range bad {
		before := strings.Count(logs.String(), "dropped")
		s.ingest(b.topic, []byte(b.payload), now)
		if strings.Count(logs.String(), "dropped") != before+1 {
			t.Errorf("%s: no drop logged; log:\n%s", b.name, logs.String())
		}
	}
	if n := s.alertCount(); n != 0 {
		t.Fatalf("%d alerts listed after malformed messages only", n)
	}
	s.ingest(topic("bed-3", "alert"), good, now)
	s.ingest(topic("bed-3", "alert"), good, now) // a QoS 1 repeat
	s.ingest(topic("bed-3", "evidence"), ev, now)
	if n := s.alertCount(); n != 1 {
		t.Fatalf("%d alerts listed, want 1", n)
	}
	if s.ward.evidence(e.ID) == nil {
		t.Fatal("the evidence was not kept")
	}
}

func TestAlertListIsBounded(t *testing.T) {
	cfg := testConfig(t, "")
	cfg.MaxAlerts = 3
	s, _ := newServer(t, cfg)
	now := time.Now()
	for i := range 5 {
		s.ingest(topic("bed-1", "alert"), alert.AppendAlert(nil, testEvent("bed-1", now.Add(time.Duration(i)*time.Minute))), now)
	}
	if n := s.alertCount(); n != 3 {
		t.Fatalf("%d alerts listed, want 3", n)
	}
}

func TestScoreTraceKeepsTenMinutes(t *testing.T) {
	var b bed
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	for i := range 900 {
		b.addScore(t0.Add(time.Duration(i)*time.Second), 0.5)
	}
	if got := len(b.Scores); got != 601 {
		t.Fatalf("%d points kept, want 601 (10 minutes at 1 s)", got)
	}
}

// loggedIn logs user in to the board at base and returns a client with
// its cookie and the session's CSRF token.
func loggedIn(t *testing.T, base, user string) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar}
	resp, err := hc.PostForm(base+"/login", url.Values{"user": {user}, "password": {testPassword}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = hc.Get(base + "/session")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s struct{ User, CSRF string }
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil || s.User != user || s.CSRF == "" {
		t.Fatalf("GET /session after login: %s %+v %v", resp.Status, s, err)
	}
	return hc, s.CSRF
}

func TestNothingWithoutASession(t *testing.T) {
	s, _ := newServer(t, testConfig(t, ""))
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	tests := []struct {
		method, path string
		want         int
	}{
		{"GET", "/", http.StatusSeeOther},
		{"GET", "/board.js", http.StatusSeeOther},
		{"GET", "/events", http.StatusUnauthorized},
		{"GET", "/session", http.StatusUnauthorized},
		{"GET", "/state", http.StatusUnauthorized},
		{"GET", "/evidence?alert_id=x", http.StatusUnauthorized},
		{"POST", "/feedback", http.StatusUnauthorized},
		{"POST", "/acknowledge", http.StatusUnauthorized},
		{"POST", "/logout", http.StatusUnauthorized},
		{"GET", "/login", http.StatusOK},
		{"GET", "/healthz", http.StatusServiceUnavailable}, // no broker
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader("alert_id=1&verdict=confirmed"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s %s: %s, want %d", tt.method, tt.path, resp.Status, tt.want)
		}
		if tt.want == http.StatusSeeOther && resp.Header.Get("Location") != "/login" {
			t.Errorf("%s %s: redirected to %q, want /login", tt.method, tt.path, resp.Header.Get("Location"))
		}
	}
}

func TestCrossSiteAndTokenlessChangesRefused(t *testing.T) {
	s, logs := newServer(t, testConfig(t, ""))
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	e := testEvent("bed-3", time.Now())
	s.ingest(topic("bed-3", "alert"), alert.AppendAlert(nil, e), time.Now())
	hc, csrf := loggedIn(t, ts.URL, "alice")
	tests := []struct {
		name    string
		headers map[string]string
		form    url.Values
		want    int
	}{
		{"other origin", map[string]string{"Origin": "http://evil.example", "X-CSRF-Token": csrf}, nil, http.StatusForbidden},
		{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site", "X-CSRF-Token": csrf}, nil, http.StatusForbidden},
		{"other referer", map[string]string{"Referer": "http://evil.example/page", "X-CSRF-Token": csrf}, nil, http.StatusForbidden},
		{"no CSRF token", map[string]string{"Origin": ts.URL}, nil, http.StatusForbidden},
		{"wrong CSRF token", map[string]string{"Origin": ts.URL, "X-CSRF-Token": strings.Repeat("0", 64)}, nil, http.StatusForbidden},
		{"token in the form", map[string]string{"Origin": ts.URL}, url.Values{"csrf": {csrf}}, http.StatusNoContent},
		{"token in the header", map[string]string{"Origin": ts.URL, "X-CSRF-Token": csrf}, nil, http.StatusNoContent},
	}
	for _, tt := range tests {
		form := url.Values{"alert_id": {e.ID}}
		for k, v := range tt.form {
			form[k] = v
		}
		req, _ := http.NewRequest("POST", ts.URL+"/acknowledge", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range tt.headers {
			req.Header.Set(k, v)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: %s, want %d", tt.name, resp.Status, tt.want)
		}
	}
	if !strings.Contains(logs.String(), "cross-origin request refused") || !strings.Contains(logs.String(), "CSRF") {
		t.Errorf("refusals not logged:\n%s", logs.String())
	}
}

func TestOversizedRequestBodyRefused(t *testing.T) {
	s, _ := newServer(t, testConfig(t, ""))
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	hc, csrf := loggedIn(t, ts.URL, "alice")
	req, _ := http.NewRequest("POST", ts.URL+"/feedback", strings.NewReader("alert_id="+strings.Repeat("a", maxBody)))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", csrf)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized body: %s, want 413", resp.Status)
	}
}

func TestFeedbackReachesTheBrokerSignedAndAudited(t *testing.T) {
	b, daemon, got := startWithDaemon(t)
	e := testEvent("bed-3", time.Now())
	// Malformed and oversized messages through the broker first: dropped, logged, and the board goes on.
	mosquittotest.Publish(t, daemon, topic("bed-3", "alert"), false, []byte(`{"v":1,"id":"not json`))
	mosquittotest.Publish(t, daemon, topic("bed-3", "evidence"), false, make([]byte, alert.MaxEvidenceSize+1))
	mosquittotest.Publish(t, daemon, topic("bed-3", "alert"), false, alert.AppendAlert(nil, e))
	waitUntil(t, "the alert on the board", func() bool { return b.srv.alertCount() == 1 })
	if n := strings.Count(b.log.String(), "message dropped"); n != 2 {
		t.Fatalf("%d drops logged, want 2:\n%s", n, b.log.String())
	}

	ctx := context.Background()
	c, err := Login(ctx, b.url, "alice", testPassword, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Verdict(ctx, e.ID, alert.VerdictConfirmed); err != nil {
		t.Fatal(err)
	}
	lab, err := alert.ParseFeedback(<-got, time.Now())
	if err != nil || lab.AlertID != e.ID || !lab.Seizure || lab.By != "alice" {
		t.Fatalf("feedback on the broker: %+v, %v", lab, err)
	}
	// A verdict silences the alert: whoever judged it has seen it.
	if by := b.srv.ward.acknowledgedBy(e.ID); by != "alice" {
		t.Fatalf("after alice's verdict the alert is acknowledged by %q, want alice", by)
	}
	end := time.Now().Add(-time.Second)
	if err := c.Label(ctx, "bed-3", end.Add(-2*time.Minute), end, alert.LabelSeizure); err != nil {
		t.Fatal(err)
	}
	if lab, err = alert.ParseFeedback(<-got, time.Now()); err != nil || lab.AlertID != "" || !lab.Seizure || lab.By != "alice" {
		t.Fatalf("interval label on the broker: %+v, %v", lab, err)
	}
	if err := c.Verdict(ctx, alert.NewID(), alert.VerdictRejected); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("verdict on an unknown alert: %v, want 404", err)
	}
	if err := c.Label(ctx, "bed-3", end, end.Add(-time.Minute), alert.LabelSeizure); err == nil || !strings.Contains(err.Error(), "400") {
		t.Fatalf("interval ending before it starts: %v, want 400", err)
	}
	ack := alert.AckOf(lab)
	ack.Applied, ack.Windows, ack.At = true, 12, time.Now()
	mosquittotest.Publish(t, daemon, topic("bed-3", "feedback/ack"), false, alert.AppendAck(nil, ack))
	waitUntil(t, "the ack in the audit log", func() bool {
		for _, r := range auditRecords(t, b.audit) {
			if r.Action == "ack" && r.Status == "applied" && r.Windows != nil && *r.Windows == 12 && r.Who == "alice" {
				return true
			}
		}
		return false
	})
	var actions []string
	for _, r := range auditRecords(t, b.audit) {
		actions = append(actions, r.Action)
		if r.Action == "acknowledge" && (r.Who != "alice" || r.AlertID != e.ID || r.Reason != "with the verdict") {
			t.Errorf("acknowledgement audited as %+v", r)
		}
	}
	if got := strings.Join(actions, ","); got != "login,feedback,acknowledge,feedback,ack" {
		t.Fatalf("audit actions %s, want login,feedback,acknowledge,feedback,ack", got)
	}
	// A second verdict (a correction) sends feedback but does not
	// acknowledge again.
	if err := c.Verdict(ctx, e.ID, alert.VerdictRejected); err != nil {
		t.Fatal(err)
	}
	<-got
	acks := 0
	for _, r := range auditRecords(t, b.audit) {
		if r.Action == "acknowledge" {
			acks++
		}
	}
	if acks != 1 {
		t.Errorf("%d acknowledgements audited after two verdicts, want 1", acks)
	}
}

func TestBoardRestartedMidStreamShowsWhatItMissed(t *testing.T) {
	mq := startBroker(t)
	cfg := testConfig(t, mq.URL("tcp"))
	first := startBoard(t, cfg)
	daemon := mosquittotest.Client(t, mq.URL("tcp"), "daemon")
	detected := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) // the bed's signal time
	mosquittotest.Publish(t, daemon, topic("bed-1", "alert"), false, alert.AppendAlert(nil, testEvent("bed-1", detected)))
	waitUntil(t, "the first alert", func() bool { return first.srv.alertCount() == 1 })
	first.close()

	var missed []*alert.Event
	for _, bedName := range []string{"bed-1", "bed-2", "bed-3"} {
		e := testEvent(bedName, time.Now())
		missed = append(missed, e)
		mosquittotest.Publish(t, daemon, topic(bedName, "alert"), false, alert.AppendAlert(nil, e))
		mosquittotest.Publish(t, daemon, topic(bedName, "evidence"), false, alert.AppendEvidence(nil, testEvidence(e)))
	}
	second := startBoard(t, cfg) // same client ID: the broker kept the session
	waitUntil(t, "the alerts and evidence published while the board was down", func() bool {
		for _, e := range missed {
			if second.srv.ward.evidence(e.ID) == nil {
				return false
			}
		}
		return second.srv.alertCount() == 3
	})
}
