package daemon

import (
	"errors"
	"github.com/ictal/ictal/alert/mqtt"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/systemd"
)

func TestSampleConfigIsValid(t *testing.T) {
	c, err := ParseConfig(systemd.SampleConfig, "ictald.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Source.Type != "openbci" || c.Classifier.Algorithm != "UOB" || c.Decision.K != 0 || c.Decision.Quiet != Duration(10*time.Second) || c.Learning.Mode != "feedback" {
		t.Errorf("sample config read as %+v", c)
	}
}

func TestConfigErrorsNameTheField(t *testing.T) {
	base := "[source]\ntype = \"synth\"\n"
	tests := []struct {
		name, text, field string
	}{
		{"no source", "", "source.type"},
		{"unknown source", "[source]\ntype = \"usb\"\n", "source.type"},
		{"edf without path", "[source]\ntype = \"edf\"\n", "source.path"},
		{"openbci without port", "[source]\ntype = \"openbci\"\n", "source.port"},
		{"bad gain", "[source]\ntype = \"openbci\"\nport = \"/dev/x\"\ngain = 5\n", "source.gain"},
		{"ads without drdy", "[source]\ntype = \"ads1299\"\n", "source.drdy"},
		{"select on a simulation", "[source]\ntype = \"synth\"\nselect = [\"Cz\"]\n", "source.select: set for a synth source"},
		{"empty select label", "[source]\ntype = \"file\"\npath = \"x.edf\"\nselect = [\"Cz\", \" \"]\n", "source.select: label 2 is empty"},
		{"unknown key", base + "[decision]\nthreshhold = 0.5\n", "decision.threshhold"},
		{"syntax", base + "[decision\n", "ictald.toml:4"},
		{"bad duration", base + "[features]\nwindow = \"2 seconds\"\n", "features.window"},
		{"bad feature", base + "[features]\nfeatures = [\"line_length\", \"wavelets\"]\n", "features.features[1]"},
		{"k above n", base + "[decision]\nk = 5\nn = 4\n", "decision"},
		{"threshold", base + "[decision]\nthreshold = 1.5\n", "threshold"},
		{"algorithm", base + "[classifier]\nalgorithm = \"SVM\"\n", "classifier.algorithm: \"SVM\""},
		{"learner", base + "[classifier]\nlearner = \"knn\"\n", "classifier.learner: \"knn\""},
		{"beta", base + "[classifier]\nbeta = 2.0\n", "classifier.beta: 2:"},
		{"learning mode", base + "[learning]\nmode = \"sometimes\"\n", "learning.mode"},
		{"annotations on hardware", "[source]\ntype = \"openbci\"\nport = \"/dev/x\"\n[learning]\nmode = \"annotations\"\n", "learning.mode"},
		{"horizon beyond buffer", base + "[learning]\nbuffer = \"10m\"\nnegative_horizon = \"1h\"\n", "learning.negative_horizon"},
		{"log level", base + "[log]\nlevel = \"loud\"\n", "log.level"},
		{"bed with slash", base + "[site]\nbed = \"a/b\"\n", "site.bed"},
		{"flat", base + "[quality]\nflat_microvolts = -1.0\n", "quality.flat_microvolts"},
		{"wrong type", base + "[decision]\nk = \"three\"\n", "ictald.toml"},
		{"broker users missing", base + "[checkpoint]\npath = \"/tmp/m\"\n[mqtt]\nbroker = \"embedded\"\nbroker_users = \"/nonexistent/users\"\n", "mqtt.broker_users: \"/nonexistent/users\""},
		{"broker anonymous", base + "[checkpoint]\npath = \"/tmp/m\"\n[mqtt]\nbroker = \"embedded\"\nbroker_anonymous = \"publish\"\n", "mqtt.broker_anonymous: \"publish\""},
		{"broker users with another broker", base + "[checkpoint]\npath = \"/tmp/m\"\n[mqtt]\nbroker = \"tcp://h:1883\"\nbroker_users = \"/etc/u\"\n", "mqtt.broker_users"},
		{"broker connections", base + "[checkpoint]\npath = \"/tmp/m\"\n[mqtt]\nbroker = \"embedded\"\nbroker_max_connections = -1\n", "mqtt.broker_max_connections: -1"},
		{"broker session queue", base + "[checkpoint]\npath = \"/tmp/m\"\n[mqtt]\nbroker = \"embedded\"\nbroker_session_queue_bytes = 1000\n", "mqtt.broker_session_queue_bytes: 1000"},
		{"broker queue", base + "[checkpoint]\npath = \"/tmp/m\"\n[mqtt]\nbroker = \"embedded\"\nbroker_session_queue_bytes = 8388608\nbroker_queue_bytes = 4194304\n", "mqtt.broker_queue_bytes: 4194304"},
		{"broker session expiry", base + "[checkpoint]\npath = \"/tmp/m\"\n[mqtt]\nbroker = \"embedded\"\nbroker_session_expiry = \"48h\"\n", "mqtt.broker_session_expiry"},
		{"broker bound with another broker", base + "[checkpoint]\npath = \"/tmp/m\"\n[mqtt]\nbroker = \"tcp://h:1883\"\nbroker_queue_bytes = 33554432\n", "mqtt.broker_queue_bytes"},
		{"metrics address", base + "[metrics]\nlisten = \"9851\"\n", "metrics.listen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig(tt.text, "ictald.toml")
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, ErrConfig) {
				t.Errorf("%v does not wrap ErrConfig", err)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q does not name %s", err, tt.field)
			}
		})
	}
}

// Every key the error table maps to is a key of the sample configuration,
// and every library field it maps from is one the libraries report, so a
// user never sees a Go field name.
func TestTOMLKeys(t *testing.T) {
	sample := systemd.SampleConfig
	for field, key := range tomlKeys {
		section, name, ok := strings.Cut(key, ".")
		if !ok { // the whole [classifier] section
			section = key
		}
		if !strings.Contains(sample, "["+section+"]") {
			t.Errorf("%s → %s: no [%s] section in the sample configuration", field, key, section)
		}
		if ok && !strings.Contains(sample, "\n"+name+" =") && !strings.Contains(sample, "# "+name+" =") {
			t.Errorf("%s → %s: the sample configuration has no %s key", field, key, name)
		}
	}
	tests := []struct {
		text, want string
	}{
		{"[classifier]\nmembers = 5000\n", "classifier.members: 5000: want 1..1024"},
		{"[classifier]\nneighbors = -3\n", "classifier.neighbors: -3"},
		{"[classifier]\nalgorithm = \"SB\"\nc = 1e10\n", "classifier.c: 1e+10: want a cost in [0.001, 1000]"},
		{"[classifier]\nalgorithm = \"AC2\"\ncn = 1e-6\n", "classifier.cn: 1e-06: want a cost in [0.001, 1000]"},
		{"[decision]\nquiet = \"-1s\"\n", "decision.quiet: -1s"},
		{"[learning]\nmin_overlap = 2.0\n", "learning.min_overlap: 2"},
		{"[checkpoint]\nevery = \"1ms\"\n", "checkpoint.every: 1ms"},
		{"[learning]\nmax_interval = \"2h\"\n", "learning.max_interval: 2h0m0s: exceeds learning.buffer"},
		{"[learning]\ngrace = \"-1s\"\n", "learning.grace: -1s"},
		{"[artifact]\nmuscle_rise_db = -3.0\n", "artifact.muscle_rise_db: -3: want a value in (0, 1000)"},
		{"[artifact]\nsettle = \"100ms\"\n", "artifact.settle: 100ms: want 1s to 24h"},
		{"[artifact]\nelectrode = \"2h\"\n", "artifact.electrode: 2h0m0s: want at most 1h (negative: no limit)"},
		{"[artifact]\ngate = \"2h\"\n", "artifact.gate: 2h0m0s: want at most 1h (negative: no limit)"},
		{"[mqtt]\nbroker = \"embedded\"\nstore_dir = \"/tmp/x\"\nfeedback_burst = -1\n", "mqtt.feedback_burst: -1"},
		{"[mqtt]\nbroker = \"embedded\"\nstore_dir = \"/tmp/x\"\nfeedback_global_every = \"-1s\"\n", "mqtt.feedback_global_every: -1s"},
	}
	// The MQTT package's typed errors are keyed the same way.
	if err := keyed(&mqtt.ConfigError{Field: "QueueSize", Value: -1, Reason: "want >= 0"}); err == nil || !strings.Contains(err.Error(), "mqtt.queue_size: -1: want >= 0") {
		t.Errorf("mqtt error keyed as %v", err)
	}
	for _, tt := range tests {
		_, err := ParseConfig("[source]\ntype = \"synth\"\n"+tt.text, "ictald.toml")
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "Config.") {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
}
