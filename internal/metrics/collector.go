package metrics

import (
	"os"
	"path/filepath"

	"github.com/prometheus/client_golang/prometheus"
)

// descs are the descriptions of every metric below, in the order
// declared: desc adds each, and Describe sends them all.
var descs []*prometheus.Desc

// desc builds the description of a metric named ictal_<name> and adds it
// to descs.
func desc(name, help string, labels ...string) *prometheus.Desc {
	d := prometheus.NewDesc("ictal_"+name, help, labels, nil)
	descs = append(descs, d)
	return d
}

// The metrics, by the part of the daemon they describe. The README's
// "Metrics and health" lists them with example queries.
var (
	descBuild = desc("build_info", "Always 1; the daemon's version in a label.", "version")

	descFrames     = desc("frames_total", "Frames (one sample per channel) read from the source.")
	descGaps       = desc("gaps_total", "Gaps in the signal: places where the source lost frames.")
	descWindows    = desc("windows_total", "Windows processed, by signal quality: usable (scored; with a per-channel model, also a window scored on the channels other than those with a lead-off, saturation, flat line or blink), signal_lost (a gap), electrode_off (lead-off, saturated, flat or invalid channel), artifact (eye, muscle, electrode artifact or settling). Their sum is every window.", "quality")
	descPartial    = desc("windows_partial_total", "Usable windows scored on some channels only: a per-channel model left out the channels of a lead-off, saturation, flat line or blink (the status names them).")
	descSignal     = desc("signal_seconds_total", "Seconds of signal processed (the end of the latest window); its rate is the real-time factor, 1 for a live source keeping up.")
	descLag        = desc("pipeline_lag_seconds", "How far the signal processed trails the wall-clock time since the pipeline started: its delay behind real time for a live source; negative for a recording replayed faster than real time.")
	descLastWindow = desc("last_window_timestamp_seconds", "When the latest window was processed (Unix time).")
	descHealthy    = desc("pipeline_healthy", "1 while windows are processed (GET /healthz answers 200); 0 once none was for the stall period, 30 s (503).")

	descEvents     = desc("events_total", "Seizure events detected; each raised one alert.")
	descSuppressed = desc("events_suppressed_total", "Events not alerted because they started within the refractory period of the previous one.")
	descLabels     = desc("labels_total", "Clinicians' labels (feedback) by result: applied to buffered windows, or refused (unknown alert, empty interval, no window left in the buffer, not learning from feedback).", "result")
	descUpdates    = desc("model_updates_total", "Windows the model learned, by label.", "label")
	descAgreed     = desc("labelled_windows_agreed_total", "Labelled windows not learned: the detector had already decided them as the label says (learning.learn_agreed).")
	descEvicted    = desc("late_label_evicted_windows_total", "Windows that left the late-label buffer unlearned (no label reached them in time).")
	descBuffered   = desc("late_label_buffer_windows", "Windows waiting in the late-label buffer for a clinician's label.")
	descBufferCap  = desc("late_label_buffer_capacity_windows", "How many windows the late-label buffer holds (learning.buffer); 0 when not learning from feedback.")
	descModelErrs  = desc("model_errors_total", "Windows the model failed to score or learn.")
	descSinkErrs   = desc("sink_errors_total", "Messages an output (JSON lines, MQTT) refused.")

	descCheckpoints  = desc("checkpoints_total", "Checkpoints of the model written.")
	descCkptFailures = desc("checkpoint_failures_total", "Checkpoints that could not be written.")
	descCkptTime     = desc("checkpoint_last_success_timestamp_seconds", "When the checkpoint file on disk was written (its modification time, Unix time); absent before the first.")

	descDiskFree = desc("disk_free_bytes", "Bytes free to the daemon on the file system of a directory it writes.", "dir", "path")
	descRecorded = desc("recording_bytes_total", "Bytes the session recorder has written.")

	descMQTTConnected = desc("mqtt_connected", "1 while connected to the MQTT broker, else 0.")
	descMQTTQueue     = desc("mqtt_queue_messages", "Scores and status updates waiting in memory for the network (mqtt.queue_size at most).")
	descMQTTPublished = desc("mqtt_published_messages_total", "Messages handed to the MQTT client.")
	descMQTTAcked     = desc("mqtt_acked_messages_total", "QoS 1 messages (alerts, ends, status, evidence, acks) the broker acknowledged.")
	descMQTTDropped   = desc("mqtt_dropped_messages_total", "Messages dropped: scores or status when the queue was full, scores while disconnected, QoS 1 messages beyond the memory bound of a store that cannot write to disk.", "kind", "reason")
	descMQTTFeedback  = desc("mqtt_feedback_messages_total", "Feedback messages received, by result: delivered to the pipeline, dropped (the pipeline's label queue was full), rejected (malformed).", "result")
	descStoreDegraded = desc("mqtt_store_degraded", "1 while the on-disk MQTT store cannot be written (a full disk) and unacknowledged messages are held in memory.")
	descStoreHeld     = desc("mqtt_store_held_messages", "Unacknowledged QoS 1 messages held in memory by a degraded store.")
)

// collector builds the metrics from Metrics' latest snapshot at each
// scrape.
type collector struct{ m *Metrics }

// Describe implements prometheus.Collector.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	s, at, rec := c.m.snapshot()
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	gauge(descBuild, 1, c.m.opt.Version)

	counter(descFrames, float64(s.Frames))
	counter(descGaps, float64(s.Gaps))
	counter(descWindows, float64(s.Usable), "usable")
	counter(descWindows, float64(s.SignalLost), "signal_lost")
	counter(descWindows, float64(s.ElectrodeOff), "electrode_off")
	counter(descWindows, float64(s.Artifact), "artifact")
	counter(descPartial, float64(s.Partial))
	counter(descSignal, s.SignalTime.Seconds())
	gauge(descLag, s.Lag.Seconds())
	if !at.IsZero() {
		gauge(descLastWindow, seconds(at))
	}
	ok, _ := c.m.Health()
	gauge(descHealthy, bit(ok))

	counter(descEvents, float64(s.Events))
	counter(descSuppressed, float64(s.Suppressed))
	counter(descLabels, float64(s.LabelsApplied), "applied")
	counter(descLabels, float64(s.LabelsUnused), "refused")
	counter(descUpdates, float64(s.LearnedPos), "seizure")
	counter(descUpdates, float64(s.LearnedNeg), "non_seizure")
	counter(descAgreed, float64(s.Agreed))
	counter(descEvicted, float64(s.Evicted))
	gauge(descBuffered, float64(s.Buffered))
	gauge(descBufferCap, float64(s.BufferCap))
	counter(descModelErrs, float64(s.ModelErrors))
	counter(descSinkErrs, float64(s.SinkErrors))

	if path := c.m.opt.Checkpoint; path != "" {
		counter(descCheckpoints, float64(s.Checkpoints))
		counter(descCkptFailures, float64(s.CheckpointErrs))
		if fi, err := os.Stat(path); err == nil {
			gauge(descCkptTime, seconds(fi.ModTime()))
		}
		c.diskFree(ch, "checkpoint", filepath.Dir(path))
	}
	for _, d := range c.m.opt.Dirs {
		c.diskFree(ch, d.Name, d.Path)
	}
	if rec != nil {
		counter(descRecorded, float64(rec.RecordedBytes()))
		c.diskFree(ch, "recording", rec.Dir())
	}
	if q := c.m.opt.MQTT; q != nil {
		c.mqtt(q, counter, gauge)
	}
}

func (c *collector) mqtt(q MQTT, counter, gauge func(*prometheus.Desc, float64, ...string)) {
	st := q.Stats()
	gauge(descMQTTConnected, bit(q.Connected()))
	gauge(descMQTTQueue, float64(st.Queued))
	counter(descMQTTPublished, float64(st.Published))
	counter(descMQTTAcked, float64(st.Acked))
	counter(descMQTTDropped, float64(st.DroppedScores), "score", "queue_full")
	counter(descMQTTDropped, float64(st.DroppedStatus), "status", "queue_full")
	counter(descMQTTDropped, float64(st.DroppedOffline), "score", "disconnected")
	counter(descMQTTDropped, float64(st.StoreDropped), "qos1", "store_memory_full")
	counter(descMQTTFeedback, float64(st.Labels), "delivered")
	counter(descMQTTFeedback, float64(st.DroppedLabels), "dropped")
	counter(descMQTTFeedback, float64(st.RejectedFeedback), "rejected")
	gauge(descStoreDegraded, bit(st.StoreDegraded))
	gauge(descStoreHeld, float64(st.StoreHeld))
}

// diskFree exports the free space of dir's file system; a directory that
// cannot be examined (not created yet) is left out.
func (c *collector) diskFree(ch chan<- prometheus.Metric, name, dir string) {
	if free, err := freeBytes(dir); err == nil {
		ch <- prometheus.MustNewConstMetric(descDiskFree, prometheus.GaugeValue, float64(free), name, dir)
	}
}

func bit(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
