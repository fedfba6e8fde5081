package board

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/url"
	"os"
	"testing"

	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

func TestServesTLSWithSecureCookies(t *testing.T) {
	pki := mosquittotest.NewPKI(t) // its server certificate names 127.0.0.1
	cfg := testConfig(t, "")
	cfg.TLSCert, cfg.TLSKey = pki.ServerCert, pki.ServerKey
	base := serveBoard(t, cfg).url

	caPEM, err := os.ReadFile(pki.CA)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}
	noRedirect := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.PostForm(base+"/login", url.Values{"user": {"alice"}, "password": {testPassword}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var c *http.Cookie
	for _, k := range resp.Cookies() {
		if k.Name == cookieName {
			c = k
		}
	}
	if resp.StatusCode != http.StatusSeeOther || c == nil || !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
		t.Fatalf("login over TLS: %s, cookie %+v", resp.Status, c)
	}
	if resp.Header.Get("Strict-Transport-Security") == "" {
		t.Error("no HSTS header over TLS")
	}
	cl, err := Login(t.Context(), base, "alice", testPassword, &http.Client{Transport: tr})
	if err != nil || cl.User() != "alice" {
		t.Fatalf("board.Login over TLS: %v", err)
	}
}
