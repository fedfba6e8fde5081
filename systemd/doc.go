// Package systemd holds the files that install ictald as a service — the
// hardened unit ictald.service, its sysusers.d entry, drop-ins for an SPI
// amplifier (ads1299.conf) and a remote MQTT broker (remote-broker.conf),
// and the commented sample configuration ictald.toml — with the unit, the
// sysusers entry and the configuration embedded so that the one binary
// carries them. The script check verifies the unit with systemd-analyze
// (verify, and security --offline rating at most 2.0) in a temporary root
// installed as README.md's "Install on a board" says; CI runs it. The
// folder prometheus holds a scrape configuration for ictald's metrics
// endpoint ([metrics] listen) and alerting rules, with promtool unit
// tests that this package's tests run.
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
// The exception is a configuration ictald refuses (a key out of its
// bounds, a file that does not parse or is missing): `ictald run` exits
// 78 (EX_CONFIG) after a STATUS= line saying why, and
// RestartPreventExitStatus=78 leaves the unit failed rather than
// restarting it every 15 s into the same refusal. Only a person can fix
// the file; `systemctl status ictald` shows the reason, the journal the
// whole error.
//
// # Resource ceilings
//
// MemoryMax=128M, GOMEMLIMIT=100MiB and TasksMax=64 are sized from
// measurements on the development machine (amd64, 2 cores, shared),
// sampling VmHWM and Threads in /proc/PID/status every 5 s:
//
//   - `ictald run` on a synth source of 23 channels at 256 Hz played at
//     30× real time for 7 min (3.4 h of EEG, about 12,000 windows), all 17
//     features per channel plus the summaries (395), SBO2 with naive
//     Bayes, learning.mode = "feedback" with the 1 h buffer (full after
//     the first 2 min), scores to a JSON-lines file and to the embedded
//     MQTT broker, a checkpoint every minute: peak RSS 40 MiB (40,548 kB),
//     8 threads throughout. RSS rose from 13 to 40 MiB while the buffer
//     filled and stayed there.
//   - `ictald demo -duration 2h -speed 60` (training, the monitored
//     recording, the embedded broker, its subscriber and the ward board):
//     peak RSS 31 MiB, 9 threads.
//
// Those runs sized the ceilings. Since, the buffer keeps single-precision
// vectors, is taken once (run's configuration check no longer takes a
// second copy) and ictald collects at GOGC=50: the first run, at 60× for
// 4 min, peaks at 29.4 MiB (43.8 before), the demo at 26.9 MiB (34.4),
// the day-one default at 23 channels at 27.8 MiB (42.2) (README.md); the
// ceilings were left as they are, a wider margin.
//
// MemoryMax is three times the larger peak of the sizing runs. The margin covers the MQTT
// store's in-memory bound (16 MiB of unacknowledged messages while the
// disk is full), a learning.buffer up to about 2 h at 23 channels, and
// the garbage collector's slack; GOMEMLIMIT, below it, makes the
// collector run harder as the heap nears the ceiling instead of letting
// the kernel kill the daemon. Page cache from the checkpoint and the
// MQTT store is charged to the unit too but is reclaimed before anything
// is killed. A longer learning.buffer or more channels need a drop-in
// raising both. TasksMax is seven times the threads seen: Go starts one
// per processor (GOMAXPROCS, 4 on a Raspberry Pi 4) plus one per blocking
// system call in flight (serial and file reads), ExecReload's kill runs
// in the unit too, and a thread Go cannot create is a fatal error, so the
// limit only stops a runaway.
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
