package systemd

import (
	"strconv"
	"testing"

	"github.com/ictal/ictal/internal/journal"
)

// syslogLevels are systemd's names of the syslog priorities
// (systemd.exec(5), LogLevelMax=).
var syslogLevels = map[string]int{"emerg": 0, "alert": 1, "crit": 2, "err": 3, "warning": 4, "notice": 5, "info": 6, "debug": 7}

// TestUnitKeepsCriticalRecordsInTheJournal: an alert ictald could neither
// deliver nor store is logged whole at CRIT, the only trace left of it
// when the state directory's disk is full (alert/mqtt, logLost). The unit
// may not keep that record from the journal: no LogLevelMax below crit,
// standard output and error to the journal (the default), and no rate
// limit that would drop a burst of them at stop.
func TestUnitKeepsCriticalRecordsInTheJournal(t *testing.T) {
	d := directives(Unit)
	for _, v := range d["LogLevelMax"] {
		p, ok := syslogLevels[v]
		if n, err := strconv.Atoi(v); err == nil {
			p, ok = n, true
		}
		if !ok || p < journal.PriCrit {
			t.Errorf("LogLevelMax=%s drops CRIT (priority %d) records", v, journal.PriCrit)
		}
	}
	for _, k := range []string{"StandardOutput", "StandardError"} {
		for _, v := range d[k] {
			if v != "journal" && v != "journal+console" && v != "inherit" {
				t.Errorf("%s=%s: records would not reach the journal", k, v)
			}
		}
	}
	for _, v := range d["LogRateLimitBurst"] {
		if n, err := strconv.Atoi(v); err != nil || n < 1000 {
			t.Errorf("LogRateLimitBurst=%s may drop the CRIT records of a stop", v)
		}
	}
}
