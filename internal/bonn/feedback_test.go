package bonn

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/internal/eval"
)

// TestClinicianDecisions drives the clinician by hand, one window a
// second, as the pipeline would: an alert inside a seizure is confirmed
// and one far from any rejected, both the pre-tolerance after they end;
// an alert that ends 20 s before a seizure begins is confirmed (SzCORE's
// 30 s tolerance counts it); a seizure without an alert is marked the
// mark delay after it ends. Each label is sent once, and the answers are
// matched to them.
func TestClinicianDecisions(t *testing.T) {
	sec := func(s int) time.Duration { return time.Duration(s) * time.Second }
	seizures := []acquire.Interval{
		{Start: sec(100), End: sec(124), Seizure: true},
		{Start: sec(400), End: sec(424), Seizure: true}, // missed
		{Start: sec(700), End: sec(724), Seizure: true}, // alerted just before
		{Start: sec(10), End: sec(20), Text: "eyes open"},
	}
	alerts := []struct {
		id                string
		onset, detected   int
		end               int
		wantKind          string
		wantDue, wantSent int
	}{
		{"true", 105, 108, 120, Confirm, 150, 150},
		{"false", 250, 253, 260, Reject, 290, 290},
		{"early", 660, 663, 680, Confirm, 710, 710},
	}
	c := NewClinician(seizures, 0)
	labels := make(chan alert.Label, 8)
	c.Attach(labels)
	type got struct {
		at  int
		lab alert.Label
	}
	var sent []got
	for s := 1; s <= 1000; s++ {
		for _, a := range alerts {
			e := &alert.Event{ID: a.id, OnsetOffset: sec(a.onset), DetectedOffset: sec(a.detected), EndOffset: sec(a.end)}
			switch s {
			case a.detected:
				if err := c.Alert(e); err != nil {
					t.Fatal(err)
				}
			case a.end:
				if err := c.EventEnd(e); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := c.Score(alert.Score{T: t0.Add(sec(s)), Offset: sec(s), Usable: true}); err != nil {
			t.Fatal(err)
		}
		for len(labels) > 0 {
			lab := <-labels
			sent = append(sent, got{s, lab})
			ack := alert.AckOf(lab)
			ack.Applied, ack.Windows = lab.AlertID != "false", 12
			if !ack.Applied {
				ack.Reason = "refused for the test"
			}
			if err := c.Ack(ack); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := []string{
		"150 true seizure=true",
		"290 false seizure=false",
		"604 [6m40s 7m4s] seizure=true",
		"710 early seizure=true",
	}
	var have []string
	for _, g := range sent {
		id := g.lab.AlertID
		if id == "" {
			id = fmt.Sprintf("[%v %v]", g.lab.Start.Sub(t0), g.lab.End.Sub(t0))
		}
		if g.lab.By != ClinicianName {
			t.Errorf("label by %q", g.lab.By)
		}
		have = append(have, fmt.Sprintf("%d %s seizure=%v", g.at, id, g.lab.Seizure))
	}
	if strings.Join(have, "\n") != strings.Join(want, "\n") {
		t.Errorf("labels sent:\n%s\nwant:\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
	}
	kinds := map[string]string{"true": Confirm, "false": Reject, "early": Confirm, "": Mark}
	for _, d := range c.Decisions() {
		if !d.Sent || !d.Acked || d.Kind != kinds[d.AlertID] || d.Applied != (d.AlertID != "false") {
			t.Errorf("decision %+v", d)
		}
	}
	if n := len(c.Decisions()); n != 4 {
		t.Errorf("%d decisions, want 4", n)
	}
	if err := c.Ack(alert.Ack{}); err == nil {
		t.Error("an acknowledgement of no label was taken")
	}
}

// Labels due after the recording ends are never sent and count as
// unsent: a verdict on an alert that ended too late, and a mark whose
// delay runs past the end (Finish). A clinician without a pipeline says
// so when a label is due.
func TestClinicianUnsentAndUnattached(t *testing.T) {
	sec := func(s int) time.Duration { return time.Duration(s) * time.Second }
	c := NewClinician([]acquire.Interval{{Start: sec(5), End: sec(10), Seizure: true}, {Start: sec(70), End: sec(80), Seizure: true}}, 2*time.Minute)
	for s := 1; s <= 85; s++ {
		if s == 84 {
			if err := c.Alert(&alert.Event{ID: "late", OnsetOffset: sec(82), DetectedOffset: sec(84)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Score(alert.Score{T: t0.Add(sec(s)), Offset: sec(s)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.EventEnd(&alert.Event{ID: "late", OnsetOffset: sec(82), DetectedOffset: sec(84), EndOffset: sec(85)}); err != nil {
		t.Fatal(err)
	}
	c.Finish(sec(85))
	parts := Split(nil, nil, c.Decisions(), sec(90))
	if n := len(c.Decisions()); n != 2 || parts[2].Unsent != 2 || parts[2].Sent != 0 {
		t.Errorf("%d decisions (want the mark of the first seizure and the verdict on the late alert, none for the seizure it overlaps), parts %+v", n, parts)
	}
	if err := c.Score(alert.Score{T: t0.Add(sec(200)), Offset: sec(200)}); err == nil || !strings.Contains(err.Error(), "no pipeline is attached") {
		t.Errorf("a label without a pipeline: %v", err)
	}
	if err := c.EventEnd(&alert.Event{ID: "unseen"}); err == nil {
		t.Error("the end of an unseen alert was taken")
	}
}

// TestSplitAddsUp: the parts add up to eval's score of the whole
// recording, each seizure and false alarm in the part where it starts.
func TestSplitAddsUp(t *testing.T) {
	sec := func(s int) time.Duration { return time.Duration(s) * time.Second }
	seizures := []acquire.Interval{
		{Start: sec(100), End: sec(124), Seizure: true}, // detected
		{Start: sec(350), End: sec(374), Seizure: true}, // missed
		{Start: sec(650), End: sec(674), Seizure: true}, // detected, with a false alarm
	}
	events := []alert.Event{
		{OnsetOffset: sec(110), DetectedOffset: sec(113), EndOffset: sec(120)},
		{OnsetOffset: sec(250), DetectedOffset: sec(253), EndOffset: sec(260)}, // false, first part
		{OnsetOffset: sec(660), DetectedOffset: sec(663), EndOffset: sec(800)}, // reaches past the tolerance: a false alarm
	}
	dur := sec(900)
	parts := Split(seizures, events, []Decision{{Due: sec(150), Sent: true, Kind: Confirm, Acked: true, Applied: true}, {Due: sec(450), Sent: true, Kind: Mark, Acked: true}}, dur)
	var all Part
	for _, p := range parts {
		all.Add(p)
	}
	whole := eval.Match(seizures, events, dur)
	if all.Seizures != len(whole.Seizures) || all.Detected != whole.Detected || all.FalseAlarms != whole.FalseAlarms || all.Duration != dur {
		t.Errorf("parts add up to %+v, eval says %d seizures, %d detected, %d false alarms", all, len(whole.Seizures), whole.Detected, whole.FalseAlarms)
	}
	want := [Parts]string{"1 1 1 1 1 0", "1 0 0 1 0 1", "1 1 1 0 0 0"}
	for i, p := range parts {
		if got := fmt.Sprint(p.Seizures, p.Detected, p.FalseAlarms, p.Sent, p.Applied, p.Refused); got != want[i] {
			t.Errorf("part %d: %s, want %s", i, got, want[i])
		}
	}
	if all.FalseAlarmsPerDay() != 2/(dur.Hours()/24) || parts[1].Sensitivity() != 0 {
		t.Errorf("rates %v %v", all.FalseAlarmsPerDay(), parts[1].Sensitivity())
	}
}

// t0 is the start of the recordings in these tests (that of Concat's
// files in `ictal bonn`).
var t0 = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
