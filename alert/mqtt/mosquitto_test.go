package mqtt

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needTool returns the path of a mosquitto program. CI installs them; a
// missing one fails the test rather than skipping it.
func needTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not found (%v): .ci/run installs it with apt-get install mosquitto mosquitto-clients", name, err)
	}
	return p
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// mosqOpts configures a test broker.
type mosqOpts struct {
	persistence bool              // keep sessions and queues on disk across restarts
	users       map[string]string // password file entries; none: anonymous
	acl         string            // ACL file content
	pki         *testPKI          // TLS listener with this PKI, client certificate required
	port        int               // 0: a free one
}

// mosquitto is a broker process run by a test.
type mosquitto struct {
	t    testing.TB
	dir  string
	conf string
	port int
	cmd  *exec.Cmd
}

// startMosquitto writes a configuration for opts and starts the broker; it
// is killed when the test ends.
func startMosquitto(t testing.TB, opts mosqOpts) *mosquitto {
	t.Helper()
	bin := needTool(t, "mosquitto")
	m := &mosquitto{t: t, dir: t.TempDir(), port: opts.port}
	if m.port == 0 {
		m.port = freePort(t)
	}
	var c strings.Builder
	fmt.Fprintf(&c, "per_listener_settings false\nlistener %d 127.0.0.1\n", m.port)
	if os.Geteuid() == 0 {
		c.WriteString("user root\n") // else it drops to user mosquitto, who cannot read the test's files
	}
	c.WriteString("log_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\nlog_type information\nconnection_messages true\n")
	if opts.persistence {
		fmt.Fprintf(&c, "persistence true\npersistence_location %s/\nautosave_interval 1\n", m.dir)
	} else {
		c.WriteString("persistence false\n")
	}
	if len(opts.users) == 0 {
		c.WriteString("allow_anonymous true\n")
	} else {
		c.WriteString("allow_anonymous false\n")
		pw := filepath.Join(m.dir, "passwd")
		bin := needTool(t, "mosquitto_passwd")
		first := true
		for u, p := range opts.users {
			args := []string{"-b", pw, u, p}
			if first {
				args = append([]string{"-c"}, args...)
				first = false
			}
			if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
				t.Fatalf("mosquitto_passwd: %v: %s", err, out)
			}
		}
		fmt.Fprintf(&c, "password_file %s\n", pw)
	}
	if opts.acl != "" {
		acl := filepath.Join(m.dir, "acl")
		if err := os.WriteFile(acl, []byte(opts.acl), 0o600); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&c, "acl_file %s\n", acl)
	}
	if opts.pki != nil {
		fmt.Fprintf(&c, "cafile %s\ncertfile %s\nkeyfile %s\nrequire_certificate true\ntls_version tlsv1.2\n",
			opts.pki.CA, opts.pki.ServerCert, opts.pki.ServerKey)
	}
	m.conf = filepath.Join(m.dir, "mosquitto.conf")
	if err := os.WriteFile(m.conf, []byte(c.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	m.start(bin)
	return m
}

func (m *mosquitto) start(bin string) {
	m.t.Helper()
	logf, err := os.OpenFile(filepath.Join(m.dir, "mosquitto.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		m.t.Fatal(err)
	}
	m.cmd = exec.Command(bin, "-c", m.conf)
	m.cmd.Stdout, m.cmd.Stderr = logf, logf
	if err := m.cmd.Start(); err != nil {
		m.t.Fatal(err)
	}
	cmd := m.cmd
	m.t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		logf.Close()
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", m.addr(), 100*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("mosquitto did not start listening on %s: %v\n%s", m.addr(), err, m.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// log returns what the broker wrote.
func (m *mosquitto) log() string {
	b, _ := os.ReadFile(filepath.Join(m.dir, "mosquitto.log"))
	return string(b)
}

func (m *mosquitto) addr() string { return fmt.Sprintf("127.0.0.1:%d", m.port) }

// url returns the broker URL with the given scheme ("tcp" or "ssl").
func (m *mosquitto) url(scheme string) string { return fmt.Sprintf("%s://%s", scheme, m.addr()) }

// stop ends the broker gracefully (it saves its persistence database).
func (m *mosquitto) stop() {
	m.t.Helper()
	m.cmd.Process.Signal(syscall.SIGTERM)
	m.cmd.Wait()
}

// restart starts the broker again with the same configuration and port.
func (m *mosquitto) restart() { m.t.Helper(); m.start(needTool(m.t, "mosquitto")) }

// testPKI is a certificate authority with a server and a client
// certificate, as PEM files.
type testPKI struct {
	CA, ServerCert, ServerKey, ClientCert, ClientKey string
	OtherCA                                          string // a CA that signed nothing here
}

func newTestPKI(t testing.TB) *testPKI {
	t.Helper()
	dir := t.TempDir()
	p := &testPKI{}
	caKey, caCert, caDER := newCA(t, "ictal test CA")
	p.CA = writePEM(t, dir, "ca.pem", "CERTIFICATE", caDER)
	_, _, otherDER := newCA(t, "some other CA")
	p.OtherCA = writePEM(t, dir, "other-ca.pem", "CERTIFICATE", otherDER)
	leaf := func(name string, server bool) (string, string) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(time.Now().UnixNano()),
			Subject:      pkix.Name{CommonName: name},
			NotBefore:    time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature,
		}
		if server {
			tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
			tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
			tmpl.DNSNames = []string{"localhost", "broker.ward-7.test"}
		} else {
			tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kder, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		return writePEM(t, dir, name+".pem", "CERTIFICATE", der), writePEM(t, dir, name+"-key.pem", "EC PRIVATE KEY", kder)
	}
	p.ServerCert, p.ServerKey = leaf("server", true)
	p.ClientCert, p.ClientKey = leaf("client", false)
	return p
}

func newCA(t testing.TB, name string) (*ecdsa.PrivateKey, *x509.Certificate, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return key, cert, der
}

func writePEM(t testing.TB, dir, name, typ string, der []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
