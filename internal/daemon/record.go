package daemon

import (
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/ictal/ictal/internal/record"
)

// RecordConfig is [record]: session recording (internal/record).
type RecordConfig struct {
	Enabled bool     `toml:"enabled"`
	Dir     string   `toml:"dir"`
	Rotate  Duration `toml:"rotate"`
	Quota   string   `toml:"quota"`
	// Format is auto (BDF+ for 24-bit sources: openbci, ads1299, a BDF
	// file; EDF+ otherwise), edf or bdf.
	Format      string  `toml:"format"`
	Range       float64 `toml:"range_uv"`
	HeaderCount string  `toml:"header_count"`
}

// validate checks [record]; nothing is checked when it is off.
func (r *RecordConfig) validate() error {
	if !r.Enabled {
		return nil
	}
	switch r.Format {
	case "", "auto", "edf", "bdf":
	default:
		return fieldErr("record.format", "%q: want auto, edf or bdf", r.Format)
	}
	if _, err := record.ParseSize(r.Quota); r.Quota != "" && err != nil {
		return fieldErr("record.quota", "%v", err)
	}
	_, err := r.config(SourceConfig{}, "")
	return err
}

// config returns the recorder's configuration for src.
func (r *RecordConfig) config(src SourceConfig, program string) (record.Config, error) {
	c := record.Config{Dir: r.Dir, Rotate: time.Duration(r.Rotate), Range: r.Range, HeaderCount: r.HeaderCount, Program: program}
	if r.Quota != "" {
		q, err := record.ParseSize(r.Quota)
		if err != nil {
			return c, fieldErr("record.quota", "%v", err)
		}
		c.Quota = q
	}
	bits24 := src.Type == "openbci" || src.Type == "ads1299" ||
		((src.Type == "file" || src.Type == "edf") && strings.EqualFold(filepath.Ext(src.Path), ".bdf"))
	c.BDF = r.Format == "bdf" || ((r.Format == "" || r.Format == "auto") && bits24)
	if c.BDF && c.Range == 0 && (src.Type == "openbci" || src.Type == "ads1299") {
		// The converter's full scale, 4.5 V / gain: digital values are its
		// counts. ictald programs an ADS1299 at gain 24.
		gain := 24
		if src.Type == "openbci" && src.Gain != 0 {
			gain = src.Gain
		}
		c.Range = 4.5e6 / float64(gain)
	}
	if err := c.Validate(); err != nil {
		var ce *record.ConfigError
		if errors.As(err, &ce) {
			return c, fieldErr("record."+ce.Key, "%s", ce.Reason)
		}
		return c, err
	}
	return c, nil
}

// openRecorder starts session recording when [record] asks for it (nil
// otherwise): files named by site and bed in record.dir.
func openRecorder(cfg *Config, program string, log *slog.Logger) (*record.Recorder, error) {
	if !cfg.Record.Enabled {
		return nil, nil
	}
	if program == "" {
		program = "ictald"
	}
	c, err := cfg.Record.config(cfg.Source, program)
	if err != nil {
		return nil, err
	}
	c.Site, c.Bed = cfg.Site.Site, cfg.Site.Bed
	r, err := record.New(c, log.With(slog.String("part", "record")))
	if err != nil {
		return nil, err
	}
	return r, nil
}
