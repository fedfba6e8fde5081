package mqtt

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// ErrConfig is wrapped by every MQTT configuration error.
var ErrConfig = errors.New("alert: invalid MQTT config")

// Connection says how to reach and authenticate to a broker. It is shared
// by the daemon's publisher and the clinician tools (ictal watch,
// ictal feedback).
type Connection struct {
	// Brokers lists broker URLs, tried in order: tcp://host:1883,
	// ssl://host:8883 (or tls://, mqtts://), ws://host/path, wss://.
	Brokers []string
	// Username and Password authenticate to the broker. PasswordFile, when
	// set, names a file whose first line is the password, so the secret
	// need not sit in the configuration; it is an error to set both.
	Username     string
	Password     string
	PasswordFile string
	// CAFile is a PEM bundle of the certificate authorities that may sign
	// the broker's certificate; empty means the system's roots. CertFile
	// and KeyFile are the client's own certificate and key (PEM), both or
	// neither. ServerName overrides the name checked in the broker's
	// certificate (default: the host of the URL).
	CAFile, CertFile, KeyFile string
	ServerName                string
	// ConnectTimeout bounds one connection attempt (default 10 s).
	ConnectTimeout time.Duration
}

// DefaultConnectTimeout bounds one connection attempt.
const DefaultConnectTimeout = 10 * time.Second

// secure reports whether any broker URL uses TLS.
func (c *Connection) secure() bool {
	for _, b := range c.Brokers {
		if s := strings.ToLower(b); strings.HasPrefix(s, "ssl://") || strings.HasPrefix(s, "tls://") ||
			strings.HasPrefix(s, "mqtts://") || strings.HasPrefix(s, "wss://") || strings.HasPrefix(s, "tcps://") {
			return true
		}
	}
	return false
}

// TLSConfig returns the TLS configuration: certificate verification
// against CAFile (or the system roots), the optional client certificate,
// TLS 1.2 at least. It returns nil, nil when no TLS option is set.
func (c *Connection) TLSConfig() (*tls.Config, error) {
	if c.CAFile == "" && c.CertFile == "" && c.KeyFile == "" && c.ServerName == "" && !c.secure() {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: c.ServerName}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, fmt.Errorf("%w: ca file: %w", ErrConfig, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%w: ca file %s: no PEM certificate in it", ErrConfig, c.CAFile)
		}
		cfg.RootCAs = pool
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		return nil, fmt.Errorf("%w: cert file and key file go together (cert %q, key %q)", ErrConfig, c.CertFile, c.KeyFile)
	}
	if c.CertFile != "" {
		pair, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("%w: client certificate %s / key %s: %w", ErrConfig, c.CertFile, c.KeyFile, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// password returns the password, read from PasswordFile if set. Errors
// name the file, never its content.
func (c *Connection) password() (string, error) {
	if c.PasswordFile == "" {
		return c.Password, nil
	}
	if c.Password != "" {
		return "", fmt.Errorf("%w: password and password file both set", ErrConfig)
	}
	b, err := os.ReadFile(c.PasswordFile)
	if err != nil {
		return "", fmt.Errorf("%w: password file: %w", ErrConfig, err)
	}
	s, _, _ := strings.Cut(string(b), "\n")
	s = strings.TrimRight(s, "\r")
	if s == "" {
		return "", fmt.Errorf("%w: password file %s: first line empty", ErrConfig, c.PasswordFile)
	}
	return s, nil
}

// ClientOptions returns paho options for the connection with the given
// client ID: brokers, TLS and credentials checked and loaded. The caller
// adds session, will and handlers.
func (c *Connection) ClientOptions(clientID string) (*paho.ClientOptions, error) {
	if len(c.Brokers) == 0 {
		return nil, fmt.Errorf("%w: brokers: none given", ErrConfig)
	}
	opts := paho.NewClientOptions()
	for i, b := range c.Brokers {
		u, err := url.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("%w: brokers[%d]: %w", ErrConfig, i, err)
		}
		switch strings.ToLower(u.Scheme) {
		case "tcp", "mqtt", "ssl", "tls", "mqtts", "tcps", "ws", "wss":
		default:
			return nil, fmt.Errorf("%w: brokers[%d] %q: scheme %q, want tcp, ssl, tls, ws or wss", ErrConfig, i, b, u.Scheme)
		}
		if u.Host == "" {
			return nil, fmt.Errorf("%w: brokers[%d] %q: no host", ErrConfig, i, b)
		}
		if u.User != nil {
			return nil, fmt.Errorf("%w: brokers[%d]: credentials in the URL; use username and password file", ErrConfig, i)
		}
		opts.AddBroker(b)
	}
	tc, err := c.TLSConfig()
	if err != nil {
		return nil, err
	}
	if tc != nil {
		opts.SetTLSConfig(tc)
	}
	pw, err := c.password()
	if err != nil {
		return nil, err
	}
	if pw != "" && c.Username == "" {
		return nil, fmt.Errorf("%w: a password without a username", ErrConfig)
	}
	opts.SetUsername(c.Username)
	opts.SetPassword(pw)
	opts.SetClientID(clientID)
	timeout := c.ConnectTimeout
	if timeout <= 0 {
		timeout = DefaultConnectTimeout
	}
	opts.SetConnectTimeout(timeout)
	opts.SetProtocolVersion(4) // MQTT 3.1.1
	return opts, nil
}
