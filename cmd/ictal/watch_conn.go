package main

import (
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert/mqtt"
)

// connFlags are the broker, TLS and authentication flags shared by
// ictal watch, feedback and board.
type connFlags struct {
	broker, ca, cert, key, serverName, username, passwordFile, clientID string
	timeout                                                             time.Duration
}

func addConnFlags(fs *flag.FlagSet, defBroker string) *connFlags {
	c := &connFlags{}
	fs.StringVar(&c.broker, "broker", defBroker, "broker URL: tcp://host:1883, ssl://host:8883, ws://host/path")
	fs.StringVar(&c.ca, "ca", "", "PEM file of the CAs that may sign the broker's certificate (TLS; default: system roots)")
	fs.StringVar(&c.cert, "cert", "", "client certificate, PEM (with -key)")
	fs.StringVar(&c.key, "key", "", "client private key, PEM (with -cert)")
	fs.StringVar(&c.serverName, "server-name", "", "name expected in the broker's certificate (default: the URL's host)")
	fs.StringVar(&c.username, "username", "", "username")
	fs.StringVar(&c.passwordFile, "password-file", "", "file whose first line is the password (kept off the command line)")
	fs.StringVar(&c.clientID, "client-id", "", "MQTT client ID (default: random)")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "connection (and acknowledgement) timeout")
	return c
}

// session says how a client's MQTT session lives.
type session struct {
	// persistent keeps the session (and the messages of its QoS 1
	// subscriptions) at the broker while the client is away
	// (CleanSession false); the client ID must then be the same each time.
	persistent bool
	// onConnect runs on every (re)connection (nil: connect once, never
	// reconnect); messages takes what arrives for the session before
	// onConnect has subscribed again (a persistent session's backlog).
	onConnect paho.OnConnectHandler
	messages  paho.MessageHandler
}

// connection is the broker, TLS and authentication the flags give, as
// alert/mqtt takes them.
func (c *connFlags) connection() mqtt.Connection {
	return mqtt.Connection{
		Brokers: []string{c.broker}, CAFile: c.ca, CertFile: c.cert, KeyFile: c.key, ServerName: c.serverName,
		Username: c.username, PasswordFile: c.passwordFile, ConnectTimeout: c.timeout,
	}
}

// connect connects to the broker.
func (c *connFlags) connect(prefix string, s session) (paho.Client, error) {
	conn := c.connection()
	id := c.clientID
	if id == "" {
		var b [6]byte
		rand.Read(b[:])
		id = prefix + "-" + hex.EncodeToString(b[:])
	}
	opts, err := conn.ClientOptions(id)
	if err != nil {
		return nil, err
	}
	// ResumeSubs stays off: onConnect subscribes on every connection, and
	// paho runs it beside the resumption of its store, which would send a
	// stored SUBSCRIBE a second time, and the broker then sends every
	// retained message twice.
	opts.SetCleanSession(!s.persistent).SetAutoReconnect(s.onConnect != nil).SetMaxReconnectInterval(30 * time.Second).
		SetOnConnectHandler(s.onConnect).SetResumeSubs(false)
	if s.messages != nil {
		opts.SetDefaultPublishHandler(s.messages)
	}
	cl := paho.NewClient(opts)
	tok := cl.Connect()
	if !tok.WaitTimeout(c.timeout + time.Second) {
		cl.Disconnect(0)
		return nil, fmt.Errorf("connect to %s: no answer within %v", c.broker, c.timeout)
	}
	if err := tok.Error(); err != nil {
		return nil, fmt.Errorf("connect to %s: %w", c.broker, err)
	}
	return cl, nil
}
