// Package resample converts sampled signals from one rate to another with
// a band-limited interpolator: every output sample is the input convolved
// with a Kaiser-windowed sinc centred on the output's instant, the
// method of Smith and Gossett ("A flexible sampling-rate conversion
// method", ICASSP 1984; J. O. Smith, "Digital Audio Resampling Home
// Page", ccrma.stanford.edu/~jos/resample) and, for a rational ratio, of
// the polyphase structure (R. E. Crochiere and L. R. Rabiner, Multirate
// Digital Signal Processing, Prentice-Hall 1983, ch. 2–3).
//
// Rates are exact fractions (Rate): 256/1, 17361/100 for 173.61 Hz, or
// 20485/118 for an EDF file of 4097 samples per 23.6-s record. The ratio
// to/from reduces to L/M in lowest terms, and output frame n lies exactly
// n·M/L input frames after the first input frame, kept as an integer and
// a remainder so that no error accumulates over any length of stream.
//
// The filter, for fmin = min(from, to):
//
//   - passband to 0.45·fmin: an input e^{2πift} comes out as G·e^{2πift}
//     with |G − 1| below 4e-4 (gain within 0.004 dB, phase and images 68
//     dB down);
//   - stopband from 0.5·fmin (the new Nyquist frequency when
//     downsampling; the input's when upsampling, where it removes the
//     images), designed for 70 dB of rejection, measured at 66.6 dB or
//     more (70 dB for most ratios) and tested for at least 60 dB: content
//     above the new Nyquist frequency is removed before it can alias;
//   - a sinc of cutoff 0.475·fmin under a Kaiser window of β = 6.755
//     spanning 42 zero crossings on each side (Kaiser's formulas, J. F.
//     Kaiser, "Nonrecursive digital filter design using the I0-sinh window
//     function", ISCAS 1974): 88·from/fmin input frames long, 90 taps
//     when upsampling, 228 from 256 Hz to 100 Hz;
//   - linear phase, symmetric about the output instant: no group delay,
//     an event at t seconds stays at t seconds;
//   - unit gain at DC for every output (each set of coefficients sums to
//     1), so a DC offset passes exactly.
//
// When L is small (at most 1024 phases and a bank of at most 2^20
// coefficients: 256↔250, 256→100, 250→1000, 512→128) the coefficients of
// all L phases are computed once (a polyphase bank). Otherwise (173.61 Hz
// → 256 Hz is 25600/17361) each output's coefficients are interpolated
// linearly from a table of the windowed sinc at 512 points per zero
// crossing, Smith's method for an arbitrary ratio; the table's error,
// 1.6e-6 of the peak, lies below the stopband.
//
// A Resampler streams: it holds about two filter lengths of input frames,
// whatever the length of the stream, and Push and Pop allocate nothing.
// Before the first input frame and after the last, the signal is taken
// to hold its first and last values (not zero), so that a DC offset does
// not ring at the ends; an output within half a filter length of either
// end is thus an extrapolation.
package resample
