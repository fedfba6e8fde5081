package mqtt

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

func TestMQTTPublishesTheContract(t *testing.T) {
	b := mosquittotest.Start(t, mosquittotest.Opts{})
	cfg := testMQTTConfig(t, b.URL("tcp"))
	cfg.Scores = true
	sub := subscribe(t, brokerClient(t, b.URL("tcp"), "nurse-station", true), "ictal/#")
	m := newTestMQTT(t, cfg, nil)
	const prefix = "ictal/ward-7/bed-3"

	online := waitFor(t, sub, "status online on connection", isState(prefix+"/status", alert.StateOnline))
	var st map[string]any
	if err := json.Unmarshal(online.payload, &st); err != nil || st["v"] != 1.0 || st["since"] == nil || len(st) != 3 {
		t.Errorf("online status %s: %v", online.payload, err)
	}

	e := testEventN("ward-7", "bed-3")
	if err := m.Alert(e); err != nil {
		t.Fatal(err)
	}
	r := waitFor(t, sub, "the alert", func(r received) bool { return r.topic == prefix+"/alert" })
	var got map[string]any
	if err := json.Unmarshal(r.payload, &got); err != nil {
		t.Fatalf("%s: %v", r.payload, err)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, ",") != "algorithm,bed,channels,detected_at,id,onset,score,site,v" {
		t.Errorf("alert fields %v", keys)
	}
	if got["id"] != e.ID || got["v"] != 1.0 || got["site"] != "ward-7" || got["bed"] != "bed-3" || got["score"] != 0.93 {
		t.Errorf("alert %s", r.payload)
	}
	if r.retained {
		t.Error("alert retained")
	}

	if err := m.Score(alert.Score{T: time.Now(), Score: 0.25, Usable: true}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, sub, "a score", func(r received) bool {
		return r.topic == prefix+"/score" && strings.Contains(string(r.payload), `"score":0.25`)
	})
	if err := m.Status(alert.Status{State: alert.StateElectrodeOff, Since: time.Now(), Reason: "lead-off T7"}); err != nil {
		t.Fatal(err)
	}
	r = waitFor(t, sub, "status electrode-off", isState(prefix+"/status", alert.StateElectrodeOff))
	if strings.Contains(string(r.payload), "lead-off") {
		t.Errorf("the reason went on the wire: %s", r.payload)
	}
	e.End = time.Now()
	if err := m.EventEnd(e); err != nil {
		t.Fatal(err)
	}
	waitFor(t, sub, "the event end", func(r received) bool {
		return r.topic == prefix+"/end" && strings.Contains(string(r.payload), `"end":`) && strings.Contains(string(r.payload), e.ID)
	})

	// The alert's EEG and a feedback acknowledgement, QoS 1, not retained.
	ev := &alert.Evidence{AlertID: e.ID, Site: "ward-7", Bed: "bed-3", Onset: e.Onset, DetectedAt: e.DetectedAt,
		Start: e.Onset.Add(-10 * time.Second), Rate: 256, Channels: []string{"T7"}, Samples: [][]float32{make([]float32, 256*26)}}
	if err := m.Evidence(ev); err != nil {
		t.Fatal(err)
	}
	r = waitFor(t, sub, "the evidence", func(r received) bool { return r.topic == prefix+"/evidence" })
	if got, err := alert.ParseEvidence(r.payload); err != nil || got.AlertID != e.ID || len(got.Samples[0]) != 256*26 || r.retained {
		t.Errorf("evidence: %v, retained %v", err, r.retained)
	}
	if err := m.Ack(alert.Ack{AlertID: e.ID, Verdict: alert.VerdictConfirmed, By: "alice", Applied: true, Windows: 7, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	r = waitFor(t, sub, "the ack", func(r received) bool { return r.topic == prefix+"/feedback/ack" })
	if got, err := alert.ParseAck(r.payload); err != nil || got.AlertID != e.ID || got.Windows != 7 || !got.Applied || got.By != "alice" {
		t.Errorf("ack %s: %v", r.payload, err)
	}

	// A newcomer sees the retained state.
	late := subscribe(t, brokerClient(t, b.URL("tcp"), "late", true), prefix+"/status")
	r = waitFor(t, late, "the retained status", isState(prefix+"/status", alert.StateElectrodeOff))
	if !r.retained {
		t.Error("status not retained")
	}

	if err := m.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	waitFor(t, late, "offline on close", isState(prefix+"/status", alert.StateOffline))
	if err := m.Alert(e); !errors.Is(err, ErrClosed) {
		t.Errorf("alert after close: %v", err)
	}
	if s := m.Stats(); s.Published < 5 || s.Acked < 3 {
		t.Errorf("stats %+v", s)
	}
}

// TestMQTTSinkNeverBlocksWithoutBroker: no Sink call waits on the
// network. The broker accepts the connection and reads CONNECT but never
// answers CONNACK, and the connect timeout is an hour, so the connection
// attempt is pending for the whole test: a call that waited on it would
// never return, and the hang guard would say so. Every call completing
// while the attempt is provably still pending (one connection, open,
// unanswered) is the property; how long calls take is measured by
// BenchmarkSinkWithPendingConnection, not asserted here.
func TestMQTTSinkNeverBlocksWithoutBroker(t *testing.T) {
	br := startSilentBroker(t)
	cfg := testMQTTConfig(t, "tcp://"+br.addr)
	cfg.ConnectTimeout = time.Hour
	cfg.CloseTimeout = 100 * time.Millisecond
	cfg.Scores = true
	cfg.QueueSize = 64
	m := newTestMQTT(t, cfg, nil)
	br.waitConnect(t)

	const calls = 2000 // 33 minutes of windows at one a second
	done := make(chan error, 1)
	go func() {
		for i := 0; i < calls; i++ {
			now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
			if err := m.Score(alert.Score{T: now, Score: 0.1, Usable: true}); err != nil {
				done <- err
				return
			}
			if i%40 == 0 {
				if err := m.Alert(testEventN("ward-7", "bed-3")); err != nil {
					done <- err
					return
				}
			}
			if i%20 == 0 {
				if err := m.Status(alert.Status{State: alert.StateSignalLost, Since: now}); err != nil {
					done <- err
					return
				}
			}
		}
		done <- nil
	}()
	// A Sink call that waited on the network would hang here while the
	// broker withholds CONNACK (caught by go test -timeout).
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if accepted, open := br.counts(); accepted != 1 || open != 1 {
		t.Fatalf("broker accepted %d connections, %d open: the first attempt did not stay pending, the test proves nothing", accepted, open)
	}
	s := m.Stats()
	if s.Acked != 0 {
		t.Errorf("acknowledgements without a CONNACK: %+v", s)
	}
	if s.DroppedOffline == 0 && s.DroppedScores == 0 {
		t.Errorf("no score dropped while offline: %+v", s)
	}
}
