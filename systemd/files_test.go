package systemd

import (
	"bufio"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// directives returns the unit's Key=Value lines, in order, per key.
func directives(unit string) map[string][]string {
	d := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(unit))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '[' {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		d[k] = append(d[k], v)
	}
	return d
}

func TestUnitRunsTheSampleConfigInItsDirectories(t *testing.T) {
	d := directives(Unit)
	exec := d["ExecStart"]
	if len(exec) != 1 || !strings.HasSuffix(exec[0], " run -config /etc/"+d["ConfigurationDirectory"][0]+"/ictald.toml") {
		t.Errorf("ExecStart=%q does not read ictald.toml from ConfigurationDirectory=%q", exec, d["ConfigurationDirectory"])
	}
	var cfg struct {
		Checkpoint struct{ Path string } `toml:"checkpoint"`
	}
	if _, err := toml.Decode(SampleConfig, &cfg); err != nil {
		t.Fatal(err)
	}
	state := "/var/lib/" + d["StateDirectory"][0] + "/"
	if !strings.HasPrefix(cfg.Checkpoint.Path, state) {
		t.Errorf("sample checkpoint.path %q is outside StateDirectory %s, read-only under ProtectSystem=strict", cfg.Checkpoint.Path, state)
	}
}

func TestUnitPolicy(t *testing.T) {
	d := directives(Unit)
	want := []struct{ key, value string }{
		{"Type", "notify"},
		{"NotifyAccess", "main"},
		{"Restart", "on-failure"},
		{"RestartPreventExitStatus", "78"}, // ictald's exit on a configuration it refuses (cmd/ictald)
		{"WatchdogSignal", "SIGTERM"},
		{"User", "ictald"},
		{"SupplementaryGroups", "dialout"},
		{"DevicePolicy", "closed"},
		{"ProtectSystem", "strict"},
		{"CapabilityBoundingSet", ""},
		{"NoNewPrivileges", "yes"},
		{"IPAddressDeny", "any"},
		{"IPAddressAllow", "localhost"},
		{"UMask", "0077"},
	}
	for _, w := range want {
		if got := d[w.key]; len(got) != 1 || got[0] != w.value {
			t.Errorf("%s=%q, want %q", w.key, got, w.value)
		}
	}
	// Automatic restarts alone must never reach the start limit, or a
	// missing amplifier leaves the unit failed (doc.go): Burst starts
	// spaced by more than RestartSec span more than RestartSec×(Burst−1),
	// which must not fit in StartLimitIntervalSec.
	restart, err1 := time.ParseDuration(d["RestartSec"][0])
	interval, err2 := time.ParseDuration(d["StartLimitIntervalSec"][0])
	burst, err3 := strconv.Atoi(d["StartLimitBurst"][0])
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	if restart*time.Duration(burst-1) < interval {
		t.Errorf("RestartSec=%v × (StartLimitBurst=%d − 1) < StartLimitIntervalSec=%v: automatic restarts can exhaust the start limit", restart, burst, interval)
	}
	if !strings.Contains(Sysusers, "\nu ictald ") {
		t.Errorf("sysusers entry does not create user ictald:\n%s", Sysusers)
	}
}

// TestUnitResourceCeilings: the unit bounds memory and threads with room
// above what ictald was measured to use (doc.go, "Resource ceilings"),
// and the Go runtime's soft limit sits below the hard one.
func TestUnitResourceCeilings(t *testing.T) {
	const (
		measuredPeakRSS = 40 << 20 // VmHWM, bytes
		measuredThreads = 9
	)
	d := directives(Unit)
	mem, err := parseBytes(first(d["MemoryMax"]))
	if err != nil {
		t.Fatalf("MemoryMax=%q: %v", d["MemoryMax"], err)
	}
	if mem < 2*measuredPeakRSS {
		t.Errorf("MemoryMax=%d is less than twice the measured peak %d", mem, measuredPeakRSS)
	}
	tasks, err := strconv.Atoi(first(d["TasksMax"]))
	if err != nil {
		t.Fatalf("TasksMax=%q: %v", d["TasksMax"], err)
	}
	if tasks < 4*measuredThreads {
		t.Errorf("TasksMax=%d is less than 4 times the measured %d threads", tasks, measuredThreads)
	}
	var soft int64 = -1
	for _, e := range d["Environment"] {
		if v, ok := strings.CutPrefix(e, "GOMEMLIMIT="); ok {
			soft, err = parseBytes(v)
			if err != nil {
				t.Fatalf("GOMEMLIMIT=%s: %v", v, err)
			}
		}
	}
	if soft <= measuredPeakRSS || soft >= mem {
		t.Errorf("GOMEMLIMIT=%d: want it between the measured peak %d and MemoryMax=%d", soft, measuredPeakRSS, mem)
	}
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// parseBytes reads systemd's sizes (128M: base 1024) and Go's (100MiB).
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}}
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseInt(n, 10, 64)
			return v * u.mult, err
		}
	}
	return strconv.ParseInt(s, 10, 64)
}
