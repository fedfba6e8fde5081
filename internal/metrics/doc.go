// Package metrics is ictald's Prometheus endpoint and health check
// (`[metrics] listen`, off by default): GET /metrics in the Prometheus text
// format and GET /healthz, 200 while the pipeline makes progress and 503
// once it has processed no window for StallAfter (30 s, systemd's
// watchdog period).
//
// The pipeline reports its counters through Hooks.Window (Metrics.Window
// copies them under a mutex and allocates nothing); the metrics are built
// from the latest copy when Prometheus scrapes, together with what is
// read then: the MQTT publisher's counters and connection, the checkpoint
// file's modification time, the free space of the directories the daemon
// writes (statfs), and a session recorder's bytes (SetRecorder).
//
// Names follow Prometheus' conventions (promlint checks them in the
// tests): an ictal_ prefix, counters ending in _total, base units named
// in the metric (_seconds, _bytes), times as Unix timestamps
// (_timestamp_seconds) rather than ages, and a label partitioning a
// total (ictal_windows_total{quality}) instead of a separate sum. The
// README's "Metrics and health" lists them with a scrape configuration
// and alerting rules.
package metrics
