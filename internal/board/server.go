package board

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// Server is a ward board: the MQTT subscriber, the ward's state and the
// web server. Make one with New and run it with Serve.
type Server struct {
	cfg      Config
	log      *slog.Logger
	ward     *ward
	sessions *sessions
	limiter  *limiter
	audit    *auditLog
	opts     *paho.ClientOptions
	tls      *tls.Config
	client   paho.Client
	conn     atomic.Bool // connected to the broker
	served   atomic.Bool
	handler  http.Handler
}

// New checks cfg, opens the audit log, loads the TLS certificate and
// prepares (without connecting) the MQTT client.
func New(cfg Config, log *slog.Logger) (*Server, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if _, err := readUsers(cfg.Users); err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: log, ward: newWard(cfg.Site, cfg.MaxAlerts), sessions: newSessions(), limiter: newLimiter()}
	if cfg.TLSCert != "" {
		pair, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("board: tls certificate %s / key %s: %w", cfg.TLSCert, cfg.TLSKey, err)
		}
		s.tls = &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{pair}}
	}
	opts, err := cfg.MQTT.ClientOptions(cfg.ClientID)
	if err != nil {
		return nil, fmt.Errorf("board: mqtt: %w", err)
	}
	s.opts = s.sessionOptions(opts)
	if s.audit, err = openAudit(cfg.Audit); err != nil {
		return nil, err
	}
	s.handler = s.routes()
	return s, nil
}

// sessionOptions makes the options a persistent session: fixed client ID,
// CleanSession false, automatic reconnection, and every message (also
// those the broker queued before the subscription is renewed) through
// ingest.
func (s *Server) sessionOptions(opts *paho.ClientOptions) *paho.ClientOptions {
	filter := "ictal/" + s.cfg.Site + "/#"
	handle := func(_ paho.Client, m paho.Message) { s.ingest(m.Topic(), m.Payload(), time.Now()) }
	return opts.SetCleanSession(false).SetAutoReconnect(true).SetConnectRetry(true).
		SetConnectRetryInterval(time.Second).SetMaxReconnectInterval(10 * time.Second).
		SetResumeSubs(true).SetDefaultPublishHandler(handle).
		SetOnConnectHandler(func(c paho.Client) {
			tok := c.Subscribe(filter, 1, handle)
			if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
				s.log.Error("board: subscribe", slog.String("filter", filter), slog.Any("error", tok.Error()))
				return
			}
			if st, ok := tok.(*paho.SubscribeToken); ok && st.Result()[filter] == 0x80 {
				s.log.Error("board: subscribe refused by the broker (ACL)", slog.String("filter", filter))
				return
			}
			s.conn.Store(true)
			s.ward.setConnected(true)
			s.log.Info("board: connected", slog.String("filter", filter), slog.String("client_id", s.cfg.ClientID))
		}).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			s.conn.Store(false)
			s.ward.setConnected(false)
			s.log.Warn("board: connection to the broker lost", slog.String("error", err.Error()))
		})
}

// Handler returns the board's HTTP handler (for tests and for mounting
// behind another server); Serve uses it.
func (s *Server) Handler() http.Handler { return s.handler }

// Connected reports whether the board is connected and subscribed.
func (s *Server) Connected() bool { return s.conn.Load() }

// Serve connects to the broker (retrying in the background while it is
// unreachable) and serves the board on l, over TLS when the configuration
// has a certificate, until ctx is done; it then closes the browsers'
// streams, the MQTT connection and the audit log. A Server serves once.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	if !s.served.CompareAndSwap(false, true) {
		return errors.New("board: Serve called twice")
	}
	defer s.audit.close()
	s.client = paho.NewClient(s.opts)
	s.client.Connect() // with ConnectRetry the token completes once connected; progress is logged by the handlers
	defer func() {
		s.conn.Store(false)
		s.client.Disconnect(250)
	}()
	reqCtx, cancelReqs := context.WithCancel(context.Background())
	defer cancelReqs()
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(net.Listener) context.Context { return reqCtx },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	if s.tls != nil {
		srv.TLSConfig = s.tls
		l = tls.NewListener(l, s.tls)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	s.log.Info("board: serving", slog.String("addr", l.Addr().String()), slog.Bool("tls", s.tls != nil))
	select {
	case err := <-errc:
		return fmt.Errorf("board: serve %s: %w", l.Addr(), err)
	case <-ctx.Done():
	}
	cancelReqs() // ends the event streams
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		srv.Close()
	}
	<-errc
	return nil
}
