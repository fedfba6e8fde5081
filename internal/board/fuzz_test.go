package board

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
)

// FuzzFeedbackForm feeds /feedback form bodies to feedbackPayload: it must
// never panic, and whatever it accepts must pass alert.ParseFeedback with
// the clinician's name in "by" and name a bed that is a sane identifier.
func FuzzFeedbackForm(f *testing.F) {
	const known = "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b"
	for _, seed := range []string{
		"alert_id=" + known + "&verdict=confirmed",
		"alert_id=" + strings.ToUpper(known) + "&verdict=rejected",
		"alert_id=" + known + "&verdict=maybe",
		"alert_id=" + known + "&verdict=confirmed&verdict=rejected",
		"bed=bed-3&start=2026-11-21T10:00:00Z&end=2026-11-21T10:02:00Z&label=seizure",
		"bed=bed-3&start=2026-11-21T10:02:00Z&end=2026-11-21T10:00:00Z&label=non-seizure",
		"bed=..%2F&start=x&end=y&label=seizure",
		"alert_id=" + known + "&bed=bed-3&verdict=confirmed",
		"csrf=abc&alert_id=%00",
	} {
		f.Add(seed)
	}
	now := time.Date(2026, 11, 21, 10, 5, 0, 0, time.UTC)
	bedOf := func(id string) (string, bool) { return "bed-3", id == known }
	f.Fuzz(func(t *testing.T, body string) {
		form, err := url.ParseQuery(body)
		if err != nil {
			return
		}
		bedName, p, err := feedbackPayload(form, "alice", now, bedOf)
		if err != nil {
			return
		}
		lab, err := alert.ParseFeedback(p, now)
		if err != nil {
			t.Fatalf("accepted %q but built %s: %v", body, p, err)
		}
		if lab.By != "alice" || !validIdent(bedName) {
			t.Fatalf("accepted %q: by %q, bed %q", body, lab.By, bedName)
		}
	})
}
