package alert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ErrFeedback is wrapped by every error of ParseFeedback: the message is
// malformed or outside the accepted limits and must not be applied.
var ErrFeedback = errors.New("alert: invalid feedback")

// Feedback limits; zero fields of FeedbackRules take these values.
const (
	// MaxFeedbackSize is the largest feedback payload accepted, in bytes.
	MaxFeedbackSize = 4 << 10
	// MaxByLength is the longest clinician name ("by") accepted, in bytes.
	MaxByLength = 128
	// DefaultFeedbackMaxDuration is the longest interval a clinician may
	// label in one message.
	DefaultFeedbackMaxDuration = 24 * time.Hour
	// DefaultFeedbackHorizon is how far in the past a labelled interval
	// may start.
	DefaultFeedbackHorizon = 7 * 24 * time.Hour
	// DefaultFeedbackSkew is how far in the future (by the daemon's clock)
	// a labelled interval may end: the clinician's clock may be ahead.
	DefaultFeedbackSkew = 2 * time.Minute
)

// FeedbackRules bound the intervals accepted from clinician feedback.
// Zero values mean the defaults.
type FeedbackRules struct {
	MaxDuration time.Duration // end - start at most this
	Horizon     time.Duration // start no earlier than now - Horizon
	Skew        time.Duration // end no later than now + Skew
}

func (r FeedbackRules) withDefaults() FeedbackRules {
	if r.MaxDuration <= 0 {
		r.MaxDuration = DefaultFeedbackMaxDuration
	}
	if r.Horizon <= 0 {
		r.Horizon = DefaultFeedbackHorizon
	}
	if r.Skew <= 0 {
		r.Skew = DefaultFeedbackSkew
	}
	return r
}

// ParseFeedback validates a feedback payload of the MQTT contract with the
// default rules and returns its label (From "mqtt"). See
// FeedbackRules.Parse.
func ParseFeedback(b []byte, now time.Time) (Label, error) {
	return FeedbackRules{}.Parse(b, now)
}

// feedbackErr wraps ErrFeedback with what was wrong and where.
func feedbackErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFeedback, fmt.Sprintf(format, args...))
}

// either reads a field that takes one of two values: true for yes, false
// for no, and an error naming the field for anything else.
func either(fields map[string]string, key, yes, no string) (bool, error) {
	switch fields[key] {
	case yes:
		return true, nil
	case no:
		return false, nil
	}
	return false, feedbackErr(`field %q: %q, want %q or %q`, key, fields[key], yes, no)
}

// Parse validates a feedback payload strictly and returns its label. The
// payload must be at most MaxFeedbackSize bytes of valid UTF-8 holding one
// JSON object with exactly one of the contract's two shapes:
//
//	{"v":1,"alert_id":"<UUID>","verdict":"confirmed"|"rejected"}
//	{"v":1,"start":"<RFC 3339>","end":"<RFC 3339>","label":"seizure"|"non-seizure"}
//
// Either may carry "by", the clinician's name (at most MaxByLength bytes,
// no control characters), which becomes Label.By. Keys are matched exactly (case included) and may not repeat; unknown
// keys, other types, "v" other than the integer 1, and trailing data are
// errors. An interval must have start < end, last at most MaxDuration,
// start no earlier than now - Horizon and end no later than now + Skew.
// The alert ID is returned in lower case; whether it names an alert this
// daemon raised is for the caller to check. Errors wrap ErrFeedback and
// name the field or byte offset.
func (r FeedbackRules) Parse(b []byte, now time.Time) (Label, error) {
	r = r.withDefaults()
	if len(b) > MaxFeedbackSize {
		return Label{}, feedbackErr("%d bytes, more than %d", len(b), MaxFeedbackSize)
	}
	if !utf8.Valid(b) {
		return Label{}, feedbackErr("not valid UTF-8")
	}
	fields, err := feedbackFields(b)
	if err != nil {
		return Label{}, err
	}
	if _, ok := fields["v"]; !ok {
		return Label{}, feedbackErr(`field "v" missing`)
	}
	lab := Label{From: "mqtt"}
	n := len(fields)
	if by, ok := fields["by"]; ok {
		if len(by) > MaxByLength || strings.IndexFunc(by, unicode.IsControl) >= 0 {
			return Label{}, feedbackErr(`field "by": want a name of at most %d bytes without control characters`, MaxByLength)
		}
		lab.By, n = by, n-1
	}
	switch {
	case fields["alert_id"] != "" || fields["verdict"] != "":
		if n != 3 {
			return Label{}, feedbackErr(`a verdict has exactly the fields "v", "alert_id" and "verdict" (and optionally "by"); got %s`, fieldNames(fields))
		}
		id, ok := normaliseUUID(fields["alert_id"])
		if !ok {
			return Label{}, feedbackErr(`field "alert_id": %q is not a UUID`, fields["alert_id"])
		}
		if lab.Seizure, err = either(fields, "verdict", VerdictConfirmed, VerdictRejected); err != nil {
			return Label{}, err
		}
		lab.AlertID = id
	default:
		if n != 4 {
			return Label{}, feedbackErr(`an interval has exactly the fields "v", "start", "end" and "label" (and optionally "by"); got %s`, fieldNames(fields))
		}
		start, err := time.Parse(time.RFC3339Nano, fields["start"])
		if err != nil {
			return Label{}, feedbackErr(`field "start": %q is not an RFC 3339 time`, fields["start"])
		}
		end, err := time.Parse(time.RFC3339Nano, fields["end"])
		if err != nil {
			return Label{}, feedbackErr(`field "end": %q is not an RFC 3339 time`, fields["end"])
		}
		switch {
		case !start.Before(end):
			return Label{}, feedbackErr("interval start %s is not before end %s", fields["start"], fields["end"])
		case end.Sub(start) > r.MaxDuration:
			return Label{}, feedbackErr("interval of %v is longer than %v", end.Sub(start), r.MaxDuration)
		case end.After(now.Add(r.Skew)):
			return Label{}, feedbackErr("interval end %s is in the future (now %s)", fields["end"], now.UTC().Format(time.RFC3339))
		case start.Before(now.Add(-r.Horizon)):
			return Label{}, feedbackErr("interval start %s is older than %v", fields["start"], r.Horizon)
		}
		if lab.Seizure, err = either(fields, "label", LabelSeizure, LabelNonSeizure); err != nil {
			return Label{}, err
		}
		lab.Start, lab.End = start, end
	}
	return lab, nil
}

// feedbackFields reads one JSON object whose keys are among the
// contract's, "v" the number 1 and every other value a string; it returns
// the string values by key ("v" maps to "1").
func feedbackFields(b []byte) (map[string]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, feedbackErr("byte %d: %v", dec.InputOffset(), syntaxCause(err))
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, feedbackErr("byte %d: not a JSON object", dec.InputOffset())
	}
	fields := make(map[string]string, 4)
	for dec.More() {
		at := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, feedbackErr("byte %d: %v", at, syntaxCause(err))
		}
		key := tok.(string) // object keys are always strings
		switch key {
		case "v", "alert_id", "verdict", "start", "end", "label", "by":
		default:
			return nil, feedbackErr("byte %d: unknown field %q", at, key)
		}
		if _, dup := fields[key]; dup {
			return nil, feedbackErr("byte %d: field %q repeated", at, key)
		}
		at = dec.InputOffset()
		tok, err = dec.Token()
		if err != nil {
			return nil, feedbackErr("byte %d: field %q: %v", at, key, syntaxCause(err))
		}
		if key == "v" {
			if n, ok := tok.(json.Number); !ok || n != "1" {
				return nil, feedbackErr(`byte %d: field "v" is %s, want the number 1`, at, describeToken(tok))
			}
			fields[key] = "1"
			continue
		}
		s, ok := tok.(string)
		if !ok {
			return nil, feedbackErr("byte %d: field %q: want a string, got %s", at, key, describeToken(tok))
		}
		if s == "" {
			return nil, feedbackErr("byte %d: field %q is empty", at, key)
		}
		fields[key] = s
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, feedbackErr("byte %d: %v", dec.InputOffset(), syntaxCause(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, feedbackErr("byte %d: data after the object", dec.InputOffset())
	}
	return fields, nil
}

// describeToken names a JSON token for an error message.
func describeToken(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "an array"
	case string:
		return fmt.Sprintf("the string %q", v)
	case json.Number:
		return string(v)
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

// syntaxCause turns the decoder's end of input into a readable cause.
func syntaxCause(err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("unexpected end of JSON")
	}
	return err
}

// fieldNames lists the keys present, for error messages.
func fieldNames(m map[string]string) string {
	names := make([]string, 0, len(m))
	for _, k := range []string{"v", "alert_id", "verdict", "start", "end", "label", "by"} {
		if _, ok := m[k]; ok {
			names = append(names, fmt.Sprintf("%q", k))
		}
	}
	return strings.Join(names, ", ")
}

// normaliseUUID checks the 8-4-4-4-12 hexadecimal form and returns it in
// lower case.
func normaliseUUID(s string) (string, bool) {
	if len(s) != 36 {
		return "", false
	}
	var out [36]byte
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return "", false
			}
		default:
			switch {
			case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
			case 'A' <= c && c <= 'F':
				c += 'a' - 'A'
			default:
				return "", false
			}
		}
		out[i] = c
	}
	return string(out[:]), true
}
