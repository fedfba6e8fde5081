package pipeline

import (
	"fmt"
	"slices"
	"time"

	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/features/artifact"
)

// artifacts feeds the extractor's per-channel measures of each window to
// an artifact.Detector.
type artifacts struct {
	det        *artifact.Detector
	ext        *features.Extractor
	m          []artifact.Measures
	last       artifact.Verdict // the verdict last published, channels copied
	lastCh     []int
	lastLapsed bool // the verdict last published had lapsed (gate)
	// gate bounds how long an episode keeps windows unscored.
	gate artifact.Gate
}

func newArtifacts(cfg artifact.Config, ext *features.Extractor, labels []string, step time.Duration) (*artifacts, error) {
	if !ext.Spectral() {
		return nil, &ConfigError{"artifact.off", false, "artifact rejection needs the band powers: configure a spectral feature or summaries, or turn artifact rejection off"}
	}
	if step == 0 {
		step = features.DefaultStep
	}
	det, err := artifact.New(cfg, labels, step)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	gate, err := artifact.NewGate(cfg, step)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return &artifacts{det: det, ext: ext, m: make([]artifact.Measures, len(labels)), lastCh: make([]int, 0, len(labels)), gate: gate}, nil
}

// lapsed counts a window the artifact rules gate (v) into its episode
// and reports whether the episode has gated windows for Config.Gate
// already: the window is then scored all the same. Only the muscle and
// electrode rules count: they are the ones a seizure's discharge, its
// spread and its EMG can fire on every channel for tens of seconds.
// Settling follows every start and gap and ends by itself; the eye rule
// fires only while the channels behind the eyes are quiet, so a seizure
// that spreads ends it, and a per-channel score scores its windows on
// those channels anyway. Neither counts, nor ends an episode.
func (a *artifacts) lapsed(v artifact.Verdict) bool {
	return (v.Kind == artifact.Muscle || v.Kind == artifact.Electrode) && a.gate.Lapsed()
}

// clean counts a window the rules did not gate, or gated for a kind that
// lapsed does not count, into the episode.
func (a *artifacts) clean(v artifact.Verdict) {
	if v.Kind != artifact.Eye && v.Kind != artifact.Settling {
		a.gate.Clean()
	}
}

// judge judges the window of the extractor's last Vector, leaving out
// the channels c for which out[c] (out may be nil).
func (a *artifacts) judge(out []bool) artifact.Verdict {
	e := a.ext
	for c := range a.m {
		a.m[c] = artifact.Measures{
			Delta: e.Measure(c, features.DeltaPower), Theta: e.Measure(c, features.ThetaPower),
			Alpha: e.Measure(c, features.AlphaPower), Beta: e.Measure(c, features.BetaPower),
			Gamma: e.Measure(c, features.GammaPower), Step: e.MaxStep(c),
		}
	}
	return a.det.JudgeWithout(a.m, out)
}

// same reports whether v, lapsed or not, is the verdict last published.
func (a *artifacts) same(v artifact.Verdict, lapsed bool) bool {
	return v.Kind == a.last.Kind && lapsed == a.lastLapsed && slices.Equal(v.Channels, a.lastCh)
}

func (a *artifacts) remember(v artifact.Verdict, lapsed bool) {
	a.last.Kind, a.lastLapsed = v.Kind, lapsed
	a.lastCh = append(a.lastCh[:0], v.Channels...)
}
