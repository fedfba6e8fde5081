// Package artifact recognises the windows of EEG that hold artifacts
// rather than brain activity — muscle, eyes, electrodes — so that a
// seizure detector neither scores nor learns them.
//
// A Detector judges each window from per-channel measures that
// features.Extractor computes anyway: the log band powers δ (0.5–4 Hz),
// θ, α, β and γ (30–70 Hz) of the conditioned signal and the largest
// sample-to-sample step. Every rule compares a channel with its own
// background, not with fixed microvolts: amplifiers, electrodes, montages
// and patients differ by more than an order of magnitude in absolute
// power (the OpenBCI Cyton recording in the test data has a γ floor of
// about 200 µV², ten times a clinical amplifier's), while an artifact is
// a large change against what the same channel was just doing.
//
// # Background
//
// Each channel keeps, per measure, an exponentially smoothed background
// that follows a rise with time constant Config.Settle (default 60 s) and
// a fall twenty times faster, and that only clean windows update: a
// tracker of the signal's floor in the spirit of minimum statistics
// (Martin, IEEE Trans. Speech Audio Process. 9:504, 2001). The first
// clean window sets it; until then (at the start, and after a gap) the
// only rule is the start-up eye rule below, which compares channels with
// each other instead. Consequences: a muscle or electrode artifact
// present from the very first window is taken for background until clean
// windows pull the background down (a few seconds); a change that lasts
// but fires no rule (a new electrode, a seizure of minutes) is absorbed
// within minutes, so the rules look for transients, as artifacts are. A
// change that fires a rule is not taken in while it does; for the
// electrode rules that lasts at most Config.Electrode (below).
//
// # Settling
//
// The first Config.Warmup (4 s) of windows after the start, and after a
// gap (Reset), are judged Settling, with no channel named: the 0.5 Hz
// high-pass's step response takes about 2 s to fall below 1 %, and
// electrodes drift for seconds after they touch the skin or the amplifier
// starts — the Cyton recording's channels drift by up to 1.5 mV/s in their
// first four seconds, which the high-pass passes as δ power on every
// channel. A background taken from those windows would hide the blinks
// that follow; a model would score them. Settling windows are neither
// scored nor learned, like artifacts.
//
// # Rules
//
// Rises are in dB of power over the background; a window is an artifact
// when any channel fires a rule, tried in this order (the Verdict names
// the channels; internal/pipeline gates the whole window, except that a
// per-channel score leaves out only the channels of an eye artifact,
// whose rule has checked that the channels behind them are quiet, and
// the channels it leaves out for signal quality are judged by none of
// the rules, Detector.JudgeWithout):
//
//   - electrode, pop: the largest step between consecutive samples is at
//     least Config.StepFloor (100 µV) and Config.StepRise (20 dB, ten
//     times in µV) over the channel's usual largest step, and β power
//     rises by less than half as many dB as the step. An electrode pop is
//     a near-instant jump of hundreds of µV that no cortical generator
//     produces (Tatum, Dworetzky & Schomer, J Clin Neurophysiol 28:252,
//     2011); a lone step's spectrum falls as 1/f², so β barely moves,
//     whereas the spikes of an epileptic discharge raise the steps and β
//     alike (Bonn set S over its background: step +19 dB, β +20 dB,
//     medians).
//   - electrode, movement: every band from δ to γ rises by
//     Config.MuscleRise or more, and the power below 8 Hz by 5 dB more
//     than α and β. Cable sway and electrode shifts are slow potentials
//     whose spectrum falls steeply with frequency; a seizure's rhythm
//     raises its own band (θ to β in most) at least as much as δ.
//   - Neither electrode rule fires on a channel whose γ rose by
//     MuscleRise and more than δ, θ and α (EMG spikes make steps too).
//   - An episode of the electrode rules gates a channel for at most
//     Config.Electrode (10 s); the episode ends after as long without
//     them. Pops and movement last seconds, and a background that only
//     clean windows update would otherwise hold the gate shut for as
//     long as the change lasts: on the Bonn splices the movement rule
//     gated two seizures of high-amplitude slow waves, after
//     low-amplitude background, for all of their 23.6 s, and neither was
//     detected. Past the limit the channel is scored, and its windows,
//     clean now, move its background.
//   - muscle (jaw clench, chewing, frowning): γ power rises by
//     Config.MuscleRise (10 dB) or more, and either more than δ, θ and α
//     do or to within 3 dB of their sum, and the spectrum is flat above
//     13 Hz: γ (30–70 Hz) power at least β (13–30 Hz) power less 6 dB.
//     EMG is broadband with a power density about flat from 20 to over
//     100 Hz (Goncharova et al., Clin Neurophysiol 114:1580, 2003;
//     Muthukumaraswamy, Front Hum Neurosci 7:138, 2013), which puts γ
//     3–4 dB above β; EEG, ictal discharges included, falls with
//     frequency and puts γ 9–22 dB below β (Bonn, 10th–90th percentile
//     of windows), so a seizure's harmonics that raise γ are not muscle.
//   - eye (blink, eye movement): the power below 8 Hz rises by
//     Config.EyeRise (8 dB) at a frontal channel — a label naming Fp1,
//     Fpz, Fp2 or an AF electrode (Frontal) — by more than β and γ do,
//     while the median non-frontal channel's rises by less than half as
//     many dB. The eye is a corneoretinal dipole: a blink is a slow
//     deflection of 100–300 µV at Fp1/Fp2 that falls off steeply behind
//     the front of the head (Croft & Barry, Neurophysiol Clin 30:5, 2000).
//     Without frontal labels the rule cannot fire: name the channels.
//     Nor without a non-frontal channel to compare with (a montage of
//     frontal channels only, e.g. one Fp1-F7 derivation): there a blink
//     cannot be told from frontal slow activity, a seizure's included
//     (on the simulated patient's one-channel Fp1-F7 montage the rule
//     gated every seizure window, so none was scored), and the window is
//     scored.
//   - eye, at start-up (no background yet): a frontal channel's power
//     below 8 Hz is Config.EyeRise or more above the median non-frontal
//     channel's in the same window, and its power above 13 Hz less than
//     half as many dB above theirs — the same fall-off behind the eyes,
//     measured across the head instead of over time. Blink propagation
//     factors from Fp to central and parietal sites are about 0.1–0.3 in
//     amplitude (Croft & Barry, above), −10 to −20 dB in power. Without
//     it, a blink in the first window became the background and the
//     blinks after it looked ordinary: on the Cyton recording the blinks
//     of seconds 4–9 went unflagged and a simulator-trained model scored
//     them as seizure.
//
// # Limits
//
// Rules on spectra of two-second windows cannot tell every artifact from
// every seizure. A seizure that starts with low-voltage fast activity
// (β/γ) at a temporal electrode can look like muscle for its first
// seconds; a frontal seizure with slow, frontally maximal waves can look
// like eye movement; a discharge of high-amplitude slow waves whose
// harmonics raise every band by 10 dB can look like movement (1.9 % of
// the Bonn ictal windows, below); the EMG of a tonic–clonic seizure is
// muscle. All are then gated — not scored, not learned — but never for
// long: an artifact verdict may delay a detection, never hide a seizure.
// Besides the electrode rules' bound per channel (Config.Electrode), an
// episode of the muscle and electrode rules gates windows for at most
// Config.Gate (10 s, counted over the episode, which ends after as long
// without a gated window; Gate). Past it the windows are scored on every
// channel, and the status says so ("muscle on …; scored on all 23
// channels"); they do not move the patient's baseline
// (internal/pipeline). Jaw clenches, pops and cable movement last
// seconds, and a seizure tens of seconds: on the real CHB-MIT seizure
// (chb01_03, a child's, with EMG and movement through it, after 41 s of
// the same record's background) the muscle rule flags most windows on 4
// to 13 of the 23 channels, and with the day-one model 51 of the 81
// windows were gated, almost the whole seizure; with the bound, 14 (4 of
// them settling), and 2 of the 39 windows inside the seizure with a
// whole-vector model instead of 38 (internal/pipeline
// TestArtifactNeverHidesTheRealSeizure). Past the bound, an artifact
// that lasts (chewing, talking) is scored like EEG: the price of never
// hiding a seizure under one. The settings are in the daemon's
// [artifact] section; Config.Off disables the rules.
//
// # Measured
//
// Windows gated, by set and rule (internal/pipeline TestBonnGating,
// TestArtifactsOnRealCyton; this package's TestSyntheticTruth):
//
//   - Bonn, each of the 400 segments (80 per set Z O N F S) alone: the 4
//     settling windows of each segment's 22 and nothing else (before the
//     pop, movement and muscle rules were made specific: 15 muscle and 1
//     electrode window in F, 2 muscle in N).
//   - Bonn spliced as bonn.Concat splices it (every S segment after four
//     others, seeds 1–4, 34 568 windows inside segments): S 1.9 %
//     (electrode, by the movement rule on slow-dominant ictal windows),
//     F 0.6 %, Z 0.5 %, O 0.2 %, N 0.0 %; windows across a splice
//     1.7–5.3 %. Before the electrode episode limit: S 2.4 %, F 0.7 %,
//     splices 1.9–5.7 %. Before the rules were made specific: S 69.5 %
//     (electrode 54.6 %, muscle 14.9 %), Z 12.6 % and O 13.6 % (muscle),
//     F and N 6.0 %. No Bonn window is flat, saturated or
//     invalid: the peaks clipped at +2047 are single samples.
//   - OpenBCI Cyton recording (blinks, jaw clenches, eyes closed; 88
//     windows): 4 settling, 19 eye, 9 muscle, 4 electrode, and all 10
//     windows of the jaw clenches (10–15 s, 83–86 s); none of the 21
//     windows with the eyes closed. The same before and after both
//     changes.
//   - Simulator (30 min, seed 3): no seizure window without an artifact
//     gated; 15 of 1167 clean windows, 231 of 410 with a blink and 22 of
//     64 with a muscle burst. The same before and after.
//
// On the simulated patient (acquire/synth, which draws blinks and muscle
// bursts with labels) and on the real OpenBCI recording the rules gate
// no window inside a seizure unless an artifact overlaps it.
package artifact
