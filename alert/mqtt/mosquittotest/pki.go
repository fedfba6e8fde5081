package mosquittotest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// PKI is a certificate authority with a server certificate (for
// 127.0.0.1, localhost and broker.ward-7.test) and a client certificate,
// as PEM files in a temporary directory, valid for an hour.
type PKI struct {
	CA, ServerCert, ServerKey, ClientCert, ClientKey string
	// OtherCA is a CA that signed nothing here, for tests of refusal.
	OtherCA string
}

// NewPKI generates a PKI for the test.
func NewPKI(t testing.TB) *PKI {
	t.Helper()
	dir := t.TempDir()
	p := &PKI{}
	caKey, caCert, caDER := newCA(t, "ictal test CA")
	p.CA = writePEM(t, dir, "ca.pem", "CERTIFICATE", caDER)
	_, _, otherDER := newCA(t, "some other CA")
	p.OtherCA = writePEM(t, dir, "other-ca.pem", "CERTIFICATE", otherDER)
	p.ServerCert, p.ServerKey = leaf(t, dir, "server", true, caCert, caKey)
	p.ClientCert, p.ClientKey = leaf(t, dir, "client", false, caCert, caKey)
	return p
}

// leaf issues a server or client certificate signed by the CA.
func leaf(t testing.TB, dir, name string, server bool, ca *x509.Certificate, caKey *ecdsa.PrivateKey) (cert, key string) {
	t.Helper()
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
	k, der := certify(t, "certificate "+name, tmpl, ca, caKey)
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatalf("mosquittotest: %v", err)
	}
	return writePEM(t, dir, name+".pem", "CERTIFICATE", der), writePEM(t, dir, name+"-key.pem", "EC PRIVATE KEY", kder)
}

// newCA makes a self-signed CA certificate valid for a day.
func newCA(t testing.TB, name string) (*ecdsa.PrivateKey, *x509.Certificate, []byte) {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	key, der := certify(t, "CA "+name, tmpl, nil, nil)
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatalf("mosquittotest: %v", err)
	}
	return key, cert, der
}

// certify generates a P-256 key for tmpl and returns it with the DER
// certificate signed by parent's key, or by the new key itself when
// parent is nil (a CA). what names the certificate in errors.
func certify(t testing.TB, what string, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*ecdsa.PrivateKey, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("mosquittotest: %v", err)
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatalf("mosquittotest: %s: %v", what, err)
	}
	return key, der
}

// writePEM writes der as a PEM block of type typ to dir/name and returns
// the path.
func writePEM(t testing.TB, dir, name, typ string, der []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatalf("mosquittotest: %v", err)
	}
	return p
}
