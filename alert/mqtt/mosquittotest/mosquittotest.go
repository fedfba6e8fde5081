// Package mosquittotest runs a real mosquitto broker on a free loopback
// port for tests, as net/http/httptest runs a real HTTP server: anonymous or
// with passwords, an ACL, TLS with a generated PKI, and on-disk persistence
// that survives Stop and Restart. Tests that import it need
// /usr/sbin/mosquitto (and mosquitto_passwd for Opts.Users); a missing
// program fails the test, with a hint that .ci/run installs it.
package mosquittotest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Opts configures a broker. The zero value is an anonymous broker without
// persistence on a free port.
type Opts struct {
	// Persistence keeps sessions, their queued messages and retained
	// messages on disk across Stop and Restart.
	Persistence bool
	// Users are password-file entries (name to password); none means
	// anonymous clients are allowed.
	Users map[string]string
	// ACL is the content of an acl_file, if not empty.
	ACL string
	// PKI, when set, makes the listener TLS with PKI's server certificate
	// and requires a client certificate signed by PKI's CA.
	PKI *PKI
	// Port is the loopback port to listen on; 0 picks a free one.
	Port int
	// MaxPacketSize, when not 0, is max_packet_size: a client sending a
	// larger packet is disconnected (the log says "oversize packet").
	MaxPacketSize int
	// UsernameAsClientID is use_username_as_clientid: a client's
	// username replaces the client ID it sent, so that no user can use
	// (and take over) another's.
	UsernameAsClientID bool
}

// Broker is a mosquitto process run by a test; it is killed when the test
// ends.
type Broker struct {
	t    testing.TB
	dir  string
	conf string
	port int
	cmd  *exec.Cmd
	done chan struct{} // closed when the running process has exited
}

// Tool returns the path of a mosquitto program ("mosquitto",
// "mosquitto_passwd", "mosquitto_sub"), failing the test when it is
// missing.
func Tool(t testing.TB, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if p := "/usr/sbin/" + name; fileExists(p) {
		return p
	}
	t.Fatalf("%s not found: .ci/run installs it with apt-get install mosquitto mosquitto-clients", name)
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mosquittotest: free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Start writes a configuration for opts into a temporary directory, starts
// mosquitto and returns once it accepts connections.
func Start(t testing.TB, opts Opts) *Broker {
	t.Helper()
	bin := Tool(t, "mosquitto")
	b := &Broker{t: t, dir: t.TempDir(), port: opts.Port}
	if b.port == 0 {
		b.port = FreePort(t)
	}
	var c strings.Builder
	fmt.Fprintf(&c, "per_listener_settings false\nlistener %d 127.0.0.1\n", b.port)
	if os.Geteuid() == 0 {
		c.WriteString("user root\n") // else it drops to user mosquitto, who cannot read the test's files
	}
	c.WriteString("log_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\nlog_type information\nconnection_messages true\n")
	if opts.Persistence {
		fmt.Fprintf(&c, "persistence true\npersistence_location %s/\nautosave_interval 1\n", b.dir)
	} else {
		c.WriteString("persistence false\n")
	}
	c.WriteString("max_queued_messages 100000\n")
	if opts.MaxPacketSize != 0 {
		fmt.Fprintf(&c, "max_packet_size %d\n", opts.MaxPacketSize)
	}
	if opts.UsernameAsClientID {
		c.WriteString("use_username_as_clientid true\n")
	}
	if len(opts.Users) == 0 {
		c.WriteString("allow_anonymous true\n")
	} else {
		c.WriteString("allow_anonymous false\n")
		fmt.Fprintf(&c, "password_file %s\n", b.passwords(opts.Users))
	}
	if opts.ACL != "" {
		acl := filepath.Join(b.dir, "acl")
		if err := os.WriteFile(acl, []byte(opts.ACL), 0o600); err != nil {
			t.Fatalf("mosquittotest: %v", err)
		}
		fmt.Fprintf(&c, "acl_file %s\n", acl)
	}
	if opts.PKI != nil {
		fmt.Fprintf(&c, "cafile %s\ncertfile %s\nkeyfile %s\nrequire_certificate true\ntls_version tlsv1.2\n",
			opts.PKI.CA, opts.PKI.ServerCert, opts.PKI.ServerKey)
	}
	b.conf = filepath.Join(b.dir, "mosquitto.conf")
	if err := os.WriteFile(b.conf, []byte(c.String()), 0o600); err != nil {
		t.Fatalf("mosquittotest: %v", err)
	}
	b.start(bin)
	return b
}

// passwords writes a mosquitto password file and returns its path.
func (b *Broker) passwords(users map[string]string) string {
	pw := filepath.Join(b.dir, "passwd")
	bin := Tool(b.t, "mosquitto_passwd")
	first := true
	for u, p := range users {
		args := []string{"-b", pw, u, p}
		if first {
			args = append([]string{"-c"}, args...)
			first = false
		}
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			b.t.Fatalf("mosquittotest: mosquitto_passwd: %v: %s", err, out)
		}
	}
	return pw
}

func (b *Broker) start(bin string) {
	b.t.Helper()
	logf, err := os.OpenFile(filepath.Join(b.dir, "mosquitto.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		b.t.Fatalf("mosquittotest: %v", err)
	}
	b.cmd = exec.Command(bin, "-c", b.conf)
	b.cmd.Stdout, b.cmd.Stderr = logf, logf
	if err := b.cmd.Start(); err != nil {
		b.t.Fatalf("mosquittotest: start %s: %v", bin, err)
	}
	cmd, done := b.cmd, make(chan struct{})
	b.done = done
	go func() { cmd.Wait(); close(done) }()
	b.t.Cleanup(func() {
		select {
		case <-done:
		default:
			cmd.Process.Kill()
			<-done
		}
		logf.Close()
	})
	// Wait until it listens, or has exited (a bad configuration, a port
	// taken): no deadline, so that a loaded machine only makes it slower.
	for {
		c, err := net.DialTimeout("tcp", b.Addr(), 100*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-done:
			b.t.Fatalf("mosquittotest: mosquitto exited before listening on %s (%v): %v\n%s", b.Addr(), cmd.ProcessState, err, b.Log())
		case <-time.After(20 * time.Millisecond): // try again
		}
	}
}

// Log returns what the broker has logged so far.
func (b *Broker) Log() string {
	out, _ := os.ReadFile(filepath.Join(b.dir, "mosquitto.log"))
	return string(out)
}

// Addr returns the broker's host:port.
func (b *Broker) Addr() string { return fmt.Sprintf("127.0.0.1:%d", b.port) }

// Port returns the broker's TCP port.
func (b *Broker) Port() int { return b.port }

// URL returns the broker URL with the given scheme ("tcp" or "ssl").
func (b *Broker) URL(scheme string) string { return fmt.Sprintf("%s://%s", scheme, b.Addr()) }

// Stop ends the broker gracefully (it saves its persistence database).
func (b *Broker) Stop() {
	b.t.Helper()
	b.cmd.Process.Signal(syscall.SIGTERM)
	<-b.done
}

// Restart starts the broker again with the same configuration and port.
func (b *Broker) Restart() { b.t.Helper(); b.start(Tool(b.t, "mosquitto")) }
