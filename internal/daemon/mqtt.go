package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/internal/pipeline"
)

// validateMQTT checks the [mqtt] section.
func (c *Config) validateMQTT() error {
	m := &c.MQTT
	switch m.Broker {
	case "":
		return nil
	case "embedded":
		if m.Listen == "" {
			m.Listen = "127.0.0.1:1883"
		}
		if _, port, err := net.SplitHostPort(m.Listen); err != nil {
			return fieldErr("mqtt.listen", "%q: %v (want host:port, e.g. 127.0.0.1:1883)", m.Listen, err)
		} else if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return fieldErr("mqtt.listen", "%q: port %q: want 0..65535", m.Listen, port)
		}
	default:
		for _, u := range strings.Split(m.Broker, ",") {
			u = strings.TrimSpace(u)
			if !strings.Contains(u, "://") {
				return fieldErr("mqtt.broker", "%q: want \"embedded\" or URLs like tcp://host:1883 or ssl://host:8883", u)
			}
		}
	}
	if m.StoreDir == "" && c.Checkpoint.Path == "" {
		return fieldErr("mqtt.store_dir", "required when checkpoint.path is not set (alerts waiting for the broker are kept there)")
	}
	_, err := c.mqttConfig("")
	return err
}

// mqttConfig returns the publisher's configuration for the given broker
// URLs (the embedded broker's when empty).
func (c *Config) mqttConfig(url string) (mqtt.Config, error) {
	m := c.MQTT
	mc := mqtt.Config{
		Connection: mqtt.Connection{Username: m.Username, Password: m.Password, PasswordFile: m.PasswordFile,
			CAFile: m.CAFile, CertFile: m.CertFile, KeyFile: m.KeyFile, ServerName: m.ServerName},
		Site: c.Site.Site, Bed: c.Site.Bed, Prefix: m.Prefix, ClientID: m.ClientID, StoreDir: m.StoreDir,
		Scores: m.Scores, QueueSize: m.QueueSize, MaxReconnectInterval: time.Duration(m.MaxReconnect),
	}
	if mc.StoreDir == "" {
		mc.StoreDir = filepath.Join(filepath.Dir(c.Checkpoint.Path), "mqtt")
	}
	if url != "" {
		mc.Brokers = []string{url}
	} else if m.Broker != "embedded" {
		for _, u := range strings.Split(m.Broker, ",") {
			mc.Brokers = append(mc.Brokers, strings.TrimSpace(u))
		}
	} else {
		mc.Brokers = []string{"tcp://" + m.Listen}
	}
	if err := mc.Validate(); err != nil {
		return mc, keyed(err)
	}
	if _, err := mc.ClientOptions("check"); err != nil {
		return mc, fieldErr("mqtt", "%v", err)
	}
	return mc, nil
}

// startMQTT starts the embedded broker if configured and the publisher,
// and forwards clinicians' feedback to the pipeline. The returned stop
// function closes them (publisher first).
func startMQTT(ctx context.Context, c *Config, log *slog.Logger) (*mqtt.Publisher, func(), error) {
	if c.MQTT.Broker == "" {
		return nil, func() {}, nil
	}
	var br *mqtt.Broker
	url := ""
	if c.MQTT.Broker == "embedded" {
		var err error
		br, err = mqtt.StartBroker(c.MQTT.Listen, log)
		if err != nil {
			return nil, nil, fmt.Errorf("mqtt.listen %s: %w", c.MQTT.Listen, err)
		}
		url = br.URL()
		log.Info("embedded MQTT broker listening", slog.String("url", url))
	}
	mc, err := c.mqttConfig(url)
	if err != nil {
		if br != nil {
			br.Close()
		}
		return nil, nil, err
	}
	pub, err := mqtt.New(mc, log.With(slog.String("component", "mqtt")))
	if err != nil {
		if br != nil {
			br.Close()
		}
		if errors.Is(err, mqtt.ErrConfig) {
			err = keyed(err)
		}
		return nil, nil, err
	}
	stop := func() {
		if err := pub.Close(); err != nil {
			log.Warn("mqtt: close", slog.Any("err", err))
		}
		if br != nil {
			br.Close()
		}
	}
	return pub, stop, nil
}

// forwardLabels passes clinicians' feedback from the publisher to the
// pipeline until ctx is done, dropping (and logging) labels the pipeline
// cannot take at once. Each label handed over is counted by seen, when
// given.
func forwardLabels(ctx context.Context, pub *mqtt.Publisher, p *pipeline.Pipeline, log *slog.Logger, seen interface{ labelled() }) {
	in, out := pub.Labels(), p.Labels()
	for {
		select {
		case <-ctx.Done():
			return
		case l, ok := <-in:
			if !ok {
				return
			}
			select {
			case out <- l:
				if seen != nil {
					seen.labelled()
				}
			default:
				log.Warn("feedback dropped: the pipeline's label queue is full", slog.String("alert_id", l.AlertID))
			}
		}
	}
}
