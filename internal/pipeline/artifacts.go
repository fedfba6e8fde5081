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
	det    *artifact.Detector
	ext    *features.Extractor
	m      []artifact.Measures
	last   artifact.Verdict // the verdict last published, channels copied
	lastCh []int
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
	return &artifacts{det: det, ext: ext, m: make([]artifact.Measures, len(labels)), lastCh: make([]int, 0, len(labels))}, nil
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

// same reports whether v is the verdict last published.
func (a *artifacts) same(v artifact.Verdict) bool {
	return v.Kind == a.last.Kind && slices.Equal(v.Channels, a.lastCh)
}

func (a *artifacts) remember(v artifact.Verdict) {
	a.last.Kind = v.Kind
	a.lastCh = append(a.lastCh[:0], v.Channels...)
}
