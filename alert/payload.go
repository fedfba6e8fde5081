package alert

import (
	"crypto/rand"
	"encoding/hex"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// timeLayout is RFC 3339 with milliseconds, always in UTC.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// NewID returns a random (version 4) UUID for an event.
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}

// AppendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD.
func AppendJSONString(dst []byte, s string) []byte {
	const hexdig = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20 || c == 0x7f:
				dst = append(dst, '\\', 'u', '0', '0', hexdig[c>>4], hexdig[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, "\ufffd"...)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}

// appendTime appends key (the JSON text before the value, such as
// `,"onset":`) and t as a JSON string in RFC 3339 (UTC, milliseconds).
func appendTime(dst []byte, key string, t time.Time) []byte {
	dst = append(dst, key...)
	dst = append(dst, '"')
	dst = t.UTC().AppendFormat(dst, timeLayout)
	return append(dst, '"')
}

// appendFloat appends a finite number with up to 6 decimals (scores are in
// [0, 1]); NaN and Inf, which JSON cannot hold, are written as 0.
func appendFloat(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	return strconv.AppendFloat(dst, v, 'f', -1, 64)
}

// round6 rounds a score to 6 decimals for the wire.
func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// AppendAlert appends the alert payload of DESIGN.md's MQTT contract:
// {"v":1,"id","site","bed","onset","detected_at","score","algorithm","channels"},
// then "kind" when e.Kind is not the default: a seizure's payload (Kind ""
// or KindSeizure) is byte for byte what it was before kinds existed, so
// receivers that predate them read it unchanged. Kind should be one of the
// Kind constants; another is written as it is, and every reader of the
// contract refuses it.
func AppendAlert(dst []byte, e *Event) []byte {
	dst = append(dst, `{"v":1,"id":`...)
	dst = AppendJSONString(dst, e.ID)
	dst = appendOrigin(dst, e.Site, e.Bed, e.Onset, e.DetectedAt)
	dst = append(dst, `,"score":`...)
	dst = appendFloat(dst, round6(e.Score))
	dst = append(dst, `,"algorithm":`...)
	dst = AppendJSONString(dst, e.Algorithm)
	dst = append(dst, `,"channels":`...)
	dst = appendJSONStrings(dst, e.Channels)
	if e.Kind != KindSeizure {
		dst = appendNonEmpty(dst, `,"kind":`, e.Kind)
	}
	return append(dst, '}')
}

// appendOrigin appends the fields by which an alert and its evidence say
// where and when the seizure was seen: ,"site","bed","onset","detected_at".
func appendOrigin(dst []byte, site, bed string, onset, detectedAt time.Time) []byte {
	dst = append(dst, `,"site":`...)
	dst = AppendJSONString(dst, site)
	dst = append(dst, `,"bed":`...)
	dst = AppendJSONString(dst, bed)
	dst = appendTime(dst, `,"onset":`, onset)
	return appendTime(dst, `,"detected_at":`, detectedAt)
}

// appendNonEmpty appends field (`,"name":`) and the JSON string v, or
// nothing when v is empty: a string field omitted when empty.
func appendNonEmpty(dst []byte, field, v string) []byte {
	if v == "" {
		return dst
	}
	dst = append(dst, field...)
	return AppendJSONString(dst, v)
}

// appendJSONStrings appends ss as a JSON array of strings.
func appendJSONStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendJSONString(dst, s)
	}
	return append(dst, ']')
}

// AppendEventEnd appends the end of an event, an ictal extension of the
// contract used by the JSON-lines output and replay reports:
// {"v":1,"id","onset","detected_at","end","score"}.
func AppendEventEnd(dst []byte, e *Event) []byte {
	dst = append(dst, `{"v":1,"id":`...)
	dst = AppendJSONString(dst, e.ID)
	dst = appendTime(dst, `,"onset":`, e.Onset)
	dst = appendTime(dst, `,"detected_at":`, e.DetectedAt)
	dst = appendTime(dst, `,"end":`, e.End)
	dst = append(dst, `,"score":`...)
	dst = appendFloat(dst, round6(e.Score))
	return append(dst, '}')
}

// AppendStatus appends the status payload {"v":1,"state","since"}, with
// "artifact", "channels" and "scored" when the status names them.
func AppendStatus(dst []byte, s Status) []byte {
	dst = append(dst, `{"v":1,"state":`...)
	dst = AppendJSONString(dst, string(s.State))
	dst = appendTime(dst, `,"since":`, s.Since)
	dst = appendNonEmpty(dst, `,"artifact":`, s.Artifact)
	if len(s.Channels) > 0 {
		dst = append(dst, `,"channels":`...)
		dst = appendJSONStrings(dst, s.Channels)
	}
	if s.Scored != 0 {
		dst = append(dst, `,"scored":`...)
		dst = strconv.AppendInt(dst, int64(s.Scored), 10)
	}
	return append(dst, '}')
}

// OfflinePayload is the status topic's last will.
const OfflinePayload = `{"v":1,"state":"offline"}`

// AppendScore appends the per-window score payload {"v":1,"t","score"}.
func AppendScore(dst []byte, s Score) []byte {
	dst = appendTime(dst, `{"v":1,"t":`, s.T)
	dst = append(dst, `,"score":`...)
	dst = appendFloat(dst, round6(s.Score))
	return append(dst, '}')
}
