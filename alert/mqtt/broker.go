package mqtt

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"log/slog"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
)

// Broker is an MQTT broker embedded in the daemon, for demonstrations and
// single-board installations without a broker of their own. It accepts
// clients connecting from a loopback address only, keeps retained
// messages and persistent sessions in memory (they do not survive a
// restart of the daemon), and has no TLS: use mosquitto when clinicians
// connect over a network.
//
// It applies the per-bed ACL of the mosquitto example in alert/README.md:
// the daemon of a bed (AdmitPublisher), under credentials generated when
// it is admitted and held in memory only, alone publishes that bed's
// alert, end, status, score, evidence and feedback/ack; the users of
// BrokerOptions.UsersFile (and AddUser) publish the beds' feedback and
// nothing else; anonymous clients may subscribe and never publish, or
// not connect at all. Everybody admitted may subscribe to anything. A
// client ID in use by one identity (a daemon, a user, or anonymous) is
// refused to every other, so nobody takes over the daemon's session or
// publishes its last will; a will is refused unless its client may
// publish on its topic. A user's client ID is its name, whatever the
// client asked for (mosquitto's use_username_as_clientid), so a user
// cannot take another's, and an anonymous client may not use a user's
// name or a daemon's client ID.
//
// Nothing a client does can take the daemon it runs in down (see
// BrokerOptions): the connections open at once are bounded, anonymous
// clients get no persistent session, abandoned persistent sessions
// expire, and the messages queued for sessions are bounded in bytes, per
// session and in all, dropping scores first and alerts last.
type Broker struct {
	srv    *mochi.Server
	addr   string
	access *access
	lis    *capListener
	queues *queueBounds
}

// BrokerOptions says who may use the embedded broker.
type BrokerOptions struct {
	// UsersFile names a users file, one "name:bcrypt-hash" a line, the
	// format `ictal board user add` writes: its users (clinicians, the
	// ward board) may publish feedback. It is read at every connection,
	// so users added while the broker runs can connect at once. Empty:
	// no users besides those of AddUser.
	UsersFile string
	// Anonymous says what a client without a username may do:
	// AnonymousSubscribe (the default: subscribe, never publish) or
	// AnonymousNone (not connect).
	Anonymous string
	// MaxConnections bounds the connections open at once, those that
	// have not sent CONNECT yet included (default DefaultBrokerConnections):
	// a connection beyond it is closed as soon as it is accepted. A few
	// more are kept for the daemons admitted (AdmitPublisher), so that a
	// daemon reconnects while others hold every slot. At most 1024.
	MaxConnections int
	// SessionQueueBytes bounds what the broker queues for one session,
	// connected or not (the QoS 1 messages its client has not
	// acknowledged), in bytes (default DefaultBrokerSessionQueue): beyond
	// it the session's least important messages are dropped, scores
	// first, then status, evidence, feedback acknowledgements and
	// feedback, event ends, and alerts last, oldest first within a kind.
	// At least the largest packet (an alert's evidence).
	SessionQueueBytes int
	// QueueBytes bounds, likewise, what the broker queues for all sessions
	// together (default DefaultBrokerQueue); at least SessionQueueBytes,
	// at most 64 MiB.
	QueueBytes int
	// SessionExpiry is how long the session of a persistent client that
	// disconnected is kept, with what is queued for it (default
	// DefaultBrokerSessionExpiry). Anonymous clients never keep a
	// session: theirs ends with their connection.
	SessionExpiry time.Duration
}

// Defaults of BrokerOptions. The daemon's unit runs it in 128 MiB: the
// queues' bound leaves the detector its share.
const (
	DefaultBrokerConnections   = 64
	DefaultBrokerSessionQueue  = 4 << 20
	DefaultBrokerQueue         = 16 << 20
	DefaultBrokerSessionExpiry = 2 * time.Hour
)

// withDefaults fills the zero bounds and checks them, naming the field.
func (o BrokerOptions) withDefaults() (BrokerOptions, error) {
	switch {
	case o.MaxConnections < 0:
		return o, &ConfigError{"MaxConnections", o.MaxConnections, "want >= 1 (0: the default, 64)"}
	case o.SessionQueueBytes < 0:
		return o, &ConfigError{"SessionQueueBytes", o.SessionQueueBytes, "want >= 0 (0: the default, 4 MiB)"}
	case o.QueueBytes < 0:
		return o, &ConfigError{"QueueBytes", o.QueueBytes, "want >= 0 (0: the default, 16 MiB)"}
	case o.SessionExpiry < 0:
		return o, &ConfigError{"SessionExpiry", o.SessionExpiry, "want >= 0 (0: the default, 2h)"}
	}
	if o.MaxConnections == 0 {
		o.MaxConnections = DefaultBrokerConnections
	}
	if o.SessionQueueBytes == 0 {
		o.SessionQueueBytes = DefaultBrokerSessionQueue
	}
	if o.QueueBytes == 0 {
		o.QueueBytes = max(DefaultBrokerQueue, o.SessionQueueBytes)
	}
	if o.SessionExpiry == 0 {
		o.SessionExpiry = DefaultBrokerSessionExpiry
	}
	switch {
	case o.MaxConnections > maxBrokerConnections:
		return o, &ConfigError{"MaxConnections", o.MaxConnections, fmt.Sprintf("want at most %d: each costs ictald memory", maxBrokerConnections)}
	case o.QueueBytes > maxBrokerQueue:
		return o, &ConfigError{"QueueBytes", o.QueueBytes, fmt.Sprintf("want at most %d (64 MiB): the unit gives ictald 128 MiB in all", maxBrokerQueue)}
	case o.SessionQueueBytes < maxPacketSize+queuedOverhead:
		return o, &ConfigError{"SessionQueueBytes", o.SessionQueueBytes, fmt.Sprintf("want at least %d (the largest packet, an alert's evidence)", maxPacketSize+queuedOverhead)}
	case o.QueueBytes < o.SessionQueueBytes:
		return o, &ConfigError{"QueueBytes", o.QueueBytes, fmt.Sprintf("want at least the session queue's bound, %d", o.SessionQueueBytes)}
	case o.SessionExpiry < time.Second || o.SessionExpiry > maxBrokerSessionExpiry:
		return o, &ConfigError{"SessionExpiry", o.SessionExpiry, fmt.Sprintf("want 1s to %v", maxBrokerSessionExpiry)}
	}
	return o, nil
}

// Upper bounds of BrokerOptions: SessionExpiry a day, the most a ward's
// client could be away and still want what it missed; MaxConnections and
// QueueBytes what ictald can hold beside the detector in the unit's
// 128 MiB (a connection costs some 20 KiB, its goroutines' stacks
// included, before it queues anything).
const (
	maxBrokerSessionExpiry = 24 * time.Hour
	maxBrokerConnections   = 1024
	maxBrokerQueue         = 64 << 20
)

// What anonymous clients of the embedded broker may do.
const (
	AnonymousSubscribe = "subscribe"
	AnonymousNone      = "none"
)

// Validate checks the options, naming the field: Anonymous one of its
// values, UsersFile a readable users file, the bounds within theirs.
func (o BrokerOptions) Validate() error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	_, err = newAccess(o, nil)
	return err
}

// brokerWritesPending bounds the packets waiting for a connected client's
// writer (mochi's default is 8192, allocated as a channel for every
// connection: 64 KiB each, before the client has even authenticated).
// More are dropped, as mochi does at its own bound; a client reading
// nothing is disconnected after brokerWriteTimeout.
const brokerWritesPending = 128

// StartBroker listens on addr (host:port; port 0 picks a free one) and
// serves MQTT until Close, admitting clients as opt says (nil: anonymous
// clients subscribe, nobody publishes until AdmitPublisher and AddUser).
// Its own logs go to log (nil: discarded), a client's routine
// disconnection at DEBUG (brokerLog).
func StartBroker(addr string, opt *BrokerOptions, log *slog.Logger) (*Broker, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt == nil {
		opt = new(BrokerOptions)
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	log = log.With(slog.String("component", "broker"))
	a, err := newAccess(o, log)
	if err != nil {
		return nil, err
	}
	blog := slog.New(brokerLog{log.Handler()}) // mochi's records, and its listener's
	caps := mochi.NewDefaultServerCapabilities()
	// A client declaring a larger packet is disconnected before the
	// broker allocates for it: without a bound, mochi allocates whatever
	// a header declares (up to 256 MB), before any authentication, in
	// ictald's own memory.
	caps.MaximumPacketSize = maxPacketSize
	// A persistent session whose client went away holds the QoS 1
	// messages for it in ictald's memory (queueBounds bounds them); mochi
	// keeps it for 136 years unless told otherwise.
	caps.MaximumSessionExpiryInterval = uint32(o.SessionExpiry / time.Second)
	caps.MaximumClientWritesPending = brokerWritesPending
	srv := mochi.New(&mochi.Options{Logger: blog, InlineClient: false, Capabilities: caps})
	a.clients, a.srv = srv.Clients, srv
	q := newQueueBounds(o.SessionQueueBytes, o.QueueBytes, srv, log)
	for _, h := range []mochi.Hook{a, q} {
		if err := srv.AddHook(h, nil); err != nil {
			return nil, fmt.Errorf("alert: broker: %w", err)
		}
	}
	l := newCapListener("tcp", addr, o.MaxConnections, blog)
	if err := srv.AddListener(l); err != nil {
		return nil, fmt.Errorf("alert: broker: listen on %s: %w", addr, err)
	}
	if err := srv.Serve(); err != nil {
		srv.Close()
		return nil, fmt.Errorf("alert: broker: %w", err)
	}
	return &Broker{srv: srv, addr: l.Address(), access: a, lis: l, queues: q}, nil
}

// BrokerStats is what the embedded broker holds now, against its bounds
// (BrokerOptions).
type BrokerStats struct {
	// Connections counts the connections open, Refused those closed at
	// once, in total, because MaxConnections were open.
	Connections int
	Refused     uint64
	// Sessions counts the sessions the broker keeps: its clients'
	// connected, and persistent ones whose client went away.
	Sessions int
	// QueuedMessages counts the QoS 1 messages queued for sessions and
	// not yet acknowledged; QueuedBytes is their cost (payload, topic and
	// bookkeeping), PeakQueuedBytes the most it has been, and
	// SessionQueuedBytes the cost of the fullest session's.
	QueuedMessages, QueuedBytes, PeakQueuedBytes, SessionQueuedBytes int
	// Dropped counts the messages dropped to keep within the bounds, by
	// kind ("score", "status", "evidence", "feedback ack", "other",
	// "end", "alert").
	Dropped map[string]uint64
}

// Stats returns what the broker holds now.
func (b *Broker) Stats() BrokerStats {
	var st BrokerStats
	st.Connections, st.Refused = b.lis.counts()
	st.Sessions = b.srv.Clients.Len()
	b.queues.queueStats(&st)
	return st
}

// Addr returns the address the broker listens on (host:port).
func (b *Broker) Addr() string { return b.addr }

// URL returns the broker's address as a client URL, tcp://host:port.
func (b *Broker) URL() string { return "tcp://" + b.addr }

// Close disconnects every client and stops listening.
func (b *Broker) Close() error { return b.srv.Close() }

// AdmitPublisher makes the publisher that c configures the daemon of its
// bed on this broker: it alone may connect with c's client ID and
// publish the alert, end, status, score, evidence and feedback/ack topics
// under c's prefix, and the broker's users may publish on its feedback
// topic. It sets c.Brokers to the broker's URL, c.ClientID to the
// client ID (the default one if unset), and c.Username and c.Password to
// credentials generated now, which exist only in this process's memory.
// Admitting the same client ID again replaces the credentials.
func (b *Broker) AdmitPublisher(c *Config) error {
	d, err := c.withDefaults()
	if err != nil {
		return err
	}
	var pw [32]byte
	rand.Read(pw[:])
	password := base64.RawURLEncoding.EncodeToString(pw[:])
	b.access.admit(daemon{clientID: d.ClientID, prefix: d.Prefix, password: sha256.Sum256([]byte(password))})
	c.Brokers, c.ClientID = []string{b.URL()}, d.ClientID
	c.Username, c.Password, c.PasswordFile = d.ClientID, password, ""
	return nil
}

// AddUser adds a user with the rights of the users file's (publish
// feedback, subscribe) whose password is held in memory only: the demo's
// ward board. A name of the users file or of a daemon's is refused.
func (b *Broker) AddUser(name string, password []byte) error {
	return b.access.addUser(name, password)
}
