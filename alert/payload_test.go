package alert

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 21, 9, 30, 15, 250_000_000, time.UTC)

func testEvent() *Event {
	return &Event{
		ID: "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", Site: "ward-7", Bed: "bed \"3\"\n",
		Onset: t0, DetectedAt: t0.Add(5 * time.Second), End: t0.Add(40 * time.Second),
		Score: 0.87654321, Algorithm: "UOB", Channels: []string{"T7-P7", "F7-T7"},
	}
}

func TestAlertPayload(t *testing.T) {
	b := AppendAlert(nil, testEvent())
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	want := map[string]any{
		"v": 1.0, "id": "8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", "site": "ward-7", "bed": "bed \"3\"\n",
		"onset": "2026-11-21T09:30:15.250Z", "detected_at": "2026-11-21T09:30:20.250Z",
		"score": 0.876543, "algorithm": "UOB", "channels": []any{"T7-P7", "F7-T7"},
	}
	for k, v := range want {
		if gv, ok := got[k]; !ok || !equalJSON(gv, v) {
			t.Errorf("%s = %#v, want %#v", k, gv, v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("fields %v, want exactly %d", got, len(want))
	}
	for _, ts := range []string{got["onset"].(string), got["detected_at"].(string)} {
		if _, err := time.Parse(time.RFC3339, ts); err != nil {
			t.Errorf("%q is not RFC 3339: %v", ts, err)
		}
	}
}

func equalJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func TestStatusScoreEndPayloads(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"status", AppendStatus(nil, Status{State: StateElectrodeOff, Since: t0, Reason: "not on the wire"}),
			`{"v":1,"state":"electrode-off","since":"2026-11-21T09:30:15.250Z"}`},
		{"score", AppendScore(nil, Score{T: t0, Score: 0.25}), `{"v":1,"t":"2026-11-21T09:30:15.250Z","score":0.25}`},
		{"end", AppendEventEnd(nil, testEvent()),
			`{"v":1,"id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","onset":"2026-11-21T09:30:15.250Z","detected_at":"2026-11-21T09:30:20.250Z","end":"2026-11-21T09:30:55.250Z","score":0.876543}`},
		{"local time is written in UTC", AppendStatus(nil, Status{State: StateOnline, Since: t0.In(time.FixedZone("X", 3600))}),
			`{"v":1,"state":"online","since":"2026-11-21T09:30:15.250Z"}`},
	}
	for _, tt := range tests {
		if string(tt.b) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, tt.b, tt.want)
		}
		if !json.Valid(tt.b) {
			t.Errorf("%s: invalid JSON", tt.name)
		}
	}
	if !json.Valid([]byte(OfflinePayload)) {
		t.Error("last will is not JSON")
	}
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\" back\\slash", "ctl\x00\x01\x1f\x7f", "tab\tnl\ncr\r", "ütf-8 ✓ 仰卧", "bad\xff\xfeutf8", strings.Repeat("x", 300)} {
		b := AppendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("%q → %s: %v", s, b, err)
			continue
		}
		if want := string([]rune(s)); back != want { // one U+FFFD per invalid byte
			t.Errorf("%q → %s → %q", s, b, back)
		}
	}
}

func TestNewID(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := NewID()
		if !re.MatchString(id) {
			t.Fatalf("%q is not a version 4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("duplicate %s", id)
		}
		seen[id] = true
	}
}

func TestJSONLinesSink(t *testing.T) {
	var buf bytes.Buffer
	j := NewJSONLines(&buf, nil, true)
	e := testEvent()
	j.Status(Status{State: StateOnline, Since: t0, Reason: "started"})
	j.Score(Score{T: t0, Score: 0.1, Usable: true})
	j.Alert(e)
	j.EventEnd(e)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	kinds := []string{"status", "score", "alert", "end"}
	if len(lines) != len(kinds) {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d %s: %v", i, l, err)
		}
		if m["type"] != kinds[i] || m["v"] != 1.0 {
			t.Errorf("line %d: %s", i, l)
		}
	}
	if !strings.Contains(lines[0], `"reason":"started"`) {
		t.Errorf("status line has no reason: %s", lines[0])
	}
	// Scores off: no score line.
	buf.Reset()
	j = NewJSONLines(&buf, nil, false)
	j.Score(Score{T: t0, Score: 0.1})
	j.Close()
	if buf.Len() != 0 {
		t.Errorf("score written with scores off: %s", buf.String())
	}
}

func TestPayloadAllocs(t *testing.T) {
	e := testEvent()
	buf := make([]byte, 0, 1024)
	if a := testing.AllocsPerRun(100, func() { buf = AppendAlert(buf[:0], e) }); a != 0 {
		t.Errorf("AppendAlert allocates %v", a)
	}
	var sink bytes.Buffer
	j := NewJSONLines(&sink, nil, true)
	if a := testing.AllocsPerRun(1000, func() {
		j.Score(Score{T: t0, Score: 0.5})
		if sink.Len() > 1<<20 {
			sink.Reset()
		}
	}); a != 0 {
		t.Errorf("JSONLines.Score allocates %v", a)
	}
}
