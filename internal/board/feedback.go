package board

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ictal/ictal/alert"
)

// publishTimeout bounds the wait for the broker's acknowledgement of a
// feedback message.
const publishTimeout = 10 * time.Second

// errUnknownAlert is returned by feedbackPayload for an alert the board
// has not seen.
var errUnknownAlert = errors.New("unknown alert")

// feedbackPayload builds the feedback payload of a /feedback form, signed
// with by, and checks it with alert.ParseFeedback as the daemon will. The
// form holds either alert_id and verdict (confirmed or rejected; the bed
// is the alert's, found with bedOf) or bed, start, end (RFC 3339) and
// label (seizure or non-seizure). It returns the bed and the payload.
func feedbackPayload(form url.Values, by string, now time.Time, bedOf func(id string) (string, bool)) (string, []byte, error) {
	one := func(k string) string {
		if vs := form[k]; len(vs) == 1 {
			return vs[0]
		}
		return ""
	}
	for _, k := range []string{"alert_id", "verdict", "bed", "start", "end", "label"} {
		if len(form[k]) > 1 {
			return "", nil, fmt.Errorf("field %q given %d times", k, len(form[k]))
		}
	}
	id, verdict, bedName := one("alert_id"), one("verdict"), one("bed")
	p := []byte(`{"v":1`)
	switch {
	case id != "" && (bedName != "" || one("start") != "" || one("end") != "" || one("label") != ""):
		return "", nil, errors.New("give either alert_id and verdict, or bed, start, end and label")
	case id != "":
		if verdict != alert.VerdictConfirmed && verdict != alert.VerdictRejected {
			return "", nil, fmt.Errorf(`field "verdict": %q, want confirmed or rejected`, quoteCut(verdict, 40))
		}
		if !alert.ValidID(id) {
			return "", nil, fmt.Errorf(`field "alert_id": %q is not a UUID`, quoteCut(id, 40))
		}
		var ok bool
		if bedName, ok = bedOf(strings.ToLower(id)); !ok {
			return "", nil, errUnknownAlert
		}
		p = append(p, `,"alert_id":`...)
		p = alert.AppendJSONString(p, strings.ToLower(id))
		p = append(p, `,"verdict":`...)
		p = alert.AppendJSONString(p, verdict)
	default:
		if verdict != "" {
			return "", nil, errors.New(`field "verdict" without "alert_id"`)
		}
		if !validIdent(bedName) {
			return "", nil, fmt.Errorf(`field "bed": %q is not a bed name`, quoteCut(bedName, 40))
		}
		start, err1 := time.Parse(time.RFC3339Nano, one("start"))
		end, err2 := time.Parse(time.RFC3339Nano, one("end"))
		if err1 != nil || err2 != nil {
			return "", nil, errors.New(`fields "start" and "end" must be RFC 3339 times`)
		}
		p = append(p, `,"start":`...)
		p = alert.AppendJSONString(p, start.UTC().Format(time.RFC3339Nano))
		p = append(p, `,"end":`...)
		p = alert.AppendJSONString(p, end.UTC().Format(time.RFC3339Nano))
		p = append(p, `,"label":`...)
		p = alert.AppendJSONString(p, one("label"))
	}
	p = append(p, `,"by":`...)
	p = alert.AppendJSONString(p, by)
	p = append(p, '}')
	if _, err := alert.ParseFeedback(p, now); err != nil {
		return "", nil, err
	}
	return bedName, p, nil
}

// feedback publishes a clinician's verdict or interval label (QoS 1) on
// the bed's …/feedback topic, signed with the session's user.
func (s *Server) feedback(w http.ResponseWriter, r *http.Request, ss *session) {
	now := time.Now()
	bedName, p, err := feedbackPayload(r.PostForm, ss.user, now, s.ward.alertBed)
	if errors.Is(err, errUnknownAlert) {
		httpError(w, http.StatusNotFound, "alert "+r.PostForm.Get("alert_id")+" is not on this board")
		return
	}
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	lab, _ := alert.ParseFeedback(p, now) // checked by feedbackPayload
	rec := auditRecord{Who: ss.user, Action: "feedback", From: remoteIP(r), Site: s.cfg.Site, Bed: bedName, AlertID: lab.AlertID}
	ack := alert.AckOf(lab)
	rec.Verdict, rec.Label = ack.Verdict, ack.Label
	if lab.AlertID == "" {
		rec.Start, rec.End = lab.Start.UTC().Format(time.RFC3339), lab.End.UTC().Format(time.RFC3339)
	}
	if !s.auditOrFail(w, rec) {
		return
	}
	topic := "ictal/" + s.cfg.Site + "/" + bedName + "/feedback"
	if u := s.cfg.MQTT.Username; u != "" {
		// Under the board's own MQTT name, which the broker's ACL lets
		// nobody else use: the monitor then knows the feedback came
		// through this board, and "by" says which clinician sent it.
		topic += "/from/" + u
	}
	if code, err := s.publish(topic, p); err != nil {
		rec.Action, rec.Reason = "feedback-failed", err.Error()
		s.audit.write(rec)
		s.log.Warn("board: feedback not published", slog.String("topic", topic), slog.String("error", err.Error()))
		httpError(w, code, err.Error())
		return
	}
	s.log.Info("board: feedback published", slog.String("topic", topic), slog.String("by", ss.user))
	if lab.AlertID != "" {
		s.silence(r, ss, bedName, lab.AlertID)
	}
	writeJSON(w, struct {
		Topic   string `json:"topic"`
		Payload string `json:"payload"`
	}{topic, string(p)})
}

// publish sends p with QoS 1 and waits for the broker's acknowledgement;
// on failure it returns the HTTP status to answer.
func (s *Server) publish(topic string, p []byte) (int, error) {
	if s.client == nil || !s.conn.Load() {
		return http.StatusServiceUnavailable, errors.New("not connected to the MQTT broker")
	}
	tok := s.client.Publish(topic, 1, false, p)
	if !tok.WaitTimeout(publishTimeout) {
		return http.StatusGatewayTimeout, fmt.Errorf("publish %s: no acknowledgement from the broker within %v", topic, publishTimeout)
	}
	if err := tok.Error(); err != nil {
		return http.StatusBadGateway, fmt.Errorf("publish %s: %w", topic, err)
	}
	return http.StatusOK, nil
}

// silence acknowledges an alert whose verdict ss's clinician has just
// sent, unless someone has already: whoever judged it has seen it, so it
// stops ringing on every screen, as Acknowledge would have made it. The
// acknowledgement is audited first (its reason says it came with the
// verdict); if the audit log cannot take it, the alert keeps ringing and
// the error is logged (the verdict itself is sent and audited).
func (s *Server) silence(r *http.Request, ss *session, bedName, id string) {
	if s.ward.acknowledgedBy(id) != "" {
		return
	}
	rec := auditRecord{Who: ss.user, Action: "acknowledge", From: remoteIP(r), Site: s.cfg.Site, Bed: bedName, AlertID: id, Reason: "with the verdict"}
	if err := s.audit.write(rec); err != nil {
		s.log.Error("board: audit", slog.String("error", err.Error()))
		return
	}
	s.ward.acknowledge(id, ss.user, time.Now().UTC())
}

// acknowledgeAlert silences an alert's ringing on every screen (form
// field alert_id) and writes who did it to the audit log.
func (s *Server) acknowledgeAlert(w http.ResponseWriter, r *http.Request, ss *session) {
	id := strings.ToLower(r.PostForm.Get("alert_id"))
	bedName, ok := s.ward.alertBed(id)
	if !alert.ValidID(id) || !ok {
		httpError(w, http.StatusNotFound, "alert "+quoteCut(id, 40)+" is not on this board")
		return
	}
	if !s.auditOrFail(w, auditRecord{Who: ss.user, Action: "acknowledge", From: remoteIP(r), Site: s.cfg.Site, Bed: bedName, AlertID: id}) {
		return
	}
	s.ward.acknowledge(id, ss.user, time.Now().UTC())
	w.WriteHeader(http.StatusNoContent)
}
