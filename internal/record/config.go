package record

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Defaults.
const (
	DefaultRotate = time.Hour
	// DefaultEDFRange is the physical range (±µV) of 16-bit files: digital
	// ±32767 is ±3276.7 µV, 0.1 µV per step.
	DefaultEDFRange = 3276.7
	// DefaultBDFRange is the physical range (±µV) of 24-bit files: an
	// ADS1299 (OpenBCI Cyton) at gain 24, 4.5 V / 24, so digital values
	// are the converter's counts.
	DefaultBDFRange = 187500
	// AnnotationBytes is the annotation room of each data record.
	AnnotationBytes = 256
	// DefaultRetry is how often, in signal time, a new file is tried
	// after writing failed (a full disk).
	DefaultRetry = 10 * time.Second
	// MaxFill is the longest gap in the source filled with its last
	// sample in the file in progress; a longer one starts a new file.
	MaxFill = time.Minute
)

// Header count modes (Config.HeaderCount).
const (
	// CountEveryRecord writes the record count into the header after every
	// record: a file cut off at any moment opens in other programs.
	CountEveryRecord = "record"
	// CountAtClose writes -1 until the file is closed; a file left by a
	// killed daemon is repaired when the next one starts.
	CountAtClose = "close"
)

// Config configures a Recorder.
type Config struct {
	// Dir holds the recordings (created if needed).
	Dir string
	// Site and Bed name the files and go into their headers.
	Site, Bed string
	// Rotate is the length of a file: a new one starts when the clock
	// (UTC) crosses a multiple of it, at the next record boundary.
	// Default 1 h; whole seconds.
	Rotate time.Duration
	// Quota bounds the bytes the recordings in Dir may take: before a
	// file starts, the oldest are deleted until it fits. 0: no quota.
	Quota int64
	// BDF writes BDF+ (24-bit) instead of EDF+ (16-bit).
	BDF bool
	// Range is the physical range, ±µV, that the digital range spans; 0:
	// DefaultEDFRange or DefaultBDFRange.
	Range float64
	// HeaderCount is CountEveryRecord (default) or CountAtClose.
	HeaderCount string
	// Program names the daemon in the start annotation ("ictald v1.2").
	Program string
	// Retry is how often (signal time) writing is tried again after it
	// failed; default DefaultRetry.
	Retry time.Duration

	// create opens a new file; tests replace it with a disk that fills.
	create func(name string) (file, error)
}

// ConfigError names the [record] key of a bad setting.
type ConfigError struct {
	Key    string // "dir", "rotate", …
	Reason string
}

func (e *ConfigError) Error() string { return "record: " + e.Key + ": " + e.Reason }

// ErrConfig is wrapped by ConfigError's Unwrap.
var ErrConfig = errors.New("record: invalid configuration")

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

// withDefaults fills in zero fields and checks the rest.
func (c Config) withDefaults() (Config, error) {
	if c.Rotate == 0 {
		c.Rotate = DefaultRotate
	}
	if c.Range == 0 {
		c.Range = DefaultEDFRange
		if c.BDF {
			c.Range = DefaultBDFRange
		}
	}
	if c.HeaderCount == "" {
		c.HeaderCount = CountEveryRecord
	}
	if c.Retry == 0 {
		c.Retry = DefaultRetry
	}
	if c.Program == "" {
		c.Program = "ictald"
	}
	return c, c.Validate()
}

// Validate checks c; zero values are fine (defaults).
func (c Config) Validate() error {
	switch {
	case c.Dir == "":
		return &ConfigError{"dir", "required"}
	case c.Rotate < 0 || c.Rotate%time.Second != 0:
		return &ConfigError{"rotate", fmt.Sprintf("%v: want whole seconds, at least 1s", c.Rotate)}
	case c.Quota < 0:
		return &ConfigError{"quota", fmt.Sprintf("%d bytes: want >= 0", c.Quota)}
	case c.Range < 0 || math.IsNaN(c.Range) || math.IsInf(c.Range, 0):
		return &ConfigError{"range_uv", fmt.Sprintf("%g: want > 0 (0: the format's default)", c.Range)}
	case c.Retry < 0:
		return &ConfigError{"retry", fmt.Sprintf("%v: want > 0", c.Retry)}
	}
	switch c.HeaderCount {
	case "", CountEveryRecord, CountAtClose:
	default:
		return &ConfigError{"header_count", fmt.Sprintf("%q: want %q or %q", c.HeaderCount, CountEveryRecord, CountAtClose)}
	}
	return nil
}

// ParseSize reads a size in bytes: a number with an optional unit, B, kB
// (or KB), MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of
// 1024), a space allowed between: "8GB", "500 MiB", "1.5GB", "0". The
// result is rounded down to a whole byte.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	mult := float64(1)
	switch unit {
	case "", "B":
	case "kB", "KB":
		mult = 1e3
	case "MB":
		mult = 1e6
	case "GB":
		mult = 1e9
	case "TB":
		mult = 1e12
	case "KiB":
		mult = 1 << 10
	case "MiB":
		mult = 1 << 20
	case "GiB":
		mult = 1 << 30
	case "TiB":
		mult = 1 << 40
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (want B, kB, MB, GB, TB, KiB, MiB, GiB or TiB)", s, unit)
	}
	if num == "" {
		return 0, fmt.Errorf("size %q: no number", s)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: %q is not a number", s, num)
	}
	b := math.Floor(v * mult)
	if b > 1<<62 {
		return 0, fmt.Errorf("size %q: too large", s)
	}
	return int64(b), nil
}
