package burstlog

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestBurstLoggedOnceWithCount(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	s := time.Second
	tests := []struct {
		name   string
		events []time.Duration // after t0
		flush  []time.Duration // periodic flushes, after the events
		final  bool
		want   []string // the count of every line logged
	}{
		{"one burst, reported when quiet", []time.Duration{0, s, 2 * s, 3 * s}, []time.Duration{5 * s, 13 * s, 14 * s}, false, []string{"count=4"}},
		{"not before it is over", []time.Duration{0, s}, []time.Duration{5 * s}, false, nil},
		{"two bursts", []time.Duration{0, s, 30 * s}, []time.Duration{60 * s}, false, []string{"count=2", "count=1"}},
		{"closing reports what is left", []time.Duration{0, s, 2 * s}, nil, true, []string{"count=3"}},
		{"a flood is reported every span", []time.Duration{0, 5 * s, 10 * s, 15 * s, 20 * s, 25 * s, 30 * s, 35 * s, 40 * s, 45 * s, 50 * s, 55 * s, 60 * s, 65 * s},
			nil, true, []string{"count=12", "count=2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			b := New(slog.New(slog.NewTextHandler(&buf, nil)), "feedback dropped", 0, 0)
			for i, d := range tt.events {
				b.Add(t0.Add(d), slog.String("sender", "s"), slog.Int("i", i))
			}
			for _, d := range tt.flush {
				b.Flush(t0.Add(d), false)
			}
			if tt.final {
				b.Flush(t0.Add(time.Hour), true)
			}
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if buf.Len() == 0 {
				lines = nil
			}
			if len(lines) != len(tt.want) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), len(tt.want), buf.String())
			}
			for i, l := range lines {
				if !strings.Contains(l, "msg=\"feedback dropped\"") || !strings.Contains(l, " "+tt.want[i]+" ") || !strings.Contains(l, "sender=s") {
					t.Errorf("line %d: %s, want %s", i, l, tt.want[i])
				}
			}
		})
	}
}
