package mqtt

import (
	"testing"
	"time"

	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

// Connected follows the broker: up once it acknowledged the retained
// status, down after it stopped, up again after it restarted.
func TestPublisherConnectedFollowsTheBroker(t *testing.T) {
	b := mosquittotest.Start(t, mosquittotest.Opts{})
	m := newTestMQTT(t, testMQTTConfig(t, b.URL("tcp")), nil)
	for m.Stats().Acked == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if !m.Connected() {
		t.Fatal("not connected after the broker acknowledged the status")
	}
	b.Stop()
	for m.Connected() {
		time.Sleep(5 * time.Millisecond)
	}
	b.Restart()
	for !m.Connected() {
		time.Sleep(5 * time.Millisecond)
	}
}
