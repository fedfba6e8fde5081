package mqtt

import (
	"github.com/ictal/ictal/alert"
	"log/slog"
	"net/url"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// dropLogEvery rate-limits the log of dropped messages.
const dropLogEvery = 10 * time.Second

// run is the publishing goroutine: it hands queued messages to the client
// until Close, then drains what is left within CloseTimeout.
func (m *Publisher) run() {
	defer close(m.done)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-m.wake:
		case <-m.connected:
			m.publishState()
		case <-tick.C:
			m.store.retry()
			m.reap()
			m.logDrops(false)
		case <-m.stop:
			m.shutdown()
			return
		}
		m.drain()
	}
}

// drain publishes everything queued. An alert or end the client refuses
// (no packet identifier left, not connecting) goes back to the head of its
// queue and is retried on the next tick.
func (m *Publisher) drain() bool {
	for {
		k, p, ok := m.q.pop()
		if !ok {
			return true
		}
		if !m.publish(k, p) {
			m.q.mu.Lock()
			m.q.urgent = append([]item{{kind: k, payload: p}}, m.q.urgent...)
			m.q.mu.Unlock()
			return false
		}
	}
}

// publish hands one message to the client; false means an alert or end
// was refused and must be retried.
func (m *Publisher) publish(k kind, p []byte) bool {
	switch k {
	case kindScore:
		if !m.client.IsConnectionOpen() {
			m.droppedOffline.Add(1)
			return true
		}
		m.client.Publish(m.topicScore, 0, false, p)
		m.published.Add(1)
		return true
	case kindStatus:
		if !m.client.IsConnectionOpen() {
			return true // publishState sends the newest on connection
		}
		m.track(m.client.Publish(m.topicStatus, 1, true, p), k)
		return true
	default: // alert, end, evidence, ack
		topic := m.topicAlert
		switch k {
		case kindEnd:
			// Ends have their own topic: a receiver that drops repeated
			// alert IDs on …/alert must not drop an event's end as a
			// duplicate of its alert.
			topic = m.topicEnd
		case kindEvidence:
			topic = m.topicEvidence
		case kindAck:
			topic = m.topicAck
		}
		tok := m.client.Publish(topic, 1, false, p)
		select {
		case <-tok.Done():
			if err := tok.Error(); err != nil {
				m.log.Error("mqtt: "+k.String()+" not accepted by the client; will retry", slog.String("error", err.Error()))
				return false
			}
		default:
		}
		m.track(tok, k)
		return true
	}
}

// track counts a QoS 1 message handed over and keeps its token until it
// is acknowledged.
func (m *Publisher) track(tok paho.Token, k kind) {
	m.published.Add(1)
	m.pending = append(m.pending, tok)
	if len(m.pending) > 4096 {
		m.reap()
	}
}

// reap forgets the tokens that completed and counts acknowledgements.
func (m *Publisher) reap() {
	kept := m.pending[:0]
	for _, tok := range m.pending {
		select {
		case <-tok.Done():
			if err := tok.Error(); err != nil {
				m.log.Warn("mqtt: publish", slog.String("error", err.Error()))
			} else {
				m.acked.Add(1)
			}
		default:
			kept = append(kept, tok)
		}
	}
	clear(m.pending[len(kept):])
	m.pending = kept
}

// publishState publishes the current state, retained, after a connection:
// the state the pipeline last reported, or online since now.
func (m *Publisher) publishState() {
	m.mu.Lock()
	s, ok := m.status, m.hasStatus
	m.mu.Unlock()
	if !ok {
		s = alert.Status{State: alert.StateOnline, Since: time.Now()}
	}
	m.track(m.client.Publish(m.topicStatus, 1, true, alert.AppendStatus(nil, s)), kindStatus)
}

// shutdown drains the queue and waits for acknowledgements within
// CloseTimeout, then publishes the offline status if connected.
func (m *Publisher) shutdown() {
	deadline := time.Now().Add(m.cfg.CloseTimeout)
	for !m.drain() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	for m.reap(); len(m.pending) > 0 && time.Now().Before(deadline) && m.client.IsConnectionOpen(); m.reap() {
		time.Sleep(5 * time.Millisecond)
	}
	if m.client.IsConnectionOpen() {
		tok := m.client.Publish(m.topicStatus, 1, true, []byte(alert.OfflinePayload))
		if !tok.WaitTimeout(time.Until(deadline)) || tok.Error() != nil {
			m.log.Warn("mqtt: offline status not acknowledged before close")
		}
	}
	m.logDrops(true)
	if n := m.q.len(); n > 0 {
		m.log.Error("mqtt: closing with messages not handed to the client", slog.Int("messages", n))
	}
}

// logDrops logs the drop counters when they changed, at most every
// dropLogEvery unless final.
func (m *Publisher) logDrops(final bool) {
	scores, status := m.q.drops()
	labels := m.droppedLabels.Load()
	if scores == m.loggedScores && status == m.loggedStatus && labels == m.loggedLabs {
		return
	}
	if !final && time.Since(m.lastDropLog) < dropLogEvery {
		return
	}
	m.log.Warn("mqtt: messages dropped (totals)",
		slog.Uint64("scores_queue_full", scores), slog.Uint64("status_superseded", status),
		slog.Uint64("scores_offline", m.droppedOffline.Load()), slog.Uint64("labels_channel_full", labels))
	m.loggedScores, m.loggedStatus, m.loggedLabs = scores, status, labels
	m.lastDropLog = time.Now()
}

// onConnect runs on every (re)connection: subscribe to feedback, and have
// the publishing goroutine publish the current state.
func (m *Publisher) onConnect(c paho.Client) {
	m.log.Info("mqtt: connected")
	select {
	case m.connected <- struct{}{}:
	default:
	}
	tok := c.Subscribe(m.topicFeedback, 1, m.onMessage)
	if tok.WaitTimeout(m.cfg.WriteTimeout) && tok.Error() != nil {
		m.log.Error("mqtt: subscribe to feedback", slog.String("topic", m.topicFeedback), slog.String("error", tok.Error().Error()))
	}
}

// onMessage validates feedback and delivers it on Labels; anything else is
// logged and dropped.
func (m *Publisher) onMessage(_ paho.Client, msg paho.Message) {
	if msg.Topic() != m.topicFeedback {
		m.log.Warn("mqtt: message on an unexpected topic dropped", slog.String("topic", msg.Topic()))
		return
	}
	lab, err := m.cfg.Feedback.Parse(msg.Payload(), time.Now())
	if err != nil {
		m.rejected.Add(1)
		m.log.Warn("mqtt: feedback rejected", slog.String("topic", msg.Topic()), slog.String("error", err.Error()))
		if m.q.len() < maxRefusalBacklog { // a flood of junk must not grow the queue
			m.Ack(alert.Ack{Reason: err.Error(), At: time.Now()})
		}
		return
	}
	if !m.deliver(lab) {
		a := alert.AckOf(lab)
		a.Reason, a.At = "the monitor is busy: feedback arrives faster than it is applied; send it again", time.Now()
		m.Ack(a)
	}
}

// maxRefusalBacklog is the queue length above which malformed feedback is
// no longer answered (it is still logged and counted).
const maxRefusalBacklog = 64

// deliver hands a label to the pipeline without blocking; false when
// Labels is full (the label is dropped and counted) or closed.
func (m *Publisher) deliver(lab alert.Label) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.labelsOff {
		return true // closing: no one left to answer
	}
	select {
	case m.labels <- lab:
		m.labelsOut.Add(1)
		m.log.Info("mqtt: feedback accepted", slog.String("alert_id", lab.AlertID), slog.Bool("seizure", lab.Seizure), slog.String("by", lab.By))
		return true
	default:
		m.droppedLabels.Add(1)
		return false
	}
}

// failLogEvery rate-limits the log of a repeated connection failure.
const failLogEvery = time.Minute

// onNotification logs failed connection attempts: when the reason changes,
// else at most every failLogEvery. The broker URL is logged without user
// information; the password is never part of a reason.
func (m *Publisher) onNotification(_ paho.Client, n paho.ConnectionNotification) {
	var broker *url.URL
	var err error
	switch f := n.(type) {
	case paho.ConnectionNotificationBrokerFailed: // network or TLS
		broker, err = f.Broker, f.Reason
	case paho.ConnectionNotificationFailed: // refused by every broker (CONNACK)
		err = f.Reason
	}
	if err == nil {
		return
	}
	reason := err.Error()
	m.failMu.Lock()
	defer m.failMu.Unlock()
	if reason == m.lastFail && time.Since(m.lastFailLog) < failLogEvery {
		return
	}
	m.lastFail, m.lastFailLog = reason, time.Now()
	if broker != nil {
		m.log.Warn("mqtt: connection attempt failed; retrying", slog.String("broker", redactURL(broker)), slog.String("error", reason))
	} else {
		m.log.Warn("mqtt: connection attempt failed; retrying", slog.String("error", reason))
	}
}

// redactURL returns u without user information.
func redactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	r := *u
	r.User = nil
	return r.String()
}
