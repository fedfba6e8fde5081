package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/internal/daemon"
	"github.com/ictal/ictal/internal/record"
)

// alertLine is an alert of the JSON-lines output.
type alertLine struct {
	Type       string    `json:"type"`
	ID         string    `json:"id"`
	Onset      time.Time `json:"onset"`
	DetectedAt time.Time `json:"detected_at"`
}

func alertLines(t *testing.T, b []byte) []alertLine {
	t.Helper()
	var out []alertLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var a alertLine
		if err := json.Unmarshal(sc.Bytes(), &a); err == nil && a.Type == "alert" {
			out = append(out, a)
		}
	}
	return out
}

// TestReplayOfARecordingReproducesItsAlerts monitors a simulated recording
// with ictald (recording on, learning off), then runs `ictal replay` with
// the same model over the session it recorded: the replay raises the
// alerts the recording's annotations hold, at the same onsets and
// detection times, and those are the alerts ictald raised.
func TestReplayOfARecordingReproducesItsAlerts(t *testing.T) {
	dir := t.TempDir()
	train, live, model := filepath.Join(dir, "train.edf"), filepath.Join(dir, "live.edf"), filepath.Join(dir, "m.model")
	recDir, alertsOut := filepath.Join(dir, "recordings"), filepath.Join(dir, "alerts.jsonl")
	mustRun(t,
		[]string{"synth", "-o", train, "-duration", "20m", "-seizures", "3", "-seed", "3", "-channels", "4"},
		[]string{"synth", "-o", live, "-duration", "10m", "-seizures", "3", "-seed", "4", "-channels", "4"},
		[]string{"train", "-o", model, train},
	)
	cfg, err := daemon.ParseConfig(fmt.Sprintf(`
[site]
site = "ward-7"
bed = "bed-3"
[source]
type = "file"
path = %q
[classifier]
model = %q
[learning]
mode = "off"
[output]
jsonl = %q
[record]
enabled = true
dir = %q
`, live, model, alertsOut, recDir), "ictald.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := daemon.Run(context.Background(), cfg, slog.New(slog.DiscardHandler), daemon.Options{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(alertsOut)
	if err != nil {
		t.Fatal(err)
	}
	monitored := alertLines(t, b)
	if len(monitored) == 0 {
		t.Fatal("ictald raised no alert: nothing to reproduce")
	}
	files, err := record.Recordings(recDir)
	if err != nil || len(files) != 1 {
		t.Fatalf("recordings %v, %v", files, err)
	}
	r, err := edf.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	anns, err := r.Annotations()
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	var recorded []record.Note
	for _, a := range anns {
		if n, err := record.ParseNote(a.Text); err == nil && n.Kind == record.KindAlert {
			recorded = append(recorded, n)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"replay", "-model", model, files[0]}, &out, &errb); code != 0 {
		t.Fatalf("replay: %s", errb.String())
	}
	replayed := alertLines(t, out.Bytes())
	if len(replayed) != len(recorded) || len(recorded) != len(monitored) {
		t.Fatalf("%d alerts monitored, %d recorded, %d replayed", len(monitored), len(recorded), len(replayed))
	}
	for i, n := range recorded {
		m, p := monitored[i], replayed[i]
		if n.Get("id") != m.ID {
			t.Errorf("alert %d: recorded id %s, monitored %s", i, n.Get("id"), m.ID)
		}
		for _, c := range []struct {
			what, rec string
			mon, rep  time.Time
		}{{"onset", n.Get("onset"), m.Onset, p.Onset}, {"detected", n.Get("detected"), m.DetectedAt, p.DetectedAt}} {
			if c.rec != stampMS(c.mon) || c.rec != stampMS(c.rep) {
				t.Errorf("alert %d %s: recorded %s, monitored %s, replayed %s", i, c.what, c.rec, stampMS(c.mon), stampMS(c.rep))
			}
		}
	}
	t.Logf("%d alerts reproduced", len(recorded))
}

func stampMS(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }
