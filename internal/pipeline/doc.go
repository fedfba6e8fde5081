// Package pipeline is the one place where ictal's parts are wired
// together:
//
//	acquire.Source ─frame─▶ quality ─▶ features.Extractor ─x─▶ scorer (classifier.Model) ─▶ alert.Detector ─▶ alert.Sink…
//	                                                   └─▶ learning (annotations now, or a buffer for late labels) ─▶ Model.Learn
//
// One goroutine (Run) owns the source, the extractor, the model and the
// detector. Reading a frame, pushing it, and every step extracting,
// scoring, deciding, emitting and learning allocate nothing in steady
// state; only rare events (an alert, a change of state, a label) do.
//
// # Parts
//
// Pipeline wires small parts, each in its own file and owned by it:
// quality (quality.go: signal-quality gating per window), the extractor
// (package features), events (events.go: detector decisions into alerts
// and event ends, recent alerts for feedback, decision-rule reloads from
// Config.Rules), ranking (ranking.go: the channels an alert names, found
// through features.Extractor.Index), lateLabels (buffer.go: the window
// buffer of LearnFeedback, clinicians' labels, the negative horizon),
// intervalSet (labels.go: the annotated seizures of LearnAnnotations),
// evidence (evidence.go: the last minute of the conditioned signal, from
// which every alert's EEG snippet is cut for alert.EvidenceSink) and sinks
// (sinks.go: Sink and its optional interfaces, found once). A new
// stage has one obvious place: signal conditioning goes between ReadFrame
// and the extractor in step; artifact gating beside quality in window;
// per-channel normalisation and scoring in the scorer (scorer.go),
// between Vector and the detector; recording is a
// sink that also takes the raw frames (FrameSink, frames.go;
// internal/record writes them to EDF+/BDF+). The pipeline reports its counters to its owner through
// Hooks.Window; nothing calls back into it while it runs.
//
// # Scoring: per channel or the whole vector
//
// Config.Scoring chooses how a window's features become its score
// (scorer.go). Per channel (the day-one model's mode, and so the default
// of a bed without a configured model): every channel's features,
// relative to that channel's own baseline (features.Baseline), are graded
// by one model of a channel's features; the window's score is the
// calibrated mean margin of its top channels over the last few windows,
// and the alert names those channels. The model fits any montage and
// rate. The whole vector (the zero Scoring, for models trained by `ictal
// train` without -from dayone and every model made before): one model
// scores channels × features and the score is the ensemble's vote. It
// keeps its place for patient-specific models on a fixed montage, where
// it sees the spatial pattern of a seizure across channels: on the
// simulated patient (8 channels, 20 minutes, 3 seizures, seeds 1 and 2) a
// whole-vector model trained on one recording detected the next one's
// seizures sooner: median delay 6.3 s, against 8.2 s for the day-one
// model adapted on the same recording (`ictal train -from dayone`, which
// also raised one false alarm) and 11.2 s for the day-one model as
// shipped; all three detected 3 of 3. Over `ictald demo`'s seeds 1–12
// both a whole-vector model trained on the demo's first recording and the
// day-one model adapted on it detected every seizure, but the adapted
// day-one model raised a false alarm in 6 of the 12 runs, the
// whole-vector one in 1; the demo keeps the whole-vector model.
//
// # Signal quality
//
// A window is unusable when, anywhere inside it, a frame was lost (a gap:
// state signal-lost), an electrode was off, a channel saturated, or a
// channel stayed flat (within Quality.FlatMicrovolts) for the whole window,
// or a sample was NaN, infinite or beyond ±1 V (state electrode-off). An unusable window is not scored (score 0, which
// the detector counts as negative) and not learned; the state returns to
// online with the first good window. In the whole-vector mode one bad
// channel makes the window unusable: its features would be outside
// anything the model learned. A per-channel score (Scoring) leaves out
// the channels with a lead-off, saturation or flat line, and the frontal
// channels of an eye artifact, and scores, learns and follows the
// baseline of the window on the others while at least TopK remain; the
// status names the channels and how many are scored (alert.Status.Scored).
//
// # Learning, and its risks
//
// In LearnAnnotations (replay, training) each usable window is scored and
// then learned at once with its label: positive when at least
// Learning.MinOverlap of it lies in an annotated seizure, negative when
// none of it does, not learned in between (a boundary window is neither).
// This is prequential evaluation: scores are honest predictions.
//
// In LearnFeedback (live) usable windows wait in a buffer of
// Learning.Buffer (default 1 h; d floats per window: 23 channels × 16
// features cost 10.6 MB for an hour at a 1 s step). A label — a
// confirmed alert (positive) or rejected one (negative), from the alert's
// onset to its end (or to now if it is still going on), or an interval a
// clinician marks — claims the buffered windows it covers. Labels are
// guarded, because one message must not be able to teach the model an
// hour of wrong examples:
//
//   - An interval longer than Learning.MaxInterval (default 5 min) is
//     refused: seizures last seconds to minutes, and a longer one is
//     labelled by confirming its alert, whose span the detector sets.
//   - A label stays pending for Learning.Grace (default 60 s, counted in
//     the recording's time from the window at which it arrives). A label
//     arriving meanwhile replaces it on the windows both cover (its
//     acknowledgement says on how many, and whose label it replaced).
//     When the grace period is over the label's windows are learned,
//     each once (those the detector got wrong: see below), and the label
//     is final: a later label of the other class
//     whose span overlaps it is refused, naming the final label. (A
//     window at the shared edge of two adjacent labels keeps the first;
//     that is no contradiction.) A pending window the buffer must let go
//     is learned first, and pending labels are learned when Run ends.
//   - Labels for windows that have left the buffer, or for alerts the
//     pipeline does not know, are counted and logged, not applied.
//
// A label teaches the model the detector's mistakes. Each buffered window
// keeps the detector's decision on it (score above the threshold or not);
// a labelled window the detector had decided as labelled — the windows
// that raised a confirmed alert, the quiet ones in a rejected alert's
// span — is counted (Stats.Agreed) and not learned, unless
// Learning.LearnAgreed. Learning every labelled window taught the model
// the alerts it already raised, as seizures again: on a split of the Bonn
// training segments the simulated clinician's confirmations raised the
// false alarms from 4 to 18 in 15 h, against 6 when only the mistakes
// are learned (internal/eval's README, section 5).
//
// Every label is answered through alert.AckSink: applied to how many
// windows and final when, or refused and why (also when the pipeline
// does not learn from feedback at all); the log line and the
// acknowledgement name the clinician (By) and the sender the transport
// knows (Sender). Rate limits per sender are the transport's
// (alert/mqtt). The risks that remain:
//
//   - Confirmation bias: only alerted stretches get labels by default, so
//     the model learns from its own detections and their rejections; a
//     seizure it never alerted on is learned only if a clinician marks its
//     interval.
//   - Learning.NegativeHorizon (off by default) learns every buffered
//     window older than the horizon with no label as negative. It keeps
//     the negative class current, but a seizure nobody noticed within the
//     horizon is learned as "not a seizure" and makes the detector less
//     likely to catch the next one. Enable it only where every seizure is
//     reviewed within the horizon (e.g. a staffed monitoring unit).
//   - A final label cannot be unlearned; the checkpoint from before it
//     can be restored. Within the bounds, a sender can still mislabel up
//     to MaxInterval per message, as often as the rate limit lets it.
//
// # Checkpoints and liveness
//
// Hooks.Checkpoint is called every CheckpointEvery of wall-clock time and
// when Run ends; the daemon writes the model atomically there
// (internal/checkpoint). Hooks.Window is called after every window: the
// daemon's systemd watchdog keep-alive, so a pipeline that stops making
// progress is restarted, and its metrics (internal/metrics): the counts,
// the signal processed and the lag behind real time (Stats.SignalTime,
// Stats.Lag), the late-label buffer's fill.
package pipeline
