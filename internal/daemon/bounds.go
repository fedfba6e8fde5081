package daemon

import (
	"cmp"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/features"
)

// bound is the range a bedside may give one setting: the packages accept
// wider ones (they serve replay and training too), but a value outside it
// switches detection off or delays it.
type bound struct {
	key string // the key in the file, "decision.refractory"
	// lo and hi bound the value, in the setting's unit: seconds for a
	// duration; ±Inf where there is no bound. openLo and openHi exclude
	// lo and hi themselves.
	lo, hi         float64
	openLo, openHi bool
	unit           string // after a number in messages: " dB", " µV"
	// zero, when set, says what 0 means (a default) and accepts it
	// whatever lo; negative, when set, what a negative value means, and
	// accepts every one.
	zero, negative string
	why            string // what a value beyond the range would do
}

// maxAlertDelay bounds how long the decision rule makes an alert wait
// after a seizure's onset at the least: decision.k positive windows, one
// per features.step. Clinical seizures last tens of seconds; a rule that
// waits longer misses the shorter ones.
const maxAlertDelay = 30 * time.Second

// bounds is the table of every setting that can switch detection off or
// delay it, with the range a bedside may give it and why. Validate
// enforces it, after each package's own checks, so `ictald check`, `ictald
// run` and a reload (SIGHUP) refuse the same values, naming the key;
// checkRelations adds the bounds between settings.
var bounds = []bound{
	{key: "decision.threshold", lo: 0, hi: 1, openLo: true, openHi: true, zero: "the model's, else 0.5",
		why: "a score is a probability or a vote, in (0, 1): at 1 no window is ever positive"},
	{key: "decision.k", lo: 1, hi: 60, unit: " windows", zero: "the model's, else 3",
		why: "an alert waits for k positive windows"},
	{key: "decision.n", lo: 1, hi: 60, unit: " windows", zero: "the model's, else 4",
		why: "the rule looks back n windows, a minute at the default step"},
	{key: "decision.quiet", lo: 0, hi: 120, zero: "the default, 10s",
		why: "an event lasts until this long without a positive window, and the seizures within it raise no alert of their own; a lull inside one seizure lasts seconds"},
	{key: "decision.refractory", lo: 0, hi: 600, zero: "the default, 60s",
		why: "no alert starts for this long after an event ends: a longer refractory period silences the seizures of a cluster"},
	{key: "features.window", lo: 0, hi: 10, zero: "the default, 2s",
		why: "a longer window dilutes a seizure's onset into the background before it and delays its detection"},
	{key: "features.step", lo: 0, hi: 5, zero: "the default, 1s",
		why: "one decision per step: the rule's k windows take k steps"},
	{key: "features.highpass_hz", lo: math.Inf(-1), hi: 2, unit: " Hz", zero: "the default, 0.5 Hz", negative: "none",
		why: "a higher corner removes the 1–3 Hz rhythms of many seizures (3 Hz spike-and-wave, rhythmic delta)"},
	{key: "features.lowpass_hz", lo: 30, hi: 10000, unit: " Hz", zero: "the default, 70 Hz", negative: "none",
		why: "a lower corner removes the γ band (30–70 Hz) the features and the muscle rule look at; ACNS asks for no lower than 70 Hz"},
	{key: "quality.flat_microvolts", lo: 0, hi: 10, openLo: true, unit: " µV", zero: "the default, 0.5 µV",
		why: "a live electrode's EEG spans tens of µV in a window: a larger limit calls live channels flat and scores none"},
	{key: "artifact.muscle_rise_db", lo: 3, hi: 1000, openHi: true, unit: " dB", zero: "the default, 10 dB",
		why: "a smaller rise of γ power over the background, the EEG's own variation, would make most windows muscle artifact, unscored"},
	{key: "artifact.eye_rise_db", lo: 3, hi: 1000, openHi: true, unit: " dB", zero: "the default, 8 dB",
		why: "a smaller rise of δ power over the background, the EEG's own variation, would make most frontal windows eye artifact, unscored"},
	{key: "artifact.step_rise_db", lo: 3, hi: 1000, openHi: true, unit: " dB", zero: "the default, 20 dB",
		why: "a smaller rise of the largest step over the background would make ordinary windows electrode artifact, unscored"},
	{key: "artifact.step_floor_microvolts", lo: 50, hi: 1000, openHi: true, unit: " µV", zero: "the default, 100 µV",
		why: "ictal spikes step by tens of µV from one sample to the next: a lower floor lets the electrode rule take a seizure's spikes for pops"},
	{key: "artifact.settle", lo: 1, hi: 600, zero: "the default, 60s",
		why: "the background follows a lasting rise this slowly: a longer one keeps a changed channel an artifact, unscored, for longer"},
	{key: "artifact.warmup", lo: 0, hi: 60, zero: "the default, 4s", negative: "none",
		why: "the windows this long after the start and after every gap are settling, unscored"},
	{key: "artifact.electrode", lo: 0, hi: 120, zero: "the default, 10s",
		why: "an episode of electrode artifact keeps a channel unscored at most this long; with no limit a seizure's slow rhythm that fires the rule would never be scored"},
	{key: "motor.share", lo: 0.5, hi: 1, zero: "the default, 2/3",
		why: "the share of the channels with EMG that makes a window motor-positive: below half, a jaw clench or chewing on the temporal chains is a convulsion; above 1 none ever is"},
	{key: "motor.k", lo: 0, hi: 30, unit: " windows", zero: "the default, 15 of 20",
		why: "a motor alert waits for k motor-positive windows"},
	{key: "motor.n", lo: 0, hi: 60, unit: " windows", zero: "the default, 20",
		why: "the motor rule looks back n windows"},
	{key: "artifact.gate", lo: 0, hi: 120, zero: "the default, 10s",
		why: "an episode of muscle or electrode artifact keeps windows unscored at most this long; with no limit a seizure whose discharge or EMG fires the rules would never be scored"},
	{key: "learning.buffer", lo: 60, hi: 24 * 3600, zero: "the default, 1h",
		why: "a clinician's verdict can label the windows this far back: a shorter buffer loses it before it comes; a longer one holds memory for verdicts that come within a shift"},
	{key: "record.rotate", lo: 60, hi: 24 * 3600, zero: "the default, 1h",
		why: "each rotation closes a file and starts one: shorter files multiply the files and the quota's deletions, longer ones put a day of recording in one file"},
	{key: "record.range_uv", lo: 100, hi: 4.5e6, unit: " µV", zero: "the format's default",
		why: "EEG spans hundreds of µV: a narrower range clips it; the widest amplifier ictald reads spans ±4.5 V (an ADS1299 at gain 1), and a wider range does not fit the EDF header's 8 characters"},
	{key: "mqtt.max_reconnect_interval", lo: 1, hi: 60, zero: "the default, 1m",
		why: "alerts wait for the next reconnection to a broker that went away: a longer back-off delays them"},
}

// checkBounds checks every setting in bounds, then checkRelations.
func (c *Config) checkBounds() error {
	for _, b := range bounds {
		if err := b.check(c); err != nil {
			return err
		}
	}
	return c.checkRelations()
}

// check checks b's setting in c.
func (b bound) check(c *Config) error {
	f, ok := settingValue(reflect.ValueOf(c).Elem(), b.key)
	if !ok {
		return fieldErr(b.key, "no such numeric setting (bounds table)")
	}
	v := number(f)
	if b.accepts(v) {
		return nil
	}
	return fieldErr(b.key, "%s: want %s; %s", formatValue(f), b.want(f.Type()), b.why)
}

// accepts reports whether v, in b's unit, lies within b.
func (b bound) accepts(v float64) bool {
	switch {
	case v == 0 && b.zero != "", v < 0 && b.negative != "":
		return true
	case v < b.lo || v > b.hi, b.openLo && v == b.lo, b.openHi && v == b.hi:
		return false
	}
	return true
}

// want describes b's range for a setting of type t.
func (b bound) want(t reflect.Type) string {
	lo, hi := format(b.lo, t), format(b.hi, t)
	var s string
	switch {
	case math.IsInf(b.lo, -1):
		s = "at most " + hi + b.unit
	case b.openLo || b.openHi:
		open, close := "[", "]"
		if b.openLo {
			open = "("
		}
		if b.openHi {
			close = ")"
		}
		s = "a value in " + open + lo + ", " + hi + close + b.unit
	default:
		s = lo + " to " + hi + b.unit
	}
	var notes []string
	if b.zero != "" {
		notes = append(notes, "0: "+b.zero)
	}
	if b.negative != "" {
		notes = append(notes, "negative: "+b.negative)
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, "; ") + ")"
	}
	return s
}

// format writes x, a bound, as a value of type t: a duration ("10m") or a
// number.
func format(x float64, t reflect.Type) string {
	if t == reflect.TypeFor[Duration]() {
		return shortDuration(time.Duration(x * float64(time.Second)))
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// shortDuration writes d without zero units: "10m", "1h", "1m30s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// checkRelations checks the bounds between settings: an amplifier read
// in real time, a step no longer than the window, k no more than n, and
// k windows no longer than maxAlertDelay.
func (c *Config) checkRelations() error {
	if s := c.Source; (s.Type == "openbci" || s.Type == "ads1299") && s.Speed != 0 && s.Speed != 1 {
		return fieldErr("source.speed", "%g for an %s source: an amplifier delivers in real time, and pacing it slower would put every window further behind; want 0 or 1 (it paces recordings and simulations)", s.Speed, s.Type)
	}
	window := cmp.Or(time.Duration(c.Features.Window), features.DefaultWindow)
	step := cmp.Or(time.Duration(c.Features.Step), features.DefaultStep)
	if step > window {
		return fieldErr("features.step", "%v: longer than features.window %v: the samples between windows would never be looked at", step, window)
	}
	d := c.Decision
	if d.K == 0 && d.N == 0 {
		return nil // the model's rule (modelfile.Meta.Configure), else the default
	}
	k, n := cmp.Or(d.K, alert.DefaultK), cmp.Or(d.N, alert.DefaultN)
	if k > n {
		return fieldErr("decision.k", "%d: more than decision.n (%d): no alert could start", k, n)
	}
	if delay := time.Duration(k) * step; delay > maxAlertDelay {
		return fieldErr("decision.k", "%d windows of features.step %v: an alert would wait at least %v after a seizure's onset; want at most %v", k, step, delay, shortDuration(maxAlertDelay))
	}
	return nil
}

// settingValue returns the field of v, the configuration, at key ("a.b":
// the toml tags of the section and the field) when it is a number.
func settingValue(v reflect.Value, key string) (reflect.Value, bool) {
	for name := range strings.SplitSeq(key, ".") {
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, false
		}
		found := false
		for i := range v.NumField() {
			if v.Type().Field(i).Tag.Get("toml") == name {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			return reflect.Value{}, false
		}
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int64, reflect.Float64:
		return v, true
	}
	return reflect.Value{}, false
}

// number is f, a number setting, in its unit: seconds for a Duration.
func number(f reflect.Value) float64 {
	switch {
	case f.Type() == reflect.TypeFor[Duration]():
		return time.Duration(f.Int()).Seconds()
	case f.Kind() == reflect.Float64:
		return f.Float()
	}
	return float64(f.Int())
}

// formatValue writes f as the file gave it.
func formatValue(f reflect.Value) string {
	switch {
	case f.Type() == reflect.TypeFor[Duration]():
		return time.Duration(f.Int()).String()
	case f.Kind() == reflect.Float64:
		return strconv.FormatFloat(f.Float(), 'g', -1, 64)
	}
	return strconv.FormatInt(f.Int(), 10)
}
