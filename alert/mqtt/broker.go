package mqtt

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"log/slog"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
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
// publish on its topic.
type Broker struct {
	srv    *mochi.Server
	addr   string
	access *access
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
}

// What anonymous clients of the embedded broker may do.
const (
	AnonymousSubscribe = "subscribe"
	AnonymousNone      = "none"
)

// Validate checks the options, naming the field: Anonymous one of its
// values, UsersFile a readable users file.
func (o BrokerOptions) Validate() error {
	_, err := newAccess(o, nil)
	return err
}

// brokerSessionExpiry is how long the embedded broker keeps the session
// of a client that disconnected (its subscriptions, and the QoS 1
// messages queued for it). Its persistent-session clients (the ward
// board, ictal watch -c) are back well within it.
var brokerSessionExpiry = 24 * time.Hour

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
	a, err := newAccess(*opt, log.With(slog.String("component", "broker")))
	if err != nil {
		return nil, err
	}
	blog := slog.New(brokerLog{log.Handler()}).With(slog.String("component", "broker"))
	caps := mochi.NewDefaultServerCapabilities()
	// A client declaring a larger packet is disconnected before the
	// broker allocates for it: without a bound, mochi allocates whatever
	// a header declares (up to 256 MB), before any authentication, in
	// ictald's own memory.
	caps.MaximumPacketSize = maxPacketSize
	// A persistent session whose client went away holds every QoS 1
	// message for it (up to 8192: about 13 MB of feedback, or a day of
	// an artifact-flapping status) in ictald's memory; mochi keeps it
	// for 136 years unless told otherwise.
	caps.MaximumSessionExpiryInterval = uint32(brokerSessionExpiry / time.Second)
	srv := mochi.New(&mochi.Options{Logger: blog, InlineClient: false, Capabilities: caps})
	a.clients = srv.Clients
	if err := srv.AddHook(a, nil); err != nil {
		return nil, fmt.Errorf("alert: broker: %w", err)
	}
	l := listeners.NewTCP(listeners.Config{Type: listeners.TypeTCP, ID: "tcp", Address: addr})
	if err := srv.AddListener(l); err != nil {
		return nil, fmt.Errorf("alert: broker: listen on %s: %w", addr, err)
	}
	if err := srv.Serve(); err != nil {
		srv.Close()
		return nil, fmt.Errorf("alert: broker: %w", err)
	}
	return &Broker{srv: srv, addr: l.Address(), access: a}, nil
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
