// Package systemd holds the files that install ictald as a service — the
// hardened unit ictald.service, its sysusers.d entry, drop-ins for an SPI
// amplifier (ads1299.conf) and a remote MQTT broker (remote-broker.conf),
// and the commented sample configuration ictald.toml — with the unit, the
// sysusers entry and the configuration embedded so that the one binary
// carries them. The script check verifies the unit with systemd-analyze
// (verify, and security --offline rating at most 2.0) in a temporary root
// installed as README.md's "Install on a board" says; CI runs it.
//
// # Readiness and watchdog
//
// The unit is Type=notify. `ictald run` sends READY=1 once the source has
// delivered its first frame and the model is loaded, and WATCHDOG=1 from
// the pipeline's own loop (after a window, at most every half of
// WatchdogSec), so the keep-alive proves that windows are being scored,
// not merely that the process exists. STATUS= carries the window and
// event counts shown by `systemctl status ictald`; STOPPING=1 is sent on
// SIGTERM while the final checkpoint is written.
//
// # An unplugged amplifier trips the watchdog, on purpose
//
// While a serial amplifier is unplugged, the openbci source reconnects
// with back-off (250 ms doubling to 10 s) inside ReadFrame and no windows
// flow. The keep-alives stop then too, for three reasons:
//
//   - From outside the source a reconnecting ReadFrame and a hung one look
//     the same. Pinging whenever the pipeline waits on its source would
//     also keep alive a daemon whose source hangs for good (a stuck EDF
//     FIFO, an SPI chip that stopped raising DRDY) — exactly what the
//     watchdog is for.
//   - A patient without signal is not being monitored. A restart makes the
//     outage visible where operators look (the unit's NRestarts and state
//     in `systemctl status`, the journal) instead of inside a log line.
//   - Short losses — a loose connector, a USB hiccup — are still bridged in
//     process: WatchdogSec=30s leaves the source about 30 s to reconnect
//     before systemd steps in, and a reconnection keeps the model, the
//     late-label buffer and the MQTT session.
//
// What makes this safe is the restart policy. WatchdogSignal=SIGTERM
// stops the daemon the normal way, so the final checkpoint is written (a
// truly hung daemon is killed after TimeoutStopSec). While the device is
// missing, each start fails at once (the source's Open does not retry) and
// Restart=on-failure tries again every RestartSec=15s: at most four starts
// in any 60 s, below StartLimitBurst=5 per StartLimitIntervalSec=60s, so
// automatic restarts never exhaust the start limit and the unit never
// settles in "failed" waiting for a human; the daemon is back within 15 s
// of the amplifier. The limit still stops loops faster than RestartSec.
//
// # Sandbox
//
// The daemon runs as the unprivileged user ictald (ictald.sysusers.conf)
// with no capabilities, a read-only system (ProtectSystem=strict) except
// /var/lib/ictald (StateDirectory: checkpoints, MQTT session store,
// session recordings), /etc/ictald read-only (ConfigurationDirectory),
// DevicePolicy=closed with only the serial adapters allowed (char-ttyUSB,
// char-ttyACM; group dialout), the @system-service system calls without
// @privileged and @resources (others fail with EPERM rather than killing the daemon), IPv4,
// IPv6 and Unix sockets only, and IP traffic to localhost only (a broker on
// the board). systemd-analyze security --offline=yes rates it 1.5 with
// systemd 252. The drop-ins keep that rating.
package systemd
