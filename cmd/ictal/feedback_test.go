package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

func TestFeedbackSendsValidatedMessages(t *testing.T) {
	b := testBroker(t)
	got := make(chan paho.Message, 10)
	sub := mosquittotest.Client(t, b.URL(), "test-subscriber")
	for _, f := range []string{"ictal/ward-7/bed-3/feedback", "ictal/ward-7/bed-3/feedback/from/+"} {
		if tok := sub.Subscribe(f, 1, func(_ paho.Client, m paho.Message) { got <- m }); !tok.Wait() || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	id := alert.NewID()
	// The command sends the interval as given; the labels are parsed
	// against the same instant, so elapsed time plays no part.
	now := time.Now()
	start, end := now.Add(-10*time.Minute).UTC().Format(time.RFC3339), now.Add(-9*time.Minute).UTC().Format(time.RFC3339)
	tests := []struct {
		name    string
		args    []string
		id      string
		seizure bool
		topic   string
	}{
		{"confirm", []string{"-confirm", id}, id, true, "ictal/ward-7/bed-3/feedback"},
		{"reject", []string{"-reject", id}, id, false, "ictal/ward-7/bed-3/feedback"},
		{"seizure interval", []string{"-seizure", start + ".." + end}, "", true, "ictal/ward-7/bed-3/feedback"},
		{"non-seizure interval", []string{"-non-seizure", start + ".." + end}, "", false, "ictal/ward-7/bed-3/feedback"},
		{"under the sender's name", []string{"-username", "clinician-alice", "-confirm", id}, id, true, "ictal/ward-7/bed-3/feedback/from/clinician-alice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"-broker", b.URL(), "-site", "ward-7", "-bed", "bed-3"}, tt.args...)
			if err := runFeedback(args, &out, &errb); err != nil {
				t.Fatalf("%v\n%s", err, errb.String())
			}
			m := <-got
			p := m.Payload()
			if m.Topic() != tt.topic {
				t.Errorf("sent on %s, want %s", m.Topic(), tt.topic)
			}
			lab, err := alert.ParseFeedback(p, now)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if lab.AlertID != tt.id || lab.Seizure != tt.seizure {
				t.Errorf("label %+v from %s", lab, p)
			}
			if !strings.HasPrefix(out.String(), `{"type":"feedback","topic":"`+tt.topic+`","payload":`) || !strings.Contains(out.String(), `"payload":`+string(p)+"}\n") {
				t.Errorf("printed %q, sent %q", out.String(), p)
			}
		})
	}
}

func TestFeedbackRefuses(t *testing.T) {
	b := testBroker(t)
	base := []string{"-broker", b.URL(), "-site", "ward-7", "-bed", "bed-3"}
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	tests := []struct {
		name, errHas string
		args         []string
	}{
		{"no action", "exactly one", base},
		{"two actions", "exactly one", append(base[:6:6], "-confirm", alert.NewID(), "-reject", alert.NewID())},
		{"not a UUID", "not a UUID", append(base[:6:6], "-confirm", "alert-42")},
		{"no ..", "want START..END", append(base[:6:6], "-seizure", "2026-11-21T09:00:00Z")},
		{"interval in the future", "in the future", append(base[:6:6], "-seizure", time.Now().UTC().Format(time.RFC3339)+".."+future)},
		{"missing bed", "required", []string{"-broker", b.URL(), "-site", "ward-7", "-confirm", alert.NewID()}},
		{"broker unreachable", "connect to tcp://127.0.0.1:1", []string{"-broker", "tcp://127.0.0.1:1", "-timeout", "300ms", "-site", "s", "-bed", "b", "-confirm", alert.NewID()}},
		{"password file missing", "password file", append(base[:6:6], "-username", "u", "-password-file", "/nonexistent/pw", "-confirm", alert.NewID())},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := runFeedback(tt.args, &out, &errb)
			if err == nil || !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("got %v, want an error saying %q", err, tt.errHas)
			}
			if out.Len() != 0 {
				t.Errorf("printed %q", out.String())
			}
		})
	}
}

// TestFeedbackExitStatus: the dispatcher turns a failure into status 1.
func TestFeedbackExitStatus(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"feedback", "-broker", "tcp://127.0.0.1:1", "-timeout", "200ms", "-site", "s", "-bed", "b", "-confirm", alert.NewID()}, &out, &errb); code != 1 {
		t.Errorf("exit status %d, want 1; stderr %s", code, errb.String())
	}
}
