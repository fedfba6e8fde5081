// Package eval measures seizure detection the way the field does: the
// SzCORE conventions (Dan et al., "SzCORE: seizure community open-source
// research evaluation framework", Epilepsia 2025) as implemented by the
// timescoring package (github.com/esl-epfl/timescoring), plus the
// detection delay that timescoring does not report.
//
// Event scoring (Events): reference seizures and hypothesis events are
// lists of [start, end) intervals in a recording of known duration.
//
//  1. In both lists, events separated by less than 90 s are merged
//     (Params.MinGap); then events longer than 300 s are split into
//     300 s pieces (Params.MaxDuration).
//  2. Each reference event is extended by 30 s before its onset and 60 s
//     after its end (clipped to the recording) and is detected when any
//     hypothesis overlaps the extended interval (Params.MinOverlap 0).
//  3. A hypothesis event is a false alarm when any part of it lies outside
//     the extended intervals of the detected reference events: a
//     detection that starts 40 s before a seizure both detects it and
//     counts one false alarm.
//  4. Sensitivity = detected / reference events, precision = detected /
//     (detected + false alarms), F1 their harmonic mean, false alarms per
//     24 h = false alarms / duration. Sensitivity, precision and F1 are NaN
//     when undefined, as in timescoring.
//
// Overlaps are decided on a 10 Hz grid, like timescoring's masks: an
// instant t falls in sample round(10 t), intervals are half-open, so a
// detection ending exactly where the tolerance window begins does not
// count. One deliberate difference: timescoring merges an event contained
// in the previous one by taking the later event's end (shortening the
// merged event); Events keeps the larger end.
//
// Delay: for each detected reference event, the time from its onset to the
// first moment an overlapping hypothesis was raised (Event.Detected, or its
// start when unknown), no earlier than the start of the tolerance window;
// negative when the detector fired before the annotated onset.
//
// Sample scoring (Samples) compares 1 Hz masks of the unmerged events:
// true positives are seconds in both, false positives seconds only in the
// hypothesis.
//
// Inputs: SzCORE/BIDS events.tsv files (ReadTSV), the JSON lines that
// `ictal replay` prints (ReadJSONL), and EDF+ annotations (through
// acquire/edf and FromIntervals).
package eval
