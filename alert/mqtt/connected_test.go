package mqtt

import (
	"testing"

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
	waitUntil(t, hangGuard, "disconnected", func() bool { return !m.Connected() })
	b.Restart()
	waitUntil(t, hangGuard, "reconnected", m.Connected)
}
