package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/systemd"
)

func TestRecordConfigErrorsNameTheKey(t *testing.T) {
	base := "[source]\ntype = \"synth\"\n[record]\nenabled = true\n"
	tests := []struct{ name, text, want string }{
		{"no dir", base, "record.dir: required"},
		{"bad quota", base + "dir = \"/tmp/r\"\nquota = \"8 gigs\"\n", "record.quota"},
		{"bad format", base + "dir = \"/tmp/r\"\nformat = \"gdf\"\n", "record.format"},
		{"fractional rotation", base + "dir = \"/tmp/r\"\nrotate = \"1.5s\"\n", "record.rotate"},
		{"header count", base + "dir = \"/tmp/r\"\nheader_count = \"never\"\n", "record.header_count"},
		{"negative range", base + "dir = \"/tmp/r\"\nrange_uv = -3\n", "record.range_uv"},
		{"unknown key", base + "dir = \"/tmp/r\"\nrotation = \"1h\"\n", "record.rotation"},
	}
	for _, tt := range tests {
		_, err := ParseConfig(tt.text, "ictald.toml")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error naming %s", tt.name, err, tt.want)
		}
	}
	if _, err := ParseConfig("[source]\ntype = \"synth\"\n[record]\nenabled = false\nformat = \"gdf\"\n", "x"); err != nil {
		t.Errorf("[record] off is not checked: %v", err)
	}
}

// TestRecordFormatFollowsTheSource: 24-bit sources record BDF with the
// converter's full scale (its counts), others EDF.
func TestRecordFormatFollowsTheSource(t *testing.T) {
	tests := []struct {
		name   string
		src    SourceConfig
		format string
		bdf    bool
		rng    float64
	}{
		{"cyton at gain 24", SourceConfig{Type: "openbci"}, "auto", true, 187500},
		{"cyton at gain 6", SourceConfig{Type: "openbci", Gain: 6}, "", true, 750000},
		{"ads1299", SourceConfig{Type: "ads1299"}, "auto", true, 187500},
		{"bdf file", SourceConfig{Type: "file", Path: "/x/rec.BDF"}, "auto", true, 0},
		{"edf file", SourceConfig{Type: "file", Path: "/x/rec.edf"}, "auto", false, 0},
		{"synth", SourceConfig{Type: "synth"}, "auto", false, 0},
		{"synth forced bdf", SourceConfig{Type: "synth"}, "bdf", true, 0},
		{"cyton forced edf", SourceConfig{Type: "openbci"}, "edf", false, 0},
	}
	for _, tt := range tests {
		r := RecordConfig{Enabled: true, Dir: "/tmp/r", Format: tt.format, Rotate: Duration(time.Hour)}
		c, err := r.config(tt.src, "ictald")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if c.BDF != tt.bdf || c.Range != tt.rng {
			t.Errorf("%s: BDF %v range %g, want %v %g", tt.name, c.BDF, c.Range, tt.bdf, tt.rng)
		}
	}
}

// TestSampleConfigRecords: the sample configuration records, into the
// unit's state directory (writable under ProtectSystem=strict), with a
// quota.
func TestSampleConfigRecords(t *testing.T) {
	c, err := ParseConfig(systemd.SampleConfig, "ictald.toml")
	if err != nil {
		t.Fatal(err)
	}
	r := c.Record
	if !r.Enabled || !strings.HasPrefix(r.Dir, "/var/lib/ictald/") || r.Quota == "" || time.Duration(r.Rotate) != time.Hour {
		t.Errorf("sample [record] %+v", r)
	}
	rc, err := r.config(c.Source, "ictald")
	if err != nil || !rc.BDF || rc.Quota != 8e9 {
		t.Errorf("sample recorder config %+v, %v", rc, err)
	}
}
