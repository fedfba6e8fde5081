// Package alert turns window scores into seizure events and says what they
// are: the decision (score threshold, k of the last n windows, quiet
// period, refractory period), the messages of ictal's MQTT contract
// (alerts, status, scores, feedback), the Sink interface through which the
// pipeline hands them on, a JSON-lines sink and an in-memory EventLog. It
// depends on the standard library only; the MQTT transport (publisher,
// feedback subscriber, embedded broker) is alert/mqtt.
//
// Every payload is UTF-8 JSON with "v":1, as DESIGN.md's MQTT contract
// specifies; the Append functions encode them into a caller's buffer
// without allocating, so the pipeline can publish from its hot loop.
package alert

import (
	"time"
)

// Event is one detected seizure.
type Event struct {
	// ID identifies the event (a random UUID). Receivers drop duplicates
	// by ID: MQTT's QoS 1 may deliver an alert more than once.
	ID   string
	Site string
	Bed  string
	// Onset is the start of the first window of the run that triggered
	// the detection; DetectedAt is the end of the window that completed it
	// (the earliest moment the system could know); End is the end of the
	// last positive window, zero while the event is going on.
	Onset, DetectedAt, End time.Time
	// Offsets of the same instants from the start of the recording, for
	// replay and scoring.
	OnsetOffset, DetectedOffset, EndOffset time.Duration
	// Score is the highest window score of the event so far.
	Score     float64
	Algorithm string
	// Channels lists the channels that drove the detection, most
	// prominent first: with a per-channel model those whose own scores
	// were highest in the triggering window, otherwise those whose line
	// length stood out most above their recent baseline.
	Channels []string
	// Kind says what was detected: one of the Kind constants, "" meaning
	// KindSeizure. The alert payload carries it as "kind" when it is not
	// the default (AppendAlert); ParseAlert returns "" for a seizure.
	Kind string
}

// Kinds of alert (Event.Kind and the alert payload's optional "kind").
const (
	// KindSeizure is an electrographic seizure: the rhythm the EEG
	// detector recognises. It is the default: an Event whose Kind is "",
	// and an alert payload without "kind", is one, and the payload never
	// writes it.
	KindSeizure = "seizure"
	// KindMotor is a motor seizure: a generalised tonic–clonic
	// (convulsive) seizure recognised by its muscle activity (EMG on most
	// channels, rhythmic jerks, an accelerometer's movement), which may
	// hide the EEG beneath it. It carries the highest risk of injury and
	// of sudden death (SUDEP).
	KindMotor = "motor"
	// KindStatusEpilepticus is reserved for a seizure lasting 5 minutes or
	// more (status epilepticus, a medical emergency). The name is part of
	// the contract, so that readers accept it; this release raises no
	// alert of this kind.
	KindStatusEpilepticus = "status-epilepticus"
)

// ValidKind reports whether k is an alert kind of the contract: one of
// the Kind constants, or "" (the default, KindSeizure).
func ValidKind(k string) bool {
	switch k {
	case "", KindSeizure, KindMotor, KindStatusEpilepticus:
		return true
	}
	return false
}

// KindOrDefault returns k, or KindSeizure when k is "": the kind an
// Event's Kind names.
func KindOrDefault(k string) string {
	if k == "" {
		return KindSeizure
	}
	return k
}

// State is the monitor's state, as published on the status topic.
type State string

// States of the status topic.
const (
	StateOnline       State = "online"        // signal good, detector running
	StateOffline      State = "offline"       // daemon not connected (last will)
	StateSignalLost   State = "signal-lost"   // frames missing: gap, source error, reconnecting
	StateElectrodeOff State = "electrode-off" // lead-off, flat line or saturation on a channel
	StateArtifact     State = "artifact"      // muscle, eye or electrode artifact, or settling: windows are not scored, unless Scored
)

// Status is a change of the monitor's state.
type Status struct {
	State State
	Since time.Time
	// Reason says why, for logs and the JSON-lines output ("lead-off on
	// channel 3 T7-P7"); it is not part of the MQTT payload.
	Reason string
	// Artifact is the kind of artifact ("muscle", "eye", "electrode", or
	// "settling" for the first seconds after a start or a gap) when State
	// is StateArtifact, and Channels the channels it was found on (none
	// for settling), or in StateElectrodeOff those with a lead-off,
	// saturation or flat line; both are in the payload when set.
	Artifact string
	Channels []string
	// Scored, in StateElectrodeOff or StateArtifact, is how many channels
	// the windows are still scored on (a per-channel model leaves out the
	// channels named); 0: the windows are not scored. In the payload when
	// not 0.
	Scored int
}

// Score is one window's score.
type Score struct {
	T      time.Time // end of the window
	Offset time.Duration
	Score  float64
	// Usable is false when the window was gated by signal quality; its
	// score is then 0 and meaningless.
	Usable bool
}

// Sink receives what the pipeline produces. Its methods are called from
// the pipeline's goroutine and must not block on the network: a sink that
// publishes queues and returns. Alert is all a sink must do; it takes the
// rest by implementing EventEnder, StatusSink, ScoreSink or io.Closer,
// which the pipeline finds by type assertion once, when it is built.
type Sink interface {
	// Alert is called once when an event is detected. The sink must copy
	// what it keeps: e is reused.
	Alert(e *Event) error
}

// EventEnder is a Sink that wants to know when events end.
type EventEnder interface {
	// EventEnd is called once when the event ends (End set).
	EventEnd(e *Event) error
}

// StatusSink is a Sink that follows the monitor's state.
type StatusSink interface {
	// Status is called when the monitor's state changes.
	Status(s Status) error
}

// ScoreSink is a Sink that takes every window's score.
type ScoreSink interface {
	// Score is called for every window.
	Score(s Score) error
}

// Verdicts of clinician feedback on an alert.
const (
	VerdictConfirmed = "confirmed"
	VerdictRejected  = "rejected"
)

// Labels of clinician feedback on an interval.
const (
	LabelSeizure    = "seizure"
	LabelNonSeizure = "non-seizure"
)

// Label is a clinician's label fed back to the learner: a confirmed or
// rejected alert, or an interval they mark, as the feedback payload of the
// MQTT contract carries it (ParseFeedback). A recording's annotations do
// not travel as Labels: the pipeline reads them from the source
// (acquire.Labeled).
type Label struct {
	// AlertID, when set, names the alert the label is about; Start and End
	// are then filled in by the pipeline from the alert it raised.
	AlertID string
	// Start and End bound the labelled interval (wall-clock time).
	Start, End time.Time
	// Seizure is the label of the windows inside the interval.
	Seizure bool
	// From says where the label came from, for logs: "mqtt" for the
	// contract's feedback payload.
	From string
	// By names the clinician who gave the label, as the feedback payload's
	// optional "by" says (the ward board fills it in from its login); it
	// is echoed in the acknowledgement and the logs, not verified.
	By string
	// Sender is who sent the message as the transport knows it, when it
	// does: for MQTT, the user named by the topic level of
	// …/feedback/from/<user>, which the broker's ACL ties to the
	// authenticated user (empty on …/feedback, whose sender MQTT 3.1.1
	// does not tell a subscriber). It is echoed in the acknowledgement and
	// the logs and keys the per-sender rate limit.
	Sender string
}

// Ack is the daemon's answer to one feedback message, published on
// …/feedback/ack: which alert or interval it was about, whether its label
// was applied and to how many windows, or why it was refused.
type Ack struct {
	// AlertID is the verdict's alert, or empty for an interval label (or
	// for a message too malformed to say).
	AlertID string
	// Start and End bound an interval label; zero for a verdict.
	Start, End time.Time
	// Verdict is "confirmed" or "rejected" for a verdict; Label is
	// "seizure" or "non-seizure" for an interval.
	Verdict, Label string
	// By is the clinician named in the feedback; Sender the sender the
	// transport knows (Label.Sender).
	By, Sender string
	// Applied is true when the label was taken: its windows are learned
	// when it becomes final (FinalAt).
	Applied bool
	// Windows is how many buffered windows the label is learned on.
	Windows int
	// Replaced is how many of those windows an earlier label of the other
	// class had claimed while it was still within its grace period: the
	// later label replaces it there (Note says whose it was).
	Replaced int
	// FinalAt is when an applied label becomes final: its windows are
	// learned then, and a contradicting label is refused from then on.
	FinalAt time.Time
	// Reason says why a label was refused (or learned on nothing).
	Reason string
	// Note says more about an applied label: which earlier label it
	// replaced.
	Note string
	// At is when the daemon answered (its clock).
	At time.Time
}

// AckOf returns the acknowledgement of lab with its identifying fields
// filled in (Applied, Windows, Reason and At are the caller's).
func AckOf(lab Label) Ack {
	a := Ack{AlertID: lab.AlertID, By: lab.By, Sender: lab.Sender}
	switch {
	case lab.AlertID != "" && lab.Seizure:
		a.Verdict = VerdictConfirmed
	case lab.AlertID != "":
		a.Verdict = VerdictRejected
	case lab.Seizure:
		a.Start, a.End, a.Label = lab.Start, lab.End, LabelSeizure
	default:
		a.Start, a.End, a.Label = lab.Start, lab.End, LabelNonSeizure
	}
	return a
}

// AckSink is a Sink that publishes the acknowledgements of feedback.
type AckSink interface {
	// Ack is called once for every label the pipeline takes, applied or
	// refused.
	Ack(a Ack) error
}

// Evidence is the EEG behind an alert: the conditioned signals of the
// channels that drove it, from about EvidenceBefore before its onset to
// EvidenceAfter after its detection, published on …/evidence so that a
// clinician can judge the alert.
type Evidence struct {
	AlertID   string
	Site, Bed string
	// Onset and DetectedAt repeat the alert's.
	Onset, DetectedAt time.Time
	// Start is the time of the first sample; Rate the sampling rate in Hz.
	Start time.Time
	Rate  float64
	// Channels names the channels; Samples holds each channel's signal in
	// µV, all of the same length.
	Channels []string
	Samples  [][]float32
}

// EvidenceSink is a Sink that publishes alerts' evidence.
type EvidenceSink interface {
	// Evidence is called once per alert, EvidenceAfter after its
	// detection (or when the recording ends first). The sink must copy
	// what it keeps.
	Evidence(ev *Evidence) error
}
