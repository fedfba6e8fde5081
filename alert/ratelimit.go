package alert

import (
	"cmp"
	"fmt"
	"sync"
	"time"
)

// Feedback rate limits; zero fields of FeedbackLimits take these values.
const (
	// DefaultFeedbackBurst is how many messages one sender may send at
	// once: a clinician reviewing the alerts of a busy hour answers
	// several in a row (the refractory period allows about one alert a
	// minute per bed), and corrects a mistake or two.
	DefaultFeedbackBurst = 10
	// DefaultFeedbackEvery is how often one sender earns another message
	// after a burst: one a minute keeps pace with the fastest alerts the
	// detector raises (one per refractory period, 60 s by default), while
	// one sender can mislabel at most 60 × MaxInterval of windows an hour
	// and never the whole buffer in one go.
	DefaultFeedbackEvery = time.Minute
	// DefaultFeedbackGlobalBurst bounds the messages of all senders
	// together at once: three clinicians answering in full bursts.
	DefaultFeedbackGlobalBurst = 3 * DefaultFeedbackBurst
	// DefaultFeedbackGlobalEvery is how often the monitor as a whole
	// earns another message: six a minute, whatever the number of
	// senders (senders that are not authenticated can be invented).
	DefaultFeedbackGlobalEvery = 10 * time.Second
	// MaxFeedbackSenders bounds the senders a FeedbackLimiter tracks;
	// beyond it, new senders share one bucket.
	MaxFeedbackSenders = 1024
)

// FeedbackLimits bound the feedback messages taken, as token buckets: per
// sender, Burst at once and one more every Every; for all senders
// together, GlobalBurst at once and one more every GlobalEvery. Zero
// values mean the defaults.
type FeedbackLimits struct {
	Burst       int
	Every       time.Duration
	GlobalBurst int
	GlobalEvery time.Duration
}

// WithDefaults returns l with its zero fields set to the defaults.
func (l FeedbackLimits) WithDefaults() FeedbackLimits {
	l.Burst = cmp.Or(l.Burst, DefaultFeedbackBurst)
	l.Every = cmp.Or(l.Every, DefaultFeedbackEvery)
	l.GlobalBurst = cmp.Or(l.GlobalBurst, DefaultFeedbackGlobalBurst)
	l.GlobalEvery = cmp.Or(l.GlobalEvery, DefaultFeedbackGlobalEvery)
	return l
}

// bucket is a token bucket: up to burst tokens, one more every every.
type bucket struct {
	tokens float64
	last   time.Time
}

// refill adds the tokens earned since the last call, up to burst.
func (b *bucket) refill(now time.Time, burst int, every time.Duration) {
	if b.last.IsZero() {
		b.tokens = float64(burst)
	} else if d := now.Sub(b.last); d > 0 {
		b.tokens = min(float64(burst), b.tokens+float64(d)/float64(every))
	}
	if now.After(b.last) {
		b.last = now
	}
}

// wait is how long until the bucket holds a whole token.
func (b *bucket) wait(every time.Duration) time.Duration {
	return time.Duration((1 - b.tokens) * float64(every)).Round(time.Second)
}

// FeedbackLimiter applies FeedbackLimits. It is safe for concurrent use.
type FeedbackLimiter struct {
	mu      sync.Mutex
	lim     FeedbackLimits
	senders map[string]*bucket
	global  bucket
}

// NewFeedbackLimiter returns a limiter of l (zero fields: the defaults).
func NewFeedbackLimiter(l FeedbackLimits) *FeedbackLimiter {
	return &FeedbackLimiter{lim: l.WithDefaults(), senders: map[string]*bucket{}}
}

// overflowSender keys the bucket shared by senders beyond
// MaxFeedbackSenders.
const overflowSender = "\x00overflow"

// Allow takes one message of sender (the key of its bucket) at now, or
// refuses it: reason then says which limit it exceeds, for whom (who
// names the sender in words: `sender "clinician-alice"`), and when to try
// again. A refused message takes nothing from either bucket.
func (f *FeedbackLimiter) Allow(sender, who string, now time.Time) (ok bool, reason string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.sender(sender, now)
	b.refill(now, f.lim.Burst, f.lim.Every)
	f.global.refill(now, f.lim.GlobalBurst, f.lim.GlobalEvery)
	switch {
	case b.tokens < 1:
		return false, fmt.Sprintf("rate limit: %s may send %d feedback messages at once and one more every %v; try again in %v",
			who, f.lim.Burst, f.lim.Every, b.wait(f.lim.Every))
	case f.global.tokens < 1:
		return false, fmt.Sprintf("rate limit: this monitor takes %d feedback messages at once from all senders and one more every %v; try again in %v",
			f.lim.GlobalBurst, f.lim.GlobalEvery, f.global.wait(f.lim.GlobalEvery))
	}
	b.tokens--
	f.global.tokens--
	return true, ""
}

// sender returns the bucket of sender, making room for a new one by
// forgetting full buckets (a full bucket is the same as a new one).
func (f *FeedbackLimiter) sender(sender string, now time.Time) *bucket {
	if b, ok := f.senders[sender]; ok {
		return b
	}
	if len(f.senders) >= MaxFeedbackSenders {
		for k, b := range f.senders {
			if b.refill(now, f.lim.Burst, f.lim.Every); b.tokens >= float64(f.lim.Burst) && k != overflowSender {
				delete(f.senders, k)
			}
		}
	}
	if len(f.senders) >= MaxFeedbackSenders {
		sender = overflowSender
		if b, ok := f.senders[sender]; ok {
			return b
		}
	}
	b := &bucket{}
	f.senders[sender] = b
	return b
}
