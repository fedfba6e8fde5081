package pipeline

import (
	"bytes"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/recording"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/datadir"
)

// cytonMontage is the 10-20 placement OpenBCI's Cyton guide gives for its
// eight inputs; the recording's file does not name its electrodes.
var cytonMontage = []string{"Fp1", "Fp2", "C3", "C4", "P7", "P8", "O1", "O2"}

// openCyton opens the real OpenBCI recording with cytonMontage's labels,
// closed when the test ends.
func openCyton(t *testing.T) acquire.Source {
	t.Helper()
	path := datadir.Path(t, "data", "eeg", "openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
	src, _, err := recording.Open(path, &recording.Opts{Labels: cytonMontage})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// TestArtifactsOnRealCyton replays the real OpenBCI recording (a healthy
// person blinking, clenching the jaw and closing the eyes) and checks
// that the jaw clenches and blinks are gated as artifacts, named by kind
// and channel, and that gated windows are not scored. The seconds below
// are the ends of the windows the rules flag, read off the signal (the
// first 4 s settling; jaw clenches: γ power 10–17 dB over background on
// C3/P7/P8 at 10–15 s and 83–86 s, with δ rising even more from 84 s;
// blinks: δ+θ power 8–22 dB over background at Fp1/Fp2, and at 6–8 s,
// before any background, 12–18 dB over the non-frontal channels').
func TestArtifactsOnRealCyton(t *testing.T) {
	src := openCyton(t)
	sink := &collect{}
	p := newPipeline(t, src, defaultFeatures, newModel(t, src, defaultFeatures, "UOB"), Config{Learning: Learning{Mode: LearnOff}}, []alert.Sink{sink}, Hooks{})
	runAll(t, p)
	kinds := map[time.Duration]string{}
	var cur string
	states := sink.states
	for _, sc := range sink.scores {
		for len(states) > 0 && !states[0].Since.After(sc.T) {
			cur = states[0].Artifact
			if states[0].State != alert.StateArtifact {
				cur = ""
			}
			states = states[1:]
		}
		if cur != "" {
			if sc.Usable {
				t.Errorf("window ending at %v is in state artifact but was scored", sc.Offset)
			}
			kinds[sc.Offset.Round(time.Second)] = cur
		}
	}
	for _, w := range []struct {
		from, to int
		kinds    string // either of these
		least    int
	}{
		{2, 5, "settling", 4},           // electrodes drifting by up to 1.5 mV/s
		{6, 8, "eye", 3},                // blinks, judged across the head (no background yet)
		{10, 15, "muscle", 5},           // jaw clench
		{16, 19, "eye", 3},              // blinks
		{77, 82, "eye", 4},              // blinks
		{83, 86, "muscle electrode", 4}, // jaw clench with jaw movement (δ rises most from 84 s)
		{87, 89, "electrode", 3},
	} {
		n := 0
		for s := w.from; s <= w.to; s++ {
			if k := kinds[time.Duration(s)*time.Second]; k != "" && strings.Contains(w.kinds, k) {
				n++
			}
		}
		if n < w.least {
			t.Errorf("%d of the windows ending at %d–%d s are %s, want at least %d (all: %v)", n, w.from, w.to, w.kinds, w.least, kinds)
		}
	}
	// Jaw clenches: at least 90 % of their ten windows (10–15 s, 83–86 s)
	// gated; all ten are, before and after the rules were made specific
	// to spare seizure EEG (TestBonnGating).
	jaw := 0
	for _, s := range []int{10, 11, 12, 13, 14, 15, 83, 84, 85, 86} {
		if k := kinds[time.Duration(s)*time.Second]; k == "muscle" || k == "electrode" {
			jaw++
		}
	}
	if jaw < 9 {
		t.Errorf("%d of the 10 jaw-clench windows gated as muscle or electrode, want at least 9", jaw)
	}
	st := p.Stats()
	// The Cyton recording has no saturated, flat or invalid stretch.
	if st.ElectrodeOff != 0 || st.SignalLost != 0 {
		t.Errorf("%d windows electrode-off, %d signal-lost, want none", st.ElectrodeOff, st.SignalLost)
	}
	if st.Artifact != int64(len(kinds)) {
		t.Errorf("Stats.Artifact = %d, %d windows were in state artifact", st.Artifact, len(kinds))
	}
	// The quiet stretch with the eyes closed (alpha, 30–50 s) is clean.
	for s := 30; s <= 50; s++ {
		if k := kinds[time.Duration(s)*time.Second]; k != "" {
			t.Errorf("window ending at %d s (eyes closed, alpha) gated as %s", s, k)
		}
	}
	for _, s := range sink.states {
		if s.State == alert.StateArtifact && (s.Artifact == "" || len(s.Channels) == 0 && s.Artifact != "settling") {
			t.Errorf("artifact state without kind or channels: %+v", s)
		}
	}
	t.Logf("%d windows, %d artifact, %d jaw-clench windows gated: %v", st.Windows, st.Artifact, jaw, kinds)
}

// TestArtifactStatesLoggedAtDebug: on the real Cyton recording (blinks
// and jaw clenches, 27 changes of state in 88 s) the info log carries no
// state line, the debug log one per published change.
func TestArtifactStatesLoggedAtDebug(t *testing.T) {
	src := openCyton(t)
	var log bytes.Buffer
	sink := &collect{}
	p, err := New(src, defaultFeatures, newModel(t, src, defaultFeatures, "UOB"), Config{Learning: Learning{Mode: LearnOff}}, []alert.Sink{sink},
		Hooks{}, slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, p)
	info, debug := 0, 0
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, "msg=state ") {
			if strings.Contains(l, "level=INFO") {
				info++
			} else if strings.Contains(l, "level=DEBUG") {
				debug++
			}
		}
	}
	if info != 0 || debug != len(sink.states) || debug < 20 {
		t.Errorf("%d state lines at info, %d at debug, for %d published states", info, debug, len(sink.states))
	}
}

// TestEyeArtifactLeavesOutTheFrontalChannels replays the real OpenBCI
// recording with a per-channel model: a blink (the eye rule: Fp1/Fp2 up,
// the channels behind them quiet) leaves the frontal channels out of the
// window, which is scored on the other six, named as such in the state,
// and learned and taken into the baseline on those six only;
// every other artifact still gates its window. Before, the blink windows
// (19 of 88 here) were not scored at all: in an awake patient who blinks
// every few seconds, a k-of-n rule then waits for the gaps.
func TestEyeArtifactLeavesOutTheFrontalChannels(t *testing.T) {
	src := openCyton(t)
	m, err := channelModel(t).(classifier.Ensemble).Clone()
	if err != nil {
		t.Fatal(err)
	}
	learned := &counting{Model: m}
	g := &grading{Model: learned}
	c := &collect{}
	p := newPipeline(t, src, defaultFeatures, g, Config{Learning: Learning{Mode: LearnAnnotations},
		Scoring: Scoring{PerChannel: true, Population: unitPopulation()}}, []alert.Sink{c}, Hooks{})
	runAll(t, p)
	usable, eye := 0, 0
	named := map[string]int{} // eye windows naming each channel
	states := c.states
	var cur alert.Status
	for _, sc := range c.scores {
		for len(states) > 0 && !states[0].Since.After(sc.T) {
			cur, states = states[0], states[1:]
		}
		if sc.Usable {
			usable++
		}
		switch {
		case cur.State != alert.StateArtifact:
		case cur.Artifact == "eye":
			eye++
			for _, ch := range cur.Channels {
				named[ch]++
			}
			if !sc.Usable {
				t.Errorf("window ending at %v: an eye artifact on %v, not scored", sc.Offset, cur.Channels)
			}
			if !slices.Equal(cur.Channels, []string{"Fp1"}) && !slices.Equal(cur.Channels, []string{"Fp2"}) && !slices.Equal(cur.Channels, []string{"Fp1", "Fp2"}) {
				t.Errorf("window ending at %v: an eye artifact on %v", sc.Offset, cur.Channels)
			}
			if want := fmt.Sprintf("the other %d channels are scored", 8-len(cur.Channels)); !strings.Contains(cur.Reason, want) || cur.Scored != 8-len(cur.Channels) {
				t.Errorf("reason %q, scored on %d; want it to say %q", cur.Reason, cur.Scored, want)
			}
		case sc.Usable:
			t.Errorf("window ending at %v is in state artifact (%s) but was scored", sc.Offset, cur.Artifact)
		}
	}
	if eye < 10 {
		t.Errorf("%d windows in an eye artifact, want the recording's blinks (19 windows)", eye)
	}
	left := leftOut(c, 8)
	if g.plain != 8*usable-left || left < eye {
		t.Errorf("%d channel margins for %d usable windows of 8 channels with %d channels left out, want %d", g.plain, usable, left, 8*usable-left)
	}
	// Every usable window is learned (no seizure here: as background), on
	// the channels it was scored on.
	if st := p.Stats(); st.Partial != int64(eye) {
		t.Errorf("Stats.Partial %d, want the %d eye windows", st.Partial, eye)
	}
	if st := p.Stats(); st.LearnedNeg != int64(usable) || st.LearnedPos != 0 || learned.neg != 8*usable-left || learned.nan != 0 {
		t.Errorf("learned %d background and %d seizure windows, %d examples (%d with a channel left out); want %d windows, %d examples", st.LearnedNeg, st.LearnedPos, learned.neg, learned.nan, usable, 8*usable-left)
	}
	// The baseline took in every usable window on C3, and on Fp1 and Fp2
	// all but the eye artifacts that named them.
	w := p.Baseline().Windows
	for i, ch := range []string{"Fp1", "Fp2"} {
		if got := w[2] - w[i]; got != float64(named[ch]) {
			t.Errorf("the baseline took %v windows fewer on %s than on C3, want the %d eye windows naming it", got, ch, named[ch])
		}
	}
}
