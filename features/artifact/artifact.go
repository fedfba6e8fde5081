package artifact

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Kind is the kind of artifact a window holds.
type Kind uint8

// Kinds, in the order the rules are tried.
const (
	None      Kind = iota
	Electrode      // electrode pop or movement: a step no cortical potential makes
	Muscle         // EMG: broadband power above 30 Hz (jaw clench, chewing, frowning)
	Eye            // blink or eye movement: a large low-frequency deflection at the front
	Settling       // the first seconds after the start or a gap: electrodes and filters settle
)

var kindNames = [...]string{None: "none", Electrode: "electrode", Muscle: "muscle", Eye: "eye", Settling: "settling"}

// String returns "none", "electrode", "muscle", "eye" or "settling".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Defaults.
const (
	DefaultMuscleRise = 10.0  // dB of γ power over the channel's background
	DefaultEyeRise    = 8.0   // dB of δ power over the channel's background
	DefaultStepRise   = 20.0  // dB of the largest sample step over its background (×10 in µV)
	DefaultStepFloor  = 100.0 // µV: a smaller step is never an electrode artifact
	DefaultSettle     = 60 * time.Second
	DefaultWarmup     = 4 * time.Second
	DefaultElectrode  = 10 * time.Second
	DefaultGate       = 10 * time.Second
)

// Config configures a Detector. The zero value is on, with the defaults.
type Config struct {
	// Off disables artifact rejection: every window is judged clean.
	Off bool
	// MuscleRise, EyeRise and StepRise are the rises over the channel's
	// background, in dB, at which the rules fire (0: the defaults).
	MuscleRise, EyeRise, StepRise float64
	// StepFloor is the smallest step, µV, the electrode rule considers
	// (0: DefaultStepFloor).
	StepFloor float64
	// Settle is the time constant with which the background follows a
	// rise in the signal (0: DefaultSettle); it follows a fall ten times
	// faster.
	Settle time.Duration
	// Warmup is how long after the start, and after a gap (Reset), the
	// windows are judged Settling (0: DefaultWarmup; negative: none).
	Warmup time.Duration
	// Electrode is how long one episode of the electrode rules may keep a
	// channel from being scored (0: DefaultElectrode; negative: no
	// limit). An episode ends after as long without the rules firing.
	// Electrode pops and movement last seconds; a change that fires them
	// for longer is signal, a seizure's high-amplitude slow rhythm
	// included, and is scored (and, being judged clean, becomes the
	// channel's background).
	Electrode time.Duration
	// Gate is how long one episode of artifact may keep windows from
	// being scored (0: DefaultGate; negative: no limit): the windows its
	// owner counts as gated (internal/pipeline counts those of the muscle
	// and electrode rules), over an episode that ends after as long
	// without them. Past it the windows are scored all the same
	// (Gate.Lapsed): an artifact verdict may delay a detection, never
	// hide a seizure. A seizure's evolving discharge, its spread and the
	// EMG of a motor seizure look like muscle and movement to these rules,
	// and last tens of seconds; jaw clenches, pops and cable movement
	// last seconds.
	Gate time.Duration
}

// ErrConfig is wrapped by New's errors.
var ErrConfig = errors.New("artifact: invalid config")

// ConfigError is New's error for a setting out of range: Field names it
// as a configuration file does ("muscle_rise_db", "warmup"), Value is the
// value given, Reason what is wanted. It wraps ErrConfig.
type ConfigError struct {
	Field  string
	Value  any
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%v: %s %v: %s", ErrConfig, e.Field, e.Value, e.Reason)
}

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

func (c Config) withDefaults() (Config, error) {
	orDefault(&c.MuscleRise, DefaultMuscleRise)
	orDefault(&c.EyeRise, DefaultEyeRise)
	orDefault(&c.StepRise, DefaultStepRise)
	orDefault(&c.StepFloor, DefaultStepFloor)
	orDefault(&c.Settle, DefaultSettle)
	for _, f := range []struct {
		name string
		v    float64
	}{{"muscle_rise_db", c.MuscleRise}, {"eye_rise_db", c.EyeRise}, {"step_rise_db", c.StepRise}, {"step_floor_microvolts", c.StepFloor}} {
		if !(f.v > 0 && f.v < 1000) {
			return c, &ConfigError{f.name, f.v, "want a value in (0, 1000)"}
		}
	}
	orDefault(&c.Warmup, DefaultWarmup)
	if c.Warmup > time.Hour {
		return c, &ConfigError{"warmup", c.Warmup, "want at most 1h (negative: none)"}
	}
	orDefault(&c.Electrode, DefaultElectrode)
	if c.Electrode > time.Hour {
		return c, &ConfigError{"electrode", c.Electrode, "want at most 1h (negative: no limit)"}
	}
	orDefault(&c.Gate, DefaultGate)
	if c.Gate > time.Hour {
		return c, &ConfigError{"gate", c.Gate, "want at most 1h (negative: no limit)"}
	}
	if c.Settle < time.Second || c.Settle > 24*time.Hour {
		return c, &ConfigError{"settle", c.Settle, "want 1s to 24h"}
	}
	return c, nil
}

// orDefault sets *v to def when it is zero.
func orDefault[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

// Measures are one channel's measures of one window, as features.Extractor
// gives them: band powers as natural logarithms of µV² (features'
// delta_power … gamma_power) and the largest sample-to-sample step in µV
// (Extractor.MaxStep).
type Measures struct {
	Delta, Theta, Alpha, Beta, Gamma float64
	Step                             float64
}

// Verdict is a Detector's judgement of one window.
type Verdict struct {
	Kind Kind
	// Channels lists the channels that fired the rule, in channel order.
	// It is the Detector's own slice, valid until the next Judge.
	Channels []int
}

// Detector judges windows one after another against each channel's own
// recent background. It allocates nothing after New.
type Detector struct {
	cfg              Config
	frontal          []bool
	muscle, eye, stp float64 // thresholds in natural-log units
	up, down         float64 // background adaptation per window
	bg               []Measures
	rise             []Measures
	started          bool
	warmup, windows  int // windows judged Settling after a start; windows since it
	hits             []int
	scratch          []float64
	episode          []episode // of the electrode rules, per channel
	episodeLen       int       // windows an episode may gate a channel; 0: no limit
	emg              []bool    // per channel: EMG in the window last judged (EMG)
	out              []bool    // JudgeWithout's channels left out; nil: none
}

// episode counts, for one channel, the windows in which the electrode
// rules fired since the episode began, and the windows since they last
// fired.
type episode struct{ fired, quiet int }

// dB converts decibels of power to natural-log units.
func dB(x float64) float64 { return x * math.Ln10 / 10 }

// New returns a Detector for channels labelled labels (one per channel;
// the eye rule looks at the channels whose label names a frontopolar or
// anterior-frontal electrode, see Frontal) with windows step apart.
func New(cfg Config, labels []string, step time.Duration) (*Detector, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if step <= 0 {
		return nil, fmt.Errorf("%w: window step %v", ErrConfig, step)
	}
	n := len(labels)
	d := &Detector{
		cfg: c, frontal: make([]bool, n),
		muscle: dB(c.MuscleRise), eye: dB(c.EyeRise), stp: dB(c.StepRise),
		bg: make([]Measures, n), rise: make([]Measures, n),
		hits: make([]int, 0, n), scratch: make([]float64, n),
		episode: make([]episode, n), emg: make([]bool, n),
	}
	for i, l := range labels {
		d.frontal[i] = Frontal(l)
	}
	// Exponential smoothing with time constant Settle upwards and
	// Settle/10 downwards, per window.
	d.up = 1 - math.Exp(-step.Seconds()/c.Settle.Seconds())
	d.down = 1 - math.Exp(-20*step.Seconds()/c.Settle.Seconds())
	if c.Warmup > 0 {
		d.warmup = int((c.Warmup + step - 1) / step)
	}
	if c.Electrode > 0 {
		d.episodeLen = int((c.Electrode + step - 1) / step)
	}
	return d, nil
}

// Frontal reports whether a channel label names a frontopolar (Fp1, Fpz,
// Fp2) or anterior-frontal (AF3, AF7, …) electrode, alone or in a
// bipolar derivation ("Fp1-F7"): the electrodes nearest the eyes, where a
// blink's corneoretinal dipole dominates.
func Frontal(label string) bool {
	l := strings.ToUpper(strings.TrimPrefix(label, "EEG "))
	for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == ' ' || r == '/' }) {
		if strings.HasPrefix(part, "FP") || strings.HasPrefix(part, "AF") {
			return true
		}
	}
	return false
}

// Judge judges a window from each channel's measures (len(m) is the
// number of labels given to New) and then updates the backgrounds from
// the window if it was clean. Until a window has set the backgrounds (the
// first clean window, at the start and after Reset) only the start-up
// eye rule, which compares channels with each other, can fire.
func (d *Detector) Judge(m []Measures) Verdict { return d.JudgeWithout(m, nil) }

// JudgeWithout is Judge with the channels c for which out[c] is true left
// out (out nil or of len(m)): channels a caller does not score, such as a
// flat or disconnected one. They fire no rule, count for no comparison
// across the head, and their backgrounds stand still (but for the first
// clean window, which sets every background).
func (d *Detector) JudgeWithout(m []Measures, out []bool) Verdict {
	d.out = out
	defer func() { d.out = nil }()
	clear(d.emg)
	if d.cfg.Off {
		return Verdict{}
	}
	if d.windows < d.warmup {
		d.windows++
		return Verdict{Kind: Settling}
	}
	if !d.started {
		v := d.startup(m)
		if v.Kind == None {
			copy(d.bg, m)
			d.started = true
		}
		return v
	}
	for c := range m {
		d.rise[c] = Measures{
			Delta: m[c].Delta - d.bg[c].Delta, Theta: m[c].Theta - d.bg[c].Theta, Alpha: m[c].Alpha - d.bg[c].Alpha,
			Beta: m[c].Beta - d.bg[c].Beta, Gamma: m[c].Gamma - d.bg[c].Gamma,
			Step: 2 * (logStep(m[c].Step) - logStep(d.bg[c].Step)),
		}
	}
	v := d.rules(m)
	if v.Kind == None {
		d.adapt(m)
	}
	return v
}

// logStep is the log of a step in µV, floored at 1 µV.
func logStep(s float64) float64 { return math.Log(max(s, 1)) }

func (d *Detector) rules(m []Measures) Verdict {
	// Electrode: a pop or a movement, unless γ rose most (an EMG burst's
	// spikes make large steps and raise every band too, but γ most), for
	// at most episodeLen windows of an episode.
	d.hits = d.hits[:0]
	for c := range m {
		r := d.rise[c]
		emg := r.Gamma >= d.muscle && r.Gamma > max(r.Delta, r.Theta, r.Alpha)
		if d.electrode(c, d.in(c) && !emg && (d.pop(c, m) || d.movement(c, m))) {
			d.hits = append(d.hits, c)
		}
	}
	// Muscle: γ power MuscleRise over background, and more than the rise
	// of every lower band up to α or to within 3 dB of their sum (EMG is
	// broadband and rises most at the top; a seizure's rhythm raises the
	// low bands most), in a spectrum that is flat above 13 Hz (emg).
	for c := range m {
		r := d.rise[c]
		lower := logAdd(logAdd(m[c].Delta, m[c].Theta), m[c].Alpha)
		d.emg[c] = d.in(c) && r.Gamma >= d.muscle && (r.Gamma > max(r.Delta, r.Theta, r.Alpha) || m[c].Gamma >= lower-math.Ln2) && emgFlat(m[c])
	}
	if len(d.hits) > 0 {
		return Verdict{Electrode, d.hits}
	}
	for c, emg := range d.emg {
		if emg {
			d.hits = append(d.hits, c)
		}
	}
	if len(d.hits) > 0 {
		return Verdict{Muscle, d.hits}
	}
	// Eye: the power below 8 Hz (δ and θ: a blink lasts 0.2–0.4 s, so its
	// energy spreads over both) EyeRise over background at a frontal
	// channel, more than the rise of β and γ, while the median non-frontal
	// channel's low power rises by less than half of that (a blink's
	// field falls off steeply behind the eyes).
	k := 0
	for c := range m {
		if d.back(c) {
			d.scratch[k] = d.low(c, m)
			k++
		}
	}
	// Without a channel behind the eyes to compare with (a montage of
	// frontal channels only) a blink cannot be told from frontal slow
	// activity, a seizure's included: the rule does not fire, and a blink
	// there is scored (the eye's field is what the comparison sees).
	back := median(d.scratch[:k])
	for c := range m {
		r, low := d.rise[c], d.low(c, m)
		if k > 0 && d.front(c) && low >= d.eye && low > max(r.Beta, r.Gamma) && back < low/2 {
			d.hits = append(d.hits, c)
		}
	}
	if len(d.hits) > 0 {
		return Verdict{Eye, d.hits}
	}
	return Verdict{}
}

// electrode counts channel c's window into its episode of the electrode
// rules (fired: whether they fired) and reports whether it is to be
// judged an electrode artifact: they fired, and the episode has not yet
// gated the channel for episodeLen windows. An episode ends after
// episodeLen windows without the rules firing, so that a rhythm that
// fires them only now and then is not gated again and again.
func (d *Detector) electrode(c int, fired bool) bool {
	e := &d.episode[c]
	if !fired {
		if e.quiet++; d.episodeLen > 0 && e.quiet >= d.episodeLen {
			e.fired = 0
		}
		return false
	}
	e.fired++
	e.quiet = 0
	return d.episodeLen == 0 || e.fired <= d.episodeLen
}

// pop reports whether channel c's largest step is an electrode pop: at
// least StepFloor µV and StepRise over the channel's usual largest step,
// with β power rising by less than half as many dB. A lone step's
// spectrum falls as 1/f², so its energy lies in δ and β barely moves; the
// spikes of an epileptic discharge raise the steps and β alike (Bonn set
// S against its splice's background: step rise 19 dB, β rise 20 dB,
// medians).
func (d *Detector) pop(c int, m []Measures) bool {
	r := d.rise[c]
	return m[c].Step >= d.cfg.StepFloor && r.Step >= d.stp && r.Beta < r.Step/2
}

// movement reports whether channel c's window looks like electrode or
// cable movement: every band from δ to γ MuscleRise or more over the
// background, the power below 8 Hz most of all, by slowMargin over α and
// β. Movement's potentials are slow and their spectrum falls steeply
// with frequency; a seizure's rhythm raises its own band (θ to β, in
// most) at least as much as δ.
func (d *Detector) movement(c int, m []Measures) bool {
	r := d.rise[c]
	return min(r.Delta, r.Theta, r.Alpha, r.Beta, r.Gamma) >= d.muscle && d.low(c, m) >= max(r.Alpha, r.Beta)+slowMargin
}

// slowMargin is how much more, in natural-log units of power, the power
// below 8 Hz must rise than α and β for a broadband rise to be movement
// (5 dB).
var slowMargin = dB(5)

// emgFloor is how far γ power may lie below β power in a window whose γ
// rise is muscle (−6 dB). See emgFlat.
var emgFloor = dB(-6)

// emgFlat reports whether a channel's spectrum is flat enough above 13 Hz
// for its γ power to be EMG: γ (30–70 Hz) at least β (13–30 Hz) less
// 6 dB. EMG's power density is about flat from 20 to over 100 Hz, which
// puts γ 3–4 dB above β for the band widths; EEG, ictal discharges
// included, falls with frequency and puts γ 9–22 dB below β (Bonn sets,
// 10th to 90th percentile of windows; their amplifier's 40 Hz low-pass
// steepens the fall).
func emgFlat(m Measures) bool { return m.Gamma-m.Beta >= emgFloor }

// startup is the eye rule for a window with no background to compare
// with: a frontal channel's power below 8 Hz EyeRise or more above the
// median non-frontal channel's, and its power above 13 Hz less than half
// as many dB above theirs. A blink in the very first window would
// otherwise become the background against which every later blink looks
// ordinary.
func (d *Detector) startup(m []Measures) Verdict {
	d.hits = d.hits[:0]
	k, front := 0, 0
	for c := range m {
		if d.back(c) {
			d.scratch[k] = logAdd(m[c].Delta, m[c].Theta)
			k++
		}
		if d.front(c) {
			front++
		}
	}
	if k == 0 || front == 0 {
		return Verdict{}
	}
	low := median(d.scratch[:k])
	k = 0
	for c := range m {
		if d.back(c) {
			d.scratch[k] = logAdd(m[c].Beta, m[c].Gamma)
			k++
		}
	}
	high := median(d.scratch[:k])
	for c := range m {
		lo, hi := logAdd(m[c].Delta, m[c].Theta)-low, logAdd(m[c].Beta, m[c].Gamma)-high
		if d.front(c) && lo >= d.eye && hi < lo/2 {
			d.hits = append(d.hits, c)
		}
	}
	if len(d.hits) > 0 {
		return Verdict{Eye, d.hits}
	}
	return Verdict{}
}

// in reports whether channel c is judged (not left out).
func (d *Detector) in(c int) bool { return d.out == nil || !d.out[c] }

// front and back report whether channel c is judged and frontal, or
// judged and not frontal.
func (d *Detector) front(c int) bool { return d.frontal[c] && d.in(c) }
func (d *Detector) back(c int) bool  { return !d.frontal[c] && d.in(c) }

// low is the rise of channel c's power below 8 Hz (δ + θ) over its
// background, in natural-log units.
func (d *Detector) low(c int, m []Measures) float64 {
	return logAdd(m[c].Delta, m[c].Theta) - logAdd(d.bg[c].Delta, d.bg[c].Theta)
}

// logAdd returns log(e^a + e^b).
func logAdd(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// adapt moves each channel's background towards a clean window's
// measures: quickly when they are lower, slowly when higher.
func (d *Detector) adapt(m []Measures) {
	move := func(bg *float64, x float64) {
		a := d.up
		if x < *bg {
			a = d.down
		}
		*bg += a * (x - *bg)
	}
	for c := range m {
		if !d.in(c) {
			continue
		}
		b := &d.bg[c]
		move(&b.Delta, m[c].Delta)
		move(&b.Theta, m[c].Theta)
		move(&b.Alpha, m[c].Alpha)
		move(&b.Beta, m[c].Beta)
		move(&b.Gamma, m[c].Gamma)
		move(&b.Step, m[c].Step)
	}
}

// Reset forgets the backgrounds (after a gap or a change of electrodes):
// the next clean window sets them again.
func (d *Detector) Reset() {
	d.started, d.windows = false, 0
	clear(d.episode)
}

// median of s, reordering s; −Inf for an empty s (no channel to compare).
func median(s []float64) float64 {
	if len(s) == 0 {
		return math.Inf(-1)
	}
	// Insertion sort: a few dozen channels at most.
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Gate bounds how long an artifact episode keeps windows from being
// scored (Config.Gate). Its owner tells it, window by window, whether the
// artifact rules gated the window; Lapsed says when the episode has used
// up its windows. The zero Gate never lapses. It allocates nothing.
type Gate struct {
	limit        int // windows an episode may gate; 0: no limit
	gated, quiet int // windows gated in the episode; windows since the last
}

// NewGate returns the Gate of cfg (its Gate, default DefaultGate) for
// windows step apart.
func NewGate(cfg Config, step time.Duration) (Gate, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return Gate{}, err
	}
	if step <= 0 {
		return Gate{}, fmt.Errorf("%w: window step %v", ErrConfig, step)
	}
	if c.Gate <= 0 {
		return Gate{}, nil
	}
	return Gate{limit: int((c.Gate + step - 1) / step)}, nil
}

// Lapsed counts a window the rules would gate into its episode and
// reports whether the episode has already gated limit windows: the
// window is then to be scored.
func (g *Gate) Lapsed() bool {
	g.quiet = 0
	if g.limit == 0 {
		return false
	}
	if g.gated >= g.limit {
		return true
	}
	g.gated++
	return false
}

// Clean counts a window the rules did not gate; limit of them in a row
// end the episode.
func (g *Gate) Clean() {
	if g.quiet++; g.quiet >= g.limit {
		g.gated = 0
	}
}

// Reset ends the episode (after a gap).
func (g *Gate) Reset() { g.gated, g.quiet = 0, 0 }

// EMG reports, per channel, whether the window last judged carries EMG:
// the muscle rule's test (γ power MuscleRise or more over the channel's
// background, risen more than δ, θ and α or to within 3 dB of their sum,
// in a spectrum flat above 13 Hz), whichever rule decided the verdict.
// Channels left out (JudgeWithout), Settling windows, the windows before
// the backgrounds are set and Config.Off carry none. The slice is the
// Detector's, valid until the next Judge.
func (d *Detector) EMG() []bool { return d.emg }
