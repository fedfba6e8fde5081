package alert

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestFeedbackLimiter(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	type msg struct {
		sender string
		at     time.Duration // after t0
		ok     bool
		reason string // contained in the refusal
	}
	burst := func(sender string, n int, at time.Duration) []msg {
		var ms []msg
		for range n {
			ms = append(ms, msg{sender: sender, at: at, ok: true})
		}
		return ms
	}
	tests := []struct {
		name string
		lim  FeedbackLimits
		msgs []msg
	}{
		{"a sender's burst, then one a minute", FeedbackLimits{}, append(burst("alice", 10, 0),
			msg{"alice", 0, false, `sender "alice" may send 10 feedback messages at once and one more every 1m0s; try again in 1m0s`},
			msg{"alice", 30 * time.Second, false, "try again in 30s"},
			msg{"alice", time.Minute, true, ""},
			msg{"alice", time.Minute, false, "rate limit"},
			msg{"bob", time.Minute, true, ""})},
		{"senders do not share a bucket", FeedbackLimits{Burst: 2}, append(append(burst("alice", 2, 0), burst("bob", 2, 0)...),
			msg{"alice", 0, false, `sender "alice"`},
			msg{"", 0, true, ""})},
		{"the global bound holds whatever the senders", FeedbackLimits{Burst: 2, GlobalBurst: 3, GlobalEvery: 10 * time.Second},
			append(append(burst("a", 2, 0), burst("b", 1, 0)...),
				msg{"c", 0, false, "this monitor takes 3 feedback messages at once from all senders and one more every 10s; try again in 10s"},
				msg{"d", 10 * time.Second, true, ""},
				msg{"e", 10 * time.Second, false, "from all senders"})},
		{"a refusal costs nothing", FeedbackLimits{Burst: 1, Every: time.Minute},
			[]msg{{"a", 0, true, ""}, {"a", 59 * time.Second, false, "try again in 1s"}, {"a", 60 * time.Second, true, ""}}},
		{"time going backwards earns nothing", FeedbackLimits{Burst: 1, Every: time.Minute},
			[]msg{{"a", time.Hour, true, ""}, {"a", 0, false, "rate limit"}, {"a", time.Hour + 30*time.Second, false, "rate limit"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewFeedbackLimiter(tt.lim)
			for i, m := range tt.msgs {
				ok, reason := f.Allow(m.sender, fmt.Sprintf("sender %q", m.sender), t0.Add(m.at))
				if ok != m.ok || (!ok && !strings.Contains(reason, m.reason)) || (ok && reason != "") {
					t.Errorf("message %d (%q at %v): %v %q, want %v %q", i, m.sender, m.at, ok, reason, m.ok, m.reason)
				}
			}
		})
	}
}

// Invented senders cannot grow the limiter without bound.
func TestFeedbackLimiterBoundsSenders(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	f := NewFeedbackLimiter(FeedbackLimits{GlobalBurst: 1 << 20})
	for i := range 3 * MaxFeedbackSenders {
		f.Allow(fmt.Sprint("sender-", i), "a sender", t0)
	}
	if n := len(f.senders); n > MaxFeedbackSenders+1 {
		t.Errorf("%d senders tracked", n)
	}
}
