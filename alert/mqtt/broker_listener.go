package mqtt

import (
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mochi-mqtt/server/v2/listeners"
)

// Timeouts of the embedded broker's connections.
const (
	// brokerConnectTimeout is how long a new connection may take to send
	// its CONNECT packet: a connection that never does (a port probe, a
	// slow-loris) gives its slot back after it.
	brokerConnectTimeout = 10 * time.Second
	// brokerWriteTimeout is how long one write to a client may block: a
	// subscriber that stops reading is disconnected after it, so that
	// what the broker queues for it stops growing.
	brokerWriteTimeout = 30 * time.Second
)

// daemonSlots is how many connections the embedded broker keeps, beyond
// MaxConnections, for its admitted daemons: a daemon reconnecting while
// others hold every ordinary slot still gets in (two for its old
// connection, not yet timed out, and the new one; two more to spare).
const daemonSlots = 4

// capListener is the embedded broker's TCP listener (a mochi
// listeners.Listener): it holds at most max ordinary connections and
// daemonSlots reserved ones open at once, closing any connection beyond
// them as soon as it is accepted, before mochi allocates anything for it.
// A connection given a reserved slot must authenticate as an admitted
// daemon (access.OnConnect checks). Every connection must send its CONNECT
// within brokerConnectTimeout, and a write to it may block at most
// brokerWriteTimeout.
type capListener struct {
	id, address string
	max         int
	log         *slog.Logger

	listen net.Listener
	end    atomic.Bool
	now    func() time.Time // the clock deadlines are set from (time.Now)

	mu       sync.Mutex
	closed   bool
	conns    map[*capConn]struct{} // open, to close at Close
	open     int                   // ordinary slots in use
	reserved int                   // reserved slots in use
	refused  uint64                // connections refused for the limit, in total
	episode  uint64                // connections beyond max since one was last admitted to an ordinary slot
}

// newCapListener returns a listener on address (host:port) holding at
// most max ordinary connections; log may not be nil.
func newCapListener(id, address string, max int, log *slog.Logger) *capListener {
	return &capListener{id: id, address: address, max: max, log: log, conns: map[*capConn]struct{}{}, now: time.Now}
}

// ID returns the listener's id.
func (l *capListener) ID() string { return l.id }

// Address returns the address listened on, its port resolved once
// listening.
func (l *capListener) Address() string {
	if l.listen != nil {
		return l.listen.Addr().String()
	}
	return l.address
}

// Protocol returns "tcp".
func (l *capListener) Protocol() string { return "tcp" }

// Init listens on the address.
func (l *capListener) Init(*slog.Logger) error {
	var err error
	l.listen, err = net.Listen("tcp", l.address)
	return err
}

// Serve accepts connections until Close, handing those within the limits
// to establish.
func (l *capListener) Serve(establish listeners.EstablishFn) {
	for !l.end.Load() {
		c, err := l.listen.Accept()
		if err != nil {
			return
		}
		cc := l.admit(c)
		if cc == nil {
			c.Close()
			continue
		}
		c.SetReadDeadline(l.now().Add(brokerConnectTimeout)) // mochi resets it once CONNECT is read
		go func() {
			if err := establish(l.id, cc); err != nil {
				l.log.Warn("", slog.Any("error", err)) // brokerLog names and grades it
			}
		}()
	}
}

// admit gives c a slot, ordinary if one is free, else reserved, and
// returns it wrapped; nil when every slot is taken, or the listener is
// closed. The first connection beyond the ordinary slots is logged, and
// so is the next one admitted to an ordinary slot, with the count of those
// beyond in between.
func (l *capListener) admit(c net.Conn) *capConn {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	cc := &capConn{Conn: c, l: l}
	if l.open < l.max {
		l.open++
		l.conns[cc] = struct{}{}
		if l.episode > 0 {
			l.log.Warn("broker: accepting connections again", slog.Uint64("beyond_limit", l.episode))
			l.episode = 0
		}
		return cc
	}
	l.episode++
	if l.episode == 1 {
		l.log.Warn("broker: connection limit reached; refusing new connections but a daemon's until some close",
			slog.Int("max_connections", l.max), slog.String("remote", c.RemoteAddr().String()))
	}
	if l.reserved < daemonSlots {
		l.reserved++
		cc.reserved = true
		l.conns[cc] = struct{}{}
		return cc
	}
	l.refused++
	return nil
}

// refuse counts a connection refused after it was accepted: one that took
// a reserved slot and is no daemon's.
func (l *capListener) refuse() {
	l.mu.Lock()
	l.refused++
	l.mu.Unlock()
}

// release gives back the slot of a closed connection.
func (l *capListener) release(c *capConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.conns, c)
	if c.reserved {
		l.reserved--
	} else {
		l.open--
	}
}

// counts returns the connections open (ordinary and reserved slots) and
// those refused in total.
func (l *capListener) counts() (open int, refused uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open + l.reserved, l.refused
}

// Close stops accepting and closes every connection, which ends its
// client. It does not call closeClients, mochi's way (DisconnectClient for
// each client of the listener): that misses a connection accepted as the
// broker closes, whose client mochi does not know yet, and would keep
// mochi's Close waiting for it for ever; and it takes the clients' lock
// twice for reading (Clients.GetByListener calls Len), which deadlocks
// when a client ending meanwhile waits to take it for writing.
func (l *capListener) Close(listeners.CloseFn) {
	if !l.end.CompareAndSwap(false, true) {
		return
	}
	if l.listen != nil {
		l.listen.Close()
	}
	l.mu.Lock()
	l.closed = true
	left := make([]*capConn, 0, len(l.conns))
	for c := range l.conns {
		left = append(left, c)
	}
	l.mu.Unlock()
	for _, c := range left {
		c.Close()
	}
}

// capConn is a connection holding a slot of its capListener until it is
// closed. Each Write may block at most brokerWriteTimeout; one that times
// out closes the connection. Deadlines mochi sets (its keep-alive) apply
// to reads only.
type capConn struct {
	net.Conn
	l        *capListener
	reserved bool // holds a reserved slot: must be a daemon's
	once     sync.Once
}

// Write writes p within brokerWriteTimeout, or closes the connection.
func (c *capConn) Write(p []byte) (int, error) {
	c.Conn.SetWriteDeadline(c.l.now().Add(brokerWriteTimeout))
	n, err := c.Conn.Write(p)
	if err != nil {
		c.Close()
	}
	return n, err
}

// SetDeadline sets the read deadline only: writes have their own.
func (c *capConn) SetDeadline(t time.Time) error { return c.Conn.SetReadDeadline(t) }

// Close closes the connection and gives its slot back, once.
func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c) })
	return err
}
