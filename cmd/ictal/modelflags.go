package main

import (
	"flag"
	"time"

	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
)

// modelFlags are the classifier and feature flags shared by train and
// replay.
type modelFlags struct {
	alg, learner    string
	members         int
	c, cp, cn, beta float64
	seed            uint64
	window, step    time.Duration
	seizureRe       string
	threshold       float64
	k, n            int
}

func (m *modelFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&m.alg, "algorithm", classifier.UOB, "ensemble: UOB SB AC2 CSB2 RUS1 RUS2 RUS3 SBO1 SBO2 SBO3 OzaBag OzaBoost (ns prefix: forgetting)")
	fs.StringVar(&m.learner, "learner", classifier.LearnerNB, "base learner: nb, lda or qda")
	fs.IntVar(&m.members, "members", 0, "ensemble size (0: 10)")
	fs.Float64Var(&m.c, "c", 0, "resampling cost C (0: the algorithm's default)")
	fs.Float64Var(&m.cp, "cp", 0, "AC2/CSB2 cost of a missed seizure (0: 1)")
	fs.Float64Var(&m.cn, "cn", 0, "AC2/CSB2 cost of a false alarm (0: 0.1)")
	fs.Float64Var(&m.beta, "beta", 0, "forgetting factor in (0, 1] (0: none, 0.9 for ns variants)")
	fs.Uint64Var(&m.seed, "seed", 1, "random seed of the ensemble")
	fs.DurationVar(&m.window, "window", features.DefaultWindow, "feature window")
	fs.DurationVar(&m.step, "step", features.DefaultStep, "feature step")
	fs.StringVar(&m.seizureRe, "seizure", "", "regexp marking seizure annotations (default: text containing \"seizure\", any case)")
	fs.Float64Var(&m.threshold, "threshold", 0, "decision threshold on the score (0: 0.5)")
	fs.IntVar(&m.k, "k", 0, "alert when k of the last n windows are positive (0: 3)")
	fs.IntVar(&m.n, "n", 0, "see -k (0: 4)")
}

func (m *modelFlags) classifierConfig(d int) classifier.Config {
	return classifier.Config{Algorithm: m.alg, Learner: m.learner, Features: d, Members: m.members,
		C: m.c, CP: m.cp, CN: m.cn, Beta: m.beta, Seed: m.seed}
}

func (m *modelFlags) features() features.Config {
	return features.Config{Window: m.window, Step: m.step}
}

func (m *modelFlags) openReplay(path string) (*edf.Replay, error) {
	rc := edf.ReplayConfig{}
	if m.seizureRe != "" {
		re, err := compileSeizure(m.seizureRe)
		if err != nil {
			return nil, err
		}
		rc.Seizure = re
	}
	return edf.OpenReplay(path, rc)
}

// dim is the feature dimension for a replay's channels.
func (m *modelFlags) dim(r *edf.Replay) (int, error) {
	info := r.Info()
	f := m.features()
	f.Channels, f.Rate = len(info.Channels), info.Rate
	return f.Dim()
}
