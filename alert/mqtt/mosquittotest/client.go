package mosquittotest

import (
	"testing"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// Client connects a plain paho client, with a clean session and
// unordered delivery, to the broker at url as id, and disconnects it
// when the test ends. It stands for the other side of a test: a
// clinician's client, a bed's daemon, a publisher of test messages.
func Client(t testing.TB, url, id string) paho.Client {
	t.Helper()
	opts := paho.NewClientOptions().AddBroker(url).SetClientID(id).SetCleanSession(true).SetOrderMatters(false)
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.Wait() || tok.Error() != nil {
		t.Fatalf("mqtt client %s: connect to %s: %v", id, url, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	return c
}

// Publish sends p on topic with QoS 1 and waits for the broker's
// acknowledgement.
func Publish(t testing.TB, c paho.Client, topic string, retained bool, p []byte) {
	t.Helper()
	if tok := c.Publish(topic, 1, retained, p); !tok.Wait() || tok.Error() != nil {
		t.Fatalf("publish %s: %v", topic, tok.Error())
	}
}
