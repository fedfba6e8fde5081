package alert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
	"unicode/utf8"
)

// Size bounds of the payloads ParseAlert, ParseEventEnd, ParseStatus and
// ParseScore accept, and of the channel lists they carry.
const (
	MaxAlertSize  = 8 << 10
	MaxEndSize    = 1 << 10
	MaxStatusSize = 4 << 10
	MaxScoreSize  = 256
	MaxChannels   = 64
)

// ErrPayload is wrapped by every error of ParseAlert, ParseEventEnd,
// ParseStatus and ParseScore.
var ErrPayload = errors.New("alert: invalid payload")

// decodeStrict decodes exactly one JSON object of at most max bytes of
// valid UTF-8 into v, refusing unknown fields and trailing data.
func decodeStrict(b []byte, max int, v any) error {
	if len(b) > max {
		return fmt.Errorf("%d bytes, more than %d", len(b), max)
	}
	if !utf8.Valid(b) {
		return errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the object")
	}
	return nil
}

// payloadErr wraps ErrPayload with what was wrong.
func payloadErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrPayload, fmt.Sprintf(format, args...))
}

// unitScore reports whether s is a score of the contract: in [0, 1].
func unitScore(s float64) bool { return !math.IsNaN(s) && s >= 0 && s <= 1 }

// decodeV1 decodes a payload of at most max bytes strictly into m and
// checks that its version, *v once decoded, is 1. kind ("status",
// "score") starts its errors.
func decodeV1(kind string, b []byte, max int, m any, v *int) error {
	if err := decodeStrict(b, max, m); err != nil {
		return payloadErr("%s: %v", kind, err)
	}
	if *v != 1 {
		return payloadErr(`%s: field "v" is %d, want 1`, kind, *v)
	}
	return nil
}

// eventHead is what the payloads of an event, its alert and its end,
// begin with: the version and the event's id.
type eventHead struct {
	V  int    `json:"v"`
	ID string `json:"id"`
}

// decodeEvent decodes an event payload of at most max bytes strictly into
// m, whose head is h, checks that "v" is 1 and "id" a UUID, and returns
// the id in lower case. kind ("alert", "end") starts its errors.
func decodeEvent(kind string, b []byte, max int, m any, h *eventHead) (string, error) {
	if err := decodeV1(kind, b, max, m, &h.V); err != nil {
		return "", err
	}
	id, ok := normaliseUUID(h.ID)
	if !ok {
		return "", payloadErr(`%s: field "id": %q is not a UUID`, kind, h.ID)
	}
	return id, nil
}

// ParseAlert reads an alert payload (AppendAlert's) strictly, as a
// receiver must before showing it: at most MaxAlertSize bytes, exactly the
// contract's fields, "v" 1, a UUID id (returned in lower case), onset and
// detected_at, a score in [0, 1], at most MaxChannels channels and an
// optional "kind" of the contract (KindSeizure, KindMotor,
// KindStatusEpilepticus; Event.Kind is "" for a seizure, whether "kind"
// was absent or "seizure"). An unknown kind is refused like any other
// field outside the contract: a reader cannot tell a clinician what an
// alert of a kind it does not know means. Whether site and bed match the
// topic is for the caller to check.
func ParseAlert(b []byte) (*Event, error) {
	var m struct {
		eventHead
		Site       string    `json:"site"`
		Bed        string    `json:"bed"`
		Onset      time.Time `json:"onset"`
		DetectedAt time.Time `json:"detected_at"`
		Score      float64   `json:"score"`
		Algorithm  string    `json:"algorithm"`
		Channels   []string  `json:"channels"`
		Kind       *string   `json:"kind"`
	}
	id, err := decodeEvent("alert", b, MaxAlertSize, &m, &m.eventHead)
	if err != nil {
		return nil, err
	}
	switch {
	case m.Onset.IsZero() || m.DetectedAt.IsZero():
		return nil, payloadErr(`alert: fields "onset" and "detected_at" are required`)
	case !unitScore(m.Score):
		return nil, payloadErr(`alert: field "score" is %g, want [0, 1]`, m.Score)
	case len(m.Channels) > MaxChannels:
		return nil, payloadErr("alert: %d channels, more than %d", len(m.Channels), MaxChannels)
	}
	kind, err := parseKind(m.Kind)
	if err != nil {
		return nil, payloadErr("alert: %v", err)
	}
	return &Event{ID: id, Site: m.Site, Bed: m.Bed, Onset: m.Onset, DetectedAt: m.DetectedAt,
		Score: m.Score, Algorithm: m.Algorithm, Channels: m.Channels, Kind: kind}, nil
}

// parseKind checks an alert's optional "kind" (nil when absent or null)
// and returns it as Event.Kind holds it: "" for the default, seizure. An
// empty string is not a kind: a writer omits the field instead.
func parseKind(k *string) (string, error) {
	switch {
	case k == nil:
		return "", nil
	case *k == "":
		return "", kindError(*k)
	case *k == KindSeizure:
		return "", nil
	}
	if err := CheckKind(*k); err != nil {
		return "", err
	}
	return *k, nil
}

// CheckKind checks an alert kind read from a reader's own format (a JSON
// line's "kind", where absent and "" are alike): nil for "" and the Kind
// constants, otherwise an error that names the field and the value, as
// ParseAlert's does.
func CheckKind(k string) error {
	if ValidKind(k) {
		return nil
	}
	return kindError(k)
}

// kindError is the error of a "kind" outside the contract.
func kindError(k string) error {
	return fmt.Errorf(`field "kind": %q is not a kind of the contract (%s, %s or %s)`, k, KindSeizure, KindMotor, KindStatusEpilepticus)
}

// ParseEventEnd reads an event end payload (AppendEventEnd's) strictly:
// at most MaxEndSize bytes, "v" 1, a UUID id (in lower case), an end and
// a score in [0, 1].
func ParseEventEnd(b []byte) (*Event, error) {
	var m struct {
		eventHead
		Onset      time.Time `json:"onset"`
		DetectedAt time.Time `json:"detected_at"`
		End        time.Time `json:"end"`
		Score      float64   `json:"score"`
	}
	id, err := decodeEvent("end", b, MaxEndSize, &m, &m.eventHead)
	if err != nil {
		return nil, err
	}
	switch {
	case m.End.IsZero():
		return nil, payloadErr(`end: field "end" is required`)
	case !unitScore(m.Score):
		return nil, payloadErr(`end: field "score" is %g, want [0, 1]`, m.Score)
	}
	return &Event{ID: id, Onset: m.Onset, DetectedAt: m.DetectedAt, End: m.End, Score: m.Score}, nil
}

// ParseStatus reads a status payload (AppendStatus's, or OfflinePayload)
// strictly: at most MaxStatusSize bytes, "v" 1, a state of the contract,
// "since" unless offline, an artifact kind exactly in state artifact, at
// most MaxChannels channels, and "scored" (1 to MaxChannels) only in
// states electrode-off and artifact.
func ParseStatus(b []byte) (Status, error) {
	var m struct {
		V        int       `json:"v"`
		State    State     `json:"state"`
		Since    time.Time `json:"since"`
		Artifact string    `json:"artifact"`
		Channels []string  `json:"channels"`
		Scored   int       `json:"scored"`
	}
	if err := decodeV1("status", b, MaxStatusSize, &m, &m.V); err != nil {
		return Status{}, err
	}
	switch m.State {
	case StateOffline:
	case StateOnline, StateSignalLost, StateElectrodeOff:
		if m.Artifact != "" {
			return Status{}, payloadErr(`status: field "artifact" in state %q`, m.State)
		}
	case StateArtifact:
		switch m.Artifact {
		case "muscle", "eye", "electrode", "settling":
		default:
			return Status{}, payloadErr(`status: field "artifact": %q, want muscle, eye, electrode or settling`, m.Artifact)
		}
	default:
		return Status{}, payloadErr(`status: field "state": %q is not a state of the contract`, m.State)
	}
	switch {
	case m.State != StateOffline && m.Since.IsZero():
		return Status{}, payloadErr(`status: field "since" is required`)
	case len(m.Channels) > MaxChannels:
		return Status{}, payloadErr("status: %d channels, more than %d", len(m.Channels), MaxChannels)
	case m.Scored != 0 && m.State != StateElectrodeOff && m.State != StateArtifact:
		return Status{}, payloadErr(`status: field "scored" in state %q`, m.State)
	case m.Scored < 0 || m.Scored > MaxChannels:
		return Status{}, payloadErr(`status: field "scored": %d, want 1..%d channels`, m.Scored, MaxChannels)
	}
	return Status{State: m.State, Since: m.Since, Artifact: m.Artifact, Channels: m.Channels, Scored: m.Scored}, nil
}

// ParseScore reads a score payload (AppendScore's) strictly: at most
// MaxScoreSize bytes, "v" 1, "t" and a score in [0, 1].
func ParseScore(b []byte) (Score, error) {
	var m struct {
		V     int       `json:"v"`
		T     time.Time `json:"t"`
		Score float64   `json:"score"`
	}
	if err := decodeV1("score", b, MaxScoreSize, &m, &m.V); err != nil {
		return Score{}, err
	}
	switch {
	case m.T.IsZero():
		return Score{}, payloadErr(`score: field "t" is required`)
	case !unitScore(m.Score):
		return Score{}, payloadErr(`score: field "score" is %g, want [0, 1]`, m.Score)
	}
	return Score{T: m.T, Score: m.Score, Usable: true}, nil
}

// ValidID reports whether s is an event ID of the contract: a UUID in
// the 8-4-4-4-12 hexadecimal form (either case).
func ValidID(s string) bool {
	_, ok := normaliseUUID(s)
	return ok
}
