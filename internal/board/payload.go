package board

import (
	"strings"
)

// Message kinds: the last level(s) of the topic.
const (
	kindAlert    = "alert"
	kindEnd      = "end"
	kindStatus   = "status"
	kindScore    = "score"
	kindEvidence = "evidence"
	kindFeedback = "feedback"
	kindAck      = "feedback/ack"
)

// parseTopic splits ictal/<site>/<bed>/<kind> for the board's site; ok is
// false for another site, a bed that is not a sane identifier, or a kind
// outside the contract. Feedback on …/feedback/from/<user> has the kind
// feedback.
func parseTopic(site, topic string) (bed, kind string, ok bool) {
	rest, found := strings.CutPrefix(topic, "ictal/"+site+"/")
	if !found {
		return "", "", false
	}
	bed, kind, found = strings.Cut(rest, "/")
	if !found || !validIdent(bed) {
		return "", "", false
	}
	switch kind {
	case kindAlert, kindEnd, kindStatus, kindScore, kindEvidence, kindFeedback, kindAck:
		return bed, kind, true
	}
	// Feedback sent under the sender's MQTT name (…/feedback/from/<user>)
	// is feedback like any other.
	if user, found := strings.CutPrefix(kind, kindFeedback+"/from/"); found && validIdent(user) {
		return bed, kindFeedback, true
	}
	return "", "", false
}
