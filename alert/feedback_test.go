package alert

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// fbNow is the daemon's clock in the feedback tests.
var fbNow = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func TestParseFeedbackAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Label
	}{
		{"confirmed alert", `{"v":1,"alert_id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","verdict":"confirmed"}`,
			Label{AlertID: "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", Seizure: true, From: "mqtt"}},
		{"rejected alert, upper-case id normalised, keys in any order", ` {"verdict":"rejected", "alert_id":"8F1D2C3B-4A5E-4F60-8A7B-9C0D1E2F3A4B","v":1}` + "\n",
			Label{AlertID: "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", From: "mqtt"}},
		{"seizure interval", `{"v":1,"start":"2026-11-21T09:30:00Z","end":"2026-11-21T09:31:30.5Z","label":"seizure"}`,
			Label{Start: time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC), End: time.Date(2026, 11, 21, 9, 31, 30, 5e8, time.UTC), Seizure: true, From: "mqtt"}},
		{"non-seizure interval with an offset", `{"v":1,"start":"2026-11-21T10:30:00+01:00","end":"2026-11-21T10:45:00+01:00","label":"non-seizure"}`,
			Label{Start: time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC), End: time.Date(2026, 11, 21, 9, 45, 0, 0, time.UTC), From: "mqtt"}},
		{"end within the clock skew", `{"v":1,"start":"2026-11-21T09:59:00Z","end":"2026-11-21T10:01:00Z","label":"seizure"}`,
			Label{Start: time.Date(2026, 11, 21, 9, 59, 0, 0, time.UTC), End: time.Date(2026, 11, 21, 10, 1, 0, 0, time.UTC), Seizure: true, From: "mqtt"}},
		{"verdict by a named clinician", `{"v":1,"alert_id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","verdict":"rejected","by":"Dr. Ana Núñez"}`,
			Label{AlertID: "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", From: "mqtt", By: "Dr. Ana Núñez"}},
		{"interval by a named clinician", `{"by":"alice","v":1,"start":"2026-11-21T09:30:00Z","end":"2026-11-21T09:31:00Z","label":"seizure"}`,
			Label{Start: time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC), End: time.Date(2026, 11, 21, 9, 31, 0, 0, time.UTC), Seizure: true, From: "mqtt", By: "alice"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFeedback([]byte(tt.in), fbNow)
			if err != nil {
				t.Fatal(err)
			}
			if got.AlertID != tt.want.AlertID || got.Seizure != tt.want.Seizure || got.From != tt.want.From || got.By != tt.want.By ||
				!got.Start.Equal(tt.want.Start) || !got.End.Equal(tt.want.End) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseFeedbackRejects(t *testing.T) {
	const id = `"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b"`
	tests := []struct {
		name, in, errHas string
	}{
		{"empty", ``, "end of JSON"},
		{"not an object", `[1]`, "not a JSON object"},
		{"truncated", `{"v":1,"alert_id":` + id, "end of JSON"},
		{"invalid UTF-8", "{\"v\":1,\"alert_id\":\"\xff\",\"verdict\":\"confirmed\"}", "UTF-8"},
		{"oversized", `{"v":1,"alert_id":` + id + `,"verdict":"confirmed"}` + strings.Repeat(" ", MaxFeedbackSize), "more than 4096"},
		{"trailing data", `{"v":1,"alert_id":` + id + `,"verdict":"confirmed"}{}`, "data after the object"},
		{"unknown field", `{"v":1,"alert_id":` + id + `,"verdict":"confirmed","note":"dr x"}`, `unknown field "note"`},
		{"by too long", `{"v":1,"alert_id":` + id + `,"verdict":"confirmed","by":"` + strings.Repeat("a", MaxByLength+1) + `"}`, `field "by"`},
		{"by with a control character", `{"v":1,"alert_id":` + id + `,"verdict":"confirmed","by":"a\u0007b"}`, `field "by"`},
		{"by alone", `{"v":1,"by":"alice"}`, `an interval has exactly`},
		{"key in another case", `{"v":1,"Alert_ID":` + id + `,"verdict":"confirmed"}`, `unknown field "Alert_ID"`},
		{"repeated key", `{"v":1,"alert_id":` + id + `,"verdict":"rejected","verdict":"confirmed"}`, `"verdict" repeated`},
		{"missing v", `{"alert_id":` + id + `,"verdict":"confirmed"}`, `"v" missing`},
		{"v is 2", `{"v":2,"alert_id":` + id + `,"verdict":"confirmed"}`, `"v" is 2`},
		{"v is 1.0", `{"v":1.0,"alert_id":` + id + `,"verdict":"confirmed"}`, `"v" is 1.0`},
		{"v is a string", `{"v":"1","alert_id":` + id + `,"verdict":"confirmed"}`, `"v" is the string "1"`},
		{"id is a number", `{"v":1,"alert_id":12,"verdict":"confirmed"}`, `"alert_id": want a string, got 12`},
		{"id not a UUID", `{"v":1,"alert_id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4g","verdict":"confirmed"}`, "not a UUID"},
		{"unknown verdict", `{"v":1,"alert_id":` + id + `,"verdict":"maybe"}`, `"verdict": "maybe"`},
		{"verdict without id", `{"v":1,"verdict":"confirmed"}`, "exactly the fields"},
		{"both shapes mixed", `{"v":1,"alert_id":` + id + `,"verdict":"confirmed","label":"seizure"}`, "exactly the fields"},
		{"interval missing label", `{"v":1,"start":"2026-11-21T09:30:00Z","end":"2026-11-21T09:31:00Z"}`, "exactly the fields"},
		{"empty label", `{"v":1,"start":"2026-11-21T09:30:00Z","end":"2026-11-21T09:31:00Z","label":""}`, `"label" is empty`},
		{"unknown label", `{"v":1,"start":"2026-11-21T09:30:00Z","end":"2026-11-21T09:31:00Z","label":"artifact"}`, `"label": "artifact"`},
		{"start not RFC 3339", `{"v":1,"start":"21/11/2026 09:30","end":"2026-11-21T09:31:00Z","label":"seizure"}`, `"start"`},
		{"end without zone", `{"v":1,"start":"2026-11-21T09:30:00Z","end":"2026-11-21T09:31:00","label":"seizure"}`, `"end"`},
		{"start after end", `{"v":1,"start":"2026-11-21T09:32:00Z","end":"2026-11-21T09:31:00Z","label":"seizure"}`, "not before end"},
		{"empty interval", `{"v":1,"start":"2026-11-21T09:31:00Z","end":"2026-11-21T09:31:00Z","label":"seizure"}`, "not before end"},
		{"longer than a day", `{"v":1,"start":"2026-11-20T08:00:00Z","end":"2026-11-21T09:00:00Z","label":"non-seizure"}`, "longer than 24h"},
		{"in the future", `{"v":1,"start":"2026-11-21T09:59:00Z","end":"2026-11-21T10:05:00Z","label":"seizure"}`, "in the future"},
		{"older than the horizon", `{"v":1,"start":"2026-11-01T09:00:00Z","end":"2026-11-01T09:05:00Z","label":"seizure"}`, "older than"},
		{"nested object", `{"v":1,"alert_id":{"x":1},"verdict":"confirmed"}`, `want a string, got an object`},
		{"null", `{"v":null}`, `"v" is null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lab, err := ParseFeedback([]byte(tt.in), fbNow)
			if !errors.Is(err, ErrFeedback) {
				t.Fatalf("got %+v, %v; want an ErrFeedback", lab, err)
			}
			if !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("error %q does not say %q", err, tt.errHas)
			}
		})
	}
}

func TestFeedbackRulesLimits(t *testing.T) {
	in := []byte(`{"v":1,"start":"2026-11-21T07:00:00Z","end":"2026-11-21T09:30:00Z","label":"non-seizure"}`)
	if _, err := (FeedbackRules{MaxDuration: 2 * time.Hour}).Parse(in, fbNow); !errors.Is(err, ErrFeedback) {
		t.Errorf("2 h 30 accepted with a 2 h maximum: %v", err)
	}
	if _, err := (FeedbackRules{Horizon: 2 * time.Hour}).Parse(in, fbNow); !errors.Is(err, ErrFeedback) {
		t.Errorf("a start 3 h ago accepted with a 2 h horizon: %v", err)
	}
	if _, err := (FeedbackRules{Skew: time.Hour}).Parse([]byte(`{"v":1,"start":"2026-11-21T09:59:00Z","end":"2026-11-21T10:30:00Z","label":"seizure"}`), fbNow); err != nil {
		t.Errorf("an end 30 min ahead rejected with a 1 h skew: %v", err)
	}
}

// FuzzParseFeedback checks that no input panics, that accepted input
// satisfies every rule, and that an accepted label is stable when
// re-encoded.
func FuzzParseFeedback(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"alert_id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","verdict":"confirmed"}`,
		`{"v":1,"start":"2026-11-21T09:30:00Z","end":"2026-11-21T09:31:30.5Z","label":"seizure"}`,
		`{"v":1,"alert_id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","verdict":"rejected","verdict":"confirmed"}`,
		`{"v":1.0}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lab, err := ParseFeedback(b, fbNow)
		if refused(t, err, ErrFeedback) {
			return
		}
		if len(b) > MaxFeedbackSize {
			t.Fatalf("accepted %d bytes", len(b))
		}
		if lab.From != "mqtt" {
			t.Fatalf("from %q", lab.From)
		}
		if lab.AlertID != "" {
			if _, ok := normaliseUUID(lab.AlertID); !ok || strings.ToLower(lab.AlertID) != lab.AlertID {
				t.Fatalf("alert id %q", lab.AlertID)
			}
			if !lab.Start.IsZero() || !lab.End.IsZero() {
				t.Fatalf("verdict with an interval: %+v", lab)
			}
			return
		}
		if !lab.Start.Before(lab.End) || lab.End.Sub(lab.Start) > DefaultFeedbackMaxDuration ||
			lab.End.After(fbNow.Add(DefaultFeedbackSkew)) || lab.Start.Before(fbNow.Add(-DefaultFeedbackHorizon)) {
			t.Fatalf("accepted interval %v .. %v", lab.Start, lab.End)
		}
	})
}
