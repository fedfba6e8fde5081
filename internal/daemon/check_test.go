package daemon

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ictal/ictal/systemd"
)

// checkBase is a configuration Check and Run accept: a short simulated
// patient, no MQTT, a checkpoint in dir.
func checkBase(dir string) string {
	return fmt.Sprintf(`
[source]
type = "synth"
channels = 4
duration = "10s"
seed = 1
[checkpoint]
path = %q
[output]
jsonl = ""
`, filepath.Join(dir, "model.ckpt"))
}

// TestCheckRefusesWhatRunRefuses: every configuration below used to pass
// `ictald check` although `ictald run` refused it or misbehaved. Check
// must fail naming the TOML key (never a Go field), and Run must fail
// the same way.
func TestCheckRefusesWhatRunRefuses(t *testing.T) {
	dir := t.TempDir()
	ckptDir := filepath.Join(dir, "ckpt.d")
	if err := os.Mkdir(ckptDir, 0o700); err != nil {
		t.Fatal(err)
	}
	mqttOn := fmt.Sprintf("[mqtt]\nbroker = \"embedded\"\nlisten = \"127.0.0.1:0\"\nstore_dir = %q\n", filepath.Join(dir, "mqtt"))
	tests := []struct {
		name, text, key string
	}{
		{"step shorter than a sample", "[features]\nstep = \"1ns\"\n", "features.step"},
		{"window of 11 years", "[features]\nwindow = \"100000h\"\n", "features.window"},
		{"duplicate features", "[features]\nfeatures = [\"rms\", \"line_length\", \"rms\"]\n", "features.features[2]"},
		{"invalid seizure_regexp", "[source]\nseizure_regexp = \"(seizure\"\n", "source.seizure_regexp"},
		{"checkpoint is a directory", fmt.Sprintf("[checkpoint]\npath = %q\n", ckptDir), "checkpoint.path"},
		{"checkpoint in a missing directory", fmt.Sprintf("[checkpoint]\npath = %q\n", filepath.Join(dir, "none", "model.ckpt")), "checkpoint.path"},
		{"listen without a port", mqttOn + "listen = \"::::\"\n", "mqtt.listen"},
		{"empty site", "[site]\nsite = \"\"\nbed = \"bed-3\"\n", "site.site"},
		{"bed over MQTT's topic limit", mqttOn + "[site]\nbed = \"" + strings.Repeat("b", 70000) + "\"\n", "site.bed"},
		{"missing trained model", fmt.Sprintf("[classifier]\nmodel = %q\n", filepath.Join(dir, "none.model")), "classifier.model"},
		{"realtime with a speed", "[source]\nrealtime = true\nspeed = 40.0\n", "source.realtime"},
		{"jsonl in a missing directory", fmt.Sprintf("[output]\njsonl = %q\n", filepath.Join(dir, "none", "out.jsonl")), "output.jsonl"},
		{"labels for other channels", "[source]\nlabels = [\"Fp1\", \"Fp2\"]\n", "source.labels"},
		{"artifact rejection without band powers", "[features]\nfeatures = [\"line_length\"]\n", "artifact.off"},
		{"openbci labels for other channels", "[source]\ntype = \"openbci\"\nport = \"/dev/null\"\nlabels = [\"Fp1\"]\n", "source.labels"},
		{"openbci step shorter than a sample", "[source]\ntype = \"openbci\"\nport = \"/dev/null\"\n[features]\nstep = \"1ms\"\n", "features.step"},
		{"simulated rate below the γ band", "[source]\nrate = 10\n", "source.rate"},
		{"simulation shorter than a second", "[source]\nduration = \"10ms\"\n", "source.duration"},
		{"late-label buffer of a week", "[learning]\nbuffer = \"168h\"\n", "learning.buffer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := merge(checkBase(dir), tt.text)
			cfg, err := ParseConfig(text, "ictald.toml")
			if err == nil {
				err = cfg.Check(nil)
			}
			if err == nil {
				t.Fatal("check accepted it")
			}
			if !strings.Contains(err.Error(), tt.key) || strings.Contains(err.Error(), "Config.") {
				t.Errorf("check: %.300v\nwant the key %s and no Go field", err, tt.key)
			}
			if cfg == nil {
				return // run loads the file the same way: it fails alike
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // a run that got past its checks stops at once
			rerr := Run(ctx, cfg, slog.New(slog.DiscardHandler), Options{})
			if rerr == nil || !strings.Contains(rerr.Error(), tt.key) {
				t.Errorf("run: %.300v\nwant it to fail naming %s", rerr, tt.key)
			}
		})
	}
}

// merge returns base with the keys of extra added to their sections, a
// key in both taking extra's value (TOML forbids a section or key twice).
func merge(base, extra string) string {
	var order []string
	lines := map[string][]string{}
	section := ""
	for _, l := range strings.Split(base+"\n"+extra, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
			continue
		case strings.HasPrefix(l, "["):
			section = l
			if _, ok := lines[section]; !ok {
				order = append(order, section)
				lines[section] = nil
			}
			continue
		}
		key, _, _ := strings.Cut(l, "=")
		kept := lines[section][:0]
		for _, old := range lines[section] {
			if k, _, _ := strings.Cut(old, "="); strings.TrimSpace(k) != strings.TrimSpace(key) {
				kept = append(kept, old)
			}
		}
		lines[section] = append(kept, l)
	}
	var b strings.Builder
	for _, s := range order {
		b.WriteString(s + "\n" + strings.Join(lines[s], "\n") + "\n")
	}
	return b.String()
}

func TestCheckAcceptsTheBase(t *testing.T) {
	cfg, err := ParseConfig(checkBase(t.TempDir()), "ictald.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Check(nil); err != nil {
		t.Fatal(err)
	}
}

func TestAlgorithmNamesAreCaseInsensitive(t *testing.T) {
	for _, name := range []string{"uob", "Uob", "nsac2", "NSAC2", "ozabag", "sbo1"} {
		cfg, err := ParseConfig(merge(checkBase(t.TempDir()), "[classifier]\nalgorithm = \""+name+"\"\nlearner = \"NB\"\n"), "ictald.toml")
		if err == nil {
			err = cfg.Check(nil)
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := string(cfg.ClassifierConfig(1).Algorithm); !strings.EqualFold(got, name) || got == strings.ToLower(got) {
			t.Errorf("%s: passed to the classifier as %q", name, got)
		}
	}
}

// TestSampleDocumentsEveryKey: the sample says an unlisted key is an
// error, so every key the daemon accepts is listed (set or commented
// out) in its section.
func TestSampleDocumentsEveryKey(t *testing.T) {
	sample := systemd.SampleConfig
	ct := reflect.TypeOf(Config{})
	for i := range ct.NumField() {
		sf := ct.Field(i)
		section := sf.Tag.Get("toml")
		start := strings.Index(sample, "\n["+section+"]\n")
		if start < 0 {
			t.Errorf("no [%s] section", section)
			continue
		}
		body := sample[start+len(section)+3:]
		if end := strings.Index(body, "\n["); end >= 0 {
			body = body[:end]
		}
		for j := range sf.Type.NumField() {
			key := sf.Type.Field(j).Tag.Get("toml")
			if !strings.Contains(body, "\n"+key+" =") && !strings.Contains(body, "# "+key+" =") {
				t.Errorf("[%s] %s is accepted but not in the sample", section, key)
			}
		}
	}
}

// TestCheckWarnsOfExposedPasswords: a password sent unencrypted to
// another host, or kept in a file everyone can read, is accepted with a
// warning naming the key; over TLS, to the board itself and in a private
// file it is not warned of.
func TestCheckWarnsOfExposedPasswords(t *testing.T) {
	dir := t.TempDir()
	private, public := filepath.Join(dir, "private"), filepath.Join(dir, "public")
	os.WriteFile(private, []byte("secret\n"), 0o640)
	os.WriteFile(public, []byte("secret\n"), 0o644)
	os.Chmod(public, 0o644) // whatever the umask
	tests := []struct {
		name, mqtt, warn string
	}{
		{"plain tcp to another host", "broker = \"tcp://192.0.2.7:1883\"\nusername = \"u\"\npassword = \"p\"\n", "mqtt.password is sent unencrypted"},
		{"plain ws to another host, file", fmt.Sprintf("broker = \"ws://mqtt.ward.example:80\"\nusername = \"u\"\npassword_file = %q\n", private), "mqtt.password_file is sent unencrypted"},
		{"file readable by all", fmt.Sprintf("broker = \"ssl://mqtt.ward.example:8883\"\nusername = \"u\"\npassword_file = %q\n", public), "mqtt.password_file is readable by every user"},
		{"tls", fmt.Sprintf("broker = \"ssl://mqtt.ward.example:8883\"\nusername = \"u\"\npassword_file = %q\n", private), ""},
		{"loopback", "broker = \"tcp://127.0.0.1:1883,tcp://localhost:1884,tcp://[::1]:1883\"\nusername = \"u\"\npassword = \"p\"\n", ""},
		{"no password", "broker = \"tcp://192.0.2.7:1883\"\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig(merge(checkBase(dir), "[mqtt]\n"+tt.mqtt), "ictald.toml")
			if err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			if err := cfg.Check(slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.warn == "" && logs.Len() > 0:
				t.Errorf("warned: %s", logs.String())
			case tt.warn != "" && !strings.Contains(logs.String(), tt.warn):
				t.Errorf("logged %q, want a warning %q", logs.String(), tt.warn)
			case strings.Contains(logs.String(), "secret") || strings.Contains(logs.String(), "password=p"):
				t.Errorf("the password is in the log: %s", logs.String())
			}
		})
	}
}
