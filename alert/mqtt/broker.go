package mqtt

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"
)

// Broker is an MQTT broker embedded in the daemon, for demonstrations and
// single-board installations without a broker of their own. It accepts
// anonymous clients connecting from a loopback address only, keeps
// retained messages and persistent sessions in memory (they do not
// survive a restart of the daemon), and has no TLS: use mosquitto when
// clinicians connect over a network.
type Broker struct {
	srv  *mochi.Server
	addr string
}

// StartBroker listens on addr (host:port; port 0 picks a free one) and
// serves MQTT until Close. Its own logs go to log (nil: discarded), a
// client's routine disconnection at DEBUG (brokerLog).
func StartBroker(addr string, log *slog.Logger) (*Broker, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	blog := slog.New(brokerLog{log.Handler()}).With(slog.String("component", "broker"))
	srv := mochi.New(&mochi.Options{Logger: blog, InlineClient: false})
	if err := srv.AddHook(new(loopbackOnly), nil); err != nil {
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
	return &Broker{srv: srv, addr: l.Address()}, nil
}

// Addr returns the address the broker listens on (host:port).
func (b *Broker) Addr() string { return b.addr }

// URL returns the broker's address as a client URL, tcp://host:port.
func (b *Broker) URL() string { return "tcp://" + b.addr }

// Close disconnects every client and stops listening.
func (b *Broker) Close() error { return b.srv.Close() }

// loopbackOnly admits anonymous clients whose address is a loopback one
// and lets them publish and subscribe to anything.
type loopbackOnly struct{ mochi.HookBase }

// ID names the hook for mochi.
func (*loopbackOnly) ID() string { return "loopback-only" }

// Provides says which events the hook handles: authentication and ACLs.
func (*loopbackOnly) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
}

// OnConnectAuthenticate admits a client whose address is a loopback one.
func (*loopbackOnly) OnConnectAuthenticate(cl *mochi.Client, _ packets.Packet) bool {
	host, _, err := net.SplitHostPort(cl.Net.Remote)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// OnACLCheck allows every topic to an admitted client.
func (*loopbackOnly) OnACLCheck(*mochi.Client, string, bool) bool { return true }
