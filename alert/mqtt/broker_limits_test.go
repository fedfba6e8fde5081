package mqtt

import (
	"fmt"
	"io"
	"net"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
)

// TestEmbeddedBrokerRefusesHugePackets: a client on the network that
// declares a packet of 256 MB (the most MQTT's header can say), before it
// has even connected, is disconnected without the broker allocating for
// it: the broker runs inside ictald, and a few such connections would
// otherwise take a small board's memory and the detector with it. The
// largest packet a daemon sends (an alert's evidence) still goes through.
func TestEmbeddedBrokerRefusesHugePackets(t *testing.T) {
	b := startAuthBroker(t, BrokerOptions{})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 3 {
		c, err := net.Dial("tcp", b.Addr())
		if err != nil {
			t.Fatal(err)
		}
		// CONNECT, remaining length 268435455, then the writer is done.
		if _, err := c.Write([]byte{0x10, 0xff, 0xff, 0xff, 0x7f}); err != nil {
			t.Fatal(err)
		}
		c.(*net.TCPConn).CloseWrite()
		// The broker hangs up; whatever it sent first is read and dropped.
		io.Copy(io.Discard, c)
		c.Close()
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("the broker allocated %d MB for three connections declaring 256 MB packets", n>>20)
	}

	// The largest evidence a daemon sends: 8 channels, 60 s at 512 Hz
	// (alert.MaxEvidenceSize's comment), reaches a subscriber.
	sub := subscribe(t, brokerClient(t, b.URL(), "viewer", true), bed3+"/evidence")
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) // the bed's signal time; no clock is read
	ev := &alert.Evidence{AlertID: alert.NewID(), Site: "ward-7", Bed: "bed-3", Onset: now, DetectedAt: now,
		Start: now.Add(-alert.MaxEvidenceSpan), Rate: 512}
	for c := range alert.MaxEvidenceChannels {
		ev.Channels = append(ev.Channels, fmt.Sprintf("C%d", c))
		x := make([]float32, 512*int(alert.MaxEvidenceSpan/time.Second))
		for i := range x {
			x[i] = float32(i%977) - 488 // every count used: no run the encoding could shorten
		}
		ev.Samples = append(ev.Samples, x)
	}
	if err := b.daemon.Evidence(ev); err != nil {
		t.Fatal(err)
	}
	r := waitFor(t, sub, "the evidence", func(received) bool { return true })
	if got, err := alert.ParseEvidence(r.payload); err != nil || got.AlertID != ev.AlertID || len(r.payload) < 600<<10 {
		t.Errorf("evidence of %d bytes: %v", len(r.payload), err)
	}

	// Evidence larger than the contract allows (4× the rate: about 2.6 MB)
	// is refused by the publisher, not sent to be refused by the broker,
	// and the next alert goes through.
	for c := range ev.Samples {
		ev.Samples[c] = slices.Repeat(ev.Samples[c], 4)
	}
	ev.Rate, ev.AlertID = 2048, alert.NewID()
	if err := b.daemon.Evidence(ev); err == nil || !strings.Contains(err.Error(), "more than alert.MaxEvidenceSize") {
		t.Errorf("evidence of 2.6 MB: %v, want an error", err)
	}
	alerts := subscribe(t, brokerClient(t, b.URL(), "viewer-2", true), bed3+"/alert")
	e := testEventN("ward-7", "bed-3")
	if err := b.daemon.Alert(e); err != nil {
		t.Fatal(err)
	}
	waitFor(t, alerts, "the next alert", func(r received) bool { return alertID(r) == e.ID })
}

// TestEmbeddedBrokerForgetsAbandonedSessions: the session of a persistent
// client that went away, and what the broker queued for it, is dropped
// after BrokerOptions.SessionExpiry (here 1 s), not kept for ever in
// ictald's memory; a session in use is kept. (Persistent sessions are
// users': an anonymous client's ends with its connection.)
func TestEmbeddedBrokerForgetsAbandonedSessions(t *testing.T) {
	b := startAuthBroker(t, BrokerOptions{SessionExpiry: time.Second})
	for _, u := range []string{"gone-away", "still-here"} {
		if err := b.AddUser(u, []byte(testPassword)); err != nil {
			t.Fatal(err)
		}
	}
	gone := userClient(t, b.Broker, "gone-away", false)
	subscribe(t, gone, bed3+"/#")
	stays := userClient(t, b.Broker, "still-here", false)
	subscribe(t, stays, bed3+"/#")
	gone.Disconnect(100)
	waitUntil(t, "the abandoned session dropped", func() bool {
		_, ok := b.srv.Clients.Get("gone-away")
		return !ok
	})
	if _, ok := b.srv.Clients.Get("still-here"); !ok {
		t.Error("the connected client's session was dropped too")
	}
}
