package record

import (
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
)

// TestAlertAnnotationNamesKind: a motor (or status-epilepticus) alert's
// annotation names its kind after the word alert; a seizure alert's text
// is what it always was, and no alert annotation says "seizure", which
// `ictal replay` and `ictal train` would read as a seizure label.
func TestAlertAnnotationNamesKind(t *testing.T) {
	const id = "0b5c6f7e-4d0e-4a5e-9f1a-3c2b1a0f9e8d"
	const fields = "id=" + id + " onset=2026-11-26T10:20:08.500Z detected=2026-11-26T10:20:09.500Z score=0.935 channels=C1,C3"
	tests := []struct {
		name, kind string
		want       string
	}{
		{"seizure, the default", "", "alert " + fields},
		{"seizure written out", alert.KindSeizure, "alert " + fields},
		{"motor", alert.KindMotor, "alert motor " + fields},
		{"status epilepticus", alert.KindStatusEpilepticus, "alert status-epilepticus " + fields},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := newRecorder(t, Config{})
			if err := r.Begin(testInfo(8, 250), t0); err != nil {
				t.Fatal(err)
			}
			feed(t, r, 8, 250, 0, 500)
			r.Alert(&alert.Event{ID: id, Onset: t0.Add(time.Second), DetectedAt: t0.Add(2 * time.Second),
				OnsetOffset: time.Second, DetectedOffset: 2 * time.Second, Score: 0.9349, Channels: []string{"C1", "C3"}, Kind: tt.kind})
			feed(t, r, 8, 250, 500, 750)
			path := r.Path()
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			_, notes := readFile(t, path)
			a := find(notes, KindAlert)
			if len(a) != 1 {
				t.Fatalf("%d alert annotations, want 1", len(a))
			}
			if got := a[0].String(); got != tt.want {
				t.Errorf("annotation %q, want %q", got, tt.want)
			}
			if a[0].onset != time.Second || a[0].dur != time.Second {
				t.Errorf("annotation at %v for %v, want 1s for 1s", a[0].onset, a[0].dur)
			}
			for _, n := range notes {
				if strings.Contains(strings.ToLower(n.String()), "seizure") {
					t.Errorf("annotation %q says seizure", n.String())
				}
			}
		})
	}
}
