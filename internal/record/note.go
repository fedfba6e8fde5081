package record

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kinds of the annotations a recording holds (the first word of their
// text).
const (
	KindStart       = "ictald-start" // the daemon started recording
	KindStop        = "ictald-stop"  // the daemon stopped
	KindAlert       = "alert"        // an alert: onset to detection
	KindAlertEnd    = "alert-end"    // the end of an alert's event
	KindState       = "state"        // a change of the monitor's state
	KindFeedback    = "feedback"     // a clinician's feedback
	KindFeedbackAck = "feedback-ack" // what the daemon did with it
	KindGap         = "gap"          // frames the source lost, filled flat
	KindResumed     = "resumed"      // recording resumed after a write error (full disk)
)

// MaxNoteBytes bounds an annotation's text: it must fit one data record's
// annotation room (AnnotationBytes) beside the record's time-keeping TAL
// and its own onset and duration. Longer text is cut at a field boundary
// or, for a reason, at a character.
const MaxNoteBytes = AnnotationBytes - 64

// Note is the text of one annotation:
//
//	kind [word] key=value … [reason=free text to the end]
//
// The kind is one of the Kind constants; the optional bare word follows
// it (a state's name); values hold no spaces (spaces in site, bed or
// channel names are written as '_'); reason, always last, may.
type Note struct {
	Kind   string
	Word   string
	Fields []Field
	Reason string
}

// Field is one key=value pair of a Note.
type Field struct{ Key, Value string }

// Get returns the value of key, "" when the note has none.
func (n *Note) Get(key string) string {
	for _, f := range n.Fields {
		if f.Key == key {
			return f.Value
		}
	}
	return ""
}

// ErrNote is wrapped by every error of ParseNote.
var ErrNote = errors.New("record: invalid annotation")

// String returns the note's text, at most MaxNoteBytes long: fields that
// do not fit are left out, a reason is cut.
func (n *Note) String() string {
	var b strings.Builder
	b.WriteString(clean(n.Kind))
	if w := clean(n.Word); w != "" {
		b.WriteByte(' ')
		b.WriteString(w)
	}
	for _, f := range n.Fields {
		k, v := clean(f.Key), clean(f.Value)
		if k == "" || v == "" {
			continue
		}
		s := " " + k + "=" + v
		if b.Len()+len(s) > MaxNoteBytes {
			break
		}
		b.WriteString(s)
	}
	if n.Reason != "" {
		r := " reason=" + strings.Map(talSafe, n.Reason)
		if room := MaxNoteBytes - b.Len(); len(r) > room {
			r = cutUTF8(r, room)
		}
		b.WriteString(r)
	}
	return b.String()
}

// clean makes s one word: spaces become '_', '=' becomes '-', TAL
// delimiters and control characters go.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ':
			return '_'
		case r == '=':
			return '-'
		}
		return talSafe(r)
	}, s)
}

// talSafe drops the bytes that delimit TALs and other control characters,
// and invalid UTF-8.
func talSafe(r rune) rune {
	if r < 0x20 || r == 0x7f || r == utf8.RuneError {
		return -1
	}
	return r
}

// cutUTF8 cuts s to at most n bytes at a character boundary.
func cutUTF8(s string, n int) string {
	if n <= 0 {
		return ""
	}
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:min(n, len(s))]
}

// ParseNote reads an annotation's text as String writes it. Text that is
// not such a note (another program's annotation) is an error wrapping
// ErrNote.
func ParseNote(text string) (Note, error) {
	if len(text) > MaxNoteBytes {
		return Note{}, fmt.Errorf("%w: %d bytes, at most %d", ErrNote, len(text), MaxNoteBytes)
	}
	if !utf8.ValidString(text) {
		return Note{}, fmt.Errorf("%w: not UTF-8", ErrNote)
	}
	if i := strings.IndexFunc(text, func(r rune) bool { return talSafe(r) < 0 }); i >= 0 {
		return Note{}, fmt.Errorf("%w: %q: control character at byte %d", ErrNote, text, i)
	}
	var n Note
	rest := text
	if i := strings.Index(rest, " reason="); i >= 0 {
		n.Reason, rest = rest[i+len(" reason="):], rest[:i]
	} else if strings.HasPrefix(rest, "reason=") {
		return Note{}, fmt.Errorf("%w: %q has no kind", ErrNote, text)
	}
	words := strings.Split(rest, " ")
	n.Kind = words[0]
	if !knownKind(n.Kind) {
		return Note{}, fmt.Errorf("%w: %q: unknown kind %q", ErrNote, text, n.Kind)
	}
	for i, w := range words[1:] {
		k, v, ok := strings.Cut(w, "=")
		switch {
		case !ok && i == 0 && w != "":
			n.Word = w
		case !ok || k == "" || v == "" || strings.Contains(v, "="):
			return Note{}, fmt.Errorf("%w: %q: word %d %q is not key=value", ErrNote, text, i+2, w)
		default:
			n.Fields = append(n.Fields, Field{k, v})
		}
	}
	return n, nil
}

func knownKind(k string) bool {
	switch k {
	case KindStart, KindStop, KindAlert, KindAlertEnd, KindState, KindFeedback, KindFeedbackAck, KindGap, KindResumed:
		return true
	}
	return false
}
