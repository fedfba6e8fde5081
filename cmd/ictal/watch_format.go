package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ictal/ictal/alert"
)

// watchLine renders one MQTT message of the ictal contract as a line for a
// clinician's terminal: local time of receipt, the bed (site/bed), and
// what happened. A message that does not follow the contract is shown as
// MALFORMED with its payload quoted and cut to 120 bytes. Whatever the
// topic and payload hold, the line holds printable characters only (see
// printable).
func watchLine(topic string, payload []byte, retained bool, at time.Time) string {
	where, kind := topic, ""
	if i := strings.LastIndexByte(topic, '/'); i >= 0 {
		where, kind = topic[:i], topic[i+1:]
	}
	if kind == "ack" && strings.HasSuffix(where, "/feedback") {
		where, kind = strings.TrimSuffix(where, "/feedback"), "feedback/ack"
	}
	if i := strings.LastIndex(where, "/feedback/from"); i >= 0 && i+len("/feedback/from") == len(where) {
		where, kind = where[:i], "feedback" // …/feedback/from/<sender>: feedback under its sender's name
	}
	where = strings.TrimPrefix(where, "ictal/")
	var b strings.Builder
	b.WriteString(at.Local().Format("2006-01-02 15:04:05"))
	b.WriteString("  ")
	b.WriteString(where)
	b.WriteString("  ")
	what, err := describe(kind, payload)
	if err != nil {
		fmt.Fprintf(&b, "MALFORMED %s message (%v): %s", kind, err, quoteCut(payload, 120))
	} else {
		b.WriteString(what)
	}
	if retained {
		b.WriteString("  (retained)")
	}
	return printable(b.String())
}

// printable escapes, Go-style (\x1b, \u202e), every character of s that
// is not printable: control characters, whose escape sequences would let
// anyone who can publish on a topic the clinician watches move the
// cursor, rewrite earlier lines or retitle the terminal, and format
// characters such as bidirectional overrides, which reorder what is
// shown. Topics and the payloads' strings (ids, channels, algorithm)
// come from the network.
func printable(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, notPrintable) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if notPrintable(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// notPrintable reports whether r is neither a graphic character nor the
// ASCII space. (printable writes a byte that is not UTF-8 as the
// replacement character U+FFFD, which is printable.)
func notPrintable(r rune) bool { return !unicode.IsPrint(r) }

// contractMessage has the fields of every payload of the MQTT contract.
type contractMessage struct {
	V          *int     `json:"v"`
	ID         string   `json:"id"`
	Onset      string   `json:"onset"`
	DetectedAt string   `json:"detected_at"`
	End        *string  `json:"end"`
	Score      *float64 `json:"score"`
	Algorithm  string   `json:"algorithm"`
	Channels   []string `json:"channels"`
	Kind       string   `json:"kind"`
	State      string   `json:"state"`
	Artifact   string   `json:"artifact"`
	Scored     int      `json:"scored"`
	Since      string   `json:"since"`
	T          string   `json:"t"`
	AlertID    string   `json:"alert_id"`
	Verdict    string   `json:"verdict"`
	Start      string   `json:"start"`
	Label      string   `json:"label"`
}

// clock parses an RFC 3339 time and returns it as local wall-clock time.
func clock(s string) (string, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return "", fmt.Errorf("%q is not an RFC 3339 time", s)
	}
	return t.Local().Format("15:04:05"), nil
}

// quoteCut quotes at most n bytes of p, saying how much was cut.
func quoteCut(p []byte, n int) string {
	if len(p) <= n {
		return strconv.Quote(string(p))
	}
	return strconv.Quote(string(p[:n])) + fmt.Sprintf("… (%d bytes)", len(p))
}

// describe renders a payload of the given kind (the topic's last level,
// or feedback/ack).
func describe(kind string, payload []byte) (string, error) {
	switch kind {
	case "evidence":
		return describeEvidence(payload)
	case "feedback/ack":
		a, err := alert.ParseAck(payload)
		if err != nil {
			return "", err
		}
		return describeAck(a), nil
	}
	m, err := parseContract(payload)
	if err != nil {
		return "", err
	}
	switch kind {
	case "alert", "end":
		return describeAlert(m)
	case "status":
		return describeStatus(m)
	case "score":
		return describeScore(m)
	case "feedback":
		return describeFeedback(m)
	}
	return "", fmt.Errorf("unknown topic kind %q", kind)
}

// describeEvidence renders the raw EEG published with an alert.
func describeEvidence(payload []byte) (string, error) {
	ev, err := alert.ParseEvidence(payload)
	if err != nil {
		return "", err
	}
	secs := float64(len(ev.Samples[0])) / ev.Rate
	return fmt.Sprintf("evidence for alert %s: %s, %.1f s at %g Hz", ev.AlertID, strings.Join(ev.Channels, ","), secs, ev.Rate), nil
}

// parseContract decodes a JSON payload of the contract, which must be
// UTF-8 and of version 1.
func parseContract(payload []byte) (*contractMessage, error) {
	var m contractMessage
	if !utf8.Valid(payload) {
		return nil, fmt.Errorf("not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if m.V == nil || *m.V != 1 {
		return nil, fmt.Errorf(`"v" is not 1`)
	}
	return &m, nil
}

// describeAlert renders an alert, or the end of its seizure when m has
// an "end".
func describeAlert(m *contractMessage) (string, error) {
	if m.ID == "" {
		return "", fmt.Errorf(`no "id"`)
	}
	onset, err := clock(m.Onset)
	if err != nil {
		return "", fmt.Errorf(`"onset": %v`, err)
	}
	if m.End != nil {
		end, err := clock(*m.End)
		if err != nil {
			return "", fmt.Errorf(`"end": %v`, err)
		}
		return fmt.Sprintf("seizure ended  onset %s  end %s  (id %s)", onset, end, m.ID), nil
	}
	if m.Score == nil {
		return "", fmt.Errorf(`no "score"`)
	}
	head, err := alertHeading(m.Kind)
	if err != nil {
		return "", err
	}
	chans := strings.Join(m.Channels, ",")
	if chans == "" {
		chans = "-"
	}
	return fmt.Sprintf("%s  onset %s  score %.2f  channels %s  (%s, id %s)", head, onset, *m.Score, chans, m.Algorithm, m.ID), nil
}

// alertHeading names an alert's kind for the clinician; a kind outside
// the contract is an error, so that the alert is shown as MALFORMED with
// its payload rather than as a kind it is not.
func alertHeading(kind string) (string, error) {
	if err := alert.CheckKind(kind); err != nil {
		return "", err
	}
	switch kind {
	case alert.KindMotor:
		return "MOTOR SEIZURE ALERT (convulsive)", nil
	case alert.KindStatusEpilepticus:
		return "STATUS EPILEPTICUS ALERT (seizure lasting 5 min or more)", nil
	}
	return "SEIZURE ALERT", nil
}

// describeStatus renders the monitor's state.
func describeStatus(m *contractMessage) (string, error) {
	switch m.State {
	case "offline":
		return "status OFFLINE: monitor not connected", nil
	case "online", "signal-lost", "electrode-off", "artifact":
		since, err := clock(m.Since)
		if err != nil {
			return "", fmt.Errorf(`"since": %v`, err)
		}
		// Not scored, or scored on the channels left (scored): the kind
		// and channels say why.
		var line string
		switch m.State {
		case "online":
			return "status online since " + since, nil
		case "artifact":
			what := m.Artifact
			if len(m.Channels) > 0 {
				what += " on " + strings.Join(m.Channels, ",")
			}
			line = "status ARTIFACT (" + what + ") since " + since
		default:
			line = "status " + strings.ToUpper(m.State)
			if len(m.Channels) > 0 {
				line += " (" + strings.Join(m.Channels, ",") + ")"
			}
			line += " since " + since
		}
		if m.Scored > 0 {
			line += fmt.Sprintf(", monitoring the other %d channels", m.Scored)
		}
		return line, nil
	}
	return "", fmt.Errorf("unknown state %q", m.State)
}

// describeScore renders a window's score.
func describeScore(m *contractMessage) (string, error) {
	if m.Score == nil {
		return "", fmt.Errorf(`no "score"`)
	}
	t, err := clock(m.T)
	if err != nil {
		return "", fmt.Errorf(`"t": %v`, err)
	}
	return "score " + strconv.FormatFloat(*m.Score, 'f', 3, 64) + " at " + t, nil
}

// describeFeedback renders a clinician's feedback: a verdict on an alert
// or a labelled interval.
func describeFeedback(m *contractMessage) (string, error) {
	if m.AlertID != "" {
		return "feedback: alert " + m.AlertID + " " + m.Verdict, nil
	}
	s, err1 := clock(m.Start)
	var end string
	if m.End != nil {
		end = *m.End
	}
	e, err2 := clock(end)
	if err1 != nil || err2 != nil {
		return "", fmt.Errorf("neither a verdict nor an interval")
	}
	return "feedback: " + m.Label + " from " + s + " to " + e, nil
}

// describeAck renders the daemon's answer to a feedback message.
func describeAck(a alert.Ack) string {
	what := "a malformed message"
	switch {
	case a.AlertID != "":
		what = a.Verdict + " alert " + a.AlertID
	case a.Label != "":
		what = a.Label + " " + a.Start.Local().Format("15:04:05") + "–" + a.End.Local().Format("15:04:05")
	}
	if a.By != "" {
		what += " by " + a.By
	}
	if a.Sender != "" {
		what += " (sender " + a.Sender + ")"
	}
	if a.Applied {
		line := fmt.Sprintf("feedback APPLIED: %s, learned on %d windows", what, a.Windows)
		if !a.FinalAt.IsZero() {
			line += ", final at " + a.FinalAt.Local().Format("15:04:05")
		}
		if a.Note != "" {
			line += "; " + a.Note
		}
		return line
	}
	return "feedback REFUSED: " + what + ": " + a.Reason
}
