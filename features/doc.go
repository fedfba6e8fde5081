// Package features turns multichannel EEG into fixed-length feature
// vectors over sliding windows, the input of ictal's classifiers.
//
// # Windows
//
// An Extractor keeps the last Window (default 2 s) of every channel in a
// ring buffer. Push adds one frame (one sample per channel, in µV) and
// returns true when a window is complete: first after Window, then every
// Step (default 1 s). Vector then writes the window's features into a
// caller-owned slice of length Dim. Push and Vector allocate nothing; the
// FFT plan, the Hann window, the band bin ranges and every buffer are
// built once by New. Reset starts over, e.g. after a gap in the signal.
//
// The vector holds, for each channel in turn, the features listed in
// Config.Features (all of them by default, in the order of the Feature
// constants), then, if Config.Summaries is set, four cross-channel
// summaries. Names gives every element's name, "Fp1-F7/line_length".
//
// # Conditioning
//
// Before a sample is stored, every channel passes through causal filters
// (Config.Conditioning; on by default): a 0.5 Hz Butterworth high-pass
// (order 2), two notch sections 3 Hz wide at each mains frequency (50 and
// 60 Hz unless the site names one), and a 70 Hz Butterworth low-pass
// (order 4; lowered to 0.45 × the rate for slow sources). A harmonic of
// the mains frequency (100, 120, 150 Hz …, below 0.49 × the rate) gets a
// notch section of its own only where the low-pass and the other notches
// reject it by less than HarmonicRejection (25 dB) somewhere within
// ±MainsTolerance (0.25 %) of it. What is guaranteed, at every rate, with
// the default low-pass or a lower one: at least MainsRejection (40 dB) at
// 50 and 60 Hz and at least 25 dB at every harmonic, over ±0.25 % of each
// (TestMainsRejection). A mains frequency at or above the Nyquist
// frequency, as at 100 and 110 Hz, is notched where its hum lands, its
// alias (60 Hz at 100 Hz at 40 Hz), and one at Nyquist itself (50 Hz at
// 100 Hz) by the first-order notch there, whose second-order design has
// a pole on the unit circle (TestMainsAboveNyquist; before, every
// feature was NaN below 120 Hz). Rates below MinRate (100 Hz) are
// refused. At 250 and 256 Hz that is 7 sections (the
// low-pass alone gives 30 dB at 100 Hz and 74 dB at 120 Hz); at 512 Hz,
// 9 (100 and 120 Hz notched). The harmonics lie above the γ band's 70 Hz,
// so they reach only the time-domain features. Conditioning.String, which
// model files record, names the rule ("…, mains both, harmonics 25 dB"):
// models made when every harmonic had a notch are refused.
//
// # Per-channel features
//
// Every feature is computed on the window with its mean removed (the mean
// is the electrode's DC offset, not brain activity), x[0] … x[n−1],
// sampled at fs Hz, n = round(Window × fs).
//
//   - line_length: log(L + AmplitudeFloor), L = Σ|x[i] − x[i−1]| · fs/(n−1),
//     the line length per second of signal, in µV/s. For a band-limited
//     signal L approximates ∫|x'(t)| dt / T and so does not depend on the
//     window length or (much) on the rate; a sine of amplitude A and
//     frequency f gives 4Af.
//   - rms: log(R + AmplitudeFloor), R = √(Σx²/n) in µV (the standard
//     deviation of the window); a sine gives A/√2.
//   - delta_power … gamma_power: log(P_b + PowerFloor), P_b the power in
//     band b in µV² (see Spectrum). Bands: δ [0.5, 4), θ [4, 8), α [8, 13),
//     β [13, 30), γ [30, min(70, fs/2)) Hz. A sine of amplitude A inside a
//     band gives P_b ≈ A²/2.
//   - delta_rel … gamma_rel: P_b / P, P = P_δ + … + P_γ the power in
//     [0.5, min(70, fs/2)) Hz, so they lie in [0, 1] and sum to 1 (0 for a
//     flat window).
//   - hjorth_mobility: √(var(x')/var(x)) / 2π in Hz, the derivative taken
//     as the difference per second, var(x') = Σ(Δx)²/(n−1) · fs²; it is
//     the signal's mean frequency. For a sine of frequency f it is
//     fs·sin(πf/fs)/π, within 0.5 % of f for f < fs/20.
//   - hjorth_complexity: mobility(x') / mobility(x), dimensionless, with
//     var(x″) = Σ(Δ²x)²/(n−2) · fs⁴; 1 for a sine, larger for broadband
//     signals.
//   - zero_crossings: sign changes between consecutive samples of x per
//     second, count · fs/(n−1); 2f for a sine.
//   - spectral_edge: the frequency in Hz below which 90 % of P lies,
//     counted from 0.5 Hz, each bin's power spread evenly over its width.
//   - teager_energy: log(E + PowerFloor), E the mean over the window of the
//     Teager–Kaiser energy x[i]² − x[i−1]·x[i+1], times (fs/2π)² so that
//     it is in µV²·Hz² and comparable across rates: a sine gives
//     (fs/2π)²·A²·sin²(2πf/fs) ≈ A²f². A negative mean (possible on short
//     noisy windows) counts as 0.
//
// Line length, the Hjorth parameters and the Teager energy use differences
// between samples. A first difference has sin(πf/fs)/(πf/fs) times a
// derivative's gain at frequency f, and the Teager energy of a tone is
// (sin(2πf/fs)/(2πf/fs))² times A²f²: these features agree across rates
// for content well below fs/2 and read lower for content near it (at
// 173.61 Hz a 38 Hz tone's Teager energy is halved). The spectral
// features do not have that bias.
//
// A window whose RMS is below AmplitudeFloor (0.01 µV, below any EEG
// amplifier's resolution) is flat: its Hjorth parameters, zero crossings,
// spectral edge and relative powers are 0, and the logarithms take the
// floors, so a flat line or an all-zero window gives finite features.
// Samples Push cannot use (NaN, ±Inf, beyond MaxSample) are stored as 0
// and counted by Invalid, so no feature is ever NaN or infinite.
//
// # Spectrum
//
// The mean-removed window is multiplied by a periodic Hann window
// w[k] = ½ − ½cos(2πk/n), zero-padded to N, the smallest length ≥ n whose
// prime factors are 2, 3 and 5 (N = n for the usual 2^k windows; 360 for
// the 347 samples of 2 s at 173.61 Hz), and transformed with a real FFT:
// for N a power of two, ictal's own (fft.go: a radix-4 complex FFT of
// N/2 points, untangled only for the bins the bands use; every product
// rounded on its own, so the same bits on every platform), otherwise
// gonum's dsp/fourier. The one-sided power spectral density at bin m,
// frequency m·fs/N, is
//
//	S[m] = 2 |X[m]|² / (fs · Σw²)   µV²/Hz,
//
// where dividing by Σw² (= 3n/8) rather than n corrects for the energy the
// Hann window removes. A band's power is Σ S[m] · fs/N over the bins whose
// frequency lies in the band, in µV². By Parseval the powers of all bins
// add up to Σ w²x² / Σ w², the window-weighted mean square of x, so a
// band holding a sine of amplitude A has power A²/2 whatever the rate, the
// window length or N, up to the Hann window's leakage across band edges
// (below 1 % for a tone 1 Hz or more inside a band with 2-s windows). Bin
// m belongs to band [lo, hi) when lo ≤ m·fs/N < hi; New rejects a window
// too short for every band to hold a bin.
//
// # Cross-channel summaries
//
// With Config.Summaries the vector ends with max/line_length,
// median/line_length, max/delta_theta_rel and median/delta_theta_rel: the
// maximum and median over channels of the line_length feature and of
// delta_rel + theta_rel. Seizures raise line length and slow rhythm on a
// few channels first; the maximum catches that focal change and the median
// the background it stands out from, in four numbers whatever the montage.
// They cost one sort of Channels values per window.
//
// # Patient baseline
//
// Baseline expresses each channel's features relative to that channel's
// own background, for a model of one channel that serves any montage
// (internal/pipeline's per-channel scoring): z = (g(v) − m)/s, with g the
// logit of a relative power, the log of a Hjorth parameter, the zero
// crossings or the spectral edge (Transform), and m and s a robust
// running location and scale (Huber steps clipped at 3 scales). They
// start from a Population (median and 1.4826 × MAD over a training
// background, Standard), which weighs as BaselinePrior windows, and then
// follow the windows the caller takes in with a step of at least
// 1/BaselineHorizon. State and Restore carry them through a checkpoint.
//
// # Speed and the same bits everywhere
//
// The loops every sample goes through — the conditioning filters, Push's
// frame copy and ring store, the time-domain sums and the FFT — have AVX
// versions for amd64 (the *_amd64.s files, chosen once at start when the
// processor has AVX: useAVX). Each does per lane exactly the operations
// of the Go loop it stands for, in the same order, every product rounded
// on its own and never a fused multiply-add, so the features are the
// same bits with and without it; the Go loops are what arm64, arm and
// builds tagged purego run, and tests compare the two by name, bit for
// bit. The time-domain sums are defined by the Go loop in four
// interleaved lanes (sumLanes) so that a vector unit can take them four
// at a time.
package features
