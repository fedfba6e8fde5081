package pipeline

import (
	"fmt"
	"math"
	"time"

	"github.com/ictal/ictal/alert"
)

// Motor configures the motor-seizure detector: alerts of kind
// alert.KindMotor for a generalised tonic–clonic seizure seen in its EMG,
// even where the EEG beneath is unreadable.
//
// A tonic–clonic seizure's tonic phase is sustained, high-amplitude EMG
// over the whole scalp for about 10–20 s, its clonic phase bursts of it
// whose rate slows from about 5 to 1 Hz (Theodore et al., Neurology
// 44:1403, 1994; Conradsen et al., Epilepsy Behav 25:1, 2012). Surface-EMG
// detectors of the tonic phase reach 94 % sensitivity at a median
// latency of 9 s and 0.67 false alarms a day (Beniczky et al., Neurology
// 90:e428, 2018), and EMG variance in ear-EEG found 14 of 14 within 4–13
// s with no false alarm in 820 h (Zibrandtsen et al., Seizure 59:54,
// 2018). On scalp EEG the EMG is what the muscle rule of
// features/artifact recognises (Detector.EMG: γ power 10 dB over the
// channel's background, risen more than the lower bands, in a spectrum
// flat above 13 Hz): EMG that dominates the EEG, as a convulsion's does.
// The rule's comparison with the lower bands stays: without it, the
// spiky discharges of the simulator's non-motor seizures, whose harmonics
// are flat above 13 Hz, made motor alerts (TestDetectsSyntheticSeizures). An artifact has it on a
// few channels for seconds: a jaw clench or chewing on the temporal
// chains, a frown on the frontal ones. A window is motor-positive when
// at least Share of the channels it judges carry EMG (at least two), and
// an alert starts when K of the last N windows are: EMG on most of the
// head for 15 of 20 s, the tonic phase and the first clonic bursts. An
// arousal or a turn in bed also puts EMG on every channel, for seconds:
// with 8 of 10 windows, a first choice from the tonic phase alone, the
// real sleep recording of the EDF conformance files
// (mne-testing-data/multiple_annotation_chans.bdf, OpenBCI, 12 channels)
// raised a motor alert for a 9-s burst of EMG on all its channels.
type Motor struct {
	// Off disables the motor detector.
	Off bool
	// Share is the share of the judged channels that must carry EMG
	// (default 2/3: generalised, not a temporal or frontal artifact).
	Share float64
	// K and N: an alert starts when K of the last N windows are
	// motor-positive (default 15 of 20: at a 1 s step, EMG on most of
	// the head for 15 of 20 s).
	K, N int
}

// MotorAlgorithm is what a motor alert gives as its algorithm: EMG on
// most channels, not a classifier's vote; its score is the share of the
// channels with EMG.
const MotorAlgorithm = "EMG"

// MotorQuiet ends a motor event after this long without a
// motor-positive window: a tonic–clonic seizure is one event, and its
// clonic phase (30–60 s) puts EMG on most channels only in bursts, so that
// its windows pass in and out of the rule until it ends.
const MotorQuiet = time.Minute

// Motor defaults.
const (
	DefaultMotorShare = 2.0 / 3
	DefaultMotorK     = 15
	DefaultMotorN     = 20
)

func (m Motor) withDefaults() (Motor, error) {
	if m.Share == 0 {
		m.Share = DefaultMotorShare
	}
	if m.K == 0 {
		m.K = DefaultMotorK
	}
	if m.N == 0 {
		m.N = DefaultMotorN
	}
	switch {
	case !(m.Share > 0 && m.Share <= 1):
		return m, &ConfigError{"motor.share", m.Share, "want a share of the channels in (0, 1]"}
	case m.N < 1 || m.N > 600:
		return m, &ConfigError{"motor.n", m.N, "want 1..600 windows"}
	case m.K < 1 || m.K > m.N:
		return m, &ConfigError{"motor.k", m.K, fmt.Sprintf("want 1..n (%d)", m.N)}
	}
	return m, nil
}

// motor feeds the artifact detector's EMG channels of each window to an
// events of kind motor.
type motor struct {
	share float64
	ev    *events
	names []string // the channels' labels
}

// newMotor returns the motor detector of cfg over the channels labels;
// nil when it is off or there is no artifact detector to see EMG with.
func newMotor(cfg Motor, art *artifacts, labels []string, ev events) (*motor, error) {
	if cfg.Off || art == nil {
		return nil, nil
	}
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	// The share of channels in (0, 1] is the window's score; the
	// detector's threshold lies just below Share so that exactly Share
	// counts.
	det, err := alert.NewDetector(alert.DetectorConfig{Threshold: math.Nextafter(c.Share, 0), K: c.K, N: c.N, Quiet: MotorQuiet})
	if err != nil {
		return nil, fmt.Errorf("%w: motor: %v", ErrConfig, err)
	}
	m := &motor{share: c.Share, names: labels}
	// The alert's algorithm names the detector, its score the share of
	// channels with EMG.
	ev.det, ev.kind, ev.rules, ev.algorithm = det, alert.KindMotor, nil, MotorAlgorithm
	ev.channels = func([]float64) []string { return m.channels(art.det.EMG()) }
	m.ev = &ev
	return m, nil
}

// window takes the window's EMG channels (emg, nil when the window was
// not judged) with the channels left out (out, nil: none).
func (m *motor) window(start, end time.Duration, emg, out []bool) {
	judged, hot := 0, 0
	for c, e := range emg {
		if out != nil && out[c] {
			continue
		}
		judged++
		if e {
			hot++
		}
	}
	score, usable := 0.0, emg != nil && judged >= 2
	if usable {
		score = float64(hot) / float64(judged)
		if hot < 2 {
			score = 0
		}
	}
	m.ev.window(start, end, score, usable, nil)
}

// channels names the channels with EMG.
func (m *motor) channels(emg []bool) []string {
	var names []string
	for c, e := range emg {
		if e {
			names = append(names, m.names[c])
		}
	}
	return names
}
