package pipeline

import (
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
)

// Scoring says how a window's features become its score. The zero value
// is the whole-vector mode: one model scores the window's vector
// (channels × features) and the score is the ensemble's vote. With
// PerChannel set:
//
//  1. each channel's features are expressed relative to that channel's
//     own background (features.Baseline, started from Population and
//     following the patient's usable, artifact-free windows outside
//     seizure events);
//  2. one model, whose dimension is the features per channel, grades
//     every channel (classifier.Grader's margin: the members' mean
//     log-odds; with Censor, classifier.CensoredGrader's, every feature's
//     evidence bounded by Censor nats), so one model serves any montage,
//     and a model trained on one channel applies to 23;
//  3. the window's margin is the mean of its TopK highest channel
//     margins, averaged over the last Smooth windows (the current one
//     included), and its score the calibrated probability
//     1/(1 + exp(−(Slope·margin + Intercept))), graded, so that it ranks
//     windows and a threshold can be chosen on training data;
//  4. an alert names the channels with the highest margins; a window
//     learned as a seizure teaches the model its TopK channels (the ones
//     that drove the score), one learned as background teaches it every
//     channel;
//  5. a window with a lead-off, saturation or flat line on some channels,
//     or an eye artifact (a blink at the frontal channels, those behind
//     them quiet), is scored on the other channels when at least TopK
//     remain, taken into their baselines only, and learned on them only.
//     A gap, invalid samples and any other artifact gate the window.
type Scoring struct {
	PerChannel bool                 `json:"per_channel"`
	Population *features.Population `json:"population,omitempty"`
	TopK       int                  `json:"top_k,omitempty"`  // default 2 (at most the channels)
	Smooth     int                  `json:"smooth,omitempty"` // default 3
	Slope      float64              `json:"slope,omitempty"`  // default 1
	Intercept  float64              `json:"intercept,omitempty"`
	// Censor bounds each feature's log-likelihood ratio in a channel's
	// margin, in nats (classifier.CensoredGrader: a model of naive-Bayes
	// members); 0, the default, leaves the evidence unbounded (Grader).
	Censor float64 `json:"censor,omitempty"`
	// Baseline restores the patient's statistics saved in a checkpoint
	// (Pipeline.Baseline); nil, or a state of other channels (another
	// montage: the labels differ), starts from Population.
	Baseline *features.BaselineState `json:"baseline,omitempty"`
}

// Scoring defaults.
const (
	DefaultTopK   = 2
	DefaultSmooth = 3
	// MaxFreeze bounds how long an event keeps the baseline from
	// following the signal: a background that keeps alerting (a new
	// patient unlike the population) is taken in after 5 min, instead of
	// alerting for ever.
	MaxFreeze = 5 * time.Minute
)

// withDefaults fills in the defaults and checks the ranges.
func (s Scoring) withDefaults() (Scoring, error) {
	if !s.PerChannel {
		return s, nil
	}
	if s.TopK == 0 {
		s.TopK = DefaultTopK
	}
	if s.Smooth == 0 {
		s.Smooth = DefaultSmooth
	}
	if s.Slope == 0 {
		s.Slope = 1
	}
	switch {
	case s.TopK < 1 || s.TopK > 256:
		return s, &ConfigError{"scoring.top_k", s.TopK, "want 1..256"}
	case s.Smooth < 1 || s.Smooth > 60:
		return s, &ConfigError{"scoring.smooth", s.Smooth, "want 1..60 windows"}
	case math.IsNaN(s.Slope) || math.IsInf(s.Slope, 0) || s.Slope < 0:
		return s, &ConfigError{"scoring.slope", s.Slope, "want a finite positive number"}
	case math.IsNaN(s.Intercept) || math.IsInf(s.Intercept, 0):
		return s, &ConfigError{"scoring.intercept", s.Intercept, "want a finite number"}
	case !(s.Censor >= 0) || math.IsInf(s.Censor, 1):
		return s, &ConfigError{"scoring.censor", s.Censor, "want 0 (none) or a finite positive bound in nats"}
	case s.Population == nil:
		return s, &ConfigError{"scoring.population", nil, "per-channel scoring needs the population's feature statistics (a per-channel model file carries them)"}
	}
	return s, nil
}

// Check reports whether s can score the per-channel features feats: its
// ranges, its population and, when set, its saved baseline (of any
// channels). A model file whose scoring fails it is corrupt
// (modelfile.Decode), so that a damaged checkpoint is set aside instead
// of stopping the pipeline from starting.
func (s Scoring) Check(feats []features.Feature) error {
	c, err := s.withDefaults()
	if err != nil || !s.PerChannel {
		return err
	}
	if _, err := features.NewBaseline(1, feats, *c.Population); err != nil {
		return &ConfigError{"scoring.population", nil, err.Error()}
	}
	if b := c.Baseline; b != nil {
		if b.Channels < 1 || b.Channels > 4096 || len(b.Labels) != 0 && len(b.Labels) != b.Channels {
			return &ConfigError{"scoring.baseline", b.Channels, "want 1..4096 channels, and a label for each when labelled"}
		}
		base, err := features.NewBaseline(b.Channels, feats, *c.Population)
		if err == nil {
			err = base.Restore(*b)
		}
		if err != nil {
			return &ConfigError{"scoring.baseline", nil, err.Error()}
		}
	}
	return nil
}

// scorer turns a window's vector into its score and the vectors the model
// learns. It allocates nothing per window.
type scorer struct {
	cfg    Scoring
	model  classifier.Model
	grade  classifier.Grader         // per-channel mode
	censor classifier.CensoredGrader // per-channel mode with Scoring.Censor
	ch, f  int                       // channels, features per channel
	base   *features.Baseline
	z      []float64 // the window normalised, ch × f (per-channel mode)
	marg   []float64 // per channel
	order  []int     // channels by margin, highest first (first TopK valid)
	hist   []float64 // last Smooth window margins, a ring
	nhist  int
	labels []string // the channels, recorded with the baseline
	skip   []bool   // per channel: left out of the current window (a bad channel, a blink)
}

// newScorer checks the model against the extractor and builds the scorer.
func newScorer(cfg Scoring, model classifier.Model, ext *features.Extractor, labels []string, feats []features.Feature, log *slog.Logger) (*scorer, error) {
	channels := len(labels)
	s := &scorer{cfg: cfg, model: model}
	if !cfg.PerChannel {
		if got, want := model.Config().Features, ext.Dim(); got != want {
			return nil, fmt.Errorf("%w: the model takes %d features, the extractor makes %d (%d channels)", ErrConfig, got, want, channels)
		}
		return s, nil
	}
	g, ok := model.(classifier.Grader)
	if !ok {
		return nil, fmt.Errorf("%w: per-channel scoring needs a model that grades (classifier.Grader)", ErrConfig)
	}
	if ext.Dim() != channels*len(feats) {
		return nil, fmt.Errorf("%w: per-channel scoring takes per-channel features only (no summaries)", ErrConfig)
	}
	if got := model.Config().Features; got != len(feats) {
		return nil, fmt.Errorf("%w: the per-channel model takes %d features, a channel has %d", ErrConfig, got, len(feats))
	}
	if cfg.Censor > 0 {
		c, ok := model.(classifier.CensoredGrader)
		if !ok {
			return nil, fmt.Errorf("%w: scoring.censor %v needs a model that censors (classifier.CensoredGrader)", ErrConfig, cfg.Censor)
		}
		if _, err := c.CensoredMargin(make([]float64, len(feats)), cfg.Censor); err != nil {
			return nil, fmt.Errorf("%w: scoring.censor %v: %v", ErrConfig, cfg.Censor, err)
		}
		s.censor = c
	}
	base, err := features.NewBaseline(channels, feats, *cfg.Population)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if b := cfg.Baseline; b != nil && !slices.Equal(b.Labels, labels) {
		log.Info("the saved baseline is of other channels: starting from the population's",
			slog.String("saved", strings.Join(b.Labels, ",")), slog.String("channels", strings.Join(labels, ",")))
	} else if b != nil {
		if err := base.Restore(*b); err != nil {
			return nil, fmt.Errorf("%w: scoring.baseline: %v", ErrConfig, err)
		}
	}
	s.grade, s.ch, s.f, s.base, s.labels = g, channels, len(feats), base, labels
	s.z = make([]float64, channels*len(feats))
	s.marg = make([]float64, channels)
	s.order = make([]int, channels)
	s.hist = make([]float64, cfg.Smooth)
	s.cfg.TopK = min(cfg.TopK, channels)
	s.skip = make([]bool, channels)
	return s, nil
}

// perChannel reports the mode.
func (s *scorer) perChannel() bool { return s.base != nil }

// score scores the window x (the extractor's vector) and returns the
// vector in the model's space, which learn takes: x itself in the
// whole-vector mode, the normalised window in the per-channel mode.
func (s *scorer) score(x []float64) (float64, []float64, error) {
	if !s.perChannel() {
		v, err := s.model.Score(x)
		return v, x, err
	}
	s.base.Normalise(s.z, x)
	if err := s.finite(); err != nil {
		return 0, s.z, err
	}
	if err := s.margins(s.z); err != nil {
		return 0, s.z, err
	}
	var m float64
	for _, c := range s.order[:s.cfg.TopK] {
		m += s.marg[c]
	}
	s.hist[s.nhist%len(s.hist)] = m / float64(s.cfg.TopK)
	s.nhist++
	n := min(s.nhist, len(s.hist))
	var sum float64
	for _, v := range s.hist[:n] {
		sum += v
	}
	return s.calibrated(sum / float64(n)), s.z, nil
}

// finite checks the normalised window's features on the channels scored:
// a NaN or infinite one is an error naming the channel, not a channel
// left out. (Below 120 Hz the conditioning once made every feature NaN,
// and every score was 0 with nothing said.)
func (s *scorer) finite() error {
	for c := 0; c < s.ch; c++ {
		if s.skip[c] {
			continue
		}
		for i, v := range s.z[c*s.f : (c+1)*s.f] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("channel %d %s: feature %d is %v", c, s.labels[c], i, v)
			}
		}
	}
	return nil
}

// calibrated maps a margin to the published score in [0, 1].
func (s *scorer) calibrated(m float64) float64 {
	return 1 / (1 + math.Exp(-(float64(s.cfg.Slope*m) + s.cfg.Intercept)))
}

// margin grades one channel's normalised features.
func (s *scorer) margin(z []float64) (float64, error) {
	if s.censor != nil {
		return s.censor.CensoredMargin(z, s.cfg.Censor)
	}
	return s.grade.Margin(z)
}

// margins grades every channel of the normalised window z and orders the
// channels by margin (the first TopK exactly, by partial selection).
func (s *scorer) margins(z []float64) error {
	for c := range s.marg {
		s.order[c] = c
		if s.skip[c] || math.IsNaN(z[c*s.f]) { // left out (include marks them NaN)
			s.marg[c] = math.Inf(-1)
			continue
		}
		m, err := s.margin(z[c*s.f : (c+1)*s.f])
		if err != nil {
			return err
		}
		s.marg[c] = m
	}
	for i := 0; i < s.cfg.TopK; i++ {
		best := i
		for j := i + 1; j < len(s.order); j++ {
			if s.marg[s.order[j]] > s.marg[s.order[best]] {
				best = j
			}
		}
		s.order[i], s.order[best] = s.order[best], s.order[i]
	}
	return nil
}

// gap forgets the margins of the windows before a gap in the signal, or
// before a window that was not scored.
func (s *scorer) gap() { s.nhist = 0 }

// background takes a usable window x (the extractor's vector) into the
// baseline.
func (s *scorer) background(x []float64) {
	if !s.perChannel() {
		return
	}
	for c := 0; c < s.ch; c++ {
		if !s.skip[c] {
			s.base.Update(c, x)
		}
	}
}

// leaveOut leaves channels out of the current window, in the per-channel
// mode, when at least TopK others remain (counting those already left
// out); it reports whether it did. The window's margin then averages the
// TopK highest of the others, the baseline takes in only them, and
// include ends it.
func (s *scorer) leaveOut(channels []int) bool {
	if !s.perChannel() || len(channels) == 0 {
		return false
	}
	left := s.scoredChannels()
	for _, c := range channels {
		if !s.skip[c] {
			left--
		}
	}
	if left < s.cfg.TopK {
		return false
	}
	for _, c := range channels {
		s.skip[c] = true
	}
	return true
}

// leftOut returns, per channel, whether the current window leaves it out;
// nil when it leaves out none.
func (s *scorer) leftOut() []bool {
	if !s.perChannel() || !slices.Contains(s.skip, true) {
		return nil
	}
	return s.skip
}

// scoredChannels is how many channels the current window is scored on.
func (s *scorer) scoredChannels() int {
	n := s.ch
	for _, out := range s.skip {
		if out {
			n--
		}
	}
	return n
}

// include ends leaveOut: every channel is scored again. The channels
// left out get NaN features in the window's vector (what score returned),
// so that learn, now or from the late-label buffer, leaves them out too.
func (s *scorer) include() {
	if !s.perChannel() {
		return
	}
	for c, out := range s.skip {
		if out {
			for i := c * s.f; i < (c+1)*s.f; i++ {
				s.z[i] = math.NaN()
			}
		}
	}
	clear(s.skip)
}

// top returns the channels that drove the latest score, highest first
// (per-channel mode; nil otherwise).
func (s *scorer) top() []int {
	if !s.perChannel() {
		return nil
	}
	return s.order[:s.cfg.TopK]
}

// learn teaches the model the window v (a vector score returned, or one
// the late-label buffer kept): the whole vector, or in the per-channel
// mode its TopK channels by margin for a seizure and every channel for
// background, of the channels the window was scored on (those left out
// have NaN features). It returns how many examples the model learned.
func (s *scorer) learn(v []float64, pos bool) (int, error) {
	if !s.perChannel() {
		return 1, s.model.Learn(v, pos)
	}
	if !pos {
		n := 0
		for c := 0; c < s.ch; c++ {
			if math.IsNaN(v[c*s.f]) { // left out of the window
				continue
			}
			if err := s.model.Learn(v[c*s.f:(c+1)*s.f], false); err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	}
	if err := s.margins(v); err != nil {
		return 0, err
	}
	for i, c := range s.order[:s.cfg.TopK] {
		if err := s.model.Learn(v[c*s.f:(c+1)*s.f], true); err != nil {
			return i, err
		}
	}
	return s.cfg.TopK, nil
}

// state returns the baseline's statistics for a checkpoint (nil in the
// whole-vector mode).
func (s *scorer) state() *features.BaselineState {
	if !s.perChannel() {
		return nil
	}
	st := s.base.State()
	st.Labels = append([]string(nil), s.labels...)
	return &st
}

// Baseline returns the patient's baseline statistics in the per-channel
// mode (nil otherwise), for a checkpoint: call it from a hook (the
// pipeline's goroutine) or after Run.
func (p *Pipeline) Baseline() *features.BaselineState { return p.sc.state() }
