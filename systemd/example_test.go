package systemd_test

import (
	"fmt"
	"strings"

	"github.com/ictal/ictal/systemd"
)

// The unit is embedded in the binary: the command it runs, its readiness
// protocol and its watchdog.
func Example() {
	for _, line := range strings.Split(systemd.Unit, "\n") {
		for _, key := range []string{"Type=", "ExecStart=", "WatchdogSec=", "User="} {
			if strings.HasPrefix(line, key) {
				fmt.Println(line)
			}
		}
	}
	// Output:
	// Type=notify
	// ExecStart=/usr/local/bin/ictald run -config /etc/ictald/ictald.toml
	// WatchdogSec=30s
	// User=ictald
}
