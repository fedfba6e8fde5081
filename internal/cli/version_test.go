package cli

import (
	"bytes"
	"flag"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildOf(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0c642f8a1b2c3d4e5f60718293a4b5c6d7e8f901"},
		{Key: "vcs.time", Value: "2026-11-26T06:25:10Z"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name     string
		bi       *debug.BuildInfo
		ok       bool
		override string
		want     string
	}{
		{"from a repository", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/ictal/ictal", Version: "v0.0.0-20261126062510-0c642f8a1b2c+dirty"}, Settings: vcs}, true, "dev",
			"v0.0.0-20261126062510-0c642f8a1b2c+dirty (revision 0c642f8a1b2c3d4e5f60718293a4b5c6d7e8f901, 2026-11-26T06:25:10Z, modified)"},
		{"a tag, clean", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: vcs[:3]}, true, "",
			"v1.2.3 (revision 0c642f8a1b2c3d4e5f60718293a4b5c6d7e8f901, 2026-11-26T06:25:10Z)"},
		{"release scripts' -X main.version", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs[:3]}, true, "v1.2.3-4-gabcdef",
			"v1.2.3-4-gabcdef (revision 0c642f8a1b2c3d4e5f60718293a4b5c6d7e8f901, 2026-11-26T06:25:10Z)"},
		{"outside a repository", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "dev", "(devel) (no VCS revision recorded)"},
		{"no build information", nil, false, "dev", "(devel) (no VCS revision recorded)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildOf(tt.bi, tt.ok, tt.override).String(); got != tt.want {
				t.Errorf("%q, want %q", got, tt.want)
			}
		})
	}
}

func TestVersionCommand(t *testing.T) {
	var out bytes.Buffer
	b := Build{Version: "v1.2.3", Revision: "abc", Go: "go1.26.0"}
	if code := Run("prog", []Command{VersionCommand("prog", b)}, []string{"version"}, &out, &out); code != 0 || !strings.HasPrefix(out.String(), "prog v1.2.3 (revision abc) go1.26.0 ") {
		t.Errorf("exit %d, %q", code, out.String())
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		args []string
		pos  []string
		o    string
		v    bool
	}{
		{[]string{"-o", "m", "a.edf"}, []string{"a.edf"}, "m", false},
		{[]string{"a.edf", "-o", "m"}, []string{"a.edf"}, "m", false},
		{[]string{"a.edf", "-v", "b.edf", "-o", "m", "c.edf"}, []string{"a.edf", "b.edf", "c.edf"}, "m", true},
		{[]string{"-o", "m", "--", "-v", "x"}, []string{"-v", "x"}, "m", false},
		{[]string{"a", "--", "-o", "x"}, []string{"a", "-o", "x"}, "", false},
		{nil, []string{}, "", false},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		o := fs.String("o", "", "")
		v := fs.Bool("v", false, "")
		if err := Parse(fs, tt.args); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if got := fs.Args(); strings.Join(got, " ") != strings.Join(tt.pos, " ") || len(got) != len(tt.pos) || *o != tt.o || *v != tt.v {
			t.Errorf("%q: args %q -o %q -v %v", tt.args, got, *o, *v)
		}
	}
}
