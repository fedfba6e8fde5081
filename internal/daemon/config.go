package daemon

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/ictal/ictal/acquire/synth"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/features/artifact"
	"github.com/ictal/ictal/internal/pipeline"
)

// Duration is a time.Duration written as a string in TOML ("2s", "5m").
type Duration time.Duration

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Config is the daemon's configuration file.
type Config struct {
	Site       SiteConfig       `toml:"site"`
	Source     SourceConfig     `toml:"source"`
	Features   FeaturesConfig   `toml:"features"`
	Classifier ClassifierConfig `toml:"classifier"`
	Decision   DecisionConfig   `toml:"decision"`
	Learning   LearningConfig   `toml:"learning"`
	Quality    QualityConfig    `toml:"quality"`
	Artifact   ArtifactConfig   `toml:"artifact"`
	Motor      MotorConfig      `toml:"motor"`
	Checkpoint CheckpointConfig `toml:"checkpoint"`
	Output     OutputConfig     `toml:"output"`
	MQTT       MQTTConfig       `toml:"mqtt"`
	Metrics    MetricsConfig    `toml:"metrics"`
	Log        LogConfig        `toml:"log"`
	Record     RecordConfig     `toml:"record"`
}

// MQTTConfig configures alert publication and feedback over MQTT.
type MQTTConfig struct {
	// Broker is "" (no MQTT), "embedded" (a broker inside ictald,
	// listening on Listen, for single-board installs without one) or a
	// comma-separated list of broker URLs (tcp://, ssl://, ws://).
	Broker       string   `toml:"broker"`
	Listen       string   `toml:"listen"`
	Prefix       string   `toml:"prefix"`
	ClientID     string   `toml:"client_id"`
	StoreDir     string   `toml:"store_dir"`
	Scores       bool     `toml:"scores"`
	Username     string   `toml:"username"`
	Password     string   `toml:"password"`
	PasswordFile string   `toml:"password_file"`
	CAFile       string   `toml:"ca_file"`
	CertFile     string   `toml:"cert_file"`
	KeyFile      string   `toml:"key_file"`
	ServerName   string   `toml:"server_name"`
	QueueSize    int      `toml:"queue_size"`
	MaxReconnect Duration `toml:"max_reconnect_interval"`
	// Feedback rate limits (alert.FeedbackLimits): per sender, and for
	// all senders together.
	FeedbackBurst       int      `toml:"feedback_burst"`
	FeedbackEvery       Duration `toml:"feedback_every"`
	FeedbackGlobalBurst int      `toml:"feedback_global_burst"`
	FeedbackGlobalEvery Duration `toml:"feedback_global_every"`

	// BrokerUsers and BrokerAnonymous say who may use the embedded
	// broker (mqtt.BrokerOptions): a users file (ictal board user add)
	// whose users may publish feedback, and what anonymous clients may
	// do ("subscribe", the default, or "none").
	BrokerUsers     string `toml:"broker_users"`
	BrokerAnonymous string `toml:"broker_anonymous"`
	// The embedded broker's bounds (mqtt.BrokerOptions; 0: its
	// defaults): connections open at once, bytes queued per session and
	// in all, and how long an abandoned session is kept.
	BrokerMaxConnections    int      `toml:"broker_max_connections"`
	BrokerSessionQueueBytes int      `toml:"broker_session_queue_bytes"`
	BrokerQueueBytes        int      `toml:"broker_queue_bytes"`
	BrokerSessionExpiry     Duration `toml:"broker_session_expiry"`
}

// SiteConfig names the monitor.
type SiteConfig struct {
	Site string `toml:"site"`
	Bed  string `toml:"bed"`
}

// SourceConfig selects and configures the EEG source.
type SourceConfig struct {
	Type string `toml:"type"` // synth | file | edf | openbci | ads1299
	// Labels names the channels, in order (the electrodes a Cyton's or an
	// ADS1299's inputs are wired to; OpenBCI recordings do not name
	// them): alerts name them and a model's montage is checked against
	// them. Empty: the source's own labels.
	Labels []string `toml:"labels"`
	// file (EDF, EDF+, BDF, OpenBCI GUI text, BrainFlow CSV); edf is the
	// same source under its older name
	Path     string `toml:"path"`
	Board    string `toml:"board"`    // BrainFlow CSV: cyton, cyton-daisy or ganglion (empty: from the columns)
	RealTime bool   `toml:"realtime"` // the same as speed = 1 (acquire.Paced paces every source)
	Seizure  string `toml:"seizure_regexp"`
	// Select names the channels of the recording to use, in order (see
	// acquire.Select); empty: its EEG channels, as acquire.ChooseEEG
	// tells them from EOG, ECG, trigger and other channels.
	Select []string `toml:"select"`
	// openbci
	Port  string `toml:"port"`
	Daisy bool   `toml:"daisy"`
	Gain  int    `toml:"gain"`
	Reset bool   `toml:"reset"`
	// ads1299
	SPI      string `toml:"spi"`
	DRDY     string `toml:"drdy"`
	ResetPin string `toml:"reset_pin"`
	StartPin string `toml:"start_pin"`
	// ads1299 and synth
	Rate int `toml:"rate"`
	// synth
	Channels int      `toml:"channels"`
	Duration Duration `toml:"duration"`
	Seizures int      `toml:"seizures"`
	Seed     uint64   `toml:"seed"`
	Speed    float64  `toml:"speed"` // synth and edf: play at this multiple of real time (0: as the source runs)
}

// FeaturesConfig configures the feature extractor.
type FeaturesConfig struct {
	Window    Duration `toml:"window"`
	Step      Duration `toml:"step"`
	Features  []string `toml:"features"`
	Summaries bool     `toml:"summaries"`
	// Conditioning (features.Conditioning): on unless conditioning =
	// false; corners in Hz (0: default, negative: none); mains "50",
	// "60", "both" or "off".
	Conditioning *bool   `toml:"conditioning"`
	HighPass     float64 `toml:"highpass_hz"`
	LowPass      float64 `toml:"lowpass_hz"`
	Mains        string  `toml:"mains"`
}

// ArtifactConfig is artifact.Config in the file.
type ArtifactConfig struct {
	Off        bool     `toml:"off"`
	MuscleRise float64  `toml:"muscle_rise_db"`
	EyeRise    float64  `toml:"eye_rise_db"`
	StepRise   float64  `toml:"step_rise_db"`
	StepFloor  float64  `toml:"step_floor_microvolts"`
	Settle     Duration `toml:"settle"`
	Warmup     Duration `toml:"warmup"`
	Electrode  Duration `toml:"electrode"`
	Gate       Duration `toml:"gate"`
}

// MotorConfig is pipeline.Motor in the file.
type MotorConfig struct {
	Off   bool    `toml:"off"`
	Share float64 `toml:"share"`
	K     int     `toml:"k"`
	N     int     `toml:"n"`
}

// ClassifierConfig configures the model.
type ClassifierConfig struct {
	Algorithm string  `toml:"algorithm"`
	Learner   string  `toml:"learner"`
	Members   int     `toml:"members"`
	C         float64 `toml:"c"`
	CP        float64 `toml:"cp"`
	CN        float64 `toml:"cn"`
	Beta      float64 `toml:"beta"`
	Neighbors int     `toml:"neighbors"`
	Memory    int     `toml:"memory"`
	Seed      uint64  `toml:"seed"`
	// Model is a model trained by `ictal train`, used when no checkpoint
	// exists yet; empty, the day-one model (internal/dayone) when it fits
	// the features; NewModel, a new, untrained model of this section's
	// settings.
	Model string `toml:"model"`
}

// DecisionConfig is alert.DetectorConfig in the file.
type DecisionConfig struct {
	Threshold  float64  `toml:"threshold"`
	K          int      `toml:"k"`
	N          int      `toml:"n"`
	Quiet      Duration `toml:"quiet"`
	Refractory Duration `toml:"refractory"`
}

// LearningConfig is pipeline.Learning in the file.
type LearningConfig struct {
	Mode            string   `toml:"mode"`
	Buffer          Duration `toml:"buffer"`
	NegativeHorizon Duration `toml:"negative_horizon"`
	MinOverlap      float64  `toml:"min_overlap"`
	MaxInterval     Duration `toml:"max_interval"`
	Grace           Duration `toml:"grace"`
	LearnAgreed     bool     `toml:"learn_agreed"`
}

// QualityConfig is pipeline.Quality in the file.
type QualityConfig struct {
	FlatMicrovolts float64 `toml:"flat_microvolts"`
}

// NewModel is the classifier.model value that starts from a new,
// untrained model instead of the day-one model.
const NewModel = "new"

// CheckpointConfig says where and how often the model is saved.
type CheckpointConfig struct {
	Path  string   `toml:"path"`
	Every Duration `toml:"every"`
}

// OutputConfig configures the JSON-lines output.
type OutputConfig struct {
	JSONL  string `toml:"jsonl"` // "-" for stdout, "" for none, else a file (appended)
	Scores bool   `toml:"scores"`
}

// LogConfig configures logging.
type LogConfig struct {
	Level  string `toml:"level"`  // debug | info | warn | error
	Format string `toml:"format"` // text | json
}

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("invalid configuration")

// LoadConfig reads and validates a configuration file. Unknown keys are
// errors (a misspelt key must not silently fall back to a default).
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseConfig(string(b), path)
}

// ParseConfig parses and validates a configuration; name is used in errors.
func ParseConfig(text, name string) (*Config, error) {
	var c Config
	md, err := toml.Decode(text, &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			if pe.LastKey != "" {
				return nil, fmt.Errorf("%s:%d: %w: %s: %s", name, pe.Position.Line, ErrConfig, pe.LastKey, pe.Message)
			}
			return nil, fmt.Errorf("%s:%d: %w: %s", name, pe.Position.Line, ErrConfig, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w: %v", name, ErrConfig, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("%s: %w: unknown key %s", name, ErrConfig, strings.Join(keys, ", "))
	}
	// An empty site or bed would be a default only when the key is absent:
	// written out empty it is a mistake (a topic ictal//bed-3).
	for _, f := range []struct{ key, v string }{{"site", c.Site.Site}, {"bed", c.Site.Bed}} {
		if f.v == "" && md.IsDefined("site", f.key) {
			return nil, fmt.Errorf("%s: %w", name, fieldErr("site."+f.key, "empty: want a name (an MQTT topic level), or leave the key out"))
		}
	}
	c.withDefaults()
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &c, nil
}

// finite reports whether x is neither NaN nor infinite: TOML has nan and
// inf, and no setting of the file means either.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// nonFinite finds the first NaN or infinite number in v, a section of the
// configuration (or the whole of it), and returns its key in the file
// (prefix, then the toml tags), the number and false; true when there is
// none. Validate checks every number with it, those of a section it does
// not otherwise check (a [record] that is off) and any added later.
func nonFinite(v reflect.Value, prefix string) (string, float64, bool) {
	switch v.Kind() {
	case reflect.Float64:
		return prefix, v.Float(), finite(v.Float())
	case reflect.Struct:
		for i := range v.NumField() {
			key := v.Type().Field(i).Tag.Get("toml")
			if prefix != "" {
				key = prefix + "." + key
			}
			if k, x, ok := nonFinite(v.Field(i), key); !ok {
				return k, x, false
			}
		}
	}
	return "", 0, true
}

func fieldErr(field, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrConfig, field, fmt.Sprintf(format, args...))
}

// withDefaults fills in the defaults the daemon itself owns (the topic's
// site and bed); the parts' defaults are filled in by the packages they
// configure.
func (c *Config) withDefaults() {
	if c.Site.Site == "" {
		c.Site.Site = "site"
	}
	if c.Site.Bed == "" {
		c.Site.Bed = "bed"
	}
}

// Validate checks every field, naming the first bad one by its key in the
// file; it changes nothing. The parts are checked by the packages they
// configure (features, classifier, detector, pipeline), so each rule lives
// in one place, and their typed errors are mapped to keys by tomlKeys.
func (c *Config) Validate() error {
	if key, x, ok := nonFinite(reflect.ValueOf(*c), ""); !ok {
		return fieldErr(key, "%g: want a finite number (no setting takes nan or inf)", x)
	}
	for _, f := range []struct{ name, v string }{{"site.site", c.Site.Site}, {"site.bed", c.Site.Bed}} {
		if strings.ContainsAny(f.v, "/#+\x00") || strings.TrimSpace(f.v) != f.v {
			return fieldErr(f.name, "%q: must not contain / # + or surrounding spaces (it is an MQTT topic level)", f.v)
		}
	}
	if err := c.Source.validate(); err != nil {
		return err
	}
	if _, err := c.FeaturesConfig(); err != nil {
		return err
	}
	if _, err := alert.NewDetector(c.DetectorConfig()); err != nil {
		return keyed(err)
	}
	if a := c.PipelineConfig().Artifact; !a.Off {
		if _, err := artifact.New(a, nil, time.Second); err != nil {
			return keyed(err)
		}
	}
	if c.Learning.Mode == pipeline.LearnAnnotations && c.Source.Type != "file" && c.Source.Type != "edf" && c.Source.Type != "synth" {
		return fieldErr("learning.mode", "annotations needs a file or synth source")
	}
	if c.Checkpoint.Every < 0 {
		return fieldErr("checkpoint.every", "%v: want >= 0", time.Duration(c.Checkpoint.Every))
	}
	if o := c.Output.JSONL; o != "" && o != "-" && strings.HasSuffix(o, "/") {
		return fieldErr("output.jsonl", "%q is a directory", o)
	}
	if err := c.validateMQTT(); err != nil {
		return err
	}
	if err := c.validateMetrics(); err != nil {
		return err
	}
	if err := c.Record.validate(); err != nil {
		return err
	}
	switch c.Log.Level {
	case "", "debug", "info", "warn", "error":
	default:
		return fieldErr("log.level", "%q: want debug, info, warn or error", c.Log.Level)
	}
	switch c.Log.Format {
	case "", "text", "json":
	default:
		return fieldErr("log.format", "%q: want text or json", c.Log.Format)
	}
	// The classifier's own checks need the feature dimension, known only
	// once the source is open; check the rest with a stand-in dimension.
	if _, err := classifier.New(c.ClassifierConfig(1)); err != nil {
		return keyed(err)
	}
	if err := c.PipelineConfig().Validate(); err != nil {
		return keyed(err)
	}
	// Last, the bedside's bounds (bounds.go), narrower than the
	// packages' own, which have named what they refuse.
	return c.checkBounds()
}

// validate checks the [source] section.
func (s *SourceConfig) validate() error {
	switch s.Type {
	case "synth":
		if s.Channels < 0 || s.Channels > 64 {
			return fieldErr("source.channels", "%d: want 1..64", s.Channels)
		}
		if s.Duration < 0 {
			return fieldErr("source.duration", "%v: want >= 0 (0: a day)", time.Duration(s.Duration))
		}
		if s.Seizures < 0 {
			return fieldErr("source.seizures", "%d: want >= 0", s.Seizures)
		}
	case "file", "edf":
		if s.Path == "" {
			return fieldErr("source.path", "required for a %s source", s.Type)
		}
		switch s.Board {
		case "", "cyton", "cyton-daisy", "ganglion":
		default:
			return fieldErr("source.board", "%q: want cyton, cyton-daisy or ganglion", s.Board)
		}
	case "openbci":
		if s.Port == "" {
			return fieldErr("source.port", "required for an openbci source (e.g. /dev/ttyUSB0)")
		}
		if s.Gain != 0 && !validGain(s.Gain) {
			return fieldErr("source.gain", "%d: want 1, 2, 4, 6, 8, 12 or 24", s.Gain)
		}
	case "ads1299":
		if s.DRDY == "" {
			return fieldErr("source.drdy", "required for an ads1299 source (the GPIO wired to DRDY, e.g. GPIO25)")
		}
	case "":
		return fieldErr("source.type", "required: synth, file, openbci or ads1299")
	default:
		return fieldErr("source.type", "%q: want synth, file, openbci or ads1299", s.Type)
	}
	for i, l := range s.Labels {
		if strings.TrimSpace(l) == "" {
			return fieldErr("source.labels", "label %d is empty", i+1)
		}
	}
	if len(s.Select) > 0 && s.Type != "file" && s.Type != "edf" {
		return fieldErr("source.select", "set for a %s source: it chooses the channels of a recording (type = \"file\")", s.Type)
	}
	for i, l := range s.Select {
		if strings.TrimSpace(l) == "" {
			return fieldErr("source.select", "label %d is empty", i+1)
		}
	}
	if s.Seizure != "" {
		if _, err := regexp.Compile(s.Seizure); err != nil {
			return fieldErr("source.seizure_regexp", "%q: %v", s.Seizure, err)
		}
	}
	if s.Speed < 0 {
		return fieldErr("source.speed", "%g: want >= 0", s.Speed)
	}
	if s.RealTime && s.Speed != 0 && s.Speed != 1 {
		return fieldErr("source.realtime", "true with speed = %g: realtime means speed = 1; set one of them", s.Speed)
	}
	return nil
}

// tomlKeys maps the fields that the packages name in their typed
// configuration errors (classifier.ConfigError, alert.DetectorConfigError,
// pipeline.ConfigError), prefixed by the package, to the keys of the
// configuration file: the one place where a setting's two names meet.
var tomlKeys = map[string]string{
	"classifier.":                        "classifier",
	"classifier.Algorithm":               "classifier.algorithm",
	"classifier.Learner":                 "classifier.learner",
	"classifier.Members":                 "classifier.members",
	"classifier.C":                       "classifier.c",
	"classifier.CP":                      "classifier.cp",
	"classifier.CN":                      "classifier.cn",
	"classifier.Beta":                    "classifier.beta",
	"classifier.Neighbors":               "classifier.neighbors",
	"classifier.Memory":                  "classifier.memory",
	"classifier.Features":                "features.features",
	"features.Window":                    "features.window",
	"features.Step":                      "features.step",
	"features.Features":                  "features.features",
	"features.Summaries":                 "features.summaries",
	"features.Channels":                  "source.channels",
	"features.Rate":                      "source.rate",
	"features.Labels":                    "source.labels",
	"features.Conditioning.HighPass":     "features.highpass_hz",
	"features.Conditioning.LowPass":      "features.lowpass_hz",
	"features.Conditioning.Mains":        "features.mains",
	"synth.Channels":                     "source.channels",
	"synth.Rate":                         "source.rate",
	"synth.Duration":                     "source.duration",
	"synth.Seizures":                     "source.seizures",
	"synth.Labels":                       "source.labels",
	"alert.Threshold":                    "decision.threshold",
	"alert.K":                            "decision.k",
	"alert.N":                            "decision.n",
	"alert.Quiet":                        "decision.quiet",
	"alert.Refractory":                   "decision.refractory",
	"pipeline.learning.mode":             "learning.mode",
	"pipeline.learning.buffer":           "learning.buffer",
	"pipeline.learning.negative_horizon": "learning.negative_horizon",
	"pipeline.learning.min_overlap":      "learning.min_overlap",
	"pipeline.learning.max_interval":     "learning.max_interval",
	"pipeline.learning.grace":            "learning.grace",
	"pipeline.quality.flat_microvolts":   "quality.flat_microvolts",
	"pipeline.checkpoint.every":          "checkpoint.every",
	"pipeline.artifact.off":              "artifact.off",
	"pipeline.motor.share":               "motor.share",
	"pipeline.motor.k":                   "motor.k",
	"pipeline.motor.n":                   "motor.n",
	"mqtt.Site":                          "site.site",
	"mqtt.Bed":                           "site.bed",
	"mqtt.Prefix":                        "mqtt.prefix",
	"mqtt.ClientID":                      "mqtt.client_id",
	"mqtt.StoreDir":                      "mqtt.store_dir",
	"mqtt.QueueSize":                     "mqtt.queue_size",
	"mqtt.LabelBuffer":                   "mqtt",
	"mqtt.FeedbackBurst":                 "mqtt.feedback_burst",
	"mqtt.FeedbackEvery":                 "mqtt.feedback_every",
	"mqtt.FeedbackGlobalBurst":           "mqtt.feedback_global_burst",
	"mqtt.FeedbackGlobalEvery":           "mqtt.feedback_global_every",
	"mqtt.UsersFile":                     "mqtt.broker_users",
	"mqtt.Anonymous":                     "mqtt.broker_anonymous",
	"mqtt.MaxConnections":                "mqtt.broker_max_connections",
	"mqtt.SessionQueueBytes":             "mqtt.broker_session_queue_bytes",
	"mqtt.QueueBytes":                    "mqtt.broker_queue_bytes",
	"mqtt.SessionExpiry":                 "mqtt.broker_session_expiry",
}

// keyed turns a package's typed configuration error into one that names
// the file's key and its value.
func keyed(err error) error {
	var (
		ce *classifier.ConfigError
		de *alert.DetectorConfigError
		pe *pipeline.ConfigError
		me *mqtt.ConfigError
		fe *features.ConfigError
		se *synth.ConfigError
		ae *artifact.ConfigError
	)
	switch {
	case errors.As(err, &ae): // its fields are the file's keys already
		return fieldErr("artifact."+ae.Field, "%v: %s", ae.Value, ae.Reason)
	case errors.As(err, &ce):
		return keyErr("classifier."+ce.Field, ce.Value, ce.Reason)
	case errors.As(err, &de):
		return keyErr("alert."+de.Field, de.Value, de.Reason)
	case errors.As(err, &pe):
		return keyErr("pipeline."+pe.Field, pe.Value, pe.Reason)
	case errors.As(err, &me):
		return keyErr("mqtt."+me.Field, me.Value, me.Reason)
	case errors.As(err, &se):
		key, ok := tomlKeys["synth."+se.Field]
		if !ok {
			key = "source" // a setting ictald does not expose
		}
		return fieldErr(key, "%s", se.Reason)
	case errors.As(err, &fe):
		// "Features[3]": the key of Features, indexed the same way.
		field, index, _ := strings.Cut(fe.Field, "[")
		if index != "" {
			index = "[" + index
		}
		key, ok := tomlKeys["features."+field]
		if !ok {
			key = "features"
		}
		return fieldErr(key+index, "%s", fe.Reason)
	}
	return fmt.Errorf("%w: %w", ErrConfig, err)
}

func keyErr(field string, value any, reason string) error {
	key, ok := tomlKeys[field]
	if !ok {
		key = field // a field this table misses; TestTOMLKeys keeps it complete
	}
	if value == nil {
		return fieldErr(key, "%s", reason)
	}
	if s, ok := value.(string); ok {
		return fieldErr(key, "%q: %s", s, reason)
	}
	return fieldErr(key, "%v: %s", value, reason)
}

func validGain(g int) bool {
	switch g {
	case 1, 2, 4, 6, 8, 12, 24:
		return true
	}
	return false
}

// FeaturesConfig returns the extractor configuration (channels and rate
// are filled in from the source).
func (c *Config) FeaturesConfig() (features.Config, error) {
	f := features.Config{Window: time.Duration(c.Features.Window), Step: time.Duration(c.Features.Step), Summaries: c.Features.Summaries,
		Conditioning: features.Conditioning{HighPass: c.Features.HighPass, LowPass: c.Features.LowPass, Mains: c.Features.Mains}}
	if c.Features.Conditioning != nil && !*c.Features.Conditioning {
		f.Conditioning.Off = true
	}
	switch f.Conditioning.Mains {
	case "", "50", "60", "both", "off":
	default:
		return f, fieldErr("features.mains", "%q: want 50, 60, both or off", f.Conditioning.Mains)
	}
	if h := f.Conditioning.HighPass; h != h || h > 100 {
		return f, fieldErr("features.highpass_hz", "%g: want a corner below 100 Hz (negative: none)", h)
	}
	if l := f.Conditioning.LowPass; l != l || l > 10000 {
		return f, fieldErr("features.lowpass_hz", "%g: want a corner in Hz (negative: none)", l)
	}
	if c.Features.Features != nil {
		f.Features = []features.Feature{}
		for i, name := range c.Features.Features {
			ft, err := features.ParseFeature(name)
			if err != nil {
				return f, fieldErr(fmt.Sprintf("features.features[%d]", i), "%q: unknown feature", name)
			}
			f.Features = append(f.Features, ft)
		}
	}
	if f.Window < 0 {
		return f, fieldErr("features.window", "%v: want > 0", f.Window)
	}
	if f.Step < 0 {
		return f, fieldErr("features.step", "%v: want > 0", f.Step)
	}
	return f, nil
}

// ClassifierConfig returns the classifier configuration for d features.
func (c *Config) ClassifierConfig(d int) classifier.Config {
	k := c.Classifier
	alg := canonicalAlgorithm(k.Algorithm)
	if alg == "" {
		alg = string(classifier.UOB)
	}
	return classifier.Config{Algorithm: classifier.Algorithm(alg), Learner: classifier.LearnerName(strings.ToLower(k.Learner)), Features: d, Members: k.Members,
		C: k.C, CP: k.CP, CN: k.CN, Beta: k.Beta, Neighbors: k.Neighbors, Memory: k.Memory, Seed: k.Seed}
}

// DetectorConfig returns the decision rule.
func (c *Config) DetectorConfig() alert.DetectorConfig {
	d := c.Decision
	return alert.DetectorConfig{Threshold: d.Threshold, K: d.K, N: d.N, Quiet: time.Duration(d.Quiet), Refractory: time.Duration(d.Refractory)}
}

// PipelineConfig returns the pipeline's configuration.
func (c *Config) PipelineConfig() pipeline.Config {
	mode := c.Learning.Mode // empty: pipeline.DefaultMode
	return pipeline.Config{
		Site: c.Site.Site, Bed: c.Site.Bed,
		Detector: c.DetectorConfig(),
		Learning: pipeline.Learning{Mode: mode, Buffer: time.Duration(c.Learning.Buffer),
			NegativeHorizon: time.Duration(c.Learning.NegativeHorizon), MinOverlap: c.Learning.MinOverlap,
			MaxInterval: time.Duration(c.Learning.MaxInterval), Grace: time.Duration(c.Learning.Grace), LearnAgreed: c.Learning.LearnAgreed},
		Quality: pipeline.Quality{FlatMicrovolts: c.Quality.FlatMicrovolts},
		Artifact: artifact.Config{Off: c.Artifact.Off, MuscleRise: c.Artifact.MuscleRise, EyeRise: c.Artifact.EyeRise,
			StepRise: c.Artifact.StepRise, StepFloor: c.Artifact.StepFloor, Settle: time.Duration(c.Artifact.Settle),
			Warmup: time.Duration(c.Artifact.Warmup), Electrode: time.Duration(c.Artifact.Electrode),
			Gate: time.Duration(c.Artifact.Gate)},
		Motor:           pipeline.Motor{Off: c.Motor.Off, Share: c.Motor.Share, K: c.Motor.K, N: c.Motor.N},
		CheckpointEvery: time.Duration(c.Checkpoint.Every),
	}
}
