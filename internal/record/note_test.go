package record

import (
	"errors"
	"strings"
	"testing"
)

func TestNoteText(t *testing.T) {
	tests := []struct {
		name string
		in   Note
		want string
	}{
		{"alert", Note{Kind: KindAlert, Fields: []Field{{"id", "u1"}, {"score", "0.934"}, {"channels", "F7,T7"}}}, "alert id=u1 score=0.934 channels=F7,T7"},
		{"state with reason", Note{Kind: KindState, Word: "electrode-off", Reason: "lead-off on channel 3 T7-P7"}, "state electrode-off reason=lead-off on channel 3 T7-P7"},
		{"empty values left out", Note{Kind: KindState, Word: "online", Fields: []Field{{"kind", ""}, {"channels", ""}}}, "state online"},
		{"spaces and equals in values", Note{Kind: KindStart, Fields: []Field{{"site", "ward 7"}, {"bed", "a=b"}}}, "ictald-start site=ward_7 bed=a-b"},
		{"TAL delimiters dropped", Note{Kind: KindFeedbackAck, Word: "refused", Reason: "bad\x14text\x00\x15"}, "feedback-ack refused reason=badtext"},
		{"long reason cut at a character", Note{Kind: KindState, Word: "artifact", Reason: strings.Repeat("é", 200)},
			"state artifact reason=" + strings.Repeat("é", (MaxNoteBytes-len("state artifact reason="))/2)},
	}
	for _, tt := range tests {
		got := tt.in.String()
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
		if len(got) > MaxNoteBytes {
			t.Errorf("%s: %d bytes", tt.name, len(got))
		}
		n, err := ParseNote(got)
		if err != nil {
			t.Errorf("%s: ParseNote(%q): %v", tt.name, got, err)
			continue
		}
		if n.String() != got {
			t.Errorf("%s: %q reads back as %q", tt.name, got, n.String())
		}
	}
}

func TestParseNoteRefuses(t *testing.T) {
	for _, text := range []string{
		"", "seizure", "Seizure onset", "alert id= score=1", "alert =x", "alert a b", "alert id=a=b",
		"reason=x", "alert  id=1", "alert id=1 ", strings.Repeat("a", MaxNoteBytes+1), "alert id=\xff",
	} {
		if n, err := ParseNote(text); !errors.Is(err, ErrNote) {
			t.Errorf("ParseNote(%q) = %+v, %v; want ErrNote", text, n, err)
		}
	}
}

// FuzzParseNote: ParseNote never panics, and a note it accepts writes
// back as text that reads as the same note.
func FuzzParseNote(f *testing.F) {
	for _, s := range []string{
		"alert id=0b5c6f7e-4d0e-4a5e-9f1a-3c2b1a0f9e8d onset=2026-11-26T10:20:08.500Z detected=2026-11-26T10:20:09.500Z score=0.935 channels=C1,C3",
		"state artifact kind=muscle channels=C2,C4 reason=muscle on C2, C4",
		"feedback label=non-ictal from=2026-11-26T10:20:08.500Z to=2026-11-26T10:20:10.500Z by=bob",
		"feedback-ack refused windows=0 by=bob reason=buffer empty",
		"ictald-start program=ictald site=ward-7 bed=bed_3 channels=8 rate=250", "ictald-stop", "gap lost=0.200s",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseNote(s)
		if err != nil {
			return
		}
		text := n.String()
		m, err := ParseNote(text)
		if err != nil {
			t.Fatalf("%q read as %+v, written as %q, which does not read: %v", s, n, text, err)
		}
		if m.String() != text {
			t.Fatalf("%q → %q → %q", s, text, m.String())
		}
	})
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  bool
	}{
		{"0", 0, false}, {"123", 123, false}, {"8GB", 8e9, false}, {"500 MiB", 500 << 20, false}, {"1.5GB", 15e8, false},
		{"2kB", 2000, false}, {"2KB", 2000, false}, {"1TiB", 1 << 40, false}, {" 7 B ", 7, false},
		{"", 0, true}, {"GB", 0, true}, {"8gb", 0, true}, {"-1GB", 0, true}, {"1e3", 0, true}, {"1.2.3MB", 0, true}, {"9999999TB", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// FuzzParseSize: ParseSize never panics and never returns a negative
// size.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"8GB", "500 MiB", "1.5GB", "0", "12", "3TiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseSize(s)
		if err == nil && v < 0 {
			t.Fatalf("ParseSize(%q) = %d", s, v)
		}
	})
}
