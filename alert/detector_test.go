package alert

import (
	"errors"
	"testing"
	"time"
)

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// feed runs 2 s windows every 1 s with the given scores (window i spans
// [i, i+2) s) and returns the decisions.
func feed(t *testing.T, d *Detector, scores []float64, usable []bool) []Decision {
	t.Helper()
	out := make([]Decision, len(scores))
	for i, s := range scores {
		u := true
		if usable != nil {
			u = usable[i]
		}
		out[i] = d.Window(sec(float64(i)), sec(float64(i)+2), s, u)
	}
	return out
}

func TestDetectorRules(t *testing.T) {
	const hi, lo = 0.9, 0.1
	rep := func(v float64, n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	cat := func(parts ...[]float64) []float64 {
		var s []float64
		for _, p := range parts {
			s = append(s, p...)
		}
		return s
	}
	tests := []struct {
		name   string
		cfg    DetectorConfig
		scores []float64
		usable []bool
		// expected: index of the window that starts the event (-1 none),
		// its onset, index of the window that ends it, its end
		startAt      int
		onset        float64
		endAt        int
		end          float64
		starts, ends int
	}{
		{name: "isolated positives never alert", scores: cat(rep(lo, 5), []float64{hi, lo, lo, hi, lo, lo, hi, lo}, rep(lo, 5)), startAt: -1, endAt: -1},
		{name: "three of four starts at the third", scores: cat(rep(lo, 5), rep(hi, 20), rep(lo, 15)),
			startAt: 7, onset: 5, endAt: 34, end: 26, starts: 1, ends: 1},
		{name: "a gap inside the four still counts", scores: cat(rep(lo, 5), []float64{hi, lo, hi, hi}, rep(lo, 15)),
			startAt: 8, onset: 5, endAt: 18, end: 10, starts: 1, ends: 1},
		{name: "at the threshold is not positive", scores: cat(rep(0.5, 10)), startAt: -1, endAt: -1},
		{name: "a short lull does not end the event", scores: cat(rep(lo, 2), rep(hi, 6), rep(lo, 5), rep(hi, 6), rep(lo, 12)),
			startAt: 4, onset: 2, endAt: 28, end: 20, starts: 1, ends: 1},
		{name: "refractory suppresses a second alert", cfg: DetectorConfig{Quiet: 3 * time.Second, Refractory: 30 * time.Second},
			scores:  cat(rep(lo, 2), rep(hi, 5), rep(lo, 5), rep(hi, 5), rep(lo, 5)),
			startAt: 4, onset: 2, endAt: 9, end: 8, starts: 1, ends: 1},
		{name: "after the refractory period a new event starts", cfg: DetectorConfig{Quiet: 3 * time.Second, Refractory: 5 * time.Second},
			scores:  cat(rep(lo, 2), rep(hi, 5), rep(lo, 10), rep(hi, 5), rep(lo, 6)),
			startAt: 4, onset: 2, endAt: 9, end: 8, starts: 2, ends: 2},
		{name: "unusable windows are negative", scores: cat(rep(lo, 2), rep(hi, 10), rep(lo, 5)),
			usable:  append(append(make([]bool, 0), []bool{true, true, true, false, true, false, true, false, true, false, true, false}...), true, true, true, true, true),
			startAt: -1, endAt: -1},
		{name: "k equals n equals one alerts at once", cfg: DetectorConfig{K: 1, N: 1, Quiet: time.Second},
			scores: cat(rep(lo, 3), []float64{hi}, rep(lo, 70)), startAt: 3, onset: 3, endAt: 4, end: 5, starts: 1, ends: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewDetector(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			decs := feed(t, d, tt.scores, tt.usable)
			var starts, ends int
			for i, dec := range decs {
				if dec.Started {
					starts++
					if starts == 1 {
						if i != tt.startAt || dec.Onset != sec(tt.onset) || dec.Detected != sec(float64(i)+2) {
							t.Errorf("started at window %d onset %v detected %v; want window %d onset %v", i, dec.Onset, dec.Detected, tt.startAt, sec(tt.onset))
						}
					}
				}
				if dec.Ended {
					ends++
					if ends == 1 && (i != tt.endAt || dec.End != sec(tt.end)) {
						t.Errorf("ended at window %d end %v; want window %d end %v", i, dec.End, tt.endAt, sec(tt.end))
					}
				}
			}
			if tt.startAt < 0 {
				if starts != 0 {
					t.Errorf("%d events, want none", starts)
				}
				return
			}
			if starts != tt.starts || ends != tt.ends {
				t.Errorf("%d starts and %d ends, want %d and %d", starts, ends, tt.starts, tt.ends)
			}
		})
	}
}

func TestDetectorSuppressedAndFlush(t *testing.T) {
	d, _ := NewDetector(DetectorConfig{Quiet: 2 * time.Second, Refractory: time.Minute})
	scores := []float64{0.9, 0.9, 0.9, 0.1, 0.1, 0.1, 0.9, 0.9, 0.9, 0.9}
	decs := feed(t, d, scores, nil)
	if !decs[2].Started {
		t.Fatal("no event")
	}
	if d.Suppressed() == 0 {
		t.Error("the second run within the refractory period was not counted as suppressed")
	}
	d2, _ := NewDetector(DetectorConfig{})
	feed(t, d2, []float64{0.9, 0.9, 0.9, 0.95, 0.9}, nil)
	if on, onset := d2.Active(); !on || onset != 0 {
		t.Fatalf("active %v onset %v", on, onset)
	}
	f := d2.Flush()
	if !f.Ended || f.End != sec(6) || f.Score != 0.95 {
		t.Errorf("flush %+v", f)
	}
	if f := d2.Flush(); f.Ended {
		t.Error("second flush ended again")
	}
}

func TestDetectorConfig(t *testing.T) {
	bad := []struct {
		name string
		cfg  DetectorConfig
	}{
		{"threshold 1", DetectorConfig{Threshold: 1}},
		{"negative threshold", DetectorConfig{Threshold: -0.2}},
		{"k above n", DetectorConfig{K: 5, N: 4}},
		{"negative n", DetectorConfig{N: -1}},
		{"huge n", DetectorConfig{N: 1 << 20}},
		{"negative quiet", DetectorConfig{Quiet: -time.Second}},
		{"negative refractory", DetectorConfig{Refractory: -time.Second}},
	}
	for _, b := range bad {
		if _, err := NewDetector(b.cfg); !errors.Is(err, ErrDetectorConfig) {
			t.Errorf("%s: %v", b.name, err)
		}
	}
	d, err := NewDetector(DetectorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if c := d.Config(); c.K != DefaultK || c.N != DefaultN || c.Threshold != DefaultThreshold || c.Quiet != DefaultQuiet || c.Refractory != DefaultRefractory {
		t.Errorf("defaults %+v", c)
	}
}

func TestDetectorAllocs(t *testing.T) {
	d, _ := NewDetector(DetectorConfig{})
	i := 0
	if a := testing.AllocsPerRun(1000, func() {
		s := 0.1
		if i%50 < 20 {
			s = 0.9
		}
		d.Window(sec(float64(i)), sec(float64(i)+2), s, true)
		i++
	}); a != 0 {
		t.Errorf("Window allocates %v", a)
	}
}
