package pipeline

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/features"
)

// reservedBytes returns the bytes that reserving a ring of n windows of
// dim features allocates, by the runtime's count (the least of three
// tries, so that an allocation elsewhere in the process cannot inflate
// it; counts of bytes, unlike times, do not depend on the machine's load).
func reservedBytes(n, dim int) int64 {
	best := int64(-1)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := newRing(n, dim)
		r.reserve()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(r)
		if d := int64(after.TotalAlloc - before.TotalAlloc); best < 0 || d < best {
			best = d
		}
	}
	return best
}

// largestBuffer returns the longest learning.buffer, in whole steps,
// that bufferWindows accepts for dim features.
func largestBuffer(t *testing.T, step time.Duration, dim int) time.Duration {
	t.Helper()
	lo, hi := time.Duration(0), 1000*24*time.Hour // lo accepted, hi refused
	if _, err := bufferWindows(lo, step, dim); err != nil {
		t.Fatalf("%d features: a buffer of one window refused: %v", dim, err)
	}
	for hi-lo > step {
		mid := (lo + hi) / 2 / step * step
		if _, err := bufferWindows(mid, step, dim); err == nil {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// TestBufferCapCountsWhatItAllocates: the bytes bufferWindows counts for
// a buffer are what reserving it allocates, records and vectors, and the
// longest buffer it accepts fits in MaxBufferBytes. Counting only the
// vectors, it accepted 68 h for one channel: 46 MB.
func TestBufferCapCountsWhatItAllocates(t *testing.T) {
	tests := []struct {
		name string
		dim  int
	}{
		{"1 channel", 17},
		{"23 channels", 23 * 17},
		{"64 channels", 64 * 17},
	}
	step := features.DefaultStep
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buffer := largestBuffer(t, step, tt.dim)
			n, err := bufferWindows(buffer, step, tt.dim)
			if err != nil {
				t.Fatal(err)
			}
			counted := int64(n) * windowBytes(tt.dim)
			got := reservedBytes(n, tt.dim)
			// The runtime rounds a large allocation up to whole 8 KiB pages.
			if diff := got - counted; diff < 0 || diff > 64<<10 {
				t.Errorf("buffer %v (%d windows): counted %d bytes, reserving allocates %d", buffer, n, counted, got)
			}
			if got > MaxBufferBytes+64<<10 {
				t.Errorf("the longest buffer accepted, %v (%d windows), allocates %.1f MiB: more than MaxBufferBytes %d MiB",
					buffer, n, float64(got)/(1<<20), MaxBufferBytes>>20)
			}
			t.Logf("%d features: at most %v, %d windows, %d bytes (%d counted)", tt.dim, buffer, n, got, counted)
		})
	}
}

// TestBufferBeyondItsCapRefused: for one channel, buffers that fit in
// 16 MiB only when the windows' records are left out (they did before)
// are refused through New, naming learning.buffer and what fits, and
// what fits is accepted.
func TestBufferBeyondItsCapRefused(t *testing.T) {
	src := newPatient(t, 1, time.Minute, 0, 1)
	m := newModel(t, src, features.Config{}, "UOB")
	tests := []struct {
		buffer time.Duration
		want   string // "" accepted
	}{
		{24 * time.Hour, ""},
		{48 * time.Hour, "learning.buffer 48h0m0s: keeps 172801 windows of 17 features"},
		{68 * time.Hour, "learning.buffer 68h0m0s: keeps 244801 windows of 17 features"},
	}
	for _, tt := range tests {
		_, err := New(src, features.Config{}, m, Config{Learning: Learning{Mode: LearnFeedback, Buffer: tt.buffer}}, nil, Hooks{}, nil)
		if tt.want == "" {
			if err != nil {
				t.Errorf("buffer %v: %v, want accepted", tt.buffer, err)
			}
			continue
		}
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "more than 16 MiB") {
			t.Errorf("buffer %v: %v, want a ConfigError containing %q and \"more than 16 MiB\"", tt.buffer, err, tt.want)
			continue
		}
		// What the message says fits is accepted, one step more is not.
		_, after, _ := strings.Cut(err.Error(), "at most ")
		fits, perr := time.ParseDuration(strings.TrimSuffix(after, " with these features"))
		if perr != nil {
			t.Fatalf("buffer %v: no duration after \"at most\" in %q", tt.buffer, err)
		}
		if _, err := bufferWindows(fits, 0, 17); err != nil {
			t.Errorf("the %v the message says fits: %v", fits, err)
		}
		if _, err := bufferWindows(fits+features.DefaultStep, 0, 17); err == nil {
			t.Errorf("%v, a step more than the message says fits, accepted", fits+features.DefaultStep)
		}
	}
}
