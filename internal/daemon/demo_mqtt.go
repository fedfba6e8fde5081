package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"syscall"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt"
)

// demoBoardUser is the ward board's user on the demo's embedded broker.
const demoBoardUser = "ictal-board-demo"

// demoMQTT starts the embedded broker, a publisher for the demo's bed and
// a subscriber that reports what the broker delivers; it returns the
// publisher, the ward board's connection to the broker (a user whose
// password exists only in memory) and what stops them.
func demoMQTT(ctx context.Context, o DemoOptions, out io.Writer, log *slog.Logger) (*mqtt.Publisher, mqtt.Connection, func(), error) {
	br, err := mqtt.StartBroker(o.MQTTListen, nil, nil)
	if errors.Is(err, syscall.EADDRINUSE) {
		fmt.Fprintf(out, "ictald demo: %s is taken; the embedded broker uses a free port instead\n", o.MQTTListen)
		br, err = mqtt.StartBroker("127.0.0.1:0", nil, nil)
	}
	if err != nil {
		return nil, mqtt.Connection{}, nil, fmt.Errorf("embedded broker: %w", err)
	}
	boardConn := mqtt.Connection{Brokers: []string{br.URL()}, Username: demoBoardUser, Password: oneTimePassword()}
	if err := br.AddUser(boardConn.Username, []byte(boardConn.Password)); err != nil {
		br.Close()
		return nil, mqtt.Connection{}, nil, err
	}
	store, err := os.MkdirTemp("", "ictald-demo-mqtt-")
	if err != nil {
		br.Close()
		return nil, mqtt.Connection{}, nil, err
	}
	cleanup := func() { os.RemoveAll(store); br.Close() }
	mc := mqtt.Config{Site: o.Site, Bed: o.Bed, StoreDir: store, Scores: o.BoardListen != ""}
	if err := br.AdmitPublisher(&mc); err != nil {
		cleanup()
		return nil, mqtt.Connection{}, nil, err
	}
	pub, err := mqtt.New(mc, log)
	if err != nil {
		cleanup()
		return nil, mqtt.Connection{}, nil, err
	}
	conn := mqtt.Connection{Brokers: []string{br.URL()}}
	opts, err := conn.ClientOptions(fmt.Sprintf("ictald-demo-watch-%d", time.Now().UnixNano()))
	if err != nil {
		pub.Close()
		cleanup()
		return nil, mqtt.Connection{}, nil, err
	}
	sub := paho.NewClient(opts)
	if tok := sub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		pub.Close()
		cleanup()
		return nil, mqtt.Connection{}, nil, fmt.Errorf("demo subscriber: %v", tok.Error())
	}
	fmt.Fprintf(out, "ictald demo: embedded MQTT broker at %s; watch it with: mosquitto_sub -h %s -t 'ictal/#' -v   (or ictal watch -broker %s)\n",
		br.URL(), hostPortFlags(br.Addr()), br.URL())
	tok := sub.Subscribe("ictal/#", 1, func(_ paho.Client, m paho.Message) {
		if strings.HasSuffix(m.Topic(), "/score") {
			return // one a second, for the board's trace: not worth a line each
		}
		fmt.Fprintf(out, "            ↳ MQTT %s  %s\n", m.Topic(), demoWhat(m.Topic(), m.Payload()))
	})
	tok.WaitTimeout(5 * time.Second)
	stop := func() {
		pub.Close()
		time.Sleep(200 * time.Millisecond) // let the subscriber see the last messages
		sub.Disconnect(250)
		cleanup()
	}
	return pub, boardConn, stop, nil
}

// demoWhat says in a few words what a message of the contract carries.
func demoWhat(topic string, p []byte) string {
	switch {
	case strings.HasSuffix(topic, "/evidence"):
		if ev, err := alert.ParseEvidence(p); err == nil {
			return fmt.Sprintf("%s: %.1f s of %s (%d bytes)", ev.AlertID, float64(len(ev.Samples[0]))/ev.Rate, strings.Join(ev.Channels, ","), len(p))
		}
	case strings.HasSuffix(topic, "/feedback/ack"):
		if a, err := alert.ParseAck(p); err == nil {
			if a.Applied && a.Note != "" {
				return fmt.Sprintf("%s %s by %s: applied to %d windows; %s", a.Verdict+a.Label, a.AlertID, a.By, a.Windows, a.Note)
			}
			if a.Applied {
				return fmt.Sprintf("%s %s by %s: applied to %d windows", a.Verdict+a.Label, a.AlertID, a.By, a.Windows)
			}
			return fmt.Sprintf("%s %s by %s: refused (%s)", a.Verdict+a.Label, a.AlertID, a.By, a.Reason)
		}
	}
	var msg struct {
		ID, State, Verdict, Label, Artifact string
		AlertID                             string `json:"alert_id"`
		Channels                            []string
	}
	json.Unmarshal(p, &msg)
	switch {
	case msg.State != "" && msg.Artifact != "" && len(msg.Channels) > 0:
		return fmt.Sprintf("%s (%s on %s)", msg.State, msg.Artifact, strings.Join(msg.Channels, ", "))
	case msg.State != "" && msg.Artifact != "":
		return fmt.Sprintf("%s (%s)", msg.State, msg.Artifact)
	case msg.State != "":
		return msg.State
	case msg.Verdict != "" || msg.Label != "":
		return msg.Verdict + msg.Label + " " + msg.AlertID
	}
	return msg.ID
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
