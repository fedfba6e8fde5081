package daemon

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/internal/metrics"
	"github.com/ictal/ictal/internal/pipeline"
)

// MetricsConfig configures the Prometheus endpoint and health check
// (internal/metrics).
type MetricsConfig struct {
	// Listen is host:port for GET /metrics and GET /healthz; empty: off.
	// ictald.service lets the daemon reach localhost only: keep it on a
	// loopback address unless a drop-in allows the Prometheus server.
	Listen string `toml:"listen"`
}

// validateMetrics checks the [metrics] section.
func (c *Config) validateMetrics() error {
	if c.Metrics.Listen == "" {
		return nil
	}
	return checkListen("metrics.listen", c.Metrics.Listen, "127.0.0.1:9851")
}

// checkListen checks addr, the value of key, as an address to listen on:
// host:port, the port a number in 0..65535 (0: any free one), the host
// empty (every interface), an IP address or a host name. example is a
// good value, for the message.
func checkListen(key, addr, example string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fieldErr(key, "%q: want host:port, e.g. %s", addr, example)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fieldErr(key, "%q: port %q: want a number in 0..65535 (0: any free port)", addr, port)
	}
	if _, err := netip.ParseAddr(host); host != "" && err != nil && !hostName(host) {
		return fieldErr(key, "%q: host %q is not an IP address (four numbers of 0..255, or IPv6), nor a host name (letters, digits and hyphens, its last label not all digits)", addr, host)
	}
	return nil
}

// hostName reports whether s is a host name (RFC 1123, with RFC 3696's
// rule that the last label is not all digits, so that a mistyped IPv4
// address is not taken for a name): labels of 1 to 63 letters, digits
// and hyphens, not starting or ending with a hyphen, 253 bytes in all.
func hostName(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	labels := strings.Split(s, ".")
	for _, l := range labels {
		if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return strings.Trim(labels[len(labels)-1], "0123456789") != ""
}

// lookupHost resolves host names (Check: a name a listen address gives).
var lookupHost = net.DefaultResolver.LookupHost

// resolveTimeout bounds how long Check waits for a name's resolution.
const resolveTimeout = 10 * time.Second

// resolveListen checks that the host of addr, the value of key, resolves
// when it is a name, as Run will need it to listen: a name that does not
// exist is an error; a resolution that could not be made (no DNS server
// reachable, a timeout: the ward network down at boot) is logged as a
// warning and not held against the configuration, since Run goes on
// monitoring and tries to listen again.
func resolveListen(ctx context.Context, key, addr string, log *slog.Logger) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return nil // Validate refused it, or every interface
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := lookupHost(ctx, host)
	var dnsErr *net.DNSError
	switch {
	case err == nil && len(addrs) > 0:
		return nil
	case err == nil, errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return fieldErr(key, "%q: host %q does not resolve to an address (want an IP address or a name in /etc/hosts or the DNS)", addr, host)
	}
	log.Warn(key+": its host name could not be resolved now; run tries to listen all the same",
		slog.String("listen", addr), slog.Any("err", err))
	return nil
}

// metricsRetry is how often startMetrics tries again to listen on an
// address it could not.
var metricsRetry = 10 * time.Second

// startMetrics listens on metrics.listen and serves the metrics until
// the returned stop function is called (nil, and a stop that does
// nothing, when metrics are off). pub may be nil (no MQTT). An address it
// cannot listen on (another process holds the port) does not stop the
// daemon, whose job is detection: it logs an ERROR and tries again every
// metricsRetry, counting meanwhile, so the metrics are whole once served.
func startMetrics(ctx context.Context, cfg *Config, pub *mqtt.Publisher, opt Options, log *slog.Logger) (*metrics.Metrics, func()) {
	if cfg.Metrics.Listen == "" {
		return nil, func() {}
	}
	o := metrics.Options{Version: opt.Program, Checkpoint: cfg.Checkpoint.Path}
	if pub != nil {
		o.MQTT = pub
		o.Dirs = append(o.Dirs, metrics.Dir{Name: "mqtt_store", Path: pub.Config().StoreDir})
	}
	m := metrics.New(o)
	ln, err := net.Listen("tcp", cfg.Metrics.Listen)
	if err != nil {
		log.Error("metrics: cannot listen; detection goes on without /metrics and /healthz, listening is tried again",
			slog.String("listen", cfg.Metrics.Listen), slog.Duration("every", metricsRetry), slog.Any("err", err))
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ln == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(metricsRetry):
			}
			ln, err = net.Listen("tcp", cfg.Metrics.Listen)
		}
		log.Info("metrics listening", slog.String("url", "http://"+ln.Addr().String()+"/metrics"))
		if opt.MetricsListening != nil {
			opt.MetricsListening(ln.Addr().String())
		}
		if err := metrics.Serve(ctx, ln, m.Handler()); err != nil {
			log.Error("metrics: serving stopped", slog.Any("err", err))
		}
	}()
	return m, func() { cancel(); wg.Wait() }
}

// bothWindows calls a, if set, then b after every window.
func bothWindows(a, b func(pipeline.Stats)) func(pipeline.Stats) {
	if a == nil {
		return b
	}
	return func(s pipeline.Stats) { a(s); b(s) }
}
