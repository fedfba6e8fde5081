package mqtt

import (
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

// Connected follows the broker: up once it acknowledged the retained
// status, down after it stopped, up again after it restarted.
func TestPublisherConnectedFollowsTheBroker(t *testing.T) {
	b := mosquittotest.Start(t, mosquittotest.Opts{})
	m := newTestMQTT(t, testMQTTConfig(t, b.URL("tcp")), nil)
	waitAcked(t, m, 0)
	if !m.Connected() {
		t.Fatal("not connected after the broker acknowledged the status")
	}
	b.Stop()
	waitUntil(t, "disconnected", func() bool { return !m.Connected() })
	b.Restart()
	waitUntil(t, "reconnected", m.Connected)
}

// TestMQTTRepublishesStateAfterReconnect: a broker without persistence
// forgets retained messages when it restarts; the publisher's
// reconnection puts the current state back.
func TestMQTTRepublishesStateAfterReconnect(t *testing.T) {
	b := mosquittotest.Start(t, mosquittotest.Opts{})
	m := newTestMQTT(t, testMQTTConfig(t, b.URL("tcp")), nil)
	waitAcked(t, m, 0)
	since := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	m.Status(alert.Status{State: alert.StateElectrodeOff, Since: since})
	waitAcked(t, m, 1)
	acked := m.Stats().Acked
	b.Stop()
	b.Restart()
	waitAcked(t, m, acked) // the state published on reconnection
	c := brokerClient(t, b.URL("tcp"), "late", true)
	r := waitFor(t, subscribe(t, c, "ictal/ward-7/bed-3/status"), "the state republished", isState("ictal/ward-7/bed-3/status", alert.StateElectrodeOff))
	if !r.retained || !strings.Contains(string(r.payload), `"since":"2026-11-21T09:00:00.000Z"`) {
		t.Errorf("got %s retained=%v", r.payload, r.retained)
	}
}

// TestMQTTLabelsFullDropsNewest: labels are advisory; a pipeline that
// does not read them does not stall the client. The drops are logged
// once, with their count.
func TestMQTTLabelsFullDropsNewest(t *testing.T) {
	b := mosquittotest.Start(t, mosquittotest.Opts{})
	cfg := testMQTTConfig(t, b.URL("tcp"))
	cfg.LabelBuffer = 1
	clock := &fakeClock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	cfg.clock = clock.now // the burst never goes quiet
	log, logs := testLogger()
	m := newTestMQTT(t, cfg, log)
	waitAcked(t, m, 0)
	c := brokerClient(t, b.URL("tcp"), "clinician", true)
	ids := []string{alert.NewID(), alert.NewID(), alert.NewID()}
	for _, id := range ids {
		if tok := c.Publish("ictal/ward-7/bed-3/feedback", 1, false, `{"v":1,"alert_id":"`+id+`","verdict":"confirmed"}`); !tok.Wait() || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	waitUntil(t, "3 labels taken in", func() bool { s := m.Stats(); return s.Labels+s.DroppedLabels >= 3 })
	if lab := <-m.Labels(); lab.AlertID != ids[0] {
		t.Errorf("kept %s, want the first, %s", lab.AlertID, ids[0])
	}
	if s := m.Stats(); s.Labels != 1 || s.DroppedLabels != 2 {
		t.Errorf("stats %+v", s)
	}
	m.Close()
	if n := strings.Count(logs.String(), "the label queue is full"); n != 1 || !strings.Contains(logs.String(), "count=2") {
		t.Errorf("%d log lines of drops, want 1 counting 2:\n%s", n, logs.String())
	}
}
