package edf

import (
	"fmt"
	"time"
)

// Annotation is one text of a time-stamped annotation list (TAL).
type Annotation struct {
	// Onset is measured from the start date and time of the header
	// (Header.Start), as written in the file; it may be negative.
	Onset time.Duration
	// Duration is the annotated stretch, 0 when the TAL gives none.
	Duration time.Duration
	// HasDuration tells a TAL with an explicit duration (possibly 0) from
	// one without.
	HasDuration bool
	// Text is the annotation text, UTF-8 as the EDF+ specification
	// requires; bytes are passed through unchanged.
	Text string
	// Record and Signal locate the TAL: the data record index and the
	// index of the annotation signal in Header.Signals.
	Record int64
	Signal int
}

// TALError is a malformed TAL: Offset is the byte offset of the problem
// within the annotation signal's bytes of one record. It wraps ErrTAL.
type TALError struct {
	Offset int
	Msg    string
}

// Error describes the problem and its offset.
func (e *TALError) Error() string {
	return fmt.Sprintf("TAL at byte %d: %s", e.Offset, e.Msg)
}

// Unwrap returns ErrTAL.
func (e *TALError) Unwrap() error { return ErrTAL }

// TAL separators.
const (
	talDuration = 0x15 // between onset and duration
	talText     = 0x14 // after onset/duration, and after every text
	talEnd      = 0x00 // after a TAL, and padding
)

// talScanner walks the TALs of one annotation signal of one record without
// allocating.
type talScanner struct {
	b   []byte
	pos int
	// current TAL
	onset, duration time.Duration
	hasDuration     bool
	texts           []byte // the bytes between the onset's 0x14 and the TAL's 0x00
	textsAt         int
	err             error
}

// next advances to the next TAL; it returns false at the end of the
// buffer or on error (see s.err).
func (s *talScanner) next() bool {
	b := s.b
	for s.pos < len(b) && b[s.pos] == talEnd {
		s.pos++
	}
	if s.pos >= len(b) {
		return false
	}
	start := s.pos
	// onset, up to 0x15 or 0x14
	i := start
	for i < len(b) && b[i] != talDuration && b[i] != talText && b[i] != talEnd {
		i++
	}
	if i == len(b) || b[i] == talEnd {
		return s.fail(i, "onset not followed by 0x14")
	}
	on, err := parseSeconds(b[start:i], true)
	if err != nil {
		return s.fail(start, fmt.Sprintf("onset %q: %v", b[start:i], err))
	}
	s.onset, s.duration, s.hasDuration = on, 0, false
	if b[i] == talDuration {
		j := i + 1
		for j < len(b) && b[j] != talText && b[j] != talEnd && b[j] != talDuration {
			j++
		}
		if j == len(b) || b[j] != talText {
			return s.fail(j, "duration not followed by 0x14")
		}
		d, err := parseSeconds(b[i+1:j], false)
		if err != nil {
			return s.fail(i+1, fmt.Sprintf("duration %q: %v", b[i+1:j], err))
		}
		s.duration, s.hasDuration = d, true
		i = j
	}
	i++ // past the 0x14 closing onset/duration
	end := i
	for end < len(b) && b[end] != talEnd {
		end++
	}
	if end == len(b) {
		return s.fail(end, "TAL not terminated by 0x00")
	}
	if end > i && b[end-1] != talText {
		return s.fail(end, "annotation text not terminated by 0x14")
	}
	for k := i; k < end; k++ {
		if b[k] == talDuration {
			return s.fail(k, "0x15 inside annotation text")
		}
	}
	s.texts, s.textsAt = b[i:end], i
	s.pos = end + 1
	return true
}

func (s *talScanner) fail(at int, msg string) bool {
	s.err = &TALError{Offset: at, Msg: msg}
	return false
}

// nextText returns the next text of the current TAL and the rest; each text
// ends with 0x14.
func nextText(texts []byte) (text, rest []byte) {
	for k, c := range texts {
		if c == talText {
			return texts[:k], texts[k+1:]
		}
	}
	return texts, nil
}

// FirstOnset returns the onset of the first TAL in b, the bytes of one
// record's first annotation signal: in EDF+ this is the time-keeping TAL,
// the start of the record. It allocates nothing unless b is malformed.
func FirstOnset(b []byte) (time.Duration, error) {
	s := talScanner{b: b}
	if !s.next() {
		if s.err != nil {
			return 0, s.err
		}
		return 0, &TALError{Offset: 0, Msg: "no TAL (time-keeping annotation missing)"}
	}
	return s.onset, nil
}

// AppendTALs decodes the TALs in b (the bytes of one annotation signal in
// one record) and appends one Annotation per non-empty text to dst, with
// Record and Signal left zero. Empty texts, such as the time-keeping TAL's,
// yield nothing. On a malformed TAL it returns the annotations decoded
// before it and a *TALError.
func AppendTALs(dst []Annotation, b []byte) ([]Annotation, error) {
	s := talScanner{b: b}
	for s.next() {
		for rest := s.texts; len(rest) > 0; {
			var t []byte
			t, rest = nextText(rest)
			if len(t) == 0 {
				continue
			}
			dst = append(dst, Annotation{Onset: s.onset, Duration: s.duration, HasDuration: s.hasDuration, Text: string(t)})
		}
	}
	return dst, s.err
}

// AppendTAL encodes one TAL, "+onset[\x15duration]\x14text\x14\x00", onto
// dst. A duration is written when hasDuration is set. text must not contain
// 0x00, 0x14 or 0x15 (the caller checks).
func AppendTAL(dst []byte, onset, duration time.Duration, hasDuration bool, text string) []byte {
	if onset >= 0 {
		dst = append(dst, '+')
	}
	dst = appendSeconds(dst, onset)
	if hasDuration {
		dst = append(dst, talDuration)
		dst = appendSeconds(dst, duration)
	}
	dst = append(dst, talText)
	dst = append(dst, text...)
	dst = append(dst, talText, talEnd)
	return dst
}
