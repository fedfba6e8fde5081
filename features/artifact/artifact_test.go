package artifact_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/synth"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/features/artifact"
)

// judged runs a simulated patient through conditioning, features and a
// Detector, and returns each window's verdict kind and what the
// simulator says the window overlaps.
type judgedWindow struct {
	kind                   artifact.Kind
	seizure, blink, muscle bool
}

func judgeSynth(t *testing.T, cfg synth.Config) []judgedWindow {
	t.Helper()
	p, err := synth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	info := p.Info()
	labels := make([]string, len(info.Channels))
	for i, c := range info.Channels {
		labels[i] = c.Label
	}
	e, err := features.New(features.Config{Channels: len(labels), Rate: info.Rate})
	if err != nil {
		t.Fatal(err)
	}
	d, err := artifact.New(artifact.Config{}, labels, features.DefaultStep)
	if err != nil {
		t.Fatal(err)
	}
	ivs := p.Intervals()
	x := make([]float64, e.Dim())
	m := make([]artifact.Measures, len(labels))
	fr := acquire.NewFrame(len(labels))
	var out []judgedWindow
	for p.ReadFrame(fr) == nil {
		if !e.Push(fr.Samples) {
			continue
		}
		e.Vector(x)
		for c := range m {
			m[c] = artifact.Measures{Delta: e.Measure(c, features.DeltaPower), Theta: e.Measure(c, features.ThetaPower),
				Alpha: e.Measure(c, features.AlphaPower), Beta: e.Measure(c, features.BetaPower),
				Gamma: e.Measure(c, features.GammaPower), Step: e.MaxStep(c)}
		}
		w := judgedWindow{kind: d.Judge(m).Kind}
		end := fr.Time + time.Duration(float64(time.Second)/info.Rate)
		for _, iv := range ivs {
			if iv.Start < end && iv.End > end-features.DefaultWindow {
				switch iv.Text {
				case synth.TextSeizure:
					w.seizure = true
				case synth.TextBlink:
					w.blink = true
				case synth.TextMuscle:
					w.muscle = true
				}
			}
		}
		out = append(out, w)
	}
	return out
}

// TestSyntheticTruth scores the rules against the simulator's own labels
// of blinks, muscle bursts and seizures: no seizure window is gated unless
// an artifact overlaps it, few clean windows are, and a useful share of
// the artifacts is caught.
func TestSyntheticTruth(t *testing.T) {
	cfg := synth.DefaultConfig()
	cfg.Rate, cfg.Duration, cfg.Seizures, cfg.Seed = 250, 30*time.Minute, 3, 3
	var clean, cleanGated, sz, blink, blinkGated, muscle, muscleGated int
	for _, w := range judgeSynth(t, cfg) {
		gated := w.kind != artifact.None
		switch {
		case w.seizure && !w.blink && !w.muscle:
			sz++
			if gated {
				t.Errorf("a seizure window with no artifact was gated as %v", w.kind)
			}
		case w.blink:
			blink++
			if gated {
				blinkGated++
			}
		case w.muscle:
			muscle++
			if gated {
				muscleGated++
			}
		default:
			clean++
			if gated {
				cleanGated++
			}
		}
	}
	t.Logf("seizure windows %d; clean %d, gated %d; blink %d, gated %d; muscle %d, gated %d", sz, clean, cleanGated, blink, blinkGated, muscle, muscleGated)
	if sz == 0 || blink == 0 || muscle == 0 {
		t.Fatal("the simulated recording lacks seizures, blinks or muscle bursts")
	}
	if float64(cleanGated) > 0.02*float64(clean) {
		t.Errorf("%d of %d clean windows gated, want at most 2 %%", cleanGated, clean)
	}
	if float64(blinkGated) < 0.4*float64(blink) {
		t.Errorf("%d of %d windows with a blink gated, want at least 40 %%", blinkGated, blink)
	}
	if float64(muscleGated) < 0.3*float64(muscle) {
		t.Errorf("%d of %d windows with a muscle burst gated, want at least 30 %%", muscleGated, muscle)
	}
}

func TestFrontal(t *testing.T) {
	for label, want := range map[string]bool{
		"Fp1": true, "EEG Fp2-F8": true, "FPZ": true, "AF7": true, "F7-Fp1": true,
		"F3": false, "C3-P3": false, "T7-P7": false, "ch0": false, "": false,
	} {
		if got := artifact.Frontal(label); got != want {
			t.Errorf("Frontal(%q) = %v, want %v", label, got, want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tt := range []struct {
		cfg  artifact.Config
		want string
	}{
		{artifact.Config{MuscleRise: -3}, "muscle_rise_db -3"},
		{artifact.Config{EyeRise: 5000}, "eye_rise_db 5000"},
		{artifact.Config{StepFloor: -1}, "step_floor_microvolts -1"},
		{artifact.Config{Settle: time.Millisecond}, "settle 1ms"},
		{artifact.Config{Warmup: 2 * time.Hour}, "warmup 2h0m0s"},
		{artifact.Config{Electrode: 2 * time.Hour}, "electrode 2h0m0s"},
	} {
		_, err := artifact.New(tt.cfg, []string{"Fp1"}, time.Second)
		if !errors.Is(err, artifact.ErrConfig) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) = %v, want ErrConfig naming %q", tt.cfg, err, tt.want)
		}
	}
	if _, err := artifact.New(artifact.Config{}, []string{"Fp1"}, 0); !errors.Is(err, artifact.ErrConfig) {
		t.Errorf("a zero step gave %v", err)
	}
}

// TestRules drives each rule with measures made up for the purpose.
func TestRules(t *testing.T) {
	labels := []string{"Fp1", "Fp2", "C3", "C4"}
	base := artifact.Measures{Delta: 4, Theta: 3.5, Alpha: 3.5, Beta: 3, Gamma: 2, Step: 10}
	for _, tt := range []struct {
		name string
		mod  func(m []artifact.Measures)
		want artifact.Kind
		ch   []int
	}{
		{"clean", func([]artifact.Measures) {}, artifact.None, nil},
		{"pop", func(m []artifact.Measures) { m[2].Step = 400 }, artifact.Electrode, []int{2}},
		{"small step is no pop", func(m []artifact.Measures) { m[2].Step = 90 }, artifact.None, nil},
		{"movement", func(m []artifact.Measures) { // slow bands +17 dB, the rest +11 dB
			m[3] = artifact.Measures{Delta: 8, Theta: 7.5, Alpha: 6, Beta: 5.5, Gamma: 4.5, Step: 20}
		}, artifact.Electrode, []int{3}},
		{"a discharge raising every band is no movement", func(m []artifact.Measures) { // θ–β +17 dB, δ +15 dB
			m[3] = artifact.Measures{Delta: 7.5, Theta: 7.5, Alpha: 7.5, Beta: 7, Gamma: 5.5, Step: 300}
		}, artifact.None, nil},
		{"spikes that raise β are no pop", func(m []artifact.Measures) { m[2].Step, m[2].Beta = 400, 7.5 }, artifact.None, nil},
		{"jaw clench", func(m []artifact.Measures) { m[2].Gamma, m[3].Gamma = 5, 5.5 }, artifact.Muscle, []int{2, 3}},
		{"rhythm is not muscle", func(m []artifact.Measures) { m[2].Gamma, m[2].Theta = 5, 8 }, artifact.None, nil},
		{"γ far below β is not muscle", func(m []artifact.Measures) { m[2].Gamma, m[2].Beta = 5, 8 }, artifact.None, nil},
		{"blink", func(m []artifact.Measures) { m[0].Delta, m[1].Delta = 7, 6.8 }, artifact.Eye, []int{0, 1}},
		{"slow waves everywhere are not a blink", func(m []artifact.Measures) {
			for c := range m {
				m[c].Delta = 7
			}
		}, artifact.None, nil},
		{"slow waves behind are not a blink", func(m []artifact.Measures) { m[2].Delta = 8 }, artifact.None, nil},
		{"EMG spikes are muscle, not a pop", func(m []artifact.Measures) {
			m[2] = artifact.Measures{Delta: 5, Theta: 4.5, Alpha: 4.5, Beta: 5, Gamma: 5.5, Step: 300}
		}, artifact.Muscle, []int{2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := artifact.New(artifact.Config{}, labels, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			m := []artifact.Measures{base, base, base, base}
			for i := 0; i < 5; i++ {
				d.Judge(m)
			}
			tt.mod(m)
			v := d.Judge(m)
			if v.Kind != tt.want || len(v.Channels) != len(tt.ch) {
				t.Fatalf("verdict %v on %v, want %v on %v", v.Kind, v.Channels, tt.want, tt.ch)
			}
			for i := range tt.ch {
				if v.Channels[i] != tt.ch[i] {
					t.Fatalf("verdict %v on %v, want %v on %v", v.Kind, v.Channels, tt.want, tt.ch)
				}
			}
		})
	}
}

// TestStartup: the first Warmup of windows are Settling, again after
// Reset; then, until a clean window sets the background, a blink is
// recognised across the head, and the blink does not become background.
func TestStartup(t *testing.T) {
	labels := []string{"Fp1", "Fp2", "C3", "C4", "O1"}
	clean := artifact.Measures{Delta: 4, Theta: 3.5, Alpha: 3.5, Beta: 3, Gamma: 2, Step: 10}
	blink := clean
	blink.Delta = 7 // 13 dB over the channels behind
	window := func(front artifact.Measures) []artifact.Measures {
		return []artifact.Measures{front, front, clean, clean, clean}
	}
	d, err := artifact.New(artifact.Config{Warmup: 3 * time.Second}, labels, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	judge := func(m []artifact.Measures, want artifact.Kind, ch int) {
		t.Helper()
		if v := d.Judge(m); v.Kind != want || len(v.Channels) != ch {
			t.Fatalf("verdict %v on %v, want %v on %d channels", v.Kind, v.Channels, want, ch)
		}
	}
	for round := 0; round < 2; round++ {
		for i := 0; i < 3; i++ {
			judge(window(blink), artifact.Settling, 0)
		}
		judge(window(blink), artifact.Eye, 2) // no background yet
		judge(window(blink), artifact.Eye, 2)
		judge(window(clean), artifact.None, 0) // sets the background
		judge(window(blink), artifact.Eye, 2)  // against the background
		d.Reset()
	}
	// Slow waves everywhere in the first window are not a blink.
	d, _ = artifact.New(artifact.Config{Warmup: -1}, labels, time.Second)
	judge([]artifact.Measures{blink, blink, blink, blink, blink}, artifact.None, 0)
	// Nor, with no channel behind the eyes to compare, is anything.
	d, _ = artifact.New(artifact.Config{Warmup: -1}, []string{"Fp1", "Fp2"}, time.Second)
	judge([]artifact.Measures{blink, blink}, artifact.None, 0)
}

// TestElectrodeEpisodeIsBounded: a movement that goes on is gated for
// Config.Electrode and then scored, and becomes the background; a rise
// that fires the rule only now and then, as a seizure's high-amplitude
// slow rhythm did on the Bonn splices, is one episode, not gated again
// at every return; after as long without the rule, a new episode is gated
// again. With no limit, the gate holds.
func TestElectrodeEpisodeIsBounded(t *testing.T) {
	labels := []string{"C3", "C4"}
	clean := artifact.Measures{Delta: 4, Theta: 3.5, Alpha: 3.5, Beta: 3, Gamma: 2, Step: 10}
	moving := artifact.Measures{Delta: 8, Theta: 7.5, Alpha: 6, Beta: 5.5, Gamma: 4.5, Step: 20} // TestRules' movement
	step := 500 * time.Millisecond
	run := func(d *artifact.Detector, seq string) string {
		var got strings.Builder
		for _, w := range seq {
			m := []artifact.Measures{clean, clean}
			if w == 'm' {
				m[1] = moving
			}
			got.WriteString(map[artifact.Kind]string{artifact.None: ".", artifact.Electrode: "E"}[d.Judge(m).Kind])
		}
		return got.String()
	}
	for _, tt := range []struct {
		name  string
		limit time.Duration
		seq   string // c: clean window, m: movement on the second channel
		want  string // .: scored, E: electrode
	}{
		// 2 s at a step of 0.5 s: 4 windows of an episode are gated.
		{"gated for the limit, then scored", 2 * time.Second,
			"ccmmmmmmmm", "..EEEE...."},
		{"returns within the limit are one episode", 2 * time.Second,
			"ccmmcmmcmmc", "..EE.EE...."},
		{"a new episode after as long without it", 2 * time.Second,
			"ccmmmmmmccccmmc", "..EEEE......EE."},
		{"a limit rounds up to whole windows", 1100 * time.Millisecond,
			"ccmmmmm", "..EEE.."},
		{"no limit", -1,
			"ccmmmmmmmmmm", "..EEEEEEEEEE"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := artifact.New(artifact.Config{Warmup: -1, Electrode: tt.limit}, labels, step)
			if err != nil {
				t.Fatal(err)
			}
			if got := run(d, tt.seq); got != tt.want {
				t.Errorf("%s judged %s, want %s", tt.seq, got, tt.want)
			}
		})
	}
	// Reset ends the episode: the first movement after it is gated.
	d, err := artifact.New(artifact.Config{Warmup: -1, Electrode: time.Second}, labels, step)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(d, "cmmm"); got != ".EE." {
		t.Fatalf("before Reset: %s", got)
	}
	d.Reset()
	if got := run(d, "cm"); got != ".E" {
		t.Errorf("after Reset: %s, want .E", got)
	}
}

func TestJudgeAllocatesNothing(t *testing.T) {
	labels := []string{"Fp1", "Fp2", "C3", "C4"}
	d, err := artifact.New(artifact.Config{}, labels, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	m := make([]artifact.Measures, 4)
	i := 0
	if n := testing.AllocsPerRun(1000, func() {
		for c := range m {
			m[c] = artifact.Measures{Delta: 4 + float64(i%7), Theta: 3, Alpha: 3, Beta: 2, Gamma: 1 + float64(i%5), Step: 10}
		}
		i++
		d.Judge(m)
	}); n != 0 {
		t.Fatalf("Judge allocates %v times", n)
	}
}

// TestFrontalOnlyMontage: with no channel behind the eyes to compare
// with, a slow frontal rise cannot be told from a frontal seizure's slow
// activity, and the eye rule does not fire (on a one-channel Fp1-F7
// montage of the simulated patient it had gated every seizure window);
// the same rise with a central channel beside it is a blink.
func TestFrontalOnlyMontage(t *testing.T) {
	base := artifact.Measures{Delta: 4, Theta: 3.5, Alpha: 3.5, Beta: 3, Gamma: 2, Step: 10}
	for _, tt := range []struct {
		labels []string
		want   artifact.Kind
	}{
		{[]string{"Fp1-F7"}, artifact.None},
		{[]string{"Fp1", "Fp2"}, artifact.None},
		{[]string{"Fp1-F7", "C3-P3"}, artifact.Eye},
	} {
		d, err := artifact.New(artifact.Config{}, tt.labels, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		m := make([]artifact.Measures, len(tt.labels))
		for i := range m {
			m[i] = base
		}
		for i := 0; i < 5; i++ {
			d.Judge(m)
		}
		m[0].Delta = 7
		if len(m) == 2 && tt.labels[1] == "Fp2" {
			m[1].Delta = 7
		}
		if v := d.Judge(m); v.Kind != tt.want {
			t.Errorf("%v: verdict %v on %v, want %v", tt.labels, v.Kind, v.Channels, tt.want)
		}
	}
}

// TestJudgeWithout: a channel left out fires no rule, is no channel
// behind the eyes to compare a blink with, and its background stands
// still; the others are judged as by Judge.
func TestJudgeWithout(t *testing.T) {
	labels := []string{"Fp1", "Fp2", "C3", "C4"}
	base := artifact.Measures{Delta: 4, Theta: 3.5, Alpha: 3.5, Beta: 3, Gamma: 2, Step: 10}
	pop := base
	pop.Step = 400
	noisy := artifact.Measures{Delta: 9, Theta: 9, Alpha: 9, Beta: 9, Gamma: 9, Step: 900} // a disconnected electrode
	d, err := artifact.New(artifact.Config{Warmup: -1}, labels, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	m := []artifact.Measures{base, base, base, base}
	d.Judge(m) // sets the backgrounds
	out := []bool{false, false, true, false}
	judge := func(m []artifact.Measures, out []bool, want artifact.Kind, ch ...int) {
		t.Helper()
		v := d.JudgeWithout(m, out)
		if v.Kind != want || !slices.Equal(v.Channels, ch) {
			t.Fatalf("verdict %v on %v, want %v on %v", v.Kind, v.Channels, want, ch)
		}
	}
	// C3 left out: its pop fires nothing, nor does its noise for minutes.
	judge([]artifact.Measures{base, base, pop, base}, out, artifact.None)
	for range 300 {
		judge([]artifact.Measures{base, base, noisy, base}, out, artifact.None)
	}
	// Its background stood still: back in, the noise is an artifact.
	judge([]artifact.Measures{base, base, noisy, base}, nil, artifact.Muscle, 2)
	// The other channels are judged: a pop on C4.
	judge([]artifact.Measures{base, base, base, pop}, out, artifact.Electrode, 3)
	// A blink is judged against the channels behind the eyes that are in:
	// with C3 out, C4 alone; with both out, none, and the rule is silent.
	blink := base
	blink.Delta = 7
	judge([]artifact.Measures{blink, blink, noisy, base}, out, artifact.Eye, 0, 1)
	judge([]artifact.Measures{blink, blink, base, base}, []bool{false, false, true, true}, artifact.None)
	// Fp1 out: the blink is Fp2's alone.
	judge([]artifact.Measures{blink, blink, base, base}, []bool{true, false, false, false}, artifact.Eye, 1)
}

// TestGateBoundsAnEpisode: an episode of artifact gates at most
// Config.Gate of windows, counted over the episode (a rule that fires
// now and then does not start it over), and ends after as long without a
// gated window; Reset ends it too.
func TestGateBoundsAnEpisode(t *testing.T) {
	tests := []struct {
		name   string
		gate   time.Duration
		step   time.Duration
		run    string // g: a window the rules gate, c: a clean one, r: Reset
		lapsed string // per g of run: whether it lapsed (L) or is gated (.)
	}{
		{"default 10 s at 1 s steps", 0, time.Second, "gggggggggggggg", "..........LLLL"},
		{"returns within an episode count", 3 * time.Second, time.Second, "ggcgggcg", "...LL" + "L"},
		{"as long quiet ends it", 3 * time.Second, time.Second, "gggcccggggg", "......L" + "L"},
		{"rounded up to whole windows", 2500 * time.Millisecond, time.Second, "gggg", "...L"},
		{"half-second steps", 2 * time.Second, 500 * time.Millisecond, "gggggg", "....LL"},
		{"no limit", -1, time.Second, "gggggggggggggggggggggggggggggg", ".............................."},
		{"reset", 2 * time.Second, time.Second, "gggrgg", "..L.."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := artifact.NewGate(artifact.Config{Gate: tt.gate}, tt.step)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			for _, w := range tt.run {
				switch w {
				case 'g':
					if g.Lapsed() {
						got.WriteByte('L')
					} else {
						got.WriteByte('.')
					}
				case 'c':
					g.Clean()
				case 'r':
					g.Reset()
				}
			}
			if got.String() != tt.lapsed {
				t.Errorf("gated windows lapsed %q, want %q", got.String(), tt.lapsed)
			}
		})
	}
	for _, bad := range []struct {
		cfg  artifact.Config
		step time.Duration
		want string
	}{
		{artifact.Config{Gate: 2 * time.Hour}, time.Second, "gate"},
		{artifact.Config{}, 0, "step"},
		{artifact.Config{MuscleRise: -1}, time.Second, "muscle_rise_db"},
	} {
		if _, err := artifact.NewGate(bad.cfg, bad.step); err == nil || !errors.Is(err, artifact.ErrConfig) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("artifact.NewGate(%+v, %v) = %v, want an artifact.ErrConfig naming %s", bad.cfg, bad.step, err, bad.want)
		}
	}
}

func TestGateAllocatesNothing(t *testing.T) {
	g, err := artifact.NewGate(artifact.Config{}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		g.Lapsed()
		g.Clean()
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
