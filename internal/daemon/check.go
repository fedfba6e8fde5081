package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/ads1299"
	"github.com/ictal/ictal/acquire/openbci"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/modelfile"
	"github.com/ictal/ictal/internal/pipeline"
)

// Check runs every check Run makes before it opens a device, so that
// `ictald check` refuses what `ictald run` would: the values (Validate),
// then the features, the classifier and the pipeline built as Run builds
// them for the source's channels and rate — a recording and a simulation
// are opened, an amplifier is described by its nominal channels and rate
// (8 or 16 at 250 or 125 Hz for a Cyton, source.rate for an ADS1299) —
// and the files the configuration names: the checkpoint's directory, the
// trained model, the JSON-lines output's directory, and that the host
// names of the addresses Run listens on resolve. Risky but working
// settings (a password sent in clear text, a password file others can
// read) are logged to log as warnings. Run calls Check first; errors name
// the file's keys.
func (c *Config) Check(log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := c.Validate(); err != nil {
		return err
	}
	src, exact, err := c.checkSource()
	if err != nil {
		return err
	}
	defer src.Close()
	fcfg, err := c.FeaturesConfig()
	if err != nil {
		return err
	}
	want, err := modelfile.Describe(fcfg, src.Info())
	if err != nil {
		return keyed(err)
	}
	model, err := classifier.New(c.ClassifierConfig(want.Features.Dim))
	if err != nil {
		return keyed(err)
	}
	if _, err := pipeline.New(src, fcfg, model, c.PipelineConfig(), nil, pipeline.Hooks{}, nil); err != nil {
		return keyed(err)
	}
	if err := checkFilePath("checkpoint.path", c.Checkpoint.Path); err != nil {
		return err
	}
	if o := c.Output.JSONL; o != "-" {
		if err := checkFilePath("output.jsonl", o); err != nil {
			return err
		}
	}
	if err := c.checkBootstrap(want, exact); err != nil {
		return err
	}
	if err := c.checkListenHosts(log); err != nil {
		return err
	}
	c.warnMQTT(log)
	return nil
}

// checkListenHosts checks that the host names of the addresses Run
// listens on resolve (resolveListen): metrics.listen and, for the
// embedded broker, mqtt.listen.
func (c *Config) checkListenHosts(log *slog.Logger) error {
	if c.Metrics.Listen != "" {
		if err := resolveListen(context.Background(), "metrics.listen", c.Metrics.Listen, log); err != nil {
			return err
		}
	}
	if c.MQTT.Broker == "embedded" {
		return resolveListen(context.Background(), "mqtt.listen", c.MQTT.Listen, log)
	}
	return nil
}

// checkSource returns the configured source as Run opens it when that
// needs no device (a recording, a simulation: exact), else a stand-in
// with the amplifier's nominal channels and rate that delivers nothing.
// The caller closes it.
func (c *Config) checkSource() (src acquire.Source, exact bool, err error) {
	s := c.Source
	var info acquire.Info
	switch s.Type {
	case "synth", "file", "edf":
		src, err := OpenSource(context.Background(), s, slog.New(slog.DiscardHandler))
		return src, err == nil, err
	case "openbci":
		n, rate := 8, float64(openbci.CytonRate)
		if s.Daisy {
			n, rate = 16, openbci.DaisyRate
		}
		if len(s.Labels) > 0 && len(s.Labels) != n {
			return nil, false, fieldErr("source.labels", "%d labels for the board's %d channels", len(s.Labels), n)
		}
		info = acquire.Info{Channels: make([]acquire.Channel, n), Rate: rate}
	case "ads1299":
		// The ADS1299-4, -6 and -8 differ in channels; the labels say how
		// many are wired, else the -8's.
		n := len(s.Labels)
		if n == 0 {
			n = 8
		}
		rate := s.Rate
		if rate == 0 {
			rate = ads1299.DefaultOpts.Rate
		}
		info = acquire.Info{Channels: make([]acquire.Channel, n), Rate: float64(rate)}
	}
	for i := range info.Channels {
		info.Channels[i] = acquire.Channel{Label: fmt.Sprintf("ch%d", i), Unit: "uV", Rate: info.Rate}
		if i < len(s.Labels) {
			info.Channels[i].Label = s.Labels[i]
		}
	}
	return nominal{info}, false, nil
}

// nominal stands in for an amplifier Check does not open.
type nominal struct{ info acquire.Info }

func (n nominal) Info() acquire.Info             { return n.info }
func (n nominal) ReadFrame(*acquire.Frame) error { return io.EOF }
func (n nominal) Close() error                   { return nil }

// checkFilePath checks that path, the value of key, can be a file Run
// creates or replaces: not a directory, in a directory that exists.
func checkFilePath(key, path string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fieldErr(key, "%q is a directory; want a file in it", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fieldErr(key, "%q: directory %s does not exist", path, dir)
	case err != nil:
		return fieldErr(key, "%q: %v", path, err)
	case !fi.IsDir():
		return fieldErr(key, "%q: %s is not a directory", path, dir)
	}
	return nil
}

// checkBootstrap reads classifier.model when it is set and, when the
// source's channels are exact, checks that it fits them as LoadModel
// would (with an amplifier's nominal channels only its dimension can be
// compared).
func (c *Config) checkBootstrap(want modelfile.Meta, exact bool) error {
	path := c.Classifier.Model
	if path == "" || path == NewModel {
		return nil
	}
	meta, _, err := modelfile.ReadFile(path)
	if err != nil {
		return fieldErr("classifier.model", "%v", err)
	}
	if exact || meta.PerChannel() { // a per-channel model fits any montage
		if err := meta.Check(want); err != nil {
			return fieldErr("classifier.model", "%s does not fit the configured source and features: %v", path, err)
		}
	} else if d := meta.Classifier.Features; d != want.Features.Dim {
		return fieldErr("classifier.model", "%s takes %d features; the configured source and features make %d", path, d, want.Features.Dim)
	}
	return nil
}

// warnMQTT warns of credentials that can be read by others: a password
// sent over an unencrypted connection to another host, and a password
// file readable by every user.
func (c *Config) warnMQTT(log *slog.Logger) {
	m := c.MQTT
	if m.Broker == "" || m.Broker == "embedded" || (m.Password == "" && m.PasswordFile == "") {
		return
	}
	key := "mqtt.password"
	if m.PasswordFile != "" {
		key = "mqtt.password_file"
		if fi, err := os.Stat(m.PasswordFile); err == nil && fi.Mode().Perm()&0o004 != 0 {
			log.Warn("mqtt.password_file is readable by every user of this machine: chmod o-r it (e.g. 0640, group ictald)",
				slog.String("path", m.PasswordFile), slog.String("mode", fi.Mode().Perm().String()))
		}
	}
	for _, b := range strings.Split(m.Broker, ",") {
		u, err := url.Parse(strings.TrimSpace(b))
		if err != nil {
			continue // Validate refused it already
		}
		switch strings.ToLower(u.Scheme) {
		case "tcp", "mqtt", "ws":
		default:
			continue // TLS
		}
		if isLoopback(u.Hostname()) {
			continue
		}
		log.Warn(key+" is sent unencrypted to a broker on another host: anyone on the network can read it; use ssl:// (TLS)",
			slog.String("broker", u.Redacted()))
	}
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// canonicalAlgorithm returns the classifier's spelling of an algorithm
// name given in any case ("uob", "NSac2"), or name itself when it names
// none (the classifier then refuses it).
func canonicalAlgorithm(name string) string {
	base, ns := name, ""
	if len(name) > 2 && strings.EqualFold(name[:2], "ns") {
		base, ns = name[2:], "ns"
	}
	for _, a := range classifier.Algorithms {
		if strings.EqualFold(base, string(a)) {
			return ns + string(a)
		}
	}
	return name
}
