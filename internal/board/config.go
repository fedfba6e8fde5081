package board

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/ictal/ictal/alert/mqtt"
)

// ErrConfig is wrapped by every configuration error of New.
var ErrConfig = errors.New("board: invalid config")

// Config says what the board follows, where its files are and how it
// reaches the broker.
type Config struct {
	// Site is the site whose beds the board shows: it subscribes to
	// ictal/<Site>/#.
	Site string
	// Users is the users file (AddUser writes it); it is read at every
	// login, so users added while the board runs can log in at once.
	Users string
	// TLSCert and TLSKey are the PEM certificate and key the board serves
	// HTTPS with; both empty means plain HTTP (loopback or behind a TLS
	// proxy only: session cookies are then not marked Secure).
	TLSCert, TLSKey string
	// Audit is the audit log, JSON lines appended and fsync'd.
	Audit string
	// MQTT says how to reach the broker.
	MQTT mqtt.Connection
	// ClientID is the board's MQTT client ID, fixed so that its persistent
	// session survives a restart; two boards must not share one. Default
	// "ictal-board-<site>".
	ClientID string
	// MaxAlerts bounds the alert list (newest kept); default 500.
	MaxAlerts int
}

// DefaultMaxAlerts is the default length of the alert list.
const DefaultMaxAlerts = 500

// identRE is what the board accepts as a site, bed or user name.
var identRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$`)

// validIdent reports whether s is a sane identifier: 1 to 64 ASCII
// letters, digits, '.', '_', '@' or '-', starting with a letter or digit.
func validIdent(s string) bool { return identRE.MatchString(s) }

// check validates c and fills in defaults.
func (c *Config) check() error {
	switch {
	case !validIdent(c.Site):
		return fmt.Errorf("%w: site %q: want 1 to 64 letters, digits, '.', '_', '@' or '-'", ErrConfig, c.Site)
	case c.Users == "":
		return fmt.Errorf("%w: users: no users file given", ErrConfig)
	case c.Audit == "":
		return fmt.Errorf("%w: audit: no audit log given", ErrConfig)
	case (c.TLSCert == "") != (c.TLSKey == ""):
		return fmt.Errorf("%w: tls cert and tls key go together (cert %q, key %q)", ErrConfig, c.TLSCert, c.TLSKey)
	case c.MaxAlerts < 0:
		return fmt.Errorf("%w: max alerts %d is negative", ErrConfig, c.MaxAlerts)
	}
	if c.ClientID == "" {
		c.ClientID = "ictal-board-" + c.Site
	}
	if c.MaxAlerts == 0 {
		c.MaxAlerts = DefaultMaxAlerts
	}
	return nil
}
