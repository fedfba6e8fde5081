package pipeline

import (
	"bytes"
	"log/slog"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/features"
)

func TestRankingFindsLineLengthByIndex(t *testing.T) {
	tests := []struct {
		name  string
		feats []features.Feature
		x     []float64 // a window after a baseline of zeros
		want  []string
	}{
		{"line length second", []features.Feature{features.RMS, features.LineLength},
			[]float64{9, 1, 9, 3, 9, -2}, []string{"b", "a"}},
		{"line length first", []features.Feature{features.LineLength, features.RMS},
			[]float64{0.5, 9, 2, 9, 1, 9}, []string{"b", "c"}},
		{"no line length", []features.Feature{features.RMS}, []float64{1, 2, 3}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ext, err := features.New(features.Config{Channels: 3, Rate: 256, Features: tt.feats})
			if err != nil {
				t.Fatal(err)
			}
			r := newRanking(ext, []string{"a", "b", "c"}, 2)
			r.update(make([]float64, ext.Dim()))
			if got := r.channels(tt.x); !slices.Equal(got, tt.want) {
				t.Errorf("channels %q, want %q", got, tt.want)
			}
		})
	}
}

// The negative horizon learns each buffered window once, oldest first,
// across calls and across the ring's wrap-around.
func TestLateLabelsAgeOut(t *testing.T) {
	var learned []float64
	l := &lateLabels{buf: newRing(4, 1), horizon: 3 * time.Second,
		train: func(x []float64, seizure bool) {
			if seizure {
				t.Error("aged window learned as a seizure")
			}
			learned = append(learned, x[0])
		}, stats: &Stats{}, log: slog.New(slog.DiscardHandler)}
	for i := range 10 {
		start := time.Duration(i) * time.Second
		l.buf.push(start, start+2*time.Second, []float64{float64(i)}, false)
		l.ageOut(start + 2*time.Second)
	}
	// At the end of window i (i+2 s), windows ending by i−1 s have aged:
	// windows 0 to 6 of 10.
	if want := []float64{0, 1, 2, 3, 4, 5, 6}; !slices.Equal(learned, want) {
		t.Errorf("learned %v, want %v", learned, want)
	}
}

// A label teaches the model the windows the detector decided otherwise
// (a seizure's windows it scored below the threshold, a rejected alert's
// above it) and only counts the others, unless LearnAgreed.
func TestLateLabelsLearnMistakes(t *testing.T) {
	for _, learnAgreed := range []bool{false, true} {
		for _, seizure := range []bool{true, false} {
			var learned []float64
			var note string
			st := &Stats{}
			l := &lateLabels{buf: newRing(10, 1), minOverlap: 0.5, learnAgreed: learnAgreed, events: &events{}, ack: func(a alert.Ack) { note = a.Note },
				offset: func(t time.Time) time.Duration { return t.Sub(time.Unix(0, 0)) }, wall: func(d time.Duration) time.Time { return time.Unix(0, 0).Add(d) },
				maxInterval: time.Minute, train: func(x []float64, s bool) {
					if s != seizure {
						t.Errorf("learned as seizure %v, labelled %v", s, seizure)
					}
					learned = append(learned, x[0])
				}, stats: st, log: slog.New(slog.DiscardHandler)}
			// Windows 0..5, 1 s apart; the detector decided 1, 2 and 4 positive.
			for i := range 6 {
				start := time.Duration(i) * time.Second
				l.buf.push(start, start+time.Second, []float64{float64(i)}, i == 1 || i == 2 || i == 4)
			}
			l.apply(alert.Label{Seizure: seizure, Start: time.Unix(0, 0), End: time.Unix(6, 0)}, 7*time.Second)
			l.finaliseAll()
			want := []float64{0, 3, 5} // the detector said no: a seizure's mistakes
			if !seizure {
				want = []float64{1, 2, 4}
			}
			if learnAgreed {
				want = []float64{0, 1, 2, 3, 4, 5}
			}
			if !slices.Equal(learned, want) || st.Agreed != int64(6-len(want)) {
				t.Errorf("learnAgreed %v, seizure %v: learned %v (want %v), %d agreed", learnAgreed, seizure, learned, want, st.Agreed)
			}
			// The acknowledgement tells the clinician what the label teaches.
			wantNote := "the detector already had 3 of the 6 windows right; the model learns the other 3"
			if learnAgreed {
				wantNote = ""
			}
			if note != wantNote {
				t.Errorf("learnAgreed %v, seizure %v: ack note %q, want %q", learnAgreed, seizure, note, wantNote)
			}
		}
	}
}

// A label naming an alert learns the buffered windows of the alert's span
// that it covers by at least the minimum overlap, once, when its grace
// period is over; a contradicting label is refused from then on.
func TestLateLabelsApplyToAlert(t *testing.T) {
	ev := &events{}
	ev.remember(alertRecord{id: "a1", onset: 4 * time.Second, end: 8 * time.Second})
	var pos, neg int
	var acks []alert.Ack
	st := &Stats{}
	l := &lateLabels{buf: newRing(20, 1), minOverlap: 0.5, grace: 10 * time.Second, events: ev, ack: func(a alert.Ack) { acks = append(acks, a) },
		wall: func(d time.Duration) time.Time { return time.Unix(0, 0).Add(d) },
		train: func(_ []float64, seizure bool) {
			if seizure {
				pos++
			} else {
				neg++
			}
		}, stats: st}
	var logs bytes.Buffer
	l.log = slog.New(slog.NewTextHandler(&logs, nil))
	for i := range 12 {
		start := time.Duration(i) * time.Second
		l.buf.push(start, start+2*time.Second, []float64{float64(i)}, false)
	}
	l.apply(alert.Label{AlertID: "a1", Seizure: true, By: "alice", Sender: "clinician-alice", From: "mqtt"}, 13*time.Second)
	l.finalise(22 * time.Second)
	if pos != 0 {
		t.Errorf("%d windows learned within the grace period", pos)
	}
	l.finalise(23 * time.Second)
	// Windows [3,5) … [7,9) overlap [4,8) by at least 1 s: 3, 4, 5, 6, 7.
	if pos != 5 || st.LabelsApplied != 1 {
		t.Errorf("%d windows learned, %d labels applied", pos, st.LabelsApplied)
	}
	l.apply(alert.Label{AlertID: "a1", Seizure: false}, 24*time.Second)
	l.finaliseAll()
	if neg != 0 || st.LabelsUnused != 1 {
		t.Errorf("windows learned twice (%d), %d labels unused", neg, st.LabelsUnused)
	}
	l.apply(alert.Label{AlertID: "unknown", Seizure: true}, 24*time.Second)
	if st.LabelsUnused != 2 {
		t.Errorf("an unknown alert's label counted %d unused", st.LabelsUnused)
	}
	// Every label is answered: applied to 5 windows, final 10 s after it
	// arrived, then refused twice.
	if len(acks) != 3 {
		t.Fatalf("%d acks, want 3: %+v", len(acks), acks)
	}
	if a := acks[0]; !a.Applied || a.Windows != 5 || a.AlertID != "a1" || a.Verdict != alert.VerdictConfirmed || a.By != "alice" ||
		!a.FinalAt.Equal(time.Unix(23, 0)) {
		t.Errorf("first ack %+v", a)
	}
	if a := acks[1]; a.Applied || a.Windows != 0 || a.Verdict != alert.VerdictRejected ||
		!strings.Contains(a.Reason, `contradicts the seizure label by "alice" (sender "clinician-alice") on 5 windows, final since 1970-01-01T00:00:23Z`) {
		t.Errorf("second ack %+v", a)
	}
	if a := acks[2]; a.Applied || !strings.Contains(a.Reason, "no recent alert") {
		t.Errorf("third ack %+v", a)
	}
	// The log names who sent each label: the clinician and the sender.
	if first, _, _ := strings.Cut(logs.String(), "\n"); !strings.Contains(first, "label applied") ||
		!strings.Contains(first, "from=mqtt sender=clinician-alice by=alice") {
		t.Errorf("log line %s", first)
	}
	if strings.Count(logs.String(), "reason=") != 2 {
		t.Errorf("refusals logged without their reason:\n%s", logs.String())
	}
}

// The late-label buffer takes its memory when the pipeline runs, not when
// it is built (ictald builds one to check its configuration first), and
// keeps vectors in single precision: a value beyond float32's range
// becomes ±Inf, which the model then refuses to learn.
func TestLateLabelBufferMemory(t *testing.T) {
	src := newPatient(t, 4, 30*time.Second, 0, 1)
	m := newModel(t, src, features.Config{}, "UOB")
	p := newPipeline(t, src, features.Config{}, m, Config{Learning: Learning{Mode: LearnFeedback, Buffer: time.Hour}}, nil, Hooks{})
	r := p.late.buf
	if r.w != nil || r.capacity != 3601 || p.Stats().BufferCap != 3601 {
		t.Fatalf("after New: %d entries allocated, capacity %d (stats %d), want none and 3601", len(r.w), r.capacity, p.Stats().BufferCap)
	}
	runAll(t, p)
	if len(r.w) != r.capacity || r.size == 0 || len(r.w[0].x) != p.ext.Dim() {
		t.Errorf("after Run: %d entries of %d features for capacity %d, %d buffered", len(r.w), len(r.w[0].x), r.capacity, r.size)
	}

	l := &lateLabels{buf: newRing(2, 3)}
	l.buf.push(0, time.Second, []float64{0.1, -2, 1e39}, false)
	if got, want := l.vector(l.buf.at(0)), []float64{float64(float32(0.1)), -2, math.Inf(1)}; !slices.Equal(got, want) {
		t.Errorf("buffered vector %v, want %v", got, want)
	}
}

// TestHeapOfAnHourBuffer: a running 23-channel per-channel pipeline
// learning from feedback holds its default hour of buffer, 3601 × 391
// single-precision vectors (5.6 MB, allocated whole when it starts), and
// little else on the heap. With the buffer in double precision it fails.
// Heap bytes, unlike times, do not depend on how busy the machine is.
func TestHeapOfAnHourBuffer(t *testing.T) {
	src := newPatient(t, 23, 5*time.Minute, 0, 1)
	sc := Scoring{PerChannel: true, Population: unitPopulation()}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p, err := New(src, defaultFeatures, channelModel(t), Config{Learning: Learning{Mode: LearnFeedback}, Scoring: sc}, nil, Hooks{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, p)
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	buffer := int64(p.late.buf.capacity * p.ext.Dim() * 4)
	if p.late.buf.size == 0 || buffer != 3601*391*4 {
		t.Fatalf("%d of %d windows buffered, %d bytes of vectors", p.late.buf.size, p.late.buf.capacity, buffer)
	}
	if live < buffer || live > buffer+2<<20 {
		t.Errorf("the pipeline holds %.2f MB of heap with its buffer of %.2f MB: want at most 2 MiB more", float64(live)/1e6, float64(buffer)/1e6)
	}
	t.Logf("heap %.2f MB, of which the buffer's vectors %.2f MB", float64(live)/1e6, float64(buffer)/1e6)
	runtime.KeepAlive(p)
}
