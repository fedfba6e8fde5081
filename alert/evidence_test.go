package alert

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func testEvidence() *Evidence {
	t0 := time.Date(2026, 11, 21, 10, 30, 5, 0, time.UTC)
	ev := &Evidence{AlertID: "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", Site: "ward-7", Bed: "bed-3",
		Onset: t0.Add(10 * time.Second), DetectedAt: t0.Add(16 * time.Second), Start: t0, Rate: 256,
		Channels: []string{"T7", "F7-T7", "flat"}}
	n := 26 * 256
	for c := range ev.Channels {
		xs := make([]float32, n)
		for i := range xs {
			if c < 2 {
				xs[i] = float32(float64(80*(c+1)) * math.Sin(2*math.Pi*7*float64(i)/256))
			}
		}
		ev.Samples = append(ev.Samples, xs)
	}
	return ev
}

func TestEvidenceRoundTrip(t *testing.T) {
	ev := testEvidence()
	ev.Samples[0][5] = float32(math.NaN())
	b := AppendEvidence(nil, ev)
	if len(b) > MaxEvidenceSize {
		t.Fatalf("%d bytes", len(b))
	}
	got, err := ParseEvidence(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.AlertID != ev.AlertID || got.Site != ev.Site || got.Bed != ev.Bed || got.Rate != ev.Rate ||
		!got.Onset.Equal(ev.Onset) || !got.DetectedAt.Equal(ev.DetectedAt) || !got.Start.Equal(ev.Start) ||
		strings.Join(got.Channels, ",") != strings.Join(ev.Channels, ",") {
		t.Fatalf("got %+v", got)
	}
	for c := range ev.Samples {
		if len(got.Samples[c]) != len(ev.Samples[c]) {
			t.Fatalf("channel %d: %d samples, want %d", c, len(got.Samples[c]), len(ev.Samples[c]))
		}
		step := evidenceScale(ev.Samples[c])
		for i, x := range ev.Samples[c] {
			want := float64(x)
			if math.IsNaN(want) {
				want = 0
			}
			if d := math.Abs(float64(got.Samples[c][i]) - want); d > step/2+1e-4 {
				t.Fatalf("channel %d sample %d: %g, want %g (step %g)", c, i, got.Samples[c][i], want, step)
			}
		}
	}
	// The size the contract documents: 3 channels × 26 s × 256 Hz.
	t.Logf("%d channels × %d samples: %d bytes", len(ev.Channels), len(ev.Samples[0]), len(b))
}

func TestEvidenceAtItsLimitsFits(t *testing.T) {
	ev := testEvidence()
	ev.Rate = 512
	ev.Channels = make([]string, MaxEvidenceChannels)
	ev.Samples = make([][]float32, MaxEvidenceChannels)
	for c := range ev.Samples {
		ev.Channels[c] = strings.Repeat("x", 16)
		ev.Samples[c] = make([]float32, int(MaxEvidenceSpan.Seconds()*ev.Rate))
	}
	b := AppendEvidence(nil, ev)
	if len(b) > MaxEvidenceSize {
		t.Fatalf("%d channels × %v at %g Hz make %d bytes, more than MaxEvidenceSize", MaxEvidenceChannels, MaxEvidenceSpan, ev.Rate, len(b))
	}
	if _, err := ParseEvidence(b); err != nil {
		t.Fatal(err)
	}
}

func TestParseEvidenceRejects(t *testing.T) {
	good := AppendEvidence(nil, testEvidence())
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	tests := []struct{ name, in, errHas string }{
		{"empty", "", "EOF"},
		{"not JSON", "evidence", "invalid character"},
		{"oversized", string(good) + strings.Repeat(" ", MaxEvidenceSize), "more than"},
		{"unknown field", edit(func(m map[string]any) { m["extra"] = 1 }), "unknown field"},
		{"v 2", edit(func(m map[string]any) { m["v"] = 2 }), `"v" is 2`},
		{"bad id", edit(func(m map[string]any) { m["alert_id"] = "x" }), "not a UUID"},
		{"unit", edit(func(m map[string]any) { m["unit"] = "mV" }), `"unit"`},
		{"rate 0", edit(func(m map[string]any) { m["rate"] = 0 }), `"rate"`},
		{"rate huge", edit(func(m map[string]any) { m["rate"] = 1e9 }), `"rate"`},
		{"no channels", edit(func(m map[string]any) { m["channels"], m["scale"], m["data"] = []any{}, []any{}, []any{} }), "0 channels"},
		{"too many channels", edit(func(m map[string]any) {
			m["channels"] = make([]string, MaxEvidenceChannels+1)
		}), "channels, want 1 to"},
		{"scale count", edit(func(m map[string]any) { m["scale"] = []any{1.0} }), "as many of each"},
		{"negative scale", edit(func(m map[string]any) { m["scale"].([]any)[1] = -1.0 }), "scale -1"},
		{"bad base64", edit(func(m map[string]any) { m["data"].([]any)[0] = "!!!" }), "illegal base64"},
		{"odd bytes", edit(func(m map[string]any) { m["data"].([]any)[0] = "AAA=" }), "bytes of data"},
		{"uneven channels", edit(func(m map[string]any) { m["data"].([]any)[1] = "AAAA" }), "bytes of data"},
		{"trailing data", string(good) + "{}", "after the object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseEvidence([]byte(tt.in))
			if !errors.Is(err, ErrEvidence) || !strings.Contains(err.Error(), tt.errHas) {
				t.Fatalf("got %v, want an ErrEvidence containing %q", err, tt.errHas)
			}
		})
	}
}

func TestParseEvidenceRejectsTooLong(t *testing.T) {
	ev := testEvidence()
	ev.Rate = 1
	ev.Channels, ev.Samples = ev.Channels[:1], ev.Samples[:1]
	ev.Samples[0] = make([]float32, int(MaxEvidenceSpan.Seconds())+5)
	if _, err := ParseEvidence(AppendEvidence(nil, ev)); !errors.Is(err, ErrEvidence) {
		t.Fatalf("%d s of signal accepted: %v", len(ev.Samples[0]), err)
	}
}

// FuzzParseEvidence checks that no input panics and that accepted input
// keeps the contract's bounds.
func FuzzParseEvidence(f *testing.F) {
	f.Add(AppendEvidence(nil, testEvidence()))
	f.Add([]byte(`{"v":1,"alert_id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","rate":1,"unit":"uV","channels":["a"],"scale":[1],"data":["AAA="]}`))
	f.Add([]byte(`{"v":1,"channels":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ev, err := ParseEvidence(b)
		if refused(t, err, ErrEvidence) {
			return
		}
		if len(ev.Channels) == 0 || len(ev.Channels) > MaxEvidenceChannels || len(ev.Samples) != len(ev.Channels) {
			t.Fatalf("%d channels, %d sample rows", len(ev.Channels), len(ev.Samples))
		}
		for _, xs := range ev.Samples {
			if len(xs) != len(ev.Samples[0]) {
				t.Fatal("uneven channels")
			}
			for _, x := range xs {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Fatal("non-finite sample")
				}
			}
		}
	})
}

func TestAckRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 21, 10, 31, 0, 0, time.UTC)
	for _, a := range []Ack{
		{AlertID: "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", Verdict: VerdictConfirmed, By: "alice", Applied: true, Windows: 12, At: at},
		{Start: at.Add(-time.Minute), End: at, Label: LabelNonSeizure, Windows: 0, Reason: "learning is off", At: at},
		{Reason: `alert: invalid feedback: field "verdict": "maybe"`, At: at},
		{Start: at.Add(-time.Minute), End: at, Label: LabelSeizure, By: "dr. müller", Sender: "clinician-alice", Applied: true,
			Windows: 61, Replaced: 12, FinalAt: at.Add(time.Minute), Note: "replaces the non-seizure label by bob on 12 windows", At: at},
	} {
		b := AppendAck(nil, a)
		got, err := ParseAck(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if got.AlertID != a.AlertID || got.Verdict != a.Verdict || got.Label != a.Label || got.By != a.By ||
			got.Applied != a.Applied || got.Windows != a.Windows || got.Reason != a.Reason || !got.At.Equal(a.At) ||
			!got.Start.Equal(a.Start) || !got.End.Equal(a.End) || got.Sender != a.Sender || got.Replaced != a.Replaced ||
			!got.FinalAt.Equal(a.FinalAt) || got.Note != a.Note {
			t.Errorf("%s: got %+v", b, got)
		}
	}
	for _, bad := range []string{`{"v":2,"status":"applied"}`, `{"v":1,"status":"maybe"}`, `{"v":1,"status":"applied","x":1}`, `{"v":1,"status":"applied","windows":-1}`,
		`{"v":1,"status":"applied","windows":2,"replaced":3}`} {
		if _, err := ParseAck([]byte(bad)); !errors.Is(err, ErrAck) {
			t.Errorf("%s accepted: %v", bad, err)
		}
	}
}

func TestAckOf(t *testing.T) {
	s, e := time.Unix(100, 0), time.Unix(200, 0)
	for _, tt := range []struct {
		lab              Label
		verdict, label   string
		interval, byKept bool
	}{
		{Label{AlertID: "x", Seizure: true, By: "bob", Sender: "clinician-bob"}, VerdictConfirmed, "", false, true},
		{Label{AlertID: "x"}, VerdictRejected, "", false, false},
		{Label{Start: s, End: e, Seizure: true}, "", LabelSeizure, true, false},
		{Label{Start: s, End: e}, "", LabelNonSeizure, true, false},
	} {
		a := AckOf(tt.lab)
		if a.Verdict != tt.verdict || a.Label != tt.label || (a.By != "") != tt.byKept || a.Sender != tt.lab.Sender || (!a.Start.IsZero()) != tt.interval {
			t.Errorf("AckOf(%+v) = %+v", tt.lab, a)
		}
	}
}

// FuzzParseAck checks that no input panics and that an accepted
// acknowledgement encodes and parses to itself.
func FuzzParseAck(f *testing.F) {
	f.Add([]byte(`{"v":1,"status":"applied","alert_id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","verdict":"confirmed","by":"alice","windows":12,"at":"2026-11-21T10:31:00.000Z"}`))
	f.Add([]byte(`{"v":1,"status":"refused","reason":"learning is off","windows":0,"at":"2026-11-21T10:31:00Z"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ParseAck(b)
		if refused(t, err, ErrAck) {
			return
		}
		if a.Windows < 0 {
			t.Fatalf("windows %d", a.Windows)
		}
	})
}
