package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/alert"
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
	fs.StringVar(&m.alg, "algorithm", classifier.UOB, "ensemble: "+strings.Join(classifier.Algorithms, " ")+" (ns prefix: forgetting)")
	fs.StringVar(&m.learner, "learner", classifier.LearnerNB, "base learner: "+strings.Join(classifier.Learners, ", "))
	fs.IntVar(&m.members, "members", 0, fmt.Sprintf("ensemble size (0: %d)", classifier.DefaultMembers))
	fs.Float64Var(&m.c, "c", 0, "resampling cost C (0: the algorithm's default)")
	fs.Float64Var(&m.cp, "cp", 0, fmt.Sprintf("AC2/CSB2 cost of a missed seizure (0: %g)", classifier.DefaultCP))
	fs.Float64Var(&m.cn, "cn", 0, fmt.Sprintf("AC2/CSB2 cost of a false alarm (0: %g)", classifier.DefaultCN))
	fs.Float64Var(&m.beta, "beta", 0, fmt.Sprintf("forgetting factor in (0, 1] (0: none, %g for ns variants)", classifier.DefaultNSBeta))
	fs.Uint64Var(&m.seed, "seed", 1, "random seed of the ensemble")
	fs.DurationVar(&m.window, "window", features.DefaultWindow, "feature window")
	fs.DurationVar(&m.step, "step", features.DefaultStep, "feature step")
	fs.StringVar(&m.seizureRe, "seizure", "", "regexp marking seizure annotations (default: text containing \"seizure\", any case)")
	fs.Float64Var(&m.threshold, "threshold", 0, fmt.Sprintf("decision threshold on the score (0: %g)", alert.DefaultThreshold))
	fs.IntVar(&m.k, "k", 0, fmt.Sprintf("alert when k of the last n windows are positive (0: %d)", alert.DefaultK))
	fs.IntVar(&m.n, "n", 0, fmt.Sprintf("see -k (0: %d)", alert.DefaultN))
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
