package pipeline

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/synth"
	"github.com/ictal/ictal/alert"
)

// emgOver adds EMG, white noise of rms µV band-limited by the sampling
// (the conditioning's 70 Hz low-pass shapes it as an amplifier's
// would), to the channels on of a source while burst(t) is true.
type emgOver struct {
	acquire.Source
	rng   *rand.Rand
	rms   float64
	on    []bool
	burst func(t time.Duration) bool
}

func (e *emgOver) ReadFrame(f *acquire.Frame) error {
	if err := e.Source.ReadFrame(f); err != nil {
		return err
	}
	if e.burst(f.Time) {
		for c, on := range e.on {
			if on {
				f.Samples[c] += e.rms * e.rng.NormFloat64()
			}
		}
	}
	return nil
}

// tonicClonic is a generalised tonic–clonic seizure's EMG from onset:
// 15 s of sustained (tonic) activity, then 40 s of clonic bursts of 0.2
// s whose rate slows from 4 to 1 Hz.
func tonicClonic(onset time.Duration) func(time.Duration) bool {
	return func(t time.Duration) bool {
		s := (t - onset).Seconds()
		switch {
		case s < 0 || s >= 55:
			return false
		case s < 15:
			return true
		}
		rate := 4 - 3*(s-15)/40
		_, frac := math.Modf((s - 15) * rate)
		return frac < 0.2*rate
	}
}

// TestMotorSeizure: a generalised tonic–clonic seizure's EMG on every
// channel, over simulated EEG without seizures, raises one alert of kind
// motor within about 15 s of its onset, naming the channels with EMG;
// EMG on a few channels (a jaw clench, chewing on the temporal chains)
// or briefly on all (a movement) raises none.
func TestMotorSeizure(t *testing.T) {
	all := slices.Repeat([]bool{true}, 8)
	temporal := []bool{true, true, false, false, false, false, false, false} // Fp1-F7, F7-T7
	for _, tt := range []struct {
		name   string
		on     []bool
		burst  func(time.Duration) bool
		alerts int
	}{
		{"tonic-clonic on every channel", all, tonicClonic(120 * time.Second), 1},
		{"chewing on two temporal channels for a minute", temporal, func(t time.Duration) bool {
			s := (t - 120*time.Second).Seconds()
			_, frac := math.Modf(s * 1.5)
			return s >= 0 && s < 60 && frac < 0.4
		}, 0},
		{"a 10-s arousal on every channel", all, func(t time.Duration) bool { return t >= 120*time.Second && t < 130*time.Second }, 0},
		{"no EMG", all, func(time.Duration) bool { return false }, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := synth.DefaultConfig()
			cfg.Channels, cfg.Duration, cfg.Seizures, cfg.MusclePerMinute, cfg.Seed = 8, 4*time.Minute, 0, 0, 5
			pat, err := synth.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			src := &emgOver{Source: pat, rng: rand.New(rand.NewPCG(1, 2)), rms: 40, on: tt.on, burst: tt.burst}
			sink := &collect{}
			p := newPipeline(t, src, defaultFeatures, newModel(t, src, defaultFeatures, "UOB"), Config{Learning: Learning{Mode: LearnOff}}, []alert.Sink{sink}, Hooks{})
			runAll(t, p)
			var motor []alert.Event
			for _, a := range sink.alerts {
				if a.Kind == alert.KindMotor {
					motor = append(motor, a)
				}
			}
			if len(motor) != tt.alerts {
				t.Fatalf("%d motor alerts, want %d: %+v", len(motor), tt.alerts, motor)
			}
			for _, a := range motor {
				delay := a.DetectedOffset - 120*time.Second
				if a.OnsetOffset < 118*time.Second || delay < 14*time.Second || delay > 18*time.Second {
					t.Errorf("motor alert onset %v, detected %v after the seizure's onset: want the onset at it and 14–18 s", a.OnsetOffset, delay)
				}
				if len(a.Channels) < 6 || a.Score < 2.0/3 {
					t.Errorf("motor alert names %v, score %v: want most of the 8 channels", a.Channels, a.Score)
				}
				t.Logf("motor alert: onset %v, detected %v after onset, score %.2f, %v", a.OnsetOffset, delay, a.Score, a.Channels)
			}
		})
	}
}

func TestMotorConfig(t *testing.T) {
	for _, tt := range []struct {
		m     Motor
		field string
	}{
		{Motor{Share: 1.5}, "motor.share"},
		{Motor{Share: -0.1}, "motor.share"},
		{Motor{K: 5, N: 4}, "motor.k"},
		{Motor{K: 1, N: 1000}, "motor.n"},
	} {
		_, err := tt.m.withDefaults()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tt.field {
			t.Errorf("%+v: %v, want a ConfigError on %s", tt.m, err, tt.field)
		}
	}
	if m, err := (Motor{}).withDefaults(); err != nil || m.K != DefaultMotorK || m.N != DefaultMotorN || m.Share != DefaultMotorShare {
		t.Errorf("defaults: %+v, %v", m, err)
	}
}
