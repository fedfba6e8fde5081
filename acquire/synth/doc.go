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
//   - Seizures: a rhythmic discharge, its waveform a mix of a sine and a
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
// # Determinism and cost
//
// The same Config (seed included) gives bit-identical samples on every
// architecture: random numbers come from math/rand/v2's PCG with integer
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
