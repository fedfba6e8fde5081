package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/internal/burstlog"
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
		if err := checkListen("mqtt.listen", m.Listen, "127.0.0.1:1883"); err != nil {
			return err
		}
		if err := c.brokerOptions().Validate(); err != nil {
			return keyed(err)
		}
	default:
		if m.BrokerUsers != "" || m.BrokerAnonymous != "" {
			return fieldErr("mqtt.broker_users", "broker_users and broker_anonymous apply to broker = \"embedded\" only")
		}
		for _, f := range []struct {
			key string
			set bool
		}{{"broker_max_connections", m.BrokerMaxConnections != 0}, {"broker_session_queue_bytes", m.BrokerSessionQueueBytes != 0},
			{"broker_queue_bytes", m.BrokerQueueBytes != 0}, {"broker_session_expiry", m.BrokerSessionExpiry != 0}} {
			if f.set {
				return fieldErr("mqtt."+f.key, "applies to broker = \"embedded\" only")
			}
		}
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

// brokerOptions returns who may use the embedded broker, and its bounds.
func (c *Config) brokerOptions() *mqtt.BrokerOptions {
	m := c.MQTT
	return &mqtt.BrokerOptions{UsersFile: m.BrokerUsers, Anonymous: m.BrokerAnonymous,
		MaxConnections: m.BrokerMaxConnections, SessionQueueBytes: m.BrokerSessionQueueBytes,
		QueueBytes: m.BrokerQueueBytes, SessionExpiry: time.Duration(m.BrokerSessionExpiry)}
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
		FeedbackLimits: alert.FeedbackLimits{Burst: m.FeedbackBurst, Every: time.Duration(m.FeedbackEvery),
			GlobalBurst: m.FeedbackGlobalBurst, GlobalEvery: time.Duration(m.FeedbackGlobalEvery)},
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
	if err := mc.Validate(); err != nil {
		return mc, keyed(err)
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
		br, err = mqtt.StartBroker(c.MQTT.Listen, c.brokerOptions(), log)
		if err != nil {
			if errors.Is(err, mqtt.ErrConfig) {
				return nil, nil, keyed(err)
			}
			return nil, nil, fmt.Errorf("mqtt.listen %s: %w", c.MQTT.Listen, err)
		}
		url = br.URL()
		anon := c.MQTT.BrokerAnonymous
		if anon == "" {
			anon = mqtt.AnonymousSubscribe
		}
		log.Info("embedded MQTT broker listening", slog.String("url", url), slog.String("users", c.MQTT.BrokerUsers), slog.String("anonymous", anon))
		if c.MQTT.BrokerUsers == "" {
			log.Warn("embedded MQTT broker without mqtt.broker_users: nobody can send feedback")
		}
	}
	mc, err := c.mqttConfig(url)
	if err == nil && br != nil {
		// The daemon's credentials on its own broker: generated now,
		// never stored.
		err = br.AdmitPublisher(&mc)
	}
	var pub *mqtt.Publisher
	if err == nil {
		pub, err = mqtt.New(mc, log.With(slog.String("component", "mqtt")))
	}
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
// pipeline until ctx is done. A label the pipeline cannot take at once is
// dropped, answered on …/feedback/ack, and logged once per burst with a
// count. Each label handed over is counted by seen, when given.
func forwardLabels(ctx context.Context, pub *mqtt.Publisher, p *pipeline.Pipeline, log *slog.Logger, seen interface{ labelled() }) {
	in, out := pub.Labels(), p.Labels()
	dropped := burstlog.New(log, "feedback dropped: the pipeline's label queue is full", 0, 0)
	defer dropped.Flush(time.Now(), true)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			dropped.Flush(now, false)
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
				now := time.Now()
				dropped.Add(now, slog.String("alert_id", l.AlertID), slog.String("sender", l.Sender), slog.String("by", l.By))
				a := alert.AckOf(l)
				a.Reason, a.At = "the monitor is busy: feedback arrives faster than it is applied; send it again", now
				if err := pub.Ack(a); err != nil {
					log.Warn("feedback: acknowledging a dropped label", slog.Any("err", err))
				}
			}
		}
	}
}
