package mqtt

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/ictal/ictal/internal/users"
)

// access is the embedded broker's authentication and ACL (a mochi hook):
// who a client is, from its credentials, and what it may publish.
type access struct {
	mochi.HookBase
	usersFile string
	anonymous bool // anonymous clients may connect (and subscribe)
	log       *slog.Logger
	clients   *mochi.Clients // the broker's, for the owners of client IDs
	srv       *mochi.Server  // to refuse a connection beyond the limit

	mu      sync.RWMutex
	daemons map[string]*daemon  // by username, which is the client ID
	memory  map[string][32]byte // AddUser's: name → SHA-256 of the password
}

// newAccess checks opt and returns the hook; log may be nil.
func newAccess(opt BrokerOptions, log *slog.Logger) (*access, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a := &access{usersFile: opt.UsersFile, log: log, daemons: map[string]*daemon{}, memory: map[string][32]byte{}}
	switch opt.Anonymous {
	case "", AnonymousSubscribe:
		a.anonymous = true
	case AnonymousNone:
	default:
		return nil, &ConfigError{"Anonymous", opt.Anonymous, `want "subscribe" or "none"`}
	}
	if a.usersFile != "" {
		if _, err := users.Read(a.usersFile); err != nil {
			return nil, &ConfigError{"UsersFile", a.usersFile, err.Error()}
		}
	}
	return a, nil
}

// admit registers (or replaces) a daemon.
func (a *access) admit(d daemon) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.daemons[d.clientID] = &d
}

// addUser registers a user held in memory.
func (a *access) addUser(name string, password []byte) error {
	if !users.ValidName(name) || len(password) < users.MinPasswordLength {
		return fmt.Errorf("alert: broker: %w: %q, or a password under %d bytes", users.ErrUser, name, users.MinPasswordLength)
	}
	if a.usersFile != "" {
		if u, err := users.Read(a.usersFile); err == nil && u[name] != nil {
			return fmt.Errorf("alert: broker: %w: %s is a user of %s", users.ErrUser, name, a.usersFile)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.daemons[name] != nil {
		return fmt.Errorf("alert: broker: %w: %s is a daemon's", users.ErrUser, name)
	}
	a.memory[name] = sha256.Sum256(password)
	return nil
}

// writable reports whether the client authenticated as username ("":
// anonymous) may publish on topic.
func (a *access) writable(username, topic string) bool {
	if username == "" {
		return false
	}
	a.mu.RLock()
	defer a.mu.RUnlock()
	if d := a.daemons[username]; d != nil {
		return d.writable(topic)
	}
	for _, d := range a.daemons { // a user: the beds' feedback, anonymous or under its own name
		if topic == d.prefix+"/feedback" || topic == d.prefix+"/feedback/from/"+username {
			return true
		}
	}
	return false
}

// isUser reports whether name is a user's (of the users file or
// AddUser).
func (a *access) isUser(name string) bool {
	a.mu.RLock()
	_, mem := a.memory[name]
	a.mu.RUnlock()
	if mem || a.usersFile == "" {
		return mem
	}
	u, err := users.Read(a.usersFile)
	return err == nil && u[name] != nil
}

// admits says why a client connecting with id and the CONNECT packet pk
// is refused, or "" when it is admitted, and the client ID it is admitted
// under: its credentials must be a daemon's (with that daemon's client
// ID), a user's (whose client ID is then the user's name, whatever id
// says), or none when anonymous clients are (with an id that is no
// user's name); its client ID may not be in use by another identity; and
// its will, if any, must be on a topic it may publish.
func (a *access) admits(id string, pk packets.Packet) (reason, clientID string) {
	name := string(pk.Connect.Username)
	a.mu.RLock()
	d := a.daemons[name]
	mem, isMem := a.memory[name]
	a.mu.RUnlock()
	switch {
	case name == "":
		if !a.anonymous {
			return "anonymous clients are refused", id
		}
		if a.isUser(id) {
			return "the client ID of a user", id
		}
	case d != nil:
		if !equalHash(d.password, sha256.Sum256(pk.Connect.Password)) {
			return "wrong password", id
		}
		if id != d.clientID {
			return "a daemon's credentials with another client ID", id
		}
	case isMem:
		if !equalHash(mem, sha256.Sum256(pk.Connect.Password)) {
			return "wrong password", id
		}
		id = name
	case a.usersFile == "":
		return "unknown user", id
	default:
		ok, err := users.Check(a.usersFile, name, pk.Connect.Password)
		if err != nil {
			a.log.Error("broker: users file", slog.Any("err", err))
		}
		if !ok {
			return "unknown user or wrong password", id
		}
		id = name
	}
	a.mu.RLock()
	reserved := a.daemons[id]
	a.mu.RUnlock()
	if reserved != nil && name != reserved.clientID {
		return "the client ID of a daemon", id
	}
	if old, ok := a.clients.Get(id); ok && string(old.Properties.Username) != name {
		return fmt.Sprintf("client ID in use by %q", old.Properties.Username), id
	}
	if pk.Connect.WillFlag && !a.writable(name, pk.Connect.WillTopic) {
		return fmt.Sprintf("a will on %q, which this client may not publish", pk.Connect.WillTopic), id
	}
	return "", id
}

// daemon is an admitted publisher: its client ID (also its username),
// topic prefix and the SHA-256 of its generated password.
type daemon struct {
	clientID, prefix string
	password         [32]byte
}

// daemonTopics are the topics under its prefix only a bed's daemon
// publishes.
var daemonTopics = []string{"alert", "end", "status", "score", "evidence", "feedback/ack"}

// writable reports whether the daemon may publish on topic.
func (d *daemon) writable(topic string) bool {
	for _, t := range daemonTopics {
		if topic == d.prefix+"/"+t {
			return true
		}
	}
	return false
}

// equalHash compares two SHA-256 sums in constant time.
func equalHash(a, b [32]byte) bool { return subtle.ConstantTimeCompare(a[:], b[:]) == 1 }

// OnACLCheck allows reading any topic to every admitted client, and
// writing to a daemon its bed's topics, to a user the beds' feedback, to
// anonymous clients nothing.
func (a *access) OnACLCheck(cl *mochi.Client, topic string, write bool) bool {
	if !write {
		return true
	}
	return a.writable(string(cl.Properties.Username), topic)
}

// ID names the hook for mochi.
func (*access) ID() string { return "ictal-access" }

// Provides says which events the hook handles: connection limits,
// authentication and ACLs.
func (*access) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnect, mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
}

// errConnectionLimit ends a connection that holds a slot kept for the
// daemons without being one.
var errConnectionLimit = errors.New("alert: broker: connection limit reached")

// OnConnect refuses, as "server unavailable", a client that took one of
// the slots kept for the daemons (capListener) without a daemon's
// credentials. Their password is checked here as at authentication: a
// SHA-256, not a bcrypt.
func (a *access) OnConnect(cl *mochi.Client, pk packets.Packet) error {
	cc, ok := cl.Net.Conn.(*capConn)
	if !ok || !cc.reserved {
		return nil
	}
	a.mu.RLock()
	d := a.daemons[string(pk.Connect.Username)]
	a.mu.RUnlock()
	if d != nil && equalHash(d.password, sha256.Sum256(pk.Connect.Password)) {
		return nil
	}
	code := packets.ErrServerUnavailable // MQTT 3.1.1: 3, "server unavailable"
	if cl.Properties.ProtocolVersion == 5 {
		code = packets.ErrServerBusy
	}
	cc.l.refuse()
	a.srv.SendConnack(cl, code, false, nil)
	return errConnectionLimit
}

// loopback reports whether a client's remote address is a loopback one.
func loopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// OnConnectAuthenticate admits a client from a loopback address whose
// credentials, client ID and will pass (*access).admits, under the client
// ID admits says; an anonymous client's session is made clean (it ends
// with its connection, whatever the client asked). A refusal is logged
// with its reason.
func (a *access) OnConnectAuthenticate(cl *mochi.Client, pk packets.Packet) bool {
	reason, id := "not a loopback address", cl.ID
	if loopback(cl.Net.Remote) {
		reason, id = a.admits(cl.ID, pk)
	}
	if reason == "" {
		if id != cl.ID {
			if cl.Properties.Props.AssignedClientID != "" {
				cl.Properties.Props.AssignedClientID = id
			}
			cl.ID = id
		}
		if len(pk.Connect.Username) == 0 {
			cl.Properties.Clean = true
			cl.Properties.Props.SessionExpiryInterval, cl.Properties.Props.SessionExpiryIntervalFlag = 0, false
		}
		return true
	}
	a.log.Warn("broker: connection refused", slog.String("reason", reason), slog.String("remote", cl.Net.Remote),
		slog.String("client_id", cl.ID), slog.String("username", string(pk.Connect.Username)))
	return false
}
