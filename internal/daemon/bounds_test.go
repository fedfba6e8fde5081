package daemon

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/systemd"
)

// tomlValue writes x, in the unit of a setting of type t (seconds for a
// duration), as a TOML value for it.
func tomlValue(t reflect.Type, x float64) string {
	switch {
	case t == reflect.TypeFor[Duration]():
		return strconv.Quote(time.Duration(math.Round(x * float64(time.Second))).String())
	case t.Kind() == reflect.Float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s
	}
	return strconv.FormatInt(int64(x), 10)
}

// setting returns the TOML that gives key the value x.
func setting(t reflect.Type, key string, x float64) string {
	section, name, _ := strings.Cut(key, ".")
	return "[" + section + "]\n" + name + " = " + tomlValue(t, x) + "\n"
}

// decoded is the configuration text decodes into, unvalidated.
func decoded(t *testing.T, text string) *Config {
	t.Helper()
	var c Config
	if _, err := toml.Decode(text, &c); err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return &c
}

// beyond returns values just outside b for a setting of type typ, none
// of them one b accepts as a default (0) or as "none" (negative).
func beyond(b bound, typ reflect.Type) []float64 {
	step := 1.0 // a second, a count
	if typ.Kind() == reflect.Float64 {
		step = math.Max(math.Abs(b.hi), 1) / 4
	}
	var xs []float64
	if !math.IsInf(b.hi, 1) {
		if b.openHi {
			xs = append(xs, b.hi)
		}
		xs = append(xs, b.hi+step)
	}
	if !math.IsInf(b.lo, -1) {
		lo := b.lo - step
		if typ.Kind() == reflect.Float64 && b.lo > 0 {
			lo = b.lo / 2
		}
		if b.openLo {
			xs = append(xs, b.lo)
		}
		xs = append(xs, lo, -step)
	}
	var out []float64
	for _, x := range xs {
		if (x == 0 && b.zero != "") || (x < 0 && b.negative != "") || (x >= b.lo && x <= b.hi && !(b.openLo && x == b.lo) && !(b.openHi && x == b.hi)) {
			continue
		}
		out = append(out, x)
	}
	return out
}

// within returns values b accepts: its closed ends, 0 when it means a
// default, a negative value when it means "none".
func within(b bound) []float64 {
	var xs []float64
	if !b.openLo && !math.IsInf(b.lo, -1) {
		xs = append(xs, b.lo)
	}
	if !b.openHi && !math.IsInf(b.hi, 1) {
		xs = append(xs, b.hi)
	}
	if b.openLo || b.openHi {
		xs = append(xs, (b.lo+b.hi)/2)
	}
	if b.zero != "" {
		xs = append(xs, 0)
	}
	if b.negative != "" {
		xs = append(xs, -1)
	}
	return xs
}

// TestBounds runs over the table of bounds: every key is a number setting
// of the file and of the sample configuration, whose value lies within
// it; the values just beyond each bound are refused by the row, and by
// ParseConfig (what check, run and a reload call), naming the key; the
// ends, and 0 or a negative value where they mean a default or "none",
// are accepted by the row.
func TestBounds(t *testing.T) {
	sample, err := ParseConfig(systemd.SampleConfig, "ictald.toml")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, b := range bounds {
		t.Run(b.key, func(t *testing.T) {
			if seen[b.key] {
				t.Fatalf("%s twice in the table", b.key)
			}
			seen[b.key] = true
			f, ok := settingValue(reflect.ValueOf(sample).Elem(), b.key)
			if !ok {
				t.Fatalf("%s is no number setting of the configuration", b.key)
			}
			if _, name, _ := strings.Cut(b.key, "."); !strings.Contains(systemd.SampleConfig, "\n"+name+" =") && !strings.Contains(systemd.SampleConfig, "# "+name+" =") {
				t.Errorf("the sample configuration does not show %s", b.key)
			}
			if err := b.check(sample); err != nil {
				t.Errorf("the sample configuration's value: %v", err)
			}
			if b.why == "" || !(b.lo < b.hi) {
				t.Errorf("row %+v: want lo < hi and a reason", b)
			}
			typ := f.Type()
			out := beyond(b, typ)
			if len(out) == 0 {
				t.Fatalf("no value beyond %+v to try", b)
			}
			for _, x := range out {
				text := setting(typ, b.key, x)
				if err := b.check(decoded(t, text)); err == nil || !strings.Contains(err.Error(), b.key+": ") || !errors.Is(err, ErrConfig) {
					t.Errorf("row on %q: %v, want it refused naming %s", text, err, b.key)
				} else if !strings.Contains(err.Error(), b.why) {
					t.Errorf("row on %q: %v, want the reason %q", text, err, b.why)
				}
				if _, err := ParseConfig("[source]\ntype = \"synth\"\n"+text, "ictald.toml"); err == nil || !strings.Contains(err.Error(), "ictald.toml: invalid configuration: "+b.key) {
					t.Errorf("ParseConfig of %q: %v, want it refused naming %s", text, err, b.key)
				}
			}
			for _, x := range within(b) {
				text := setting(typ, b.key, x)
				if err := b.check(decoded(t, text)); err != nil {
					t.Errorf("row on %q: %v, want it accepted", text, err)
				}
			}
		})
	}
}

// TestCheckRefusesSettingsThatSwitchDetectionOff: the settings the
// attack of issue 32 used, each of which passed `ictald check` and
// switched detection off or failed at run, and the bounds between
// settings, are refused by Check with the key named.
func TestCheckRefusesSettingsThatSwitchDetectionOff(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text, want string
	}{
		{"refractory of 114 years", "[decision]\nrefractory = \"1000000h\"\n", "decision.refractory: 1000000h0m0s: want 0s to 10m (0: the default, 60s)"},
		{"flat limit of 1e308 µV", "[quality]\nflat_microvolts = 1e308\n", "quality.flat_microvolts: 1e+308: want a value in (0, 10] µV"},
		{"record range of 1e308 µV", "[record]\nenabled = true\ndir = \"" + dir + "\"\nrange_uv = 1e308\n", "record.range_uv: 1e+308: want 100 to 4500000 µV"},
		{"metrics on no address", "[metrics]\nlisten = \"999.999.1.1:99999\"\n", `metrics.listen: "999.999.1.1:99999": port "99999"`},
		{"metrics on no host", "[metrics]\nlisten = \"999.999.1.1:9851\"\n", `metrics.listen: "999.999.1.1:9851": host "999.999.1.1" is not an IP address`},
		{"embedded broker on no host", "[mqtt]\nbroker = \"embedded\"\nlisten = \"300.1.1.1:1883\"\n", `mqtt.listen: "300.1.1.1:1883": host "300.1.1.1" is not an IP address`},
		{"amplifier paced at half real time", "[source]\ntype = \"openbci\"\nport = \"/dev/null\"\nspeed = 0.5\n", "source.speed: 0.5 for an openbci source"},
		{"step longer than the window", "[features]\nwindow = \"2s\"\nstep = \"3s\"\n", "features.step: 3s: longer than features.window 2s"},
		{"k above n", "[decision]\nk = 6\nn = 5\n", "decision.k"},
		{"k windows longer than 30 s", "[decision]\nk = 8\nn = 8\n[features]\nwindow = \"5s\"\nstep = \"5s\"\n", "decision.k: 8 windows of features.step 5s: an alert would wait at least 40s after a seizure's onset; want at most 30s"},
		{"electrode artifact without limit", "[artifact]\nelectrode = \"-1s\"\n", "artifact.electrode: -1s: want 0s to 2m (0: the default, 10s)"},
		{"warm-up of 10 minutes", "[artifact]\nwarmup = \"10m\"\n", "artifact.warmup: 10m0s: want 0s to 1m"},
		{"reconnection back-off of an hour", "[mqtt]\nmax_reconnect_interval = \"1h\"\n", "mqtt.max_reconnect_interval: 1h0m0s: want 1s to 1m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig(merge(checkBase(dir), tt.text), "ictald.toml")
			if err == nil {
				err = cfg.Check(nil)
			}
			if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("check: %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestRecordRangeBoundsFitTheHeader: the ends of record.range_uv's bound
// make EDF and BDF headers the recorder can write (a wider range used to
// pass check and fail in run: "-1e+308 does not fit 8 characters").
func TestRecordRangeBoundsFitTheHeader(t *testing.T) {
	var b bound
	for _, r := range bounds {
		if r.key == "record.range_uv" {
			b = r
		}
	}
	for _, bdf := range []bool{false, true} {
		for _, r := range []float64{b.lo, b.hi} {
			f, err := os.Create(filepath.Join(t.TempDir(), "r.edf"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = edf.NewWriter(f, edf.WriterConfig{BDF: bdf, RecordDuration: time.Second,
				Signals: []edf.SignalSpec{{Label: "EEG Cz", PhysicalDimension: "uV", PhysicalMin: -r, PhysicalMax: r, SamplesPerRecord: 256}}})
			if err != nil {
				t.Errorf("BDF %v, range %g: %v", bdf, r, err)
			}
			f.Close()
		}
	}
}
