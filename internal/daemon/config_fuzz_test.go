package daemon

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ictal/ictal/systemd"
)

// FuzzParseConfig: whatever a configuration file holds, ParseConfig
// returns a configuration or an error that wraps ErrConfig and names the
// file, never a panic; a configuration it accepts holds no NaN or
// infinite number, passes Validate again unchanged (Validate is pure), and
// parsing the same text twice gives the same configuration.
func FuzzParseConfig(f *testing.F) {
	f.Add(systemd.SampleConfig)
	f.Add(simulatedPatient)
	f.Add(simulatedPatient + "[site]\nsite = \"ward 7\"\n")
	f.Add("[mqtt]\nbroker = \"embedded\"\nlisten = \"127.0.0.1:0\"\n")
	f.Add("[classifier]\nmembers = 5000\n[learning]\nmode = \"feedback\"\nbuffer = \"-1h\"\n")
	f.Add("[source]\ntype = \"edf\"\npath = \"x.edf\"\nspeed = 1e309\n")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseConfig(text, "fuzz.toml")
		if err != nil {
			if c != nil || !errors.Is(err, ErrConfig) || !strings.HasPrefix(err.Error(), "fuzz.toml") {
				t.Fatalf("error %q (config %v): want ErrConfig naming the file, and no config", err, c)
			}
			return
		}
		if key := firstNonFinite(reflect.ValueOf(*c), ""); key != "" {
			t.Fatalf("accepted configuration holds a non-finite %s", key)
		}
		before := *c
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted configuration fails Validate: %v", err)
		}
		if !reflect.DeepEqual(*c, before) {
			t.Fatal("Validate changed an accepted configuration")
		}
		again, err := ParseConfig(text, "fuzz.toml")
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("parsed twice: %v", err)
		}
	})
}

// firstNonFinite returns the path of the first NaN or infinite number in v, a
// struct of the configuration, or "".
func firstNonFinite(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float64:
		if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			return path
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if p := firstNonFinite(v.Field(i), path+"."+v.Type().Field(i).Name); p != "" {
				return p
			}
		}
	}
	return ""
}

// TestConfigRefusesNonFiniteNumbers sets every floating-point key of the
// file, found by walking Config, to each of TOML's nan, inf and -inf:
// each is refused with an error naming that key, in a section that is on
// and in one that is off ([record] enabled = false).
func TestConfigRefusesNonFiniteNumbers(t *testing.T) {
	ct := reflect.TypeOf(Config{})
	keys := 0
	for i := range ct.NumField() {
		sec := ct.Field(i)
		name := sec.Tag.Get("toml")
		for j := range sec.Type.NumField() {
			f := sec.Type.Field(j)
			if f.Type.Kind() != reflect.Float64 {
				continue
			}
			keys++
			key := name + "." + f.Tag.Get("toml")
			for _, v := range []string{"nan", "inf", "-inf"} {
				body := "[" + name + "]\n" + f.Tag.Get("toml") + " = " + v + "\n"
				texts := []string{simulatedPatient + body}
				switch name {
				case "source":
					texts = []string{"[source]\ntype = \"synth\"\n" + f.Tag.Get("toml") + " = " + v + "\n"}
				case "record":
					texts = append(texts, simulatedPatient+body+"enabled = true\ndir = \""+t.TempDir()+"\"\n")
				}
				for _, text := range texts {
					_, err := ParseConfig(text, "t.toml")
					if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), key) {
						t.Errorf("%q: %v, want an error naming %s", text, err, key)
					}
				}
			}
		}
	}
	if keys < 15 {
		t.Fatalf("found %d floating-point keys: the walk lost some", keys)
	}
}
