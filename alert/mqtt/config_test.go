package mqtt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNewMQTTRejectsBadConfig(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	os.WriteFile(pw, []byte("\n"), 0o600)
	good := func() Config {
		return Config{Connection: Connection{Brokers: []string{"tcp://127.0.0.1:1883"}}, Site: "ward-7", Bed: "bed-3", StoreDir: dir}
	}
	tests := []struct {
		name, errHas string
		edit         func(*Config)
	}{
		{"no site", "site", func(c *Config) { c.Site = "" }},
		{"bed with a slash", `bed "3/4"`, func(c *Config) { c.Bed = "3/4" }},
		{"bed with a wildcard", `bed "#"`, func(c *Config) { c.Bed = "#" }},
		{"no store", "store dir", func(c *Config) { c.StoreDir = "" }},
		{"prefix with a wildcard", "prefix", func(c *Config) { c.Prefix = "ictal/+/x" }},
		{"no broker", "brokers: none", func(c *Config) { c.Brokers = nil }},
		{"unknown scheme", `scheme "http"`, func(c *Config) { c.Brokers = []string{"http://x:80"} }},
		{"credentials in the URL", "credentials in the URL", func(c *Config) { c.Brokers = []string{"tcp://u:p@x:1883"} }},
		{"certificate without key", "cert file and key file go together", func(c *Config) { c.CertFile = "c.pem" }},
		{"missing CA file", "ca file", func(c *Config) { c.CAFile = filepath.Join(dir, "none.pem") }},
		{"CA file without certificates", "no PEM certificate", func(c *Config) { c.CAFile = pw }},
		{"password and password file", "both set", func(c *Config) { c.Username, c.Password, c.PasswordFile = "u", "p", pw }},
		{"empty password file", "first line empty", func(c *Config) { c.Username, c.PasswordFile = "u", pw }},
		{"password without username", "without a username", func(c *Config) { c.Password = "p" }},
		{"negative queue", "queue size", func(c *Config) { c.QueueSize = -1 }},
		{"bed over the topic limit", "bed 70000: bytes long", func(c *Config) { c.Bed = strings.Repeat("b", 70000) }},
		{"site over the topic limit", "site 65530: bytes long", func(c *Config) { c.Site = strings.Repeat("s", 65530) }},
		{"prefix over the topic limit", "prefix 65530: bytes long", func(c *Config) { c.Prefix = strings.Repeat("p", 65530) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := good()
			tt.edit(&c)
			m, err := New(c, nil)
			if err == nil {
				m.Close()
			}
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("got %v, want an ErrConfig saying %q", err, tt.errHas)
			}
		})
	}
}

func TestMQTTConfigDefaults(t *testing.T) {
	c, err := Config{Site: "ward-7", Bed: "bed-3", StoreDir: "x"}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if c.Prefix != "ictal/ward-7/bed-3" || c.ClientID != "ictald-ward-7-bed-3" || c.QueueSize != DefaultQueueSize ||
		c.MaxReconnectInterval != DefaultMaxReconnectInterval || c.LabelBuffer != DefaultLabelBuffer || c.CloseTimeout != DefaultCloseTimeout {
		t.Errorf("defaults %+v", c)
	}
}

func TestMQTTCloseWithoutBrokerIsBounded(t *testing.T) {
	cfg := testMQTTConfig(t, "tcp://127.0.0.1:1")
	cfg.CloseTimeout = 500 * time.Millisecond
	m, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Alert(testEventN("ward-7", "bed-3"))
	waitPublished(t, m)
	// Without a broker nothing will ever acknowledge the alert: Close
	// returns only because it gives up after CloseTimeout.
	closed := make(chan error, 1)
	go func() { closed <- m.Close() }()
	err = <-closed // a Close that waited beyond CloseTimeout would hang here (go test -timeout)
	if err == nil || !strings.Contains(err.Error(), "1 unacknowledged") {
		t.Errorf("close: %v; want it to say the alert is unacknowledged", err)
	}
	if _, ok := <-m.Labels(); ok {
		t.Error("Labels not closed")
	}
	// The alert waits in the store for the next process.
	files, _ := filepath.Glob(filepath.Join(cfg.StoreDir, "o.*.msg"))
	if len(files) != 1 {
		t.Errorf("store holds %v", files)
	}
}

func TestNewMQTTRejectsAnUnusableStore(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Connection: Connection{Brokers: []string{"tcp://127.0.0.1:1"}}, Site: "ward-7", Bed: "bed-3", StoreDir: filepath.Join(file, "store")}
	// A path that can never be a directory is a configuration error, named
	// by its field; a full or read-only disk is not (TestStoreFullDisk…).
	var ce *ConfigError
	if _, err := New(cfg, nil); !errors.As(err, &ce) || ce.Field != "StoreDir" || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a store under a regular file: %v", err)
	}
	// A missing directory is created.
	cfg.StoreDir = filepath.Join(dir, "a", "b")
	m, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	if fi, err := os.Stat(cfg.StoreDir); err != nil || !fi.IsDir() {
		t.Errorf("store dir not created: %v", err)
	}
}
