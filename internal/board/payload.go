package board

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// Size bounds of the messages the board accepts (evidence and
// acknowledgements are bounded by package alert's parsers).
const (
	maxAlertSize  = 8 << 10
	maxEndSize    = 1 << 10
	maxStatusSize = 4 << 10
	maxScoreSize  = 256
	maxChannels   = 64
)

// Message kinds: the last level(s) of the topic.
const (
	kindAlert    = "alert"
	kindEnd      = "end"
	kindStatus   = "status"
	kindScore    = "score"
	kindEvidence = "evidence"
	kindFeedback = "feedback"
	kindAck      = "feedback/ack"
)

// parseTopic splits ictal/<site>/<bed>/<kind> for the board's site; ok is
// false for another site, a bed that is not a sane identifier, or a kind
// outside the contract.
func parseTopic(site, topic string) (bed, kind string, ok bool) {
	rest, found := strings.CutPrefix(topic, "ictal/"+site+"/")
	if !found {
		return "", "", false
	}
	bed, kind, found = strings.Cut(rest, "/")
	if !found || !validIdent(bed) {
		return "", "", false
	}
	switch kind {
	case kindAlert, kindEnd, kindStatus, kindScore, kindEvidence, kindFeedback, kindAck:
		return bed, kind, true
	}
	return "", "", false
}

// decodeStrict decodes exactly one JSON object of at most max bytes into v,
// refusing unknown fields and trailing data.
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

// alertMsg is an alert payload.
type alertMsg struct {
	V          int       `json:"v"`
	ID         string    `json:"id"`
	Site       string    `json:"site"`
	Bed        string    `json:"bed"`
	Onset      time.Time `json:"onset"`
	DetectedAt time.Time `json:"detected_at"`
	Score      float64   `json:"score"`
	Algorithm  string    `json:"algorithm"`
	Channels   []string  `json:"channels"`
}

// parseAlert checks an alert payload received on site/bed.
func parseAlert(b []byte, site, bed string) (alertMsg, error) {
	var m alertMsg
	if err := decodeStrict(b, maxAlertSize, &m); err != nil {
		return m, err
	}
	switch {
	case m.V != 1:
		return m, fmt.Errorf(`field "v" is %d, want 1`, m.V)
	case !isUUID(m.ID):
		return m, fmt.Errorf(`field "id": %q is not a UUID`, m.ID)
	case m.Site != site || m.Bed != bed:
		return m, fmt.Errorf(`fields "site" and "bed" (%q, %q) differ from the topic's (%q, %q)`, m.Site, m.Bed, site, bed)
	case m.Onset.IsZero() || m.DetectedAt.IsZero():
		return m, errors.New(`fields "onset" and "detected_at" are required`)
	case !unitScore(m.Score):
		return m, fmt.Errorf(`field "score" is %g, want [0, 1]`, m.Score)
	case len(m.Channels) > maxChannels:
		return m, fmt.Errorf("%d channels, more than %d", len(m.Channels), maxChannels)
	}
	m.ID = strings.ToLower(m.ID)
	return m, nil
}

// endMsg is the end of an event.
type endMsg struct {
	V          int       `json:"v"`
	ID         string    `json:"id"`
	Onset      time.Time `json:"onset"`
	DetectedAt time.Time `json:"detected_at"`
	End        time.Time `json:"end"`
	Score      float64   `json:"score"`
}

// parseEnd checks an end payload.
func parseEnd(b []byte) (endMsg, error) {
	var m endMsg
	if err := decodeStrict(b, maxEndSize, &m); err != nil {
		return m, err
	}
	switch {
	case m.V != 1:
		return m, fmt.Errorf(`field "v" is %d, want 1`, m.V)
	case !isUUID(m.ID):
		return m, fmt.Errorf(`field "id": %q is not a UUID`, m.ID)
	case m.End.IsZero():
		return m, errors.New(`field "end" is required`)
	case !unitScore(m.Score):
		return m, fmt.Errorf(`field "score" is %g, want [0, 1]`, m.Score)
	}
	m.ID = strings.ToLower(m.ID)
	return m, nil
}

// statusMsg is a status payload.
type statusMsg struct {
	V        int       `json:"v"`
	State    string    `json:"state"`
	Since    time.Time `json:"since"`
	Artifact string    `json:"artifact"`
	Channels []string  `json:"channels"`
}

// parseStatus checks a status payload.
func parseStatus(b []byte) (statusMsg, error) {
	var m statusMsg
	if err := decodeStrict(b, maxStatusSize, &m); err != nil {
		return m, err
	}
	if m.V != 1 {
		return m, fmt.Errorf(`field "v" is %d, want 1`, m.V)
	}
	switch m.State {
	case "offline":
	case "online", "signal-lost", "electrode-off":
		if m.Artifact != "" {
			return m, fmt.Errorf(`field "artifact" in state %q`, m.State)
		}
	case "artifact":
		switch m.Artifact {
		case "muscle", "eye", "electrode", "settling":
		default:
			return m, fmt.Errorf(`field "artifact": %q, want muscle, eye, electrode or settling`, m.Artifact)
		}
	default:
		return m, fmt.Errorf(`field "state": %q is not a state of the contract`, m.State)
	}
	if m.State != "offline" && m.Since.IsZero() {
		return m, errors.New(`field "since" is required`)
	}
	if len(m.Channels) > maxChannels {
		return m, fmt.Errorf("%d channels, more than %d", len(m.Channels), maxChannels)
	}
	return m, nil
}

// scoreMsg is a score payload.
type scoreMsg struct {
	V     int       `json:"v"`
	T     time.Time `json:"t"`
	Score float64   `json:"score"`
}

// parseScore checks a score payload.
func parseScore(b []byte) (scoreMsg, error) {
	var m scoreMsg
	if err := decodeStrict(b, maxScoreSize, &m); err != nil {
		return m, err
	}
	switch {
	case m.V != 1:
		return m, fmt.Errorf(`field "v" is %d, want 1`, m.V)
	case m.T.IsZero():
		return m, errors.New(`field "t" is required`)
	case !unitScore(m.Score):
		return m, fmt.Errorf(`field "score" is %g, want [0, 1]`, m.Score)
	}
	return m, nil
}

func unitScore(s float64) bool { return !math.IsNaN(s) && s >= 0 && s <= 1 }

// isUUID checks the 8-4-4-4-12 hexadecimal form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}
