package mqtt

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ictal/ictal/alert"
)

// Config configures the MQTT publisher of one bed. Zero values mean
// the defaults.
type Config struct {
	Connection
	// Site and Bed name the monitor; they may not contain '/', '+', '#'
	// or NUL.
	Site, Bed string
	// Prefix of the topics (default "ictal/<site>/<bed>"): alert, status,
	// score and feedback are published or subscribed under it.
	Prefix string
	// ClientID is fixed per bed (default "ictald-<site>-<bed>"): the
	// broker keeps the persistent session of that ID, with its queued
	// feedback, across restarts.
	ClientID string
	// StoreDir is the directory of the on-disk store of unacknowledged
	// QoS 1 messages (required; under the daemon's state directory, one
	// per client ID). What it holds is delivered after a broker outage or
	// a restart of the daemon.
	StoreDir string
	// StoreMemory bounds, in bytes, the unacknowledged QoS 1 messages
	// held in memory while the store cannot be written, a full disk
	// (default 16 MiB): above it the least important are dropped, alerts
	// last.
	StoreMemory int
	// Scores publishes every window's score (QoS 0).
	Scores bool
	// QueueSize bounds the status updates and scores waiting to be
	// published (default 256). Alerts and event ends are not bounded by
	// it: they are never dropped.
	QueueSize int
	// MaxReconnectInterval caps the exponential back-off between
	// reconnection attempts (default 1 minute).
	MaxReconnectInterval time.Duration
	// KeepAlive is the MQTT keep-alive interval (default 30 s); the broker
	// publishes the last will about 1.5 keep-alives after the daemon
	// vanishes without closing its connection.
	KeepAlive time.Duration
	// WriteTimeout bounds how long the publishing goroutine waits to hand
	// one message to the network (default 5 s).
	WriteTimeout time.Duration
	// CloseTimeout bounds how long Close waits for queued messages to be
	// handed over and acknowledged (default 5 s).
	CloseTimeout time.Duration
	// Feedback bounds the labelled intervals accepted.
	Feedback alert.FeedbackRules
	// LabelBuffer is the capacity of the Labels channel (default 64).
	LabelBuffer int
	// FeedbackLimits rate-limit feedback, per sender and for all senders
	// together (zero fields: alert.DefaultFeedbackBurst and the others):
	// a message over a limit is refused, with an acknowledgement saying
	// so. The sender is the user of …/feedback/from/<user>, else the
	// feedback's "by" (which anyone can invent: the overall limit is what
	// holds then).
	FeedbackLimits alert.FeedbackLimits

	// storeCreate, when set, creates the store's files (tests inject
	// failures with it).
	storeCreate func(name string) (io.WriteCloser, error)
	// clock, when set, is the time of the feedback rate limits and of the
	// logs of dropped feedback (tests inject it).
	clock func() time.Time
}

// MQTT defaults.
const (
	DefaultQueueSize            = 256
	DefaultMaxReconnectInterval = time.Minute
	DefaultKeepAlive            = 30 * time.Second
	DefaultWriteTimeout         = 5 * time.Second
	DefaultCloseTimeout         = 5 * time.Second
	DefaultLabelBuffer          = 64
	DefaultStoreMemory          = 16 << 20
)

// maxPacketSize bounds the packets ictal's MQTT code takes in: a packet
// file the store reads back, and a packet a client sends the embedded
// broker. The largest packet the publisher sends is an evidence payload
// (alert.MaxEvidenceSize) with its topic and headers.
const maxPacketSize = alert.MaxEvidenceSize + 64<<10

// topicSafe reports whether s can be one level of a topic name.
func topicSafe(s string) bool {
	return s != "" && !strings.ContainsAny(s, "/+#\x00")
}

// ConfigError is an invalid Config field: which (the Go field name, as
// Site or QueueSize), its value and why. It wraps ErrConfig; ictald maps
// Field to its configuration file's key.
type ConfigError struct {
	Field  string
	Value  any
	Reason string
}

// Error names the field in words (StoreDir as "store dir").
func (e *ConfigError) Error() string {
	var words []byte
	for i, r := range e.Field {
		if 'A' <= r && r <= 'Z' {
			if i > 0 && !(e.Field[i-1] >= 'A' && e.Field[i-1] <= 'Z') {
				words = append(words, ' ')
			}
			r += 'a' - 'A'
		}
		words = append(words, byte(r))
	}
	if s, ok := e.Value.(string); ok {
		return fmt.Sprintf("%v: %s %q: %s", ErrConfig, words, s, e.Reason)
	}
	return fmt.Sprintf("%v: %s %v: %s", ErrConfig, words, e.Value, e.Reason)
}

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

// maxTopicLen is MQTT's limit on a topic name, in bytes (a UTF-8 string
// with a 16-bit length, MQTT 3.1.1 section 1.5.3), and longestSuffix the
// longest level the publisher appends to the prefix.
const (
	maxTopicLen   = 65535
	longestSuffix = "/feedback/ack"
)

// Validate checks c as New does before it touches the network or the
// store directory, naming the first bad field in a *ConfigError.
func (c Config) Validate() error {
	_, err := c.withDefaults()
	return err
}

// withDefaults fills zero values and validates, naming the field.
func (c Config) withDefaults() (Config, error) {
	const level = "want a non-empty name without '/', '+', '#'"
	switch {
	case !topicSafe(c.Site):
		return c, &ConfigError{"Site", c.Site, level}
	case !topicSafe(c.Bed):
		return c, &ConfigError{"Bed", c.Bed, level}
	case c.StoreDir == "":
		return c, &ConfigError{"StoreDir", c.StoreDir, "required (a directory under the daemon's state directory)"}
	case c.QueueSize < 0:
		return c, &ConfigError{"QueueSize", c.QueueSize, "want >= 0 (0: the default)"}
	case c.StoreMemory < 0:
		return c, &ConfigError{"StoreMemory", c.StoreMemory, "want >= 0 (0: the default)"}
	case c.LabelBuffer < 0:
		return c, &ConfigError{"LabelBuffer", c.LabelBuffer, "want >= 0 (0: the default)"}
	case c.FeedbackLimits.Burst < 0:
		return c, &ConfigError{"FeedbackBurst", c.FeedbackLimits.Burst, "want >= 0 (0: the default, 10)"}
	case c.FeedbackLimits.Every < 0:
		return c, &ConfigError{"FeedbackEvery", c.FeedbackLimits.Every, "want >= 0 (0: the default, 1m)"}
	case c.FeedbackLimits.GlobalBurst < 0:
		return c, &ConfigError{"FeedbackGlobalBurst", c.FeedbackLimits.GlobalBurst, "want >= 0 (0: the default, 30)"}
	case c.FeedbackLimits.GlobalEvery < 0:
		return c, &ConfigError{"FeedbackGlobalEvery", c.FeedbackLimits.GlobalEvery, "want >= 0 (0: the default, 10s)"}
	}
	c.FeedbackLimits = c.FeedbackLimits.WithDefaults()
	if c.clock == nil {
		c.clock = time.Now
	}
	defaultPrefix := c.Prefix == ""
	if defaultPrefix {
		c.Prefix = "ictal/" + c.Site + "/" + c.Bed
	}
	c.Prefix = strings.TrimSuffix(c.Prefix, "/")
	if c.Prefix == "" || strings.ContainsAny(c.Prefix, "+#\x00") {
		return c, &ConfigError{"Prefix", c.Prefix, "want a topic without wildcards"}
	}
	if n := len(c.Prefix) + len(longestSuffix); n > maxTopicLen {
		field, v := "Prefix", len(c.Prefix)
		if defaultPrefix { // name the level that made it long
			field, v = "Bed", len(c.Bed)
			if len(c.Site) > len(c.Bed) {
				field, v = "Site", len(c.Site)
			}
		}
		return c, &ConfigError{field, v, fmt.Sprintf("bytes long: topics under it (…%s) would be %d bytes, above MQTT's limit of %d", longestSuffix, n, maxTopicLen)}
	}
	if c.ClientID == "" {
		c.ClientID = "ictald-" + c.Site + "-" + c.Bed
	}
	if len(c.ClientID) > 65535 {
		return c, &ConfigError{"ClientID", len(c.ClientID), "bytes: at most 65535"}
	}
	if c.QueueSize == 0 {
		c.QueueSize = DefaultQueueSize
	}
	if c.StoreMemory == 0 {
		c.StoreMemory = DefaultStoreMemory
	}
	if c.LabelBuffer == 0 {
		c.LabelBuffer = DefaultLabelBuffer
	}
	if c.MaxReconnectInterval <= 0 {
		c.MaxReconnectInterval = DefaultMaxReconnectInterval
	}
	if c.KeepAlive <= 0 {
		c.KeepAlive = DefaultKeepAlive
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = DefaultWriteTimeout
	}
	if c.CloseTimeout <= 0 {
		c.CloseTimeout = DefaultCloseTimeout
	}
	return c, nil
}
