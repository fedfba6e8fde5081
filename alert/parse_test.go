package alert

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// The parsers read back what the encoders write.
func TestParsersReadTheEncoders(t *testing.T) {
	at := time.Date(2026, 11, 21, 10, 30, 20, 0, time.UTC)
	e := &Event{ID: "8F1D2C3B-4A5E-4F60-8A7B-9C0D1E2F3A4B", Site: "ward-7", Bed: "bed-3", Onset: at.Add(-5 * time.Second),
		DetectedAt: at, End: at.Add(time.Minute), Score: 0.93, Algorithm: "UOB", Channels: []string{"T7-P7", "F7-T7"}}
	a, err := ParseAlert(AppendAlert(nil, e))
	if err != nil || a.ID != strings.ToLower(e.ID) || a.Site != e.Site || a.Bed != e.Bed || !a.Onset.Equal(e.Onset) ||
		!a.DetectedAt.Equal(e.DetectedAt) || a.Score != e.Score || a.Algorithm != e.Algorithm || !slices.Equal(a.Channels, e.Channels) {
		t.Errorf("alert %+v, %v", a, err)
	}
	end, err := ParseEventEnd(AppendEventEnd(nil, e))
	if err != nil || end.ID != a.ID || !end.End.Equal(e.End) || end.Score != e.Score {
		t.Errorf("end %+v, %v", end, err)
	}
	for _, st := range []Status{
		{State: StateOnline, Since: at},
		{State: StateArtifact, Since: at, Artifact: "muscle", Channels: []string{"C3"}},
		{State: StateArtifact, Since: at, Artifact: "settling"},
		{State: StateArtifact, Since: at, Artifact: "eye", Channels: []string{"Fp1", "Fp2"}, Scored: 21},
		{State: StateElectrodeOff, Since: at, Channels: []string{"T7"}, Scored: 22},
		{State: StateElectrodeOff, Since: at, Channels: []string{"T7", "P7"}},
	} {
		got, err := ParseStatus(AppendStatus(nil, st))
		if err != nil || got.State != st.State || !got.Since.Equal(st.Since) || got.Artifact != st.Artifact || !slices.Equal(got.Channels, st.Channels) || got.Scored != st.Scored {
			t.Errorf("status %+v: %+v, %v", st, got, err)
		}
	}
	if got, err := ParseStatus([]byte(OfflinePayload)); err != nil || got.State != StateOffline {
		t.Errorf("last will: %+v, %v", got, err)
	}
	sc, err := ParseScore(AppendScore(nil, Score{T: at, Score: 0.25}))
	if err != nil || !sc.T.Equal(at) || sc.Score != 0.25 {
		t.Errorf("score %+v, %v", sc, err)
	}
}

func TestParsersReject(t *testing.T) {
	const id = `"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b"`
	const when = `"2026-11-21T10:30:20Z"`
	tests := []struct {
		name   string
		parse  func([]byte) error
		in     string
		errHas string
	}{
		{"alert not JSON", alertErr, `{`, "unexpected EOF"},
		{"alert unknown field", alertErr, `{"v":1,"id":` + id + `,"onset":` + when + `,"detected_at":` + when + `,"score":1,"x":1}`, `unknown field "x"`},
		{"alert bad id", alertErr, `{"v":1,"id":"x","onset":` + when + `,"detected_at":` + when + `}`, "not a UUID"},
		{"alert score 2", alertErr, `{"v":1,"id":` + id + `,"onset":` + when + `,"detected_at":` + when + `,"score":2}`, `"score" is 2`},
		{"alert no onset", alertErr, `{"v":1,"id":` + id + `,"score":1}`, `"onset"`},
		{"alert oversized", alertErr, `{"v":1,"algorithm":"` + strings.Repeat("a", MaxAlertSize) + `"}`, "more than"},
		{"alert v 2", alertErr, `{"v":2}`, `"v" is 2`},
		{"alert too many channels", alertErr, `{"v":1,"id":` + id + `,"onset":` + when + `,"detected_at":` + when + `,"score":1,"channels":["C3"` + strings.Repeat(`,"C3"`, MaxChannels) + `]}`, "65 channels, more than 64"},
		{"end no end", endErr, `{"v":1,"id":` + id + `,"score":1}`, `"end" is required`},
		{"end v 2", endErr, `{"v":2,"id":` + id + `,"end":` + when + `}`, `end: field "v" is 2`},
		{"end bad id", endErr, `{"v":1,"id":"x","end":` + when + `}`, `end: field "id": "x" is not a UUID`},
		{"end score 2", endErr, `{"v":1,"id":` + id + `,"end":` + when + `,"score":2}`, `end: field "score" is 2`},
		{"status v 2", statusErr, `{"v":2,"state":"online","since":` + when + `}`, `status: field "v" is 2`},
		{"status unknown state", statusErr, `{"v":1,"state":"asleep","since":` + when + `}`, `"asleep" is not a state`},
		{"status artifact kind", statusErr, `{"v":1,"state":"artifact","artifact":"ghost","since":` + when + `}`, `"ghost"`},
		{"status artifact when online", statusErr, `{"v":1,"state":"online","artifact":"eye","since":` + when + `}`, `"artifact" in state`},
		{"status scored when online", statusErr, `{"v":1,"state":"online","scored":3,"since":` + when + `}`, `"scored" in state "online"`},
		{"status scored negative", statusErr, `{"v":1,"state":"electrode-off","scored":-1,"since":` + when + `}`, `"scored": -1, want 1..64`},
		{"status scored too many", statusErr, `{"v":1,"state":"artifact","artifact":"eye","scored":65,"since":` + when + `}`, `"scored": 65`},
		{"status scored not a number", statusErr, `{"v":1,"state":"artifact","artifact":"eye","scored":"3","since":` + when + `}`, `scored`},
		{"status no since", statusErr, `{"v":1,"state":"online"}`, `"since" is required`},
		{"status not UTF-8", statusErr, "{\"v\":1,\"state\":\"\xff\"}", "UTF-8"},
		{"score NaN-like", scoreErr, `{"v":1,"t":` + when + `,"score":-0.5}`, `"score" is -0.5`},
		{"score v 2", scoreErr, `{"v":2,"t":` + when + `,"score":0.5}`, `score: field "v" is 2`},
		{"score no t", scoreErr, `{"v":1,"score":0.5}`, `score: field "t" is required`},
		{"score trailing", scoreErr, `{"v":1,"t":` + when + `,"score":0.5}{}`, "after the object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.parse([]byte(tt.in))
			if !errors.Is(err, ErrPayload) || !strings.Contains(err.Error(), tt.errHas) {
				t.Fatalf("got %v, want an ErrPayload containing %q", err, tt.errHas)
			}
		})
	}
	if !ValidID("8F1D2C3B-4A5E-4F60-8A7B-9C0D1E2F3A4B") || ValidID("8f1d2c3b4a5e4f608a7b9c0d1e2f3a4b") {
		t.Error("ValidID")
	}
}

func alertErr(b []byte) error  { _, err := ParseAlert(b); return err }
func endErr(b []byte) error    { _, err := ParseEventEnd(b); return err }
func statusErr(b []byte) error { _, err := ParseStatus(b); return err }
func scoreErr(b []byte) error  { _, err := ParseScore(b); return err }

// refused reports whether a parser refused its input (err != nil), and
// fails the test when the error does not wrap the parser's sentinel want.
func refused(t *testing.T, err, want error) bool {
	t.Helper()
	if err != nil && !errors.Is(err, want) {
		t.Fatalf("error %v does not wrap %v", err, want)
	}
	return err != nil
}

// FuzzParsePayloads checks that no input panics any of the four parsers
// and that what they accept keeps the contract's bounds: an alert's kind
// is one of the contract's, "" for a seizure, and survives encoding again.
func FuzzParsePayloads(f *testing.F) {
	at := time.Date(2026, 11, 21, 10, 30, 20, 0, time.UTC)
	e := &Event{ID: NewID(), Site: "w", Bed: "b", Onset: at, DetectedAt: at, End: at, Score: 0.5, Channels: []string{"T7"}}
	f.Add(AppendAlert(nil, e))
	for _, k := range []string{KindMotor, KindStatusEpilepticus, "absence"} {
		m := *e
		m.Kind = k
		f.Add(AppendAlert(nil, &m))
	}
	f.Add(AppendEventEnd(nil, e))
	f.Add(AppendStatus(nil, Status{State: StateArtifact, Since: at, Artifact: "eye", Channels: []string{"Fp1"}}))
	f.Add(AppendStatus(nil, Status{State: StateElectrodeOff, Since: at, Channels: []string{"T7"}, Scored: 22}))
	f.Add(AppendScore(nil, Score{T: at, Score: 1}))
	f.Add([]byte(OfflinePayload))
	f.Fuzz(func(t *testing.T, b []byte) {
		if a, err := ParseAlert(b); err == nil && (!ValidID(a.ID) || !unitScore(a.Score) || len(a.Channels) > MaxChannels ||
			!ValidKind(a.Kind) || a.Kind == KindSeizure) {
			t.Fatalf("alert accepted: %+v", a)
		} else if err != nil && !errors.Is(err, ErrPayload) {
			t.Fatal(err)
		} else if err == nil && len(b) < MaxAlertSize/2 {
			// Well inside the bound: encoding again (times in milliseconds,
			// which may lengthen them) cannot outgrow it.
			if again, err := ParseAlert(AppendAlert(nil, a)); err != nil || again.Kind != a.Kind {
				t.Fatalf("alert %+v encoded again: %+v, %v", a, again, err)
			}
		}
		if e, err := ParseEventEnd(b); err == nil && (!ValidID(e.ID) || e.End.IsZero()) {
			t.Fatalf("end accepted: %+v", e)
		}
		if s, err := ParseStatus(b); err == nil && (s.State != StateOffline && s.Since.IsZero() ||
			s.Scored < 0 || s.Scored > MaxChannels || s.Scored != 0 && s.State != StateElectrodeOff && s.State != StateArtifact) {
			t.Fatalf("status accepted: %+v", s)
		}
		if s, err := ParseScore(b); err == nil && !unitScore(s.Score) {
			t.Fatalf("score accepted: %+v", s)
		}
	})
}
