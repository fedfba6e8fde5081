package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/features/artifact"
)

// modelFlags are the classifier, feature and signal-path flags shared by
// train, replay and bonn.
type modelFlags struct {
	alg, learner    string
	members         int
	c, cp, cn, beta float64
	seed            uint64
	window, step    time.Duration
	seizureRe       string
	threshold       float64
	k, n            int
	montage         string
	channels        string
	board           string
	condition       bool
	mains           string
	artifacts       bool
	from            string // train, chbmit: the model training starts from
	learnAgreed     bool   // feedback-eval: pipeline.Learning.LearnAgreed
	censors         string // bonn: the censoring bounds a day-one model is chosen from (recipe.ParseCensors; "": the default)
}

// addFrom registers -from, the model training starts from (train and
// chbmit).
func (m *modelFlags) addFrom(fs *flag.FlagSet) {
	fs.StringVar(&m.from, "from", modelNew, `the model to start from: "new" (untrained, of the model flags, scoring the whole feature vector) or "dayone" (the day-one model, per channel: training adapts it to the patient)`)
}

// shapesModel reports whether the flags ask for a model other than the
// defaults (algorithm, learner, size or costs): without -model, replay
// then makes a new one of them instead of using the day-one model.
func (m *modelFlags) shapesModel() bool {
	return m.alg != string(classifier.UOB) || m.learner != string(classifier.LearnerNB) || m.members != 0 ||
		m.c != 0 || m.cp != 0 || m.cn != 0 || m.beta != 0
}

func (m *modelFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&m.alg, "algorithm", string(classifier.UOB), "ensemble: "+joinNames(classifier.Algorithms, " ")+" (ns prefix: forgetting)")
	fs.StringVar(&m.learner, "learner", string(classifier.LearnerNB), "base learner: "+joinNames(classifier.Learners, ", "))
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
	fs.StringVar(&m.channels, "channels", "", "channels to use, by label, comma-separated (e.g. Fp1,Fp2,C3; the \"EEG \" prefix and case may be left out) (default: the EEG channels, told from EOG, ECG, accelerometer, trigger and other channels by their EDF+ signal types, electrode names and units; see acquire's README)")
	fs.StringVar(&m.montage, "montage", "", "channel labels, comma-separated (e.g. Fp1,Fp2,C3,C4,P7,P8,O1,O2), for recordings that do not name their electrodes (OpenBCI, BrainFlow); after -channels")
	fs.StringVar(&m.board, "board", "", "BrainFlow CSV board: cyton, cyton-daisy or ganglion (default: from the column count)")
	fs.BoolVar(&m.condition, "conditioning", true, fmt.Sprintf("filter before features: %g Hz high-pass, mains notches, %g Hz low-pass (false: for recordings filtered elsewhere)", features.DefaultHighPass, features.DefaultLowPass))
	fs.StringVar(&m.mains, "mains", "", "mains notches: 50, 60, both or off (default: "+features.DefaultMains+")")
	fs.BoolVar(&m.artifacts, "artifacts", true, "judge each window for eye, muscle and electrode artifacts, which are neither scored nor learned (a per-channel model scores a blink's window on the channels behind the eyes)")
}

// joinNames joins classifier names (classifier.Algorithms, .Learners) for
// the help text.
func joinNames[T classifier.Algorithm | classifier.LearnerName](names []T, sep string) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, sep)
}

func (m *modelFlags) classifierConfig(d int) classifier.Config {
	return classifier.Config{Algorithm: classifier.Algorithm(m.alg), Learner: classifier.LearnerName(m.learner), Features: d, Members: m.members,
		C: m.c, CP: m.cp, CN: m.cn, Beta: m.beta, Seed: m.seed}
}

// flagOf names the command-line flag of each classifier.Config field
// that has one; Features comes from the recording and the channel and
// feature flags.
var flagOf = map[string]string{
	"Algorithm": "-algorithm", "Learner": "-learner", "Members": "-members",
	"C": "-c", "CP": "-cp", "CN": "-cn", "Beta": "-beta", "Seed": "-seed",
	"Features": "features per window (from the channels and feature flags)",
}

// newModel returns an untrained model for d features. A configuration
// error names the flag (or, for a limit on the settings together, says
// so), never a Go field.
func (m *modelFlags) newModel(d int) (classifier.Model, error) {
	model, err := classifier.New(m.classifierConfig(d))
	var ce *classifier.ConfigError
	if errors.As(err, &ce) {
		if f, ok := flagOf[ce.Field]; ok {
			return nil, fmt.Errorf("%s %v: %s", f, ce.Value, ce.Reason)
		}
		return nil, fmt.Errorf("classifier flags: %s", ce.Reason)
	}
	return model, err
}

func (m *modelFlags) features() features.Config {
	return features.Config{Window: m.window, Step: m.step,
		Conditioning: features.Conditioning{Off: !m.condition, Mains: m.mains}}
}

func (m *modelFlags) artifact() artifact.Config {
	return artifact.Config{Off: !m.artifacts}
}
