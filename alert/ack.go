package alert

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Acknowledgement status values.
const (
	AckApplied = "applied"
	AckRefused = "refused"
)

// MaxAckSize bounds an acknowledgement payload accepted by ParseAck.
const MaxAckSize = 8 << 10

// ErrAck is wrapped by every error of ParseAck.
var ErrAck = errors.New("alert: invalid acknowledgement")

// AppendAck appends the acknowledgement payload of the MQTT contract:
//
//	{"v":1,"status":"applied"|"refused","alert_id","verdict"} (a verdict)
//	{"v":1,"status":…,"start","end","label"}                    (an interval)
//
// followed by "by" when the feedback named a clinician, "sender" when the
// transport knew who sent it, "windows" (how many windows the label is
// learned on), "replaced" (how many of them it took from an earlier label
// still within its grace period) and "final_at" (when the label becomes
// final) for an applied label that has them, "reason" or "note" when
// there is one, and "at". A refusal of a message too malformed to say what it was about has
// neither alert_id nor interval.
func AppendAck(dst []byte, a Ack) []byte {
	dst = append(dst, `{"v":1,"status":`...)
	if a.Applied {
		dst = AppendJSONString(dst, AckApplied)
	} else {
		dst = AppendJSONString(dst, AckRefused)
	}
	dst = appendNonEmpty(dst, `,"alert_id":`, a.AlertID)
	dst = appendNonEmpty(dst, `,"verdict":`, a.Verdict)
	if a.Label != "" {
		dst = appendTime(dst, `,"start":`, a.Start)
		dst = appendTime(dst, `,"end":`, a.End)
		dst = append(dst, `,"label":`...)
		dst = AppendJSONString(dst, a.Label)
	}
	dst = appendNonEmpty(dst, `,"by":`, a.By)
	dst = appendNonEmpty(dst, `,"sender":`, a.Sender)
	dst = append(dst, `,"windows":`...)
	dst = strconv.AppendInt(dst, int64(a.Windows), 10)
	if a.Replaced != 0 {
		dst = append(dst, `,"replaced":`...)
		dst = strconv.AppendInt(dst, int64(a.Replaced), 10)
	}
	if !a.FinalAt.IsZero() {
		dst = appendTime(dst, `,"final_at":`, a.FinalAt)
	}
	dst = appendNonEmpty(dst, `,"reason":`, a.Reason)
	dst = appendNonEmpty(dst, `,"note":`, a.Note)
	dst = appendTime(dst, `,"at":`, a.At)
	return append(dst, '}')
}

// ParseAck reads an acknowledgement payload: at most MaxAckSize bytes,
// one JSON object with only the contract's fields, "v" 1 and a known
// status. Errors wrap ErrAck.
func ParseAck(b []byte) (Ack, error) {
	var w struct {
		V        int       `json:"v"`
		Status   string    `json:"status"`
		AlertID  string    `json:"alert_id"`
		Verdict  string    `json:"verdict"`
		Start    time.Time `json:"start"`
		End      time.Time `json:"end"`
		Label    string    `json:"label"`
		By       string    `json:"by"`
		Sender   string    `json:"sender"`
		Windows  int       `json:"windows"`
		Replaced int       `json:"replaced"`
		FinalAt  time.Time `json:"final_at"`
		Reason   string    `json:"reason"`
		Note     string    `json:"note"`
		At       time.Time `json:"at"`
	}
	if err := decodeStrict(b, MaxAckSize, &w); err != nil {
		return Ack{}, fmt.Errorf("%w: %v", ErrAck, err)
	}
	if w.V != 1 {
		return Ack{}, fmt.Errorf(`%w: field "v" is %d, want 1`, ErrAck, w.V)
	}
	if w.Status != AckApplied && w.Status != AckRefused {
		return Ack{}, fmt.Errorf(`%w: field "status": %q, want "applied" or "refused"`, ErrAck, w.Status)
	}
	if w.Windows < 0 {
		return Ack{}, fmt.Errorf(`%w: field "windows" is %d`, ErrAck, w.Windows)
	}
	if w.Replaced < 0 || w.Replaced > w.Windows {
		return Ack{}, fmt.Errorf(`%w: field "replaced" is %d, want 0 to "windows" (%d)`, ErrAck, w.Replaced, w.Windows)
	}
	return Ack{AlertID: w.AlertID, Verdict: w.Verdict, Start: w.Start, End: w.End, Label: w.Label, By: w.By, Sender: w.Sender,
		Applied: w.Status == AckApplied, Windows: w.Windows, Replaced: w.Replaced, FinalAt: w.FinalAt,
		Reason: w.Reason, Note: w.Note, At: w.At}, nil
}
