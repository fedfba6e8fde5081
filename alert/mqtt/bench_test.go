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
	sub := subscribe(b, testClient(b, Connection{Brokers: []string{br.URL("tcp")}}, "receiver", true), "ictal/+/+/alert")
	m := newTestMQTT(b, testMQTTConfig(b, br.URL("tcp")), nil)
	for m.Stats().Acked == 0 { // connected
		time.Sleep(time.Millisecond)
	}
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
