package synth

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
)

func TestSeizureIntervalsRespectConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []time.Duration // onsets, when configured
	}{
		{name: "default count", cfg: Config{Duration: 30 * time.Minute, Seizures: 2, Seed: 1}},
		{name: "many short seizures packed", cfg: Config{Duration: 20 * time.Minute, Seizures: 8, SeizureMin: 10 * time.Second, SeizureMax: 80 * time.Second, Seed: 2}},
		{name: "one long seizure", cfg: Config{Duration: 6 * time.Minute, Seizures: 1, SeizureMin: 5 * time.Minute, SeizureMax: 5 * time.Minute, Seed: 3}},
		{name: "no seizure", cfg: Config{Duration: 5 * time.Minute, Seed: 4}},
		{name: "explicit onsets", cfg: Config{Duration: 10 * time.Minute, Onsets: []time.Duration{time.Minute, 4 * time.Minute, 8 * time.Minute}, Seed: 5},
			want: []time.Duration{time.Minute, 4 * time.Minute, 8 * time.Minute}},
		{name: "onset off the sample grid", cfg: Config{Duration: 5 * time.Minute, Rate: 200, Onsets: []time.Duration{61*time.Second + 7*time.Millisecond}, Seed: 6},
			want: []time.Duration{61*time.Second + 5*time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg := p.Config()
			var sz []acquire.Interval
			for _, iv := range p.Intervals() {
				if iv.Seizure {
					sz = append(sz, iv)
				}
			}
			if len(sz) != cfg.Seizures {
				t.Fatalf("%d seizure intervals, configured %d", len(sz), cfg.Seizures)
			}
			for i, iv := range sz {
				if iv.Text != "seizure" {
					t.Errorf("seizure %d: text %q", i, iv.Text)
				}
				if iv.Start < 0 || iv.End > cfg.Duration || iv.End <= iv.Start {
					t.Errorf("seizure %d: [%v, %v) not inside the %v recording", i, iv.Start, iv.End, cfg.Duration)
				}
				if d := iv.End - iv.Start; d < cfg.SeizureMin-time.Second/time.Duration(cfg.Rate) || d > cfg.SeizureMax {
					t.Errorf("seizure %d lasts %v, outside [%v, %v]", i, d, cfg.SeizureMin, cfg.SeizureMax)
				}
				if i > 0 && iv.Start < sz[i-1].End {
					t.Errorf("seizure %d starts at %v, before seizure %d ends (%v)", i, iv.Start, i-1, sz[i-1].End)
				}
				if tt.want != nil && iv.Start != tt.want[i] {
					t.Errorf("seizure %d starts at %v, want %v", i, iv.Start, tt.want[i])
				}
				if tt.want == nil && len(sz) > 1 && i > 0 && iv.Start-sz[i-1].End < SeizureGap {
					t.Errorf("seizures %d and %d only %v apart", i-1, i, iv.Start-sz[i-1].End)
				}
			}
			for i, s := range p.Seizures() {
				if s.Start != sz[i].Start || s.End != sz[i].End {
					t.Errorf("Seizures()[%d] = [%v, %v), Intervals says [%v, %v)", i, s.Start, s.End, sz[i].Start, sz[i].End)
				}
			}
		})
	}
}

// ictalRecording is a 23-channel recording with several seizures and no
// artifacts, and for each channel its RMS away from seizures (outside
// [onset, end+60 s)).
func ictalRecording(t *testing.T, seed uint64) (*Patient, [][]float64, []float64) {
	t.Helper()
	p, x := record(t, Config{Channels: 23, Duration: 24 * time.Minute, Seizures: 5, Seed: seed})
	interictal := make([]bool, p.Frames())
	for i := range interictal {
		interictal[i] = true
	}
	for _, s := range p.Seizures() {
		from := durationSamples(s.Start, 256)
		to := min(durationSamples(s.End+60*time.Second, 256), p.Frames())
		for i := from; i < to; i++ {
			interictal[i] = false
		}
	}
	base := make([]float64, len(x))
	for c := range x {
		var kept []float64
		for i, v := range x[c] {
			if interictal[i] {
				kept = append(kept, v)
			}
		}
		base[c] = rms(kept)
	}
	return p, x, base
}

// established returns the seconds of a seizure where its discharge is at
// full strength: after the growth (30 %) and before the fade-out.
func established(s Seizure) (from, to float64) {
	d := (s.End - s.Start).Seconds()
	return s.Start.Seconds() + 0.35*d, s.End.Seconds() - 0.15*d
}

func TestSeizureDominatesFocalChannel(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		p, x, base := ictalRecording(t, seed)
		for i, s := range p.Seizures() {
			t.Run(fmt.Sprintf("seed %d seizure %d", seed, i), func(t *testing.T) {
				c := s.Focus[0]
				from, to := established(s)
				ictal := slice(x[c], 256, from, to)
				ratio := rms(ictal) / base[c]
				if ratio < 3 {
					t.Errorf("focal channel %d: RMS %.1f µV is only %.2f× background %.1f µV", c, rms(ictal), ratio, base[c])
				}
				bl := slice(x[c], 256, s.Start.Seconds()-40, s.Start.Seconds()-10)
				ll := lineLength(ictal) / lineLength(bl)
				if ll < 2 {
					t.Errorf("focal channel %d: line length only %.2f× the pre-ictal one", c, ll)
				}
				// The rhythm glides as f0 + (f1−f0)·smoothstep(u); over the
				// window u runs from 0.35 to 0.85. Allow the ±0.3 Hz wander
				// and the 0.5 Hz bins.
				glide := func(u float64) float64 { return s.StartHz + (s.EndHz-s.StartHz)*u*u*(3-2*u) }
				lo, hi := min(glide(0.35), glide(0.85))-0.6, max(glide(0.35), glide(0.85))+0.6
				if f := welch(ictal, 256, 512).peak(0.5, 30); f < lo || f > hi {
					t.Errorf("focal channel %d: dominant frequency %.1f Hz outside the seizure's band %.1f–%.1f Hz", c, f, lo, hi)
				}
				t.Logf("focus %d: RMS %.1f×, line length %.1f×, band %.1f–%.1f Hz", c, ratio, ll, lo, hi)
			})
		}
	}
}

func TestSeizureSpreads(t *testing.T) {
	p, x, base := ictalRecording(t, 11)
	for i, s := range p.Seizures() {
		involved := func(from, to float64) []int {
			var chans []int
			for c := range x {
				if rms(slice(x[c], 256, from, to))/base[c] > 1.6 {
					chans = append(chans, c)
				}
			}
			return chans
		}
		on := s.Start.Seconds()
		early := involved(on+1.5, on+4)
		_, to := established(s)
		late := involved(to-4, to)
		t.Logf("seizure %d focus %v: at onset %v, late %v", i, s.Focus, early, late)
		if len(late) <= len(early) {
			t.Errorf("seizure %d: involves %d channels late, not more than the %d at onset", i, len(late), len(early))
		}
		if !contains(early, s.Focus[0]) {
			t.Errorf("seizure %d: focus %d not among the channels involved at onset %v", i, s.Focus[0], early)
		}
	}
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestPostictalSuppressionAndSlowing(t *testing.T) {
	p, x, _ := ictalRecording(t, 5)
	for i, s := range p.Seizures() {
		c := s.Focus[0]
		end := s.End.Seconds()
		pre := welch(slice(x[c], 256, s.Start.Seconds()-40, s.Start.Seconds()-10), 256, 512)
		post := welch(slice(x[c], 256, end+1, end+9), 256, 512)
		if r := post.band(13, 30) / pre.band(13, 30); r > 0.7 {
			t.Errorf("seizure %d: beta power after it is %.2f× that before, want suppression", i, r)
		}
		if r := post.band(0.5, 2.5) / pre.band(0.5, 2.5); r < 1.5 {
			t.Errorf("seizure %d: delta power after it is %.2f× that before, want slowing", i, r)
		}
	}
}

func TestSeizuresVary(t *testing.T) {
	p, err := New(Config{Channels: 23, Duration: 2 * time.Hour, Seizures: 12, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	foci := map[int]bool{}
	var rising, falling int
	lengths := map[time.Duration]bool{}
	for _, s := range p.Seizures() {
		foci[s.Focus[0]] = true
		lengths[s.End-s.Start] = true
		if s.StartHz < 5 && s.EndHz > 6 {
			rising++
		}
		if s.StartHz > 6 && s.EndHz < 5 {
			falling++
		}
		if len(s.Reached) < len(s.Focus) || len(s.Arrivals) != len(s.Reached) {
			t.Errorf("seizure at %v: reached %v at %v", s.Start, s.Reached, s.Arrivals)
		}
		for j := 1; j < len(s.Arrivals); j++ {
			if s.Arrivals[j] < s.Arrivals[j-1] || s.Arrivals[j] >= s.End-s.Start {
				t.Errorf("seizure at %v: onsets %v not ascending within the seizure", s.Start, s.Arrivals)
			}
		}
	}
	if len(foci) < 4 || rising == 0 || falling == 0 || len(lengths) < 10 {
		t.Errorf("12 seizures: %d foci, %d rising, %d falling, %d distinct lengths; want variety", len(foci), rising, falling, len(lengths))
	}
	if math.IsNaN(p.Seizures()[0].StartHz) {
		t.Error("NaN frequency")
	}
}

func TestSeizureRhythmEvolves(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		p, x, _ := ictalRecording(t, seed)
		for i, s := range p.Seizures() {
			c := s.Focus[0]
			on, d := s.Start.Seconds(), (s.End - s.Start).Seconds()
			early := welch(slice(x[c], 256, on+0.15*d, on+0.4*d), 256, 512).peak(1, 20)
			late := welch(slice(x[c], 256, on+0.65*d, on+0.9*d), 256, 512).peak(1, 20)
			// Between the windows' centres (u = 0.275 and 0.775) the
			// glide covers 0.69 of f1−f0 (|f1−f0| ≥ 1 Hz); want the
			// dominant frequency to move that way by at least 0.3 of it.
			want := s.EndHz - s.StartHz
			if got := late - early; got*want <= 0 || math.Abs(got) < 0.3*math.Abs(want) {
				t.Errorf("seed %d seizure %d: %.1f → %.1f Hz, dominant frequency moved %.1f → %.1f Hz", seed, i, s.StartHz, s.EndHz, early, late)
			}
		}
	}
}
