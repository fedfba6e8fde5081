package mqtt

import (
	"sort"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

// BenchmarkAlertLatency measures the time from Alert() to the arrival of
// the alert at a subscriber, through mosquitto on loopback, one alert at a
// time. Run it with -benchtime=1000x (at least 500 alerts) for the
// percentiles to mean something; it reports them as p50-µs and p99-µs.
func BenchmarkAlertLatency(b *testing.B) {
	br := mosquittotest.Start(b, mosquittotest.Opts{})
	sub := subscribe(b, brokerClient(b, br.URL("tcp"), "receiver", true), "ictal/+/+/alert")
	m := newTestMQTT(b, testMQTTConfig(b, br.URL("tcp")), nil)
	waitAcked(b, m, 0) // connected
	events := make([]*alert.Event, b.N)
	for i := range events {
		events[i] = testEventN("ward-7", "bed-3")
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		m.Alert(events[i])
		for r := range sub {
			if alertID(r) == events[i].ID {
				lat = append(lat, r.at.Sub(t0))
				break
			}
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
}

// BenchmarkSinkWithPendingConnection measures a Score call (and, every
// 40th, an Alert; every 20th, a Status) while the connection attempt is
// pending: the broker never answers CONNACK. This is the timing
// TestMQTTSinkNeverBlocksWithoutBroker does not assert; a call should
// take microseconds (the window step is a second). Worst case reported
// as max-µs.
func BenchmarkSinkWithPendingConnection(b *testing.B) {
	br := startSilentBroker(b)
	cfg := testMQTTConfig(b, "tcp://"+br.addr)
	cfg.ConnectTimeout = time.Hour
	cfg.CloseTimeout = 100 * time.Millisecond
	cfg.Scores = true
	cfg.QueueSize = 64
	m := newTestMQTT(b, cfg, nil)
	br.waitConnect(b)
	var worst time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		m.Score(alert.Score{T: t0, Score: 0.1, Usable: true})
		if i%40 == 0 {
			m.Alert(testEventN("ward-7", "bed-3"))
		}
		if i%20 == 0 {
			m.Status(alert.Status{State: alert.StateSignalLost, Since: t0})
		}
		worst = max(worst, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(float64(worst.Microseconds()), "max-µs")
	if a, open := br.counts(); a != 1 || open != 1 {
		b.Fatalf("broker accepted %d connections, %d open: the attempt did not stay pending", a, open)
	}
}
