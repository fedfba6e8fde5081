// Package synth simulates a patient: seeded, streamed multichannel scalp
// EEG with artifacts and annotated seizures, for ictal's demo, tests and
// benchmarks. A Patient is an acquire.Source (samples in µV) and an
// acquire.Labeled (its seizures and artifacts).
//
// # Signal model
//
// Channels are bipolar derivations placed on a flat projection of the
// scalp (the 10–20 system, head radius 1); the default montage is the
// CHB-MIT double banana ("Fp1-F7", "F7-T7", …). Each sample is the sum of:
//
//   - Background: pink-like noise, white noise through five parallel
//     one-pole low-pass filters (corners 0.25 to 64 Hz) weighted so the
//     spectrum falls as 1/f^α, α drawn per channel in 1.5–1.9, RMS drawn per
//     channel in 18–30 µV. 60 % of its variance comes from nine regional
//     sources on a grid over the scalp, mixed by proximity, so neighbouring
//     channels correlate and distant ones do not.
//   - Alpha: one 8.5–11 Hz rhythm per patient (15–30 µV), wandering ±0.3 Hz
//     and waxing and waning over seconds, seen through an occipital
//     potential field: strong on P–O derivations, absent frontally.
//   - Blinks: 0.2–0.4 s smooth deflections of 100–300 µV under a potential
//     field centred on the eyes (Fp channels), at BlinksPerMinute.
//   - Muscle: 1–5 s bursts of band-passed noise (centre 40 Hz, Q 0.8:
//     roughly 20–70 Hz at 256 Hz), 15–45 µV, on the temporal channels of
//     one or both sides, at MusclePerMinute.
//   - Seizures (kind "rhythmic", the default; the other kinds below): a
//     rhythmic discharge, its waveform a mix of a sine and a
//     spike-and-wave complex whose share grows during the seizure. Its
//     frequency glides smoothly from 3–5 Hz to 6–8 Hz or from 6–8 Hz to
//     3–5 Hz (±0.3 Hz wander). It begins on one channel or two neighbours
//     at 30 % strength, grows to 5–8 times the channel's background RMS
//     over the first 30 % of the seizure, and reaches channels up to a
//     seeded radius (0.7–2.2 head radii) after a delay proportional to
//     their distance (10–20 s to reach that radius), weaker and lagging
//     further from the focus and with each derivation's polarity. It fades
//     over its last 3 s, then the background of the channels it reached is
//     suppressed by 40–70 % with 1–2 Hz delta slowing, both recovering over
//     20–60 s. Foci, frequencies, strength, spread and durations are drawn
//     per seizure.
//
// # Seizure kinds
//
// Config.SeizureKinds gives the seizures their kinds in turn; each is
// annotated "seizure: KIND" (rhythmic plain "seizure", as before kinds
// existed), so matching the word "seizure" still finds them all. Values
// marked (ours) are this package's choice within what the sources
// describe; the others come from the sources cited.
//
//   - lvfa-onset, the focal-onset pattern: low-voltage fast activity at
//     15–25 Hz (LVFA, ≥ 13 Hz: Perucca, Dubeau & Gotman, Brain
//     2014;137:183–196; the commonest neocortical onset: Lee, Spencer &
//     Spencer, Epilepsia 2000;41:297–307) at 0.6–1.2 times the background
//     RMS (ours), on a background attenuated by 30–60 % (the onset
//     attenuation of Jan, Sadler & Rahey, Can J Neurol Sci 2010;37:439–448;
//     depth ours). Its frequency falls exponentially, reaching a 5–8 Hz
//     theta rhythm at 25–40 % of the seizure and no later than 30 s
//     (Risinger et al., Neurology 1989;39:1288–1293: a ≥ 5 Hz rhythm
//     within 30 s of onset; 5–9 Hz: Ebersole & Pacia, Epilepsia
//     1996;37:386–399), then 2–3.5 Hz delta at the end, while it grows to
//     4–7 times the background (3–5 at the end) and its spike-and-wave
//     share rises from 0 to 0.4–0.7 (ours): the evolution in frequency,
//     amplitude, morphology and extent that marks a seizure (Fisher,
//     Scharfman & deCurtis, Adv Exp Med Biol 2014;813:3–23). It spreads
//     as rhythmic does, wider (1.2–2.5 head radii in 10–25 s, ours).
//     SeizureMin to SeizureMax long (most focal seizures last under two
//     minutes: Jenssen, Gracely & Sperling, Epilepsia 2006;47:1499–1503).
//   - low-amplitude: a focal 5–8 Hz rhythm slowing by up to 40 %, only
//     1.2–2 times the background RMS (ours: many focal seizures change the
//     scalp EEG little or not at all, Devinsky et al., Neurology
//     1988;38:1347–1352), spreading 0.4–1 head radius; a mild post-ictal
//     suppression (10–30 %, 10–30 s, ours).
//   - delta: focal, irregular rhythmic delta, 2–3.5 Hz slowing to
//     1.5–2.5 Hz with ±0.4 Hz wander and a 0.2–0.5 spike share, 3–6 times
//     the background (the irregular 2–5 Hz lateralised rhythm of Ebersole &
//     Pacia 1996; a delta onset in 35 % of 192 temporal-lobe seizures, Clin
//     Neurophysiol 2019;130:1604–1610; the band kept below 4 Hz and the
//     strength ours).
//   - gtcs, generalised tonic–clonic: a tonic phase of 10–20 s, then a
//     clonic phase of 30–60 s (Theodore et al., Neurology
//     1994;44:1403–1407). Tonic: broadband EMG, white noise band-passed
//     from 20 Hz to min(400 Hz, 0.3 × rate) (the tonic shift of surface
//     EMG towards 100–500 Hz: Conradsen et al., Epilepsia
//     2011;52:2125–2132), 50–150 µV RMS (ours) on every channel, 0.4 of it
//     on channels without temporalis or frontalis under them (ours), over a
//     9–11 Hz generalised recruiting rhythm growing from 1 to 2–3 times the
//     background (Gastaut & Broughton, Epileptic Seizures, 1972; strength
//     ours). Clonic: EMG bursts of constant length, 0.2 s or half the
//     period if shorter, whose rate falls exponentially from 5 to 1 Hz, so
//     the silent periods grow (Conradsen et al., Epilepsy Res
//     2013;104:84–93: constant discharges, exponentially growing
//     silences), each silence holding a generalised slow wave 2–4 times the
//     background (ours). The accelerometer tilts by 11–29° at onset
//     (posture) and trembles (0.03 g, ours), and each clonic burst jerks it
//     by 0.3–1.5 g along a direction drawn per seizure (ours; wearable
//     detectors use both signals: Conradsen et al., Comput Methods Programs
//     Biomed 2012;107:97–110; Beniczky et al., Neurology 2018;90:e428–e434).
//     Afterwards a post-ictal generalised suppression (Lhatoo et al., Ann
//     Neurol 2010;68:787–796): the background down by 85–95 % with little
//     delta, recovering over 30–90 s (ours).
//   - absence, typical: generalised spike-and-wave, 3.5–4 Hz at onset
//     slowing to 2.5–3 Hz (2.5–4 Hz, faster at the start: Panayiotopoulos,
//     Epilepsia 2008;49:2131–2139), 5–15 s long (mean 9.4 s in 339
//     absences: Sadleir et al., Neurology 2006;67:413–418), on every
//     channel at once, frontally predominant (half as strong at the back;
//     ours), each bipolar derivation with the polarity of the field's
//     gradient along it, 5–8 times the background (ours), beginning and
//     ending within 0.25 s, with no post-ictal change.
//
// The durations of absence (5–15 s) and tonic–clonic (40–80 s) seizures
// do not follow SeizureMin and SeizureMax; placing seizures by count or
// checking Onsets uses the longest any listed kind may last.
//
// # Artifacts that mimic seizures
//
// Config.ArtifactKinds adds, each at ArtifactsPerHour (gaps uniform on 0.2
// to 1.8 times the mean, so one kind never overlaps itself), artifacts
// annotated "artifact: KIND" that look rhythmic or evolving (Tatum,
// Dworetzky & Schomer, J Clin Neurophysiol 2011;28:252–263, describe each).
// One that would overlap a seizure, the 10 s before it or its post-ictal
// period is left out, so that an alert during an artifact is a false alarm
// and one during a seizure a detection:
//
//   - chewing: 5–30 s of 1–2 Hz chewing (natural chewing: 0.94–2.17 Hz,
//     episodes 2.7–34.9 s, Po et al., J Dent Res 2011;90:1206–1210), each
//     cycle's first 30–45 % (ours) a Hann-shaped burst of EMG band-passed
//     from 20 Hz to min(200 Hz, 0.3 × rate), 30–100 µV RMS (ours), on the
//     temporal channels only (those muscle reaches), full on the chewing
//     side and 50–100 % on the other.
//   - patting: 10–60 s of smooth movement pulses at 1.5–3 Hz, 30–120 µV
//     (ours), on every channel, strongest frontally, each channel with its
//     own gain (0.7–1.3) and sign; the accelerometer jolts by 0.02–0.1 g.
//   - rocking: 10–60 s of 1–2 Hz sway (a sine with a quarter of its second
//     harmonic), 30–100 µV (ours), on every channel with gains 0.4–1 and
//     signs of their own; the accelerometer sways by 0.05–0.2 g.
//   - electrode-pops: a run of 5–30 s (at least 5τ + 2 s) of steps of
//     50–300 µV (±30 % each, one sign a run) on one electrode, so on the
//     one to three derivations that use it, at intervals of 0.2–2 s, each
//     decaying with a time constant τ of 0.2–1 s, none in the run's last
//     5τ; the edges pass a low-pass at min(500 Hz, 0.3 × rate).
//   - sweat: 1–5 minutes of drift below 0.5 Hz (noise through two
//     one-pole low-passes at 0.08–0.2 Hz), 50–200 µV RMS at its centre
//     (ours), over a region (a Gaussian field of width² 0.5 around a point
//     drawn on the scalp), each channel drifting on its own, with
//     raised-cosine ramps over the first and last fifth.
//
// All values not attributed above are ours.
//
// # Accelerometer
//
// Config.Accelerometer adds channels "Accel X", "Accel Y" and "Accel Z"
// in g after the EEG: gravity on Z (tilted by a tonic–clonic seizure's
// posture), 0.003 g of sensor noise, and what seizures and artifacts add,
// all through a 20 Hz low-pass. Their unit is not a voltage, so
// acquire.ChooseEEG leaves them out of the EEG.
//
// # Rates
//
// Any rate from MinRate to MaxRate (16384 Hz) works; the kinds above keep
// their power below 0.45 × the rate, as a recorder's anti-alias filter
// would: broadband parts (EMG, pop edges, the accelerometer) pass a
// fourth-order Butterworth low-pass at no more than 0.3 × the rate, and
// spike-and-wave complexes are summed only from their harmonics below
// 0.4 × the rate (rounder spikes at low rates). The rhythmic kind and the
// background are as before and not band-limited (at 100 Hz about 0.4 % of
// a rhythmic seizure's power lies above 45 Hz).
//
// # Determinism and cost
//
// The same Config (seed included) gives bit-identical samples on every
// architecture, and the parts added by the kinds other than rhythmic, by
// ArtifactKinds and by the accelerometer draw from random streams of their
// own, so the background outside them is the same bits with them or
// without: random numbers come from math/rand/v2's PCG with integer
// conversions to floats, every product that feeds a sum is explicitly
// rounded so no compiler fuses it into a multiply-add (arm64, ppc64le,
// s390x and riscv64 otherwise would), and sines and exponentials come from
// this package's own series instead of the math package, whose last bits
// differ between architectures. Waveforms come from interpolated tables.
//
// Generation is streamed: the state is O(channels) plus the seizure
// schedule, and ReadFrame allocates nothing. Frame i has Seq i and Time
// i/Rate seconds exactly (truncated to the nanosecond).
package synth
