package main

import (
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	sd "github.com/coreos/go-systemd/v22/daemon"

	"github.com/ictal/ictal/internal/pipeline"
)

// notifier speaks systemd's notify protocol for `ictald run`: READY=1 once
// the source delivered its first frame and the model is loaded, and
// WATCHDOG=1 from the pipeline's own loop (daemon.Options.Window), so a
// pipeline that stops producing windows stops the keep-alives and systemd
// restarts it (WatchdogSec= in ictald.service).
//
// Every window calls window(); a keep-alive is sent at most every half of
// WATCHDOG_USEC, so the socket is written about twice per watchdog period,
// not once a second. Nothing is sent when the daemon does not run under
// systemd (no NOTIFY_SOCKET): send reports false and the calls are cheap.
//
// While a serial amplifier is unplugged, the source reconnects inside
// ReadFrame and no windows flow: the keep-alives stop on purpose. A loss
// shorter than WatchdogSec is bridged by the source's in-process
// reconnection; a longer one is handled like a hang — systemd stops the
// daemon (WatchdogSignal=SIGTERM, so the final checkpoint is written) and
// restarts it every RestartSec until the device answers again. See
// systemd/doc.go for why.
type notifier struct {
	send  func(state string) (bool, error) // sd.SdNotify(false, state)
	now   func() time.Time
	every time.Duration // 0: no watchdog pings
	last  time.Time
	log   *slog.Logger
	// rejected is set by configRejected: its status is the last word, and
	// stopping, which the end of the run's context calls, keeps it.
	rejected atomic.Bool
}

// newNotifier reads WATCHDOG_USEC (and WATCHDOG_PID) from the environment.
func newNotifier(log *slog.Logger) *notifier {
	n := &notifier{
		send: func(s string) (bool, error) { return sd.SdNotify(false, s) },
		now:  time.Now,
		log:  log,
	}
	wd, err := sd.SdWatchdogEnabled(false)
	if err != nil {
		log.Warn("systemd watchdog: bad environment, keep-alives off", slog.Any("err", err))
	}
	if wd > 0 {
		n.every = wd / 2
		log.Info("systemd watchdog", slog.Duration("timeout", wd), slog.Duration("keepalive_every", n.every))
	}
	return n
}

// notify sends state and logs a failure (a full socket buffer, a vanished
// manager); monitoring goes on either way.
func (n *notifier) notify(state string) {
	if _, err := n.send(state); err != nil {
		n.log.Warn("systemd notify failed", slog.Any("err", err))
	}
}

// ready is daemon.Options.Ready.
func (n *notifier) ready() {
	n.last = n.now()
	n.notify(sd.SdNotifyReady + "\nSTATUS=monitoring")
}

// window is daemon.Options.Window: a keep-alive when half the watchdog
// period has passed since the last one (or since ready), with the
// pipeline's counters in the STATUS line.
func (n *notifier) window(s pipeline.Stats) {
	if n.every <= 0 {
		return
	}
	now := n.now()
	if now.Sub(n.last) < n.every {
		return
	}
	n.last = now
	n.notify(sd.SdNotifyWatchdog + "\nSTATUS=" + status(s))
}

// stopping tells systemd the daemon is shutting down (final checkpoint).
func (n *notifier) stopping() {
	if n.rejected.Load() {
		return
	}
	n.notify(sd.SdNotifyStopping + "\nSTATUS=stopping: writing the final checkpoint")
}

// configRejected tells systemd why the daemon exits (with exitConfig) and
// will not be restarted: `systemctl status ictald` shows the line.
func (n *notifier) configRejected(err error) {
	n.rejected.Store(true)
	n.notify("STATUS=" + rejectedStatus(err))
}

// rejectedStatus is the STATUS line of a refused configuration: one line,
// at most maxStatus bytes.
func rejectedStatus(err error) string {
	s := fmt.Sprintf("configuration rejected, not restarted (exit %d): %s", exitConfig, strings.Join(strings.Fields(err.Error()), " "))
	if len(s) > maxStatus {
		s = strings.ToValidUTF8(s[:maxStatus-len("…")], "") + "…"
	}
	return s
}

// maxStatus bounds a STATUS line: the whole error stays in the journal.
const maxStatus = 1000

// status is the one-line STATUS= shown by `systemctl status ictald`.
func status(s pipeline.Stats) string {
	return fmt.Sprintf("monitoring: %d windows (%d usable), %d events, %d gaps", s.Windows, s.Usable, s.Events, s.Gaps)
}
