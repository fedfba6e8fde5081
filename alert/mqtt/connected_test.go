package mqtt

import (
	"testing"
	"time"
)

// Connected follows the broker: up once it acknowledged the retained
// status, down after it stopped, up again after it restarted.
func TestPublisherConnectedFollowsTheBroker(t *testing.T) {
	b, err := StartBroker("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	addr := b.Addr()
	m := newTestMQTT(t, testMQTTConfig(t, b.URL()), nil)
	for m.Stats().Acked == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if !m.Connected() {
		t.Fatal("not connected after the broker acknowledged the status")
	}
	b.Close()
	for m.Connected() {
		time.Sleep(5 * time.Millisecond)
	}
	if b, err = StartBroker(addr, nil); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for !m.Connected() {
		time.Sleep(5 * time.Millisecond)
	}
}
