package classifier

// learner is a weighted incremental binary base learner h_m of the paper
// (Section 6.1): Gaussian naive Bayes, LDA or QDA. Its estimates are exact
// running statistics, so it is lossless: learn(x, y, k) equals k calls of
// learn(x, y, 1) to floating-point tolerance (when beta = 1), which is what
// lets an ensemble train a member once with a Poisson draw k as its weight.
//
// A learner preallocates everything in its constructor: learn, predict and
// logOdds allocate nothing. Inputs are validated by the ensemble; a learner
// may assume len(x) equals its dimension and that x and w are finite, w > 0.
type learner interface {
	// learn adds x with the given label and weight w > 0. With a
	// forgetting factor beta < 1, the call first multiplies the weight of
	// everything its class learned before by beta (t_n = beta·t_{n-1} + w,
	// n counting the class's own calls; LDA's pooled covariance decays on
	// every call); the class priors never forget.
	learn(x []float64, positive bool, w float64)
	// logOdds returns log p(+|x) − log p(−|x) under the current estimates,
	// computed in the log domain (never log(pdf + eps)). It is +Inf when
	// only positives have been seen, −Inf when only negatives (or
	// nothing) have been seen, and never NaN.
	logOdds(x []float64) float64
	// prepare brings the caches that logOdds fills on its first call
	// after a change up to date. Until the next learn or decode,
	// logOddsShared then only reads the learner.
	prepare()
	// logOddsShared is logOdds for callers that share the learner between
	// goroutines: after prepare, it writes nothing of the learner, using
	// the caller's scratch z (at least the dimension long) instead of the
	// learner's own. Without prepare its result is undefined.
	logOddsShared(x, z []float64) float64
	// predict returns h_m(x): true (positive) when logOdds(x) > 0. Ties and
	// an untrained learner predict negative.
	predict(x []float64) bool
	// encodedLen is the exact number of bytes appendBinary appends; it
	// depends only on the learner's kind and dimension.
	encodedLen() int
	// appendBinary appends the learner's complete state.
	appendBinary(b []byte) []byte
	// decode restores the state written by appendBinary, validating it
	// (finite numbers, non-negative weights, a valid factor).
	decode(d *decoder) error
}

// LearnerName names a base learner, the value of Config.Learner: one of
// the built-in learners (Learners) or, for NewWithLearner, the caller's
// own. Like Algorithm, it converts from a string and is an
// encoding.TextUnmarshaler, which accepts the built-in names.
type LearnerName string

// The built-in learners.
const (
	LearnerNB  LearnerName = "nb"  // Gaussian naive Bayes
	LearnerLDA LearnerName = "lda" // linear discriminant analysis (shared covariance)
	LearnerQDA LearnerName = "qda" // quadratic discriminant analysis (per-class covariance)
)

// String returns the name.
func (l LearnerName) String() string { return string(l) }

// MarshalText returns the name.
func (l LearnerName) MarshalText() ([]byte, error) { return []byte(l), nil }

// UnmarshalText sets l to the name in b, which must be a built-in
// learner's; otherwise it returns a *ConfigError naming the field Learner
// and leaves l unchanged.
func (l *LearnerName) UnmarshalText(b []byte) error {
	name := LearnerName(b)
	if learnerEncodedLen(name, 1) < 0 {
		return configErr("Learner", string(name), "unknown (want nb, lda or qda)")
	}
	*l = name
	return nil
}

// newLearner returns an untrained learner of the named kind for d features
// with forgetting factor beta in (0, 1].
func newLearner(kind LearnerName, d int, beta float64) learner {
	switch kind {
	case LearnerNB:
		return newNB(d, beta)
	case LearnerLDA:
		return newLDA(d, beta)
	case LearnerQDA:
		return newQDA(d, beta)
	}
	panic("classifier: unknown learner " + kind) // Config.withDefaults rejects it first
}

// learnerEncodedLen returns the encoded size of a learner of the named kind
// and dimension without building one, so Load can reject a truncated
// checkpoint before allocating.
func learnerEncodedLen(kind LearnerName, d int) int {
	switch kind {
	case LearnerNB:
		return nbEncodedLen(d)
	case LearnerLDA:
		return ldaEncodedLen(d)
	case LearnerQDA:
		return qdaEncodedLen(d)
	}
	return -1
}
