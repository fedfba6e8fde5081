package classifier

import (
	"fmt"
	"strings"
)

// Algorithm names an ensemble algorithm of the paper, the value of
// Config.Algorithm: Config{Algorithm: classifier.UOB}. The names are
// those used on command lines, in JSON, in logs and in checkpoints. A name
// with the prefix NSPrefix (for example NSPrefix+AC2, "nsAC2", or
// AC2.NS()) is the forgetting-factor variant of Section 8.
//
// A name read as a string converts (Algorithm(s)); New then rejects an
// unknown one with a ConfigError naming the field. Algorithm is also an
// encoding.TextUnmarshaler that checks the name, for flag.TextVar and the
// decoders of JSON and TOML.
type Algorithm string

// The algorithms.
const (
	OzaBag   Algorithm = "OzaBag"   // online bagging, Alg. onlinebagging
	OzaBoost Algorithm = "OzaBoost" // online boosting, Alg. onlineadaboost
	UOB      Algorithm = "UOB"      // online UnderOverBagging, Alg. onlineunderoverbagging
	SB       Algorithm = "SB"       // online SMOTEBagging, Alg. onlinesmotebagging
	AC2      Algorithm = "AC2"      // online AdaC2, Alg. onlineAdaC2
	CSB2     Algorithm = "CSB2"     // online CSB2, Alg. onlineCSB2
	RUS1     Algorithm = "RUS1"     // online RUSBoost1, Alg. onlineRUS
	RUS2     Algorithm = "RUS2"     // online RUSBoost2
	RUS3     Algorithm = "RUS3"     // online RUSBoost3
	SBO1     Algorithm = "SBO1"     // online SMOTEBoost1, Alg. onlineSMOTE
	SBO2     Algorithm = "SBO2"     // online SMOTEBoost2
	SBO3     Algorithm = "SBO3"     // online SMOTEBoost3
)

// NS returns the forgetting-factor variant of a: NSPrefix + a (a itself
// when it already has the prefix).
func (a Algorithm) NS() Algorithm {
	if strings.HasPrefix(string(a), NSPrefix) {
		return a
	}
	return NSPrefix + a
}

// String returns the name.
func (a Algorithm) String() string { return string(a) }

// MarshalText returns the name.
func (a Algorithm) MarshalText() ([]byte, error) { return []byte(a), nil }

// UnmarshalText sets a to the name in b, which must be a known algorithm,
// optionally prefixed NSPrefix; otherwise it returns a *ConfigError
// naming the field Algorithm and leaves a unchanged.
func (a *Algorithm) UnmarshalText(b []byte) error {
	name := Algorithm(b)
	if _, _, ok := parseAlgorithm(name); !ok {
		return unknownAlgorithm(name)
	}
	*a = name
	return nil
}

// unknownAlgorithm is the error for a name parseAlgorithm does not know.
func unknownAlgorithm(name Algorithm) error {
	all := make([]string, len(Algorithms))
	for i, a := range Algorithms {
		all[i] = string(a)
	}
	return configErr("Algorithm", string(name), "unknown (want one of %s, optionally prefixed %s)", strings.Join(all, " "), NSPrefix)
}

// NSPrefix, put before an algorithm's name, selects its non-stationary
// variant: the forgetting factor Config.Beta (default DefaultNSBeta) then
// also applies to the ensemble's running sums (Section 8).
const NSPrefix = "ns"

// Algorithms lists the base algorithm names (without NSPrefix).
var Algorithms = []Algorithm{UOB, SB, AC2, CSB2, RUS1, RUS2, RUS3, SBO1, SBO2, SBO3, OzaBag, OzaBoost}

// Learners lists the base learner names.
var Learners = []LearnerName{LearnerNB, LearnerLDA, LearnerQDA}

// Defaults for zero values of Config.
const (
	DefaultMembers   = 10   // ensemble size M, as in the paper (after Galar et al.)
	DefaultNeighbors = 5    // SMOTE k, the paper's Table "Parameter Setting"
	DefaultMemory    = 1024 // stored positives for online SMOTE
	DefaultCP        = 1.0  // AC2/CSB2 cost of a missed positive, the paper's C_P
	DefaultCN        = 0.1  // AC2/CSB2 cost of a false alarm: the cost-sensitive end of the paper's range [0.1, 1]
	DefaultNSBeta    = 0.9  // forgetting factor of the ns variants, as in Section 8
	// DefaultCOversample is C for UOB, SB, RUS3 and SBO3, whose range in
	// the paper runs from 1 (no resampling bias) up to the class ratio:
	// seizures are rare and a miss is costly, so the default sits at a
	// strong oversampling of positives. It assumes a class ratio of
	// about 1:10 whatever the stream: training is balanced only when C
	// equals n⁻/n⁺, so set C from the stream's ratio (see Config.C).
	DefaultCOversample = 10.0
	// DefaultCRatio is C for RUS1, RUS2, SBO1 and SBO2, whose range runs
	// from the class ratio down to 1, where 1 means a balanced resample.
	DefaultCRatio = 1.0
)

// Limits that keep a model (and a checkpoint being loaded) to a sane size
// and every Learn and Score to a bounded amount of work, whatever the
// stream: New and Load refuse a Config outside them.
const (
	MaxFeatures  = 4096
	MaxMembers   = 1024
	MaxNeighbors = 256
	MaxMemory    = 1 << 20
	maxStateSize = 1<<31 - 1 // bytes of encoded state

	// MaxCost bounds the costs: C, CP and CN must lie in
	// [1/MaxCost, MaxCost]. SMOTEBagging and SMOTEBoost 3 make about C
	// synthetic positives per member for each positive, so the cost of
	// one Learn grows with C. The paper's range for C runs from 1 to the
	// class ratio, and the ratios it covers are far below the bound: its
	// KEEL data sets go up to about 1:130 and its SINE streams are 1:90;
	// seizure windows in long-term EEG are about 1:100 to 1:500 (CHB-MIT
	// has about 1:300 overall), and 1:1000 is one seizure minute in about
	// 17 hours. AC2 and CSB2 use C_P = 1 and C_N in [0.1, 1]; the
	// reciprocal bound leaves three decades below 1 for any of them.
	MaxCost = 1000

	// MaxLearnWork bounds the work of one Learn or Score, in numbers of
	// the model's state read or written: Members times the size of one
	// learner (a member's update and prediction are linear in its state:
	// O(d) numbers for nb, O(d²) for lda and qda), plus, for SMOTE
	// algorithms, Memory × (Features + Neighbors) for the neighbour search
	// that follows each stored positive. The synthetic examples of SMOTE
	// algorithms are held to the same amount again (syntheticCap), so one
	// Learn costs at most 2·MaxLearnWork units. BenchmarkLearnBound
	// measures 0.5 to 2 ns per unit on one core of the development
	// machine (the worst valid Learns it found took 35 to 37 ms, 71 ms on
	// a machine shared with other jobs: SBO1 of 1024 nb members, or of qda
	// at d = 345, whose synthetic draws hit the cap; early in a stream,
	// while LDA's and QDA's ridges are set from the data's spread, a Learn
	// may also spend up to one factor's work per member on them: 60 qda
	// members at d = 1024 then took 63 to 70 ms, 1.0 to 1.1 ns per unit,
	// on the shared machine): 2²⁶ units make a worst Learn of at most
	// about 0.25 s there and
	// under a second on the ARM boards, so a pipeline checks for SIGTERM
	// between windows in time to write its checkpoint before systemd's
	// stop timeout. The paper's settings (M = 10, d up to a few hundred,
	// qda included) are far below it; what it refuses are models such as
	// 64 qda members at 1024 features.
	MaxLearnWork = 1 << 26

	// maxSyntheticPerMember bounds the synthetic positives a member
	// trains on in one Learn, whatever the Poisson mean (SBO1's and
	// SBO2's grow with the class ratio seen so far, SBO3's with the
	// boosting weight λ). At C = MaxCost, SMOTEBagging's mean (1−a)·C is
	// below MaxCost, and the bound, twice that, is more than 30 standard
	// deviations above it: it binds on no setting of the paper's. It is
	// lowered further for large learners (see syntheticCap).
	maxSyntheticPerMember = 2 * MaxCost
)

// learnWork returns the work of one Learn or Score of c without its
// synthetic examples, in the units of MaxLearnWork.
func learnWork(c Config, a algo) int64 {
	w := int64(c.Members) * learnerUnits(c.Learner, c.Features)
	if a.smote() {
		w += int64(c.Memory) * int64(c.Features+c.Neighbors)
	}
	return w
}

// learnerUnits returns the size of one learner of the named kind in
// numbers of state: its encoding's for the built-in learners, and d+1,
// a linear model's, for a custom one (NewWithLearner).
func learnerUnits(kind LearnerName, d int) int64 {
	if n := learnerEncodedLen(kind, d); n >= 0 {
		return int64(n / 8)
	}
	return int64(d) + 1
}

// syntheticCap returns how many synthetic positives one member trains on
// per Learn at most: maxSyntheticPerMember, lowered so that the
// synthetic examples of all members together cost at most MaxLearnWork,
// but at least 1.
func syntheticCap(c Config) int {
	per := int64(c.Members) * learnerUnits(c.Learner, c.Features)
	return int(max(1, min(maxSyntheticPerMember, MaxLearnWork/per)))
}

// Config selects and parameterises an online ensemble. Zero values mean the
// defaults above; Features must be set. Besides each field's range, the
// work of one Learn or Score (Members, Learner, Features and, for SMOTE
// algorithms, Memory and Neighbors together) must stay within
// MaxLearnWork.
type Config struct {
	Algorithm Algorithm   // one of Algorithms (UOB, AC2, ...), optionally prefixed NSPrefix
	Learner   LearnerName // LearnerNB (default), LearnerLDA or LearnerQDA; for NewWithLearner, the custom learner's name
	Features  int         // dimension d of the feature vectors
	Members   int         // ensemble size M, 1..MaxMembers
	// C is the resampling cost of UOB, SB, RUS1–3 and SBO1–3, in
	// [1/MaxCost, MaxCost]. For UOB, SB, RUS3 and SBO3 it is the weight
	// of a positive relative to a negative, and the zero value,
	// DefaultCOversample = 10, assumes about one positive per ten
	// negatives, whatever the data: set it to the class ratio n⁻/n⁺ you
	// expect (for example negatives/positives counted on a labelled
	// prefix) for balanced training, lower for fewer false alarms. For
	// RUS1, RUS2, SBO1 and SBO2, which estimate the ratio from the
	// stream, it is the ratio of negatives to positives to resample to
	// (DefaultCRatio = 1, balanced). Other algorithms ignore it.
	C      float64
	CP, CN float64 // misclassification costs of AC2 and CSB2, in [1/MaxCost, MaxCost]
	// Beta is the forgetting factor in (0, 1]. It applies to the base
	// learners of every algorithm; the ns variants also apply it to the
	// ensemble's running sums (λ counters and class counts). Zero means 1
	// (no forgetting), or DefaultNSBeta for an ns variant.
	Beta      float64
	Neighbors int    // SMOTE k, 1..MaxNeighbors
	Memory    int    // capacity of the online SMOTE positive memory, 2..MaxMemory
	Seed      uint64 // seed of every random stream of the model
	// LiteralVote makes a boosting member whose error ε exceeds 0.5 vote
	// for the class it does not predict, with weight log(ε/(1−ε)), as the
	// paper's output argmax_y Σ α_m I(h_m(x) = y) with α_m = log((1−ε)/ε)
	// literally does. By default (false) such a member abstains (weight
	// 0): see voteWeight and the package comment.
	LiteralVote bool
}

// algo identifies an algorithm family member.
type algo int

const (
	algOzaBag algo = iota
	algOzaBoost
	algUOB
	algSB
	algAC2
	algCSB2
	algRUS1
	algRUS2
	algRUS3
	algSBO1
	algSBO2
	algSBO3
)

var algoByName = map[Algorithm]algo{
	OzaBag: algOzaBag, OzaBoost: algOzaBoost, UOB: algUOB, SB: algSB, AC2: algAC2, CSB2: algCSB2,
	RUS1: algRUS1, RUS2: algRUS2, RUS3: algRUS3, SBO1: algSBO1, SBO2: algSBO2, SBO3: algSBO3,
}

func (a algo) boosting() bool { return a != algOzaBag && a != algUOB && a != algSB }
func (a algo) smote() bool    { return a == algSB || a == algSBO1 || a == algSBO2 || a == algSBO3 }

// parseAlgorithm splits an optional "ns" prefix from a known name.
func parseAlgorithm(name Algorithm) (a algo, ns bool, ok bool) {
	base := name
	if strings.HasPrefix(string(name), NSPrefix) {
		base, ns = name[len(NSPrefix):], true
	}
	a, ok = algoByName[base]
	return a, ns, ok
}

// defaultCount sets *v, the value of field, to def when it is zero and
// checks that it lies in lo..hi.
func defaultCount(field string, v *int, def, lo, hi int) error {
	if *v == 0 {
		*v = def
	}
	if *v < lo || *v > hi {
		return configErr(field, *v, "want %d..%d", lo, hi)
	}
	return nil
}

// checkCost checks that v, the value of field, is a cost in
// [1/MaxCost, MaxCost].
func checkCost(field string, v float64) error {
	if !(v >= 1.0/MaxCost && v <= MaxCost) {
		return configErr(field, v, "want a cost in [%g, %d]", 1.0/MaxCost, MaxCost)
	}
	return nil
}

// withDefaults returns c with zero values replaced by defaults and checks
// every field, naming the first bad one.
func (c Config) withDefaults() (Config, algo, bool, error) { return c.validate(false) }

// validate is withDefaults for a model of built-in learners (custom
// false) or of a LearnerFactory's (custom true), whose Learner is a name
// of the caller's that must not be a built-in one.
func (c Config) validate(custom bool) (Config, algo, bool, error) {
	a, ns, ok := parseAlgorithm(c.Algorithm)
	if !ok {
		return c, 0, false, unknownAlgorithm(c.Algorithm)
	}
	builtin := learnerEncodedLen(c.Learner, 1) >= 0
	switch {
	case custom && (c.Learner == "" || builtin || len(c.Learner) > maxNameLen):
		return c, 0, false, configErr("Learner", string(c.Learner), "want a name of the custom learner, 1 to %d bytes, other than nb, lda and qda", maxNameLen)
	case custom:
	case c.Learner == "":
		c.Learner = LearnerNB
	case !builtin:
		return c, 0, false, configErr("Learner", string(c.Learner), "unknown (want nb, lda or qda; a custom learner is built with NewWithLearner)")
	}
	if c.Features < 1 || c.Features > MaxFeatures {
		return c, 0, false, configErr("Features", c.Features, "want 1..%d", MaxFeatures)
	}
	if err := defaultCount("Members", &c.Members, DefaultMembers, 1, MaxMembers); err != nil {
		return c, 0, false, err
	}
	if c.C == 0 {
		if a == algRUS1 || a == algRUS2 || a == algSBO1 || a == algSBO2 {
			c.C = DefaultCRatio
		} else {
			c.C = DefaultCOversample
		}
	}
	if err := checkCost("C", c.C); err != nil {
		return c, 0, false, err
	}
	if c.CP == 0 {
		c.CP = DefaultCP
	}
	if c.CN == 0 {
		c.CN = DefaultCN
	}
	if err := checkCost("CP", c.CP); err != nil {
		return c, 0, false, err
	}
	if err := checkCost("CN", c.CN); err != nil {
		return c, 0, false, err
	}
	if c.Beta == 0 {
		c.Beta = 1
		if ns {
			c.Beta = DefaultNSBeta
		}
	}
	if !(c.Beta > 0 && c.Beta <= 1) {
		return c, 0, false, configErr("Beta", c.Beta, "want a forgetting factor in (0, 1]")
	}
	if err := defaultCount("Neighbors", &c.Neighbors, DefaultNeighbors, 1, MaxNeighbors); err != nil {
		return c, 0, false, err
	}
	if err := defaultCount("Memory", &c.Memory, DefaultMemory, 2, MaxMemory); err != nil {
		return c, 0, false, err
	}
	// In int64: the product overflows a 32-bit int long before the limit.
	size := int64(c.Members) * 8 * learnerUnits(c.Learner, c.Features)
	if a.smote() {
		size += int64(c.Memory) * int64(c.Features) * 8
	}
	if size > maxStateSize {
		return c, 0, false, configErr("", nil, "%s with %d members of %s at %d features needs %d bytes of state, over the %d limit",
			c.Algorithm, c.Members, c.Learner, c.Features, size, maxStateSize)
	}
	if w := learnWork(c, a); w > MaxLearnWork {
		what := ""
		if a.smote() {
			what = fmt.Sprintf(" and a SMOTE memory of %d with %d neighbours", c.Memory, c.Neighbors)
		}
		return c, 0, false, configErr("", nil, "%s with %d members of %s at %d features%s needs %d units of work per example, over the %d limit (MaxLearnWork)",
			c.Algorithm, c.Members, c.Learner, c.Features, what, w, MaxLearnWork)
	}
	return c, a, ns, nil
}
