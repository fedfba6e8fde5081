package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/internal/board"
	"github.com/ictal/ictal/internal/syncbuf"
)

// TestSeizureWords: the demo says when SzCORE scores the recording's
// seizures as another number of events.
func TestSeizureWords(t *testing.T) {
	sz := func(a, b time.Duration) acquire.Interval {
		return acquire.Interval{Start: a, End: b, Seizure: true, Text: "seizure"}
	}
	tests := []struct {
		name string
		ivs  []acquire.Interval
		want string
	}{
		{"apart", []acquire.Interval{sz(30*time.Second, 60*time.Second), sz(200*time.Second, 230*time.Second)}, "2 seizures"},
		{"70 s apart: merged", []acquire.Interval{sz(30*time.Second, 60*time.Second), sz(130*time.Second, 160*time.Second)},
			"2 seizures (scored as 1: SzCORE counts seizures less than 90 s apart as one)"},
		{"400 s long: split", []acquire.Interval{sz(0, 400*time.Second)}, "1 seizure (scored as 2: SzCORE splits a seizure longer than 300 s)"},
		{"artifacts are not seizures", []acquire.Interval{sz(30*time.Second, 60*time.Second), {Start: 0, End: time.Second, Text: "artifact: blink"}}, "1 seizure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := seizureWords(seizureCounts(tt.ivs, 10*time.Minute)); got != tt.want {
				t.Errorf("%q, want %q", got, tt.want)
			}
		})
	}
}

// TestDemoCountsAgree runs a demo whose two seizures are less than 90 s
// apart: the announcement and the summary give the same count and both
// say that SzCORE scores them as one.
func TestDemoCountsAgree(t *testing.T) {
	var out strings.Builder
	_, err := Demo(context.Background(), DemoOptions{Duration: 4 * time.Minute, Seizures: 2, Seed: 2, Speed: 1000,
		TrainDuration: 10 * time.Minute, TrainSeizures: 2}, &out, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	const words = "2 seizures (scored as 1: SzCORE counts seizures less than 90 s apart as one)"
	for _, want := range []string{"of the last 4m0s", "with " + words + " at 1000×", "summary: " + words + ", "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestDemoStarts: played at any speed, the monitored recording never
// stamps a time later than the wall clock.
func TestDemoStarts(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 7, 30, 500e6, time.UTC)
	o := DemoOptions{Duration: 5 * time.Minute, TrainDuration: 30 * time.Minute}
	train, mon := o.demoStarts(now)
	if want := time.Date(2026, 11, 26, 10, 2, 30, 0, time.UTC); !mon.Equal(want) {
		t.Errorf("monitored recording starts %v, want %v", mon, want)
	}
	if want := time.Date(2026, 11, 26, 9, 32, 30, 0, time.UTC); !train.Equal(want) {
		t.Errorf("training recording starts %v, want %v", train, want)
	}
	for _, speed := range []float64{1, 15, 60, 1000} {
		for at := time.Duration(0); at <= o.Duration; at += time.Second {
			// the frame at offset at is played at now + at/speed
			if stamp, wall := mon.Add(at), now.Add(time.Duration(float64(at)/speed)); stamp.After(wall) {
				t.Fatalf("speed %g: the frame at %v is stamped %v, played at %v", speed, at, stamp, wall)
			}
		}
	}
}

// clockCheck is a sink that checks every alert's and status's time
// against the moment the demo starts from (its recordings end then).
type clockCheck struct {
	limit  time.Time
	mu     sync.Mutex
	alerts int
	ahead  []string
}

func (c *clockCheck) Alert(e *alert.Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.alerts++
	if e.DetectedAt.After(c.limit) || e.Onset.After(c.limit) {
		c.ahead = append(c.ahead, fmt.Sprintf("alert onset %v detected_at %v, after %v", e.Onset, e.DetectedAt, c.limit))
	}
	return nil
}

func (c *clockCheck) Status(s alert.Status) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.Since.After(c.limit) {
		c.ahead = append(c.ahead, fmt.Sprintf("status %s since %v, after %v", s.State, s.Since, c.limit))
	}
	return nil
}

// TestDemoNoFutureTimes runs the demo at 1000× real time from a fixed
// moment: no alert and no status is stamped later than that moment, so
// none is in the future of the wall clock when it is raised (the clock
// is at or past it). The test reads no clock.
func TestDemoNoFutureTimes(t *testing.T) {
	start := time.Date(2026, 11, 26, 10, 7, 30, 500e6, time.UTC)
	c := &clockCheck{limit: start}
	var out strings.Builder
	_, err := Demo(context.Background(), DemoOptions{Duration: 5 * time.Minute, Speed: 1000, TrainDuration: 20 * time.Minute, TrainSeizures: 4, Seed: 1, sink: c,
		now: func() time.Time { return start }}, &out, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if c.alerts == 0 {
		t.Fatalf("no alert:\n%s", out.String())
	}
	for _, a := range c.ahead {
		t.Error("in the future: " + a)
	}
}

// TestDemoStatusOnce: with the embedded broker, each change of state is
// printed once, as it arrives over MQTT, with the artifact it names.
func TestDemoStatusOnce(t *testing.T) {
	var out syncbuf.Buffer
	if _, err := Demo(context.Background(), DemoOptions{Duration: 3 * time.Minute, Speed: 1000, TrainDuration: 10 * time.Minute, TrainSeizures: 2, Seed: 1,
		MQTTListen: "127.0.0.1:0"}, &out, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.Contains(s, "  status ") {
		t.Errorf("the printer printed a status beside the MQTT echo:\n%s", s)
	}
	for _, want := range []string{"↳ MQTT ictal/demo/bed-1/status  online", "↳ MQTT ictal/demo/bed-1/status  offline"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if m := regexp.MustCompile(`status  artifact \(\w+ on [^)]+\)|status  artifact \(settling\)`).FindString(s); m == "" && strings.Contains(s, "status  artifact") {
		t.Errorf("artifact states without their kind:\n%s", s)
	}
}

// TestDemoFeedbackAfterTheEnd: while the demo lingers after its
// recording, feedback is answered with a refusal saying why, printed like
// every acknowledgement, instead of being queued for a pipeline that has
// stopped.
func TestDemoFeedbackAfterTheEnd(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncbuf.Buffer
	done := make(chan error, 1)
	go func() {
		_, err := Demo(ctx, DemoOptions{Duration: 3 * time.Minute, Speed: 1000, TrainDuration: 10 * time.Minute, TrainSeizures: 2, Seed: 1,
			MQTTListen: "127.0.0.1:0", BoardListen: "127.0.0.1:0", Linger: time.Hour}, &out, slog.New(slog.DiscardHandler))
		done <- err
	}()
	waitFor := func(what string) string {
		t.Helper()
		for !strings.Contains(out.String(), what) {
			select {
			case err := <-done:
				t.Fatalf("demo ended (%v) before printing %q:\n%s", err, what, out.String())
			case <-time.After(20 * time.Millisecond): // poll the output again
			}
		}
		return out.String()
	}
	s := waitFor("the ward board stays up")
	// A clinician logs in to the board with the printed one-time login
	// (the embedded broker takes feedback only from its users) and
	// confirms an alert again.
	m := regexp.MustCompile(`ward board at (http://\S+) — log in as "demo" with the one-time password (\S+)`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no board login:\n%s", s)
	}
	c, err := board.Login(ctx, m[1], "demo", m[2], nil)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := c.AlertIDs(ctx)
	if err != nil || len(ids) == 0 {
		t.Fatalf("alerts on the board: %v, %v", ids, err)
	}
	if err := c.Verdict(ctx, ids[0], alert.VerdictConfirmed); err != nil {
		t.Fatal(err)
	}
	waitFor("feedback/ack  confirmed " + ids[0] + " by demo: refused (the demo's recording has ended: the monitor no longer learns)")
	cancel()
	<-done
}
