package pipeline

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/features"
)

// evidenceSink keeps every snippet.
type evidenceSink struct {
	collect
	snippets []alert.Evidence
}

func (s *evidenceSink) Evidence(ev *alert.Evidence) error {
	s.snippets = append(s.snippets, *ev)
	return nil
}

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// newTestEvidence is an evidence ring of two channels at 10 Hz whose
// frame i holds i on channel a and -i on channel b.
func newTestEvidence(sink *evidenceSink) *evidence {
	s := newSinks([]alert.Sink{sink}, nil, new(int64))
	return newEvidence([]string{"a", "b"}, 10, &s, func(d time.Duration) time.Time { return t0.Add(d) })
}

func pushFrames(e *evidence, from, to int) {
	for i := from; i < to; i++ {
		e.push(time.Duration(i)*100*time.Millisecond, []float64{float64(i), -float64(i)})
	}
}

// The snippet runs from 10 s before the onset to 10 s after the
// detection, and is cut as soon as the frame ending then has arrived.
func TestEvidenceSnippetSpan(t *testing.T) {
	sink := &evidenceSink{}
	e := newTestEvidence(sink)
	pushFrames(e, 0, 350)
	e.alert(&alert.Event{ID: "x", OnsetOffset: 30 * time.Second, DetectedOffset: 35 * time.Second, Channels: []string{"b"}})
	pushFrames(e, 350, 449)
	if len(sink.snippets) != 0 {
		t.Fatal("snippet cut before 10 s after detection")
	}
	pushFrames(e, 449, 600)
	if len(sink.snippets) != 1 {
		t.Fatalf("%d snippets, want 1", len(sink.snippets))
	}
	ev := sink.snippets[0]
	if ev.AlertID != "x" || !slices.Equal(ev.Channels, []string{"b"}) || ev.Rate != 10 || !ev.Start.Equal(t0.Add(20*time.Second)) {
		t.Fatalf("snippet %s %v at %g Hz from %v", ev.AlertID, ev.Channels, ev.Rate, ev.Start)
	}
	xs := ev.Samples[0]
	if len(xs) != 250 || xs[0] != -200 || xs[249] != -449 {
		t.Fatalf("%d samples from %g to %g, want 250 from -200 (20 s) to -449 (44.9 s)", len(xs), xs[0], xs[len(xs)-1])
	}
}

// A snippet longer than MaxEvidenceSpan keeps its most recent part; one
// cut short by a gap keeps what came before it; an alert naming no
// channel shows the first ones.
func TestEvidenceClipsAndGaps(t *testing.T) {
	sink := &evidenceSink{}
	e := newTestEvidence(sink)
	pushFrames(e, 0, 100)
	e.alert(&alert.Event{ID: "long", OnsetOffset: 10 * time.Second, DetectedOffset: 100 * time.Second, Channels: []string{"a"}})
	pushFrames(e, 100, 1100)
	if len(sink.snippets) != 1 {
		t.Fatalf("%d snippets", len(sink.snippets))
	}
	xs := sink.snippets[0].Samples[0]
	if want := int(alert.MaxEvidenceSpan.Seconds()*10) + 1; len(xs) != want || xs[len(xs)-1] != 1099 {
		t.Fatalf("long event: %d samples ending at %g, want %d ending at 1099", len(xs), xs[len(xs)-1], want)
	}
	e.alert(&alert.Event{ID: "gap", OnsetOffset: 105 * time.Second, DetectedOffset: 108 * time.Second})
	pushFrames(e, 1100, 1120)
	e.gap()
	if len(sink.snippets) != 2 {
		t.Fatalf("the gap cut %d snippets, want 1", len(sink.snippets)-1)
	}
	ev := sink.snippets[1]
	if !slices.Equal(ev.Channels, []string{"a", "b"}) || len(ev.Samples[1]) != 170 || ev.Samples[1][169] != -1119 {
		t.Fatalf("cut by a gap: channels %v, %d samples ending at %g; want a, b, 170 ending at -1119", ev.Channels, len(ev.Samples[1]), ev.Samples[1][len(ev.Samples[1])-1])
	}
	e.alert(&alert.Event{ID: "after", OnsetOffset: 115 * time.Second, DetectedOffset: 116 * time.Second})
	pushFrames(e, 1150, 1160)
	e.flush()
	if len(sink.snippets) != 3 || len(sink.snippets[2].Samples[0]) != 10 {
		t.Fatalf("after the gap the snippet holds only what followed it: %d snippets", len(sink.snippets))
	}
}

// In the pipeline every alert gets one snippet, of the channels it names,
// holding exactly the conditioned signal the extractor saw.
func TestPipelinePublishesEvidence(t *testing.T) {
	src := newPatient(t, 8, 20*time.Minute, 3, 12)
	sink := &evidenceSink{}
	p := newPipeline(t, src, features.Config{}, trained(t), Config{Learning: Learning{Mode: LearnOff}}, []alert.Sink{sink}, Hooks{})
	runAll(t, p)
	if len(sink.alerts) == 0 || len(sink.snippets) != len(sink.alerts) {
		t.Fatalf("%d alerts, %d snippets", len(sink.alerts), len(sink.snippets))
	}
	cond := conditionedSignal(t, newPatient(t, 8, 20*time.Minute, 3, 12))
	rate := src.Info().Rate
	for i, a := range sink.alerts {
		ev := sink.snippets[i]
		if ev.AlertID != a.ID || !slices.Equal(ev.Channels, a.Channels[:min(len(a.Channels), alert.MaxEvidenceChannels)]) {
			t.Fatalf("alert %s on %v: snippet %s on %v", a.ID, a.Channels, ev.AlertID, ev.Channels)
		}
		first := int(ev.Start.Sub(p.wall(0)).Seconds()*rate + 0.5)
		wantFirst := max(0, int((a.OnsetOffset-alert.EvidenceBefore).Seconds()*rate+0.5))
		n := len(ev.Samples[0])
		wantEnd := min(len(cond), int((a.DetectedOffset+alert.EvidenceAfter).Seconds()*rate+0.5))
		if first != wantFirst || first+n != wantEnd {
			t.Fatalf("alert %d: frames [%d, %d), want [%d, %d)", i, first, first+n, wantFirst, wantEnd)
		}
		for j, name := range ev.Channels {
			c := slices.Index(p.channels, name)
			for k, x := range ev.Samples[j] {
				if want := float32(cond[first+k][c]); x != want {
					t.Fatalf("alert %d channel %s sample %d: %g, want the conditioned %g", i, name, k, x, want)
				}
			}
		}
	}
}

// conditionedSignal runs src through an extractor of the default
// configuration and returns every conditioned frame.
func conditionedSignal(t *testing.T, src acquire.Source) [][]float64 {
	info := src.Info()
	ext, err := features.New(features.Config{Channels: len(info.Channels), Rate: info.Rate})
	if err != nil {
		t.Fatal(err)
	}
	var out [][]float64
	f := acquire.NewFrame(len(info.Channels))
	for src.ReadFrame(f) == nil {
		ext.Push(f.Samples)
		out = append(out, slices.Clone(ext.Conditioned()))
	}
	return out
}

// A source faster than evidenceRate sends its snippet at rate/k, each
// sample the mean of k frames, stamped at their middle; a snippet of the
// most channels over the longest span then fits alert.MaxEvidenceSize,
// as at 512 Hz (at 2048 Hz it was 2.6 MB, which receivers refuse), and
// the ring of 8 channels 1 MiB (at 16 kHz it was 29 MiB).
func TestEvidenceHighRateIsAveraged(t *testing.T) {
	for _, tt := range []struct {
		rate float64
		k    int
	}{{512, 1}, {1000, 2}, {2048, 4}, {16000, 32}} {
		sink := &evidenceSink{}
		s := newSinks([]alert.Sink{sink}, nil, new(int64))
		names := make([]string, alert.MaxEvidenceChannels)
		for c := range names {
			names[c] = string(rune('a' + c))
		}
		e := newEvidence(names, tt.rate, &s, func(d time.Duration) time.Time { return t0.Add(d) })
		period := time.Duration(float64(time.Second) / tt.rate)
		x := make([]float64, len(names))
		last := -1 // the frame that completed the snippet
		for i := 0; last < 0 && i < int(90*tt.rate); i++ {
			if i == int(10*tt.rate) {
				e.alert(&alert.Event{ID: alert.NewID(), OnsetOffset: 15 * time.Second, DetectedOffset: 70 * time.Second, Channels: names})
			}
			for c := range x {
				x[c] = float64(i%1000) - 500 + float64(c) // frame i holds i mod 1000 − 500 (+ the channel)
			}
			e.push(time.Duration(i)*period, x)
			if len(sink.snippets) > 0 {
				last = i
			}
		}
		if len(sink.snippets) != 1 {
			t.Fatalf("%g Hz: %d snippets", tt.rate, len(sink.snippets))
		}
		ev := sink.snippets[0]
		if ev.Rate != tt.rate/float64(tt.k) || len(ev.Samples) != len(names) {
			t.Fatalf("%g Hz: snippet at %g Hz of %d channels, want %g Hz", tt.rate, ev.Rate, len(ev.Samples), tt.rate/float64(tt.k))
		}
		// Samples are the means of frames 0 to k−1, k to 2k−1, …: the last
		// is that of the newest k frames complete when the snippet was cut.
		xs := ev.Samples[1]
		end := (last+1)/tt.k*tt.k - 1
		want := 0.0
		for q := range tt.k {
			want += float64((end-q)%1000) - 500 + 1
		}
		if got := xs[len(xs)-1]; got != float32(want/float64(tt.k)) {
			t.Errorf("%g Hz: last sample %g, want the mean of frames %d to %d, %g", tt.rate, got, end-tt.k+1, end, want/float64(tt.k))
		}
		// The first sample stands at the middle of its k frames.
		firstFrame := end + 1 - len(xs)*tt.k
		mid := time.Duration(firstFrame)*period + time.Duration(tt.k-1)*period/2
		if !ev.Start.Equal(t0.Add(mid)) {
			t.Errorf("%g Hz: start %v, want %v", tt.rate, ev.Start.Sub(t0), mid)
		}
		if n := 4 * len(e.ring); n > 1<<20 {
			t.Errorf("%g Hz: a ring of %d bytes for %d channels", tt.rate, n, len(names))
		}
		if n := len(alert.AppendEvidence(nil, &ev)); n > alert.MaxEvidenceSize {
			t.Errorf("%g Hz: %d bytes of evidence, more than %d", tt.rate, n, alert.MaxEvidenceSize)
		}
		if _, err := alert.ParseEvidence(alert.AppendEvidence(nil, &ev)); err != nil {
			t.Errorf("%g Hz: %v", tt.rate, err)
		}
	}
}

// BenchmarkEvidencePush is the evidence ring's cost per frame: a copy at
// 256 Hz (23 channels), a sum and every 32 frames a mean at 16 kHz (8).
func BenchmarkEvidencePush(b *testing.B) {
	for _, c := range []struct {
		rate float64
		nch  int
	}{{256, 23}, {16000, 8}} {
		b.Run(fmt.Sprintf("%gHz-%dch", c.rate, c.nch), func(b *testing.B) {
			s := newSinks([]alert.Sink{&evidenceSink{}}, nil, new(int64))
			e := newEvidence(make([]string, c.nch), c.rate, &s, func(d time.Duration) time.Time { return t0.Add(d) })
			x := make([]float64, c.nch)
			period := time.Duration(float64(time.Second) / c.rate)
			i := 0
			for b.Loop() {
				e.push(time.Duration(i)*period, x)
				i++
			}
		})
	}
}
