package mqtt

import (
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"
	"unicode"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert"
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
			m.flushFeedbackLogs(false)
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
	m.flushFeedbackLogs(true)
	if n := m.q.len(); n > 0 {
		m.log.Error("mqtt: closing with messages not handed to the client", slog.Int("messages", n))
	}
}

// logDrops logs the drop counters when they changed, at most every
// dropLogEvery unless final.
func (m *Publisher) logDrops(final bool) {
	scores, status := m.q.drops()
	if scores == m.loggedScores && status == m.loggedStatus {
		return
	}
	if !final && time.Since(m.lastDropLog) < dropLogEvery {
		return
	}
	m.log.Warn("mqtt: messages dropped (totals)",
		slog.Uint64("scores_queue_full", scores), slog.Uint64("status_superseded", status),
		slog.Uint64("scores_offline", m.droppedOffline.Load()))
	m.loggedScores, m.loggedStatus = scores, status
	m.lastDropLog = time.Now()
}

// flushFeedbackLogs logs the bursts of refused feedback that are over (or
// all of them, when final).
func (m *Publisher) flushFeedbackLogs(final bool) {
	now := m.cfg.clock()
	m.malformed.Flush(now, final)
	m.limited.Flush(now, final)
	m.labelsFull.Flush(now, final)
}

// onConnect runs on every (re)connection: subscribe to feedback, and have
// the publishing goroutine publish the current state.
func (m *Publisher) onConnect(c paho.Client) {
	m.log.Info("mqtt: connected")
	select {
	case m.connected <- struct{}{}:
	default:
	}
	from := m.topicFeedbackFrom + "+"
	tok := c.SubscribeMultiple(map[string]byte{m.topicFeedback: 1, from: 1}, m.onMessage)
	if !tok.WaitTimeout(m.cfg.WriteTimeout) {
		return
	}
	if err := tok.Error(); err != nil {
		m.log.Error("mqtt: subscribe to feedback", slog.String("topic", m.topicFeedback), slog.String("error", err.Error()))
		return
	}
	if st, ok := tok.(*paho.SubscribeToken); ok {
		for topic, code := range st.Result() {
			if code == 0x80 {
				m.log.Error("mqtt: the broker refused the subscription (its ACL?): feedback sent there does not arrive", slog.String("topic", topic))
			}
		}
	}
}

// onMessage validates feedback, rate-limits it and delivers it on Labels;
// anything else is logged and dropped. Every refusal is answered on
// …/feedback/ack and logged once per burst.
func (m *Publisher) onMessage(_ paho.Client, msg paho.Message) {
	now := m.cfg.clock()
	sender, ok := m.senderOf(msg.Topic())
	if !ok {
		m.log.Warn("mqtt: message on an unexpected topic dropped", slog.String("topic", msg.Topic()))
		return
	}
	lab, err := m.cfg.Feedback.Parse(msg.Payload(), now)
	if err != nil {
		m.rejected.Add(1)
		m.malformed.Add(now, slog.String("topic", msg.Topic()), slog.String("sender", sender), slog.String("error", err.Error()))
		if m.q.len() < maxRefusalBacklog { // a flood of junk must not grow the queue
			m.Ack(alert.Ack{Sender: sender, Reason: err.Error(), At: now})
		}
		return
	}
	lab.Sender = sender
	key, who := sender, fmt.Sprintf("sender %q", sender)
	switch {
	case sender == "" && lab.By != "":
		key, who = "by\x00"+lab.By, fmt.Sprintf("%q (named by \"by\"; the sender is unknown)", lab.By)
	case sender == "":
		who = "an unnamed sender"
	}
	if ok, reason := m.limiter.Allow(key, who, now); !ok {
		m.rateLimited.Add(1)
		m.limited.Add(now, slog.String("sender", sender), slog.String("by", lab.By), slog.String("reason", reason))
		if m.q.len() < maxRefusalBacklog {
			a := alert.AckOf(lab)
			a.Reason, a.At = reason, now
			m.Ack(a)
		}
		return
	}
	if !m.deliver(lab) {
		m.labelsFull.Add(now, slog.String("sender", sender), slog.String("by", lab.By), slog.String("alert_id", lab.AlertID))
		a := alert.AckOf(lab)
		a.Reason, a.At = "the monitor is busy: feedback arrives faster than it is applied; send it again", now
		m.Ack(a)
	}
}

// senderOf returns the sender a feedback topic names: "" for …/feedback,
// <sender> for …/feedback/from/<sender>; ok is false for any other topic
// or a sender that is no name (longer than alert.MaxByLength bytes, or
// with control characters).
func (m *Publisher) senderOf(topic string) (sender string, ok bool) {
	if topic == m.topicFeedback {
		return "", true
	}
	s, ok := strings.CutPrefix(topic, m.topicFeedbackFrom)
	if !ok || !topicSafe(s) || len(s) > alert.MaxByLength || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return "", false
	}
	return s, true
}

// maxRefusalBacklog is the queue length above which refused feedback is
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
		m.log.Info("mqtt: feedback accepted", slog.String("alert_id", lab.AlertID), slog.Bool("seizure", lab.Seizure),
			slog.String("sender", lab.Sender), slog.String("by", lab.By))
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
