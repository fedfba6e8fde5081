package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"syscall"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert/mqtt"
)

// demoMQTT starts the embedded broker, a publisher for the demo's bed and
// a subscriber that reports what the broker delivers.
func demoMQTT(ctx context.Context, o DemoOptions, out io.Writer, log *slog.Logger) (*mqtt.Publisher, func(), error) {
	br, err := mqtt.StartBroker(o.MQTTListen, nil)
	if errors.Is(err, syscall.EADDRINUSE) {
		fmt.Fprintf(out, "ictald demo: %s is taken; the embedded broker uses a free port instead\n", o.MQTTListen)
		br, err = mqtt.StartBroker("127.0.0.1:0", nil)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("embedded broker: %w", err)
	}
	store, err := os.MkdirTemp("", "ictald-demo-mqtt-")
	if err != nil {
		br.Close()
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(store); br.Close() }
	pub, err := mqtt.New(mqtt.Config{Connection: mqtt.Connection{Brokers: []string{br.URL()}},
		Site: o.Site, Bed: o.Bed, StoreDir: store}, log)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	conn := mqtt.Connection{Brokers: []string{br.URL()}}
	opts, err := conn.ClientOptions(fmt.Sprintf("ictald-demo-watch-%d", time.Now().UnixNano()))
	if err != nil {
		pub.Close()
		cleanup()
		return nil, nil, err
	}
	sub := paho.NewClient(opts)
	if tok := sub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		pub.Close()
		cleanup()
		return nil, nil, fmt.Errorf("demo subscriber: %v", tok.Error())
	}
	fmt.Fprintf(out, "ictald demo: embedded MQTT broker at %s; watch it with: mosquitto_sub -h %s -t 'ictal/#' -v   (or ictal watch -broker %s)\n",
		br.URL(), hostPortFlags(br.Addr()), br.URL())
	tok := sub.Subscribe("ictal/#", 1, func(_ paho.Client, m paho.Message) {
		var msg struct {
			ID    string `json:"id"`
			State string `json:"state"`
		}
		json.Unmarshal(m.Payload(), &msg)
		what := msg.ID
		if msg.State != "" {
			what = msg.State
		}
		fmt.Fprintf(out, "            ↳ MQTT %s  %s\n", m.Topic(), what)
	})
	tok.WaitTimeout(5 * time.Second)
	stop := func() {
		pub.Close()
		time.Sleep(200 * time.Millisecond) // let the subscriber see the last messages
		sub.Disconnect(250)
		cleanup()
	}
	return pub, stop, nil
}

// hostPortFlags turns host:port into mosquitto_sub's "-h host -p port".
func hostPortFlags(addr string) string {
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == ':' {
			return addr[:i] + " -p " + addr[i+1:]
		}
	}
	return addr
}
