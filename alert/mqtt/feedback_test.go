package mqtt

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
)

// fakeClock is a settable clock for the rate limits.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Feedback is rate-limited per sender, and for all senders together; a
// refused message is answered with the reason and the sender, and the
// refusals are logged once per burst with their count. The sender of
// …/feedback/from/<user> reaches the pipeline as Label.Sender.
func TestMQTTFeedbackRateLimitedPerSender(t *testing.T) {
	br, err := StartBroker("127.0.0.1:0", &BrokerOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	for _, u := range []string{"clinician-alice", "board"} {
		if err := br.AddUser(u, []byte(u+"-password")); err != nil {
			t.Fatal(err)
		}
	}
	clock := &fakeClock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	cfg := testMQTTConfig(t, br.URL())
	if err := br.AdmitPublisher(&cfg); err != nil {
		t.Fatal(err)
	}
	cfg.FeedbackLimits = alert.FeedbackLimits{Burst: 3, Every: time.Minute, GlobalBurst: 5, GlobalEvery: 10 * time.Second}
	cfg.clock = clock.now
	log, logs := testLogger()
	m, err := New(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	const bed3 = "ictal/ward-7/bed-3"
	c := testClient(t, Connection{Brokers: []string{br.URL()}, Username: "board", Password: "board-password"}, "board", true)
	alice := testClient(t, Connection{Brokers: []string{br.URL()}, Username: "clinician-alice", Password: "clinician-alice-password"}, "alice", true)
	acks := subscribe(t, c, bed3+"/feedback/ack")
	waitAcked(t, m, 0)
	send := func(topic, by string) {
		t.Helper()
		p := `{"v":1,"alert_id":"` + alert.NewID() + `","verdict":"confirmed","by":"` + by + `"}`
		from := c
		if strings.Contains(topic, "/from/") {
			from = alice
		}
		if tok := from.Publish(topic, 1, false, p); !tok.Wait() || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	for range 4 { // one over alice's burst
		send(bed3+"/feedback/from/clinician-alice", "Dr Alice")
	}
	for range 3 { // the last over the global burst
		send(bed3+"/feedback", "Dr Bob")
	}
	// Every message is taken in before the clock moves on.
	waitUntil(t, "7 messages taken in", func() bool { s := m.Stats(); return s.Labels+s.RateLimited >= 7 })
	if s := m.Stats(); s.Labels+s.RateLimited != 7 {
		t.Fatalf("stats %+v, want 7 messages taken in", s)
	}
	clock.add(time.Minute) // alice has earned one more
	send(bed3+"/feedback/from/clinician-alice", "Dr Alice")

	var senders []string
	for range 6 {
		lab := <-m.Labels()
		senders = append(senders, lab.Sender+"/"+lab.By)
	}
	want := "clinician-alice/Dr Alice clinician-alice/Dr Alice clinician-alice/Dr Alice /Dr Bob /Dr Bob clinician-alice/Dr Alice"
	if got := strings.Join(senders, " "); got != want {
		t.Errorf("labels from %s, want %s", got, want)
	}
	refusals := map[string]alert.Ack{}
	for len(refusals) < 2 {
		r := waitFor(t, acks, "two refusals", func(r received) bool { return strings.Contains(string(r.payload), `"status":"refused"`) })
		a, err := alert.ParseAck(r.payload)
		if err != nil {
			t.Fatal(err)
		}
		refusals[a.By] = a
	}
	if a := refusals["Dr Alice"]; a.Sender != "clinician-alice" || a.AlertID == "" ||
		!strings.Contains(a.Reason, `rate limit: sender "clinician-alice" may send 3 feedback messages at once and one more every 1m0s; try again in 1m0s`) {
		t.Errorf("alice's refusal %+v", a)
	}
	if a := refusals["Dr Bob"]; a.Sender != "" || !strings.Contains(a.Reason, "this monitor takes 5 feedback messages at once from all senders") {
		t.Errorf("bob's refusal %+v", a)
	}
	// A label is counted just after it is handed over: wait for the sixth.
	waitUntil(t, "6 labels counted", func() bool { return m.Stats().Labels >= 6 })
	if s := m.Stats(); s.RateLimited != 2 || s.Labels != 6 {
		t.Errorf("stats %+v", s)
	}
	m.Close()
	if n := strings.Count(logs.String(), "feedback refused: rate limit"); n != 1 || !strings.Contains(logs.String(), "count=2") {
		t.Errorf("%d log lines of refusals, want 1 counting 2:\n%s", n, logs.String())
	}
	if n := strings.Count(logs.String(), "sender=clinician-alice"); n < 4 {
		t.Errorf("the sender is in %d log lines, want every accepted message's:\n%s", n, logs.String())
	}
}
