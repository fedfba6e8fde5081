package mqtt

import (
	"errors"
	"fmt"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/internal/burstlog"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// ErrClosed is returned by the Sink methods of a closed MQTT publisher.
var ErrClosed = errors.New("alert: mqtt publisher closed")

// Publisher is the Sink that publishes a bed's alerts, status and scores to an
// MQTT broker and takes clinician feedback from it, as DESIGN.md's MQTT
// contract says.
//
// Delivery. Alerts and event ends are published with QoS 1 in a
// persistent session (CleanSession false, a fixed client ID per bed) with
// an on-disk store: a message is written to the store before it is sent
// and removed when the broker acknowledges it, so alerts raised while the
// broker is down, or not yet acknowledged when the daemon is killed, are
// sent when the connection comes back or by the next process with the same
// client ID and store. QoS 1 is at-least-once: a receiver may see an alert
// twice and must drop duplicates by the alert's "id"; with that, each alert
// reaches the clinician exactly once. The store holds at most 65 535
// unacknowledged messages (MQTT's packet identifiers) and is written
// without fsync: it survives the process being killed, not a power cut.
// A full disk never stops the publisher: the store then holds messages in
// memory (at most StoreMemory bytes; alerts are dropped last), reports it
// (Stats, Store) and logs it at ERROR once, and writes them to disk when
// space returns.
//
// Status is published with QoS 1, retained; the last will is
// OfflinePayload, retained, on the status topic. On every (re)connection
// the current state is published again (online, with the time of the
// connection, until the pipeline reports a state), replacing the will.
// Status changes while disconnected are not queued: the one published on
// reconnection supersedes them. Close publishes offline (a clean
// disconnection suppresses the will).
//
// Scores, if enabled, are QoS 0 and dropped while disconnected.
//
// Never blocking. The Sink methods encode the payload into a queue and
// return; one goroutine owned by the publisher hands messages to the
// client. Scores and status updates wait in a ring of QueueSize; when it
// is full, scores are dropped first, then status updates older than the
// newest. Alerts and ends wait in an unbounded FIFO ahead of them and are
// never dropped (the detector's refractory period bounds their rate to one
// event a minute by default). Drops are counted (Stats) and logged at most
// every 10 s.
//
// Feedback on …/feedback and …/feedback/from/<sender> (QoS 1) is
// validated by Config().Feedback.Parse, rate-limited by
// Config().FeedbackLimits, and delivered on Labels (with the sender of a
// from topic as Label.Sender); every feedback message is answered on
// …/feedback/ack (by the publisher when it refuses it, by the pipeline
// through Ack otherwise). Refusals for malformed feedback, the rate
// limits and a full Labels channel are each logged once per burst, with
// a count. Each alert's EEG goes to
// …/evidence (Evidence), QoS 1 like alerts.
type Publisher struct {
	cfg    Config
	log    *slog.Logger
	client paho.Client
	q      *queue
	store  *store

	topicAlert, topicEnd, topicStatus, topicScore, topicFeedback, topicEvidence, topicAck string
	topicFeedbackFrom                                                                     string // …/feedback/from/, followed by the sender

	limiter                        *alert.FeedbackLimiter
	malformed, limited, labelsFull *burstlog.Log // feedback refused, logged once per burst

	wake      chan struct{} // a message was queued
	connected chan struct{} // the client (re)connected
	stop      chan struct{} // Close was called
	done      chan struct{} // the publishing goroutine ended
	labels    chan alert.Label

	mu        sync.Mutex // guards what follows
	closed    bool
	labelsOff bool   // Labels is closed
	buf       []byte // encoding scratch of the alert.Sink methods
	status    alert.Status
	hasStatus bool

	published, acked, droppedOffline   atomic.Uint64
	droppedLabels, rejected, labelsOut atomic.Uint64
	rateLimited                        atomic.Uint64
	lastDropLog                        time.Time // publishing goroutine only
	loggedScores, loggedStatus         uint64    // publishing goroutine only
	pending                            []paho.Token

	failMu      sync.Mutex // guards the connection failure log's rate limit
	lastFail    string
	lastFailLog time.Time
}

// Stats counts what the publisher did.
type Stats struct {
	Queued int // messages waiting in the in-memory queue
	// Published counts messages handed to the client (QoS 1 ones are then
	// in the on-disk store); Acked the QoS 1 ones acknowledged.
	Published, Acked uint64
	// DroppedScores and DroppedStatus count messages dropped because the
	// queue was full; DroppedOffline scores dropped while disconnected.
	DroppedScores, DroppedStatus, DroppedOffline uint64
	// Labels counts feedback delivered on Labels, DroppedLabels valid
	// feedback dropped because Labels was full, RejectedFeedback invalid
	// feedback, RateLimited valid feedback refused by the rate limits.
	Labels, DroppedLabels, RejectedFeedback, RateLimited uint64
	// StoreDegraded is set while the on-disk store cannot be written (a
	// full disk): unacknowledged QoS 1 messages are then held in memory,
	// StoreHeld of them now; StoreDropped counts those dropped, in total,
	// because they exceeded StoreMemory. Store says why.
	StoreDegraded bool
	StoreHeld     int
	StoreDropped  uint64
}

// New validates cfg, opens the store and starts connecting in the
// background: it returns at once even when the broker is unreachable, and
// keeps trying with exponential back-off up to MaxReconnectInterval.
// A store that cannot be written (a full disk) does not stop it: the
// publisher starts with the store degraded. Only a StoreDir that cannot be
// a directory is an error (a *ConfigError). Messages are logged to log
// (nil: discarded); secrets never are.
func New(cfg Config, log *slog.Logger) (*Publisher, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With(slog.String("client_id", c.ClientID))
	opts, err := c.Connection.ClientOptions(c.ClientID)
	if err != nil {
		return nil, err
	}
	m := &Publisher{
		cfg: c, log: log, q: newQueue(c.QueueSize),
		topicAlert: c.Prefix + "/alert", topicEnd: c.Prefix + "/end", topicStatus: c.Prefix + "/status",
		topicScore: c.Prefix + "/score", topicFeedback: c.Prefix + "/feedback",
		topicEvidence: c.Prefix + "/evidence", topicAck: c.Prefix + "/feedback/ack",
		topicFeedbackFrom: c.Prefix + "/feedback/from/",
		limiter:           alert.NewFeedbackLimiter(c.FeedbackLimits),
		malformed:         burstlog.New(log, "mqtt: malformed feedback refused", 0, 0),
		limited:           burstlog.New(log, "mqtt: feedback refused: rate limit", 0, 0),
		labelsFull:        burstlog.New(log, "mqtt: feedback dropped: the label queue is full", 0, 0),
		wake:              make(chan struct{}, 1), connected: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{}),
		labels: make(chan alert.Label, c.LabelBuffer),
		buf:    make([]byte, 0, 512),
	}
	m.store, err = newStore(c.StoreDir, c.StoreMemory, m.rank, c.storeCreate, log)
	if err != nil {
		return nil, err
	}
	opts.SetCleanSession(false).
		SetStore(m.store).
		SetBinaryWill(m.topicStatus, []byte(alert.OfflinePayload), 1, true).
		SetAutoReconnect(true).
		SetMaxReconnectInterval(c.MaxReconnectInterval).
		SetConnectRetry(true).
		SetConnectRetryInterval(time.Second).
		SetKeepAlive(c.KeepAlive).
		SetWriteTimeout(c.WriteTimeout).
		SetResumeSubs(true).
		SetDefaultPublishHandler(m.onMessage).
		SetOnConnectHandler(m.onConnect).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			m.log.Warn("mqtt: connection lost; reconnecting", slog.String("error", err.Error()))
		}).
		SetConnectionNotificationHandler(m.onNotification)
	m.client = paho.NewClient(opts)
	// Connect opens the store and, with ConnectRetry, reserves the packet
	// identifiers of the messages a previous process left in it, so
	// alerts published before the first connection do not overwrite them;
	// the first connection resends them (TestMQTTKilledDaemonDelivers…).
	tok := m.client.Connect() // retries in the background
	go func() {
		// With ConnectRetry the token completes only on success or Close.
		<-tok.Done()
		if err := tok.Error(); err != nil {
			m.log.Warn("mqtt: connect", slog.String("error", err.Error()))
		}
	}()
	go m.run()
	return m, nil
}

// Labels returns the channel of validated clinician feedback. It is
// bounded (LabelBuffer): when the reader falls behind, new labels are
// dropped and counted. It is closed by Close.
func (m *Publisher) Labels() <-chan alert.Label { return m.labels }

// Config returns the effective configuration.
func (m *Publisher) Config() Config { return m.cfg }

// Stats returns the publisher's counters.
func (m *Publisher) Stats() Stats {
	ds, dst := m.q.drops()
	st := m.store.state()
	return Stats{
		StoreDegraded: st.Err != nil, StoreHeld: st.Held, StoreDropped: st.Dropped,
		Queued: m.q.len(), Published: m.published.Load(), Acked: m.acked.Load(),
		DroppedScores: ds, DroppedStatus: dst, DroppedOffline: m.droppedOffline.Load(),
		Labels: m.labelsOut.Load(), DroppedLabels: m.droppedLabels.Load(), RejectedFeedback: m.rejected.Load(),
		RateLimited: m.rateLimited.Load(),
	}
}

// Store returns the state of the on-disk store: why it is degraded, if it
// is, and what it holds in memory.
func (m *Publisher) Store() StoreState { return m.store.state() }

// rank orders the packets of a degraded store by importance: it drops
// status first and alerts last.
func (m *Publisher) rank(topic string) int {
	switch topic {
	case m.topicStatus:
		return rankStatus
	case m.topicEvidence:
		return rankEvidence
	case m.topicAck:
		return rankAck
	case m.topicEnd:
		return rankEnd
	case m.topicAlert:
		return rankAlert
	}
	return rankOther
}

// notify wakes the publishing goroutine without blocking.
func (m *Publisher) notify() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// Alert implements alert.Sink: the alert is queued for publication with
// QoS 1.
func (m *Publisher) Alert(e *alert.Event) error {
	return m.enqueue(kindAlert, true, func(b []byte) []byte { return alert.AppendAlert(b, e) })
}

// EventEnd implements alert.EventEnder: the end of the event
// (AppendEventEnd) is queued for the …/end topic with QoS 1, never
// dropped.
func (m *Publisher) EventEnd(e *alert.Event) error {
	return m.enqueue(kindEnd, true, func(b []byte) []byte { return alert.AppendEventEnd(b, e) })
}

// Evidence implements alert.EvidenceSink: the alert's EEG
// (AppendEvidence) is queued for the …/evidence topic with QoS 1, never
// dropped. It allocates the payload: once per alert. A payload larger
// than alert.MaxEvidenceSize is an error and is not sent: every receiver
// refuses it, and a broker bounding packets (the embedded one, mosquitto
// as alert/README.md configures it) would disconnect the daemon for it,
// again at every resend, holding up the alerts queued behind it.
func (m *Publisher) Evidence(ev *alert.Evidence) error {
	p := alert.AppendEvidence(nil, ev)
	if len(p) > alert.MaxEvidenceSize {
		return fmt.Errorf("alert: mqtt: evidence of alert %s is %d bytes, more than alert.MaxEvidenceSize (%d): not sent", ev.AlertID, len(p), alert.MaxEvidenceSize)
	}
	return m.enqueue(kindEvidence, true, func(b []byte) []byte { return append(b, p...) })
}

// Ack implements alert.AckSink: the answer to a feedback message is
// queued for …/feedback/ack with QoS 1, never dropped. The publisher also
// answers, itself, feedback it refuses as malformed and feedback it could
// not hand to the pipeline.
func (m *Publisher) Ack(a alert.Ack) error {
	return m.enqueue(kindAck, true, func(b []byte) []byte { return alert.AppendAck(b, a) })
}

// Status implements alert.StatusSink: the state becomes the current one
// and is queued for publication, retained.
func (m *Publisher) Status(s alert.Status) error {
	return m.enqueue(kindStatus, false, func(b []byte) []byte {
		m.status, m.hasStatus = s, true
		return alert.AppendStatus(b, s)
	})
}

// Score implements alert.ScoreSink: with Scores set, the score is queued
// for QoS 0 publication; it is the first thing dropped when the queue is
// full.
func (m *Publisher) Score(s alert.Score) error {
	if !m.cfg.Scores {
		return nil
	}
	return m.enqueue(kindScore, false, func(b []byte) []byte { return alert.AppendScore(b, s) })
}

// enqueue encodes a message with encode (called under the lock, into the
// encoding scratch) and queues it — urgent ones (alerts, ends) are never
// dropped — then wakes the publishing goroutine. It allocates nothing:
// the closures do not escape.
func (m *Publisher) enqueue(k kind, urgent bool, encode func([]byte) []byte) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrClosed
	}
	m.buf = encode(m.buf[:0])
	if urgent {
		m.q.pushUrgent(k, m.buf)
	} else {
		m.q.push(k, m.buf)
	}
	m.mu.Unlock()
	m.notify()
	return nil
}

// Close stops accepting messages, waits up to CloseTimeout for the queue
// to be handed to the client and for QoS 1 acknowledgements, publishes
// the offline status if connected, and disconnects. Alerts not yet
// acknowledged stay in the on-disk store for the next process (unless the
// store is degraded and still cannot write them: the error says so). It closes
// Labels. It returns an error saying what was left undelivered. An alert
// or event end that is lost for good — never handed to the client, or held
// in memory by a store that still cannot write it — is logged whole at
// CRIT (journal.LevelCritical), an evidence by its alert ID, so that the
// journal keeps it when the broker never got it and the disk is full.
func (m *Publisher) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.mu.Unlock()
	close(m.stop)
	<-m.done
	left := m.q.len()
	m.logLeft()
	unacked := len(m.pending)
	m.client.Disconnect(250)
	m.store.Close() // paho does not when it never connected
	m.mu.Lock()
	m.labelsOff = true
	close(m.labels)
	m.mu.Unlock()
	if st := m.store.state(); st.Err != nil && st.Held > 0 {
		return fmt.Errorf("alert: mqtt: closed with %d messages queued and %d unacknowledged; %d held in memory are lost: %w", left, unacked, st.Held, st.Err)
	}
	if left > 0 || unacked > 0 {
		return fmt.Errorf("alert: mqtt: closed with %d messages queued and %d unacknowledged (QoS 1 ones stay in the store %s)", left, unacked, m.cfg.StoreDir)
	}
	return nil
}

// logLeft logs, at CRIT, each alert, end and evidence still in the queue
// at Close: never handed to the client, so in no store.
func (m *Publisher) logLeft() {
	m.q.mu.Lock()
	defer m.q.mu.Unlock()
	for _, it := range m.q.urgent {
		switch it.kind {
		case kindAlert:
			logLost(m.log, m.topicAlert, it.payload, false, "never handed to the MQTT client before close")
		case kindEnd:
			logLost(m.log, m.topicEnd, it.payload, false, "never handed to the MQTT client before close")
		case kindEvidence:
			logLost(m.log, m.topicEvidence, it.payload, true, "never handed to the MQTT client before close")
		}
	}
}
