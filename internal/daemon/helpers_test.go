package daemon

import (
	"context"
	"log/slog"
	"testing"

	"github.com/ictal/ictal/internal/syncbuf"
)

// simulatedPatient is the [source] of the tests that run the daemon live
// beside a broker: a 4-channel simulated patient at 20× real time with no
// seizures and no duration (a day of signal): it runs until the test
// stops it.
const simulatedPatient = `
[source]
type = "synth"
channels = 4
speed = 20
seizures = 0
`

// running is a daemon a test runs: Run on its own goroutine, logging as
// text into logs, until the test stops it (or ends: it is then
// cancelled).
type running struct {
	logs   *syncbuf.Buffer
	done   chan error // what Run returned
	cancel context.CancelFunc
}

// startRun runs cfg with opt.
func startRun(t *testing.T, cfg *Config, opt Options) *running {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r := &running{logs: &syncbuf.Buffer{}, done: make(chan error, 1), cancel: cancel}
	go func() { r.done <- Run(ctx, cfg, slog.New(slog.NewTextHandler(r.logs, nil)), opt) }()
	return r
}

// stop cancels the run and fails the test if Run returned an error.
func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	if err := <-r.done; err != nil {
		t.Fatalf("%v\n%s", err, r.logs)
	}
}
