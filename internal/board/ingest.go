package board

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ictal/ictal/alert"
)

// forwarded is an MQTT message as the browsers receive it: the payload
// the board checked, with where it came from.
type forwarded struct {
	Kind    string          `json:"kind"`
	Topic   string          `json:"topic"`
	Site    string          `json:"site"`
	Bed     string          `json:"bed"`
	Payload json.RawMessage `json:"payload"`
}

// ingest checks one MQTT message and, if it follows the contract, applies
// it to the ward and forwards it to the browsers. Anything else is dropped
// with a log line; ingest never panics on input.
func (s *Server) ingest(topic string, payload []byte, now time.Time) {
	bed, kind, ok := parseTopic(s.cfg.Site, topic)
	if !ok {
		s.log.Warn("board: message dropped: topic outside the contract", slog.String("topic", quoteCut(topic, 200)))
		return
	}
	p := append(json.RawMessage(nil), payload...)
	if err := s.apply(bed, kind, p, now); err != nil {
		s.log.Warn("board: message dropped", slog.String("topic", topic), slog.Int("bytes", len(payload)),
			slog.String("error", err.Error()))
		return
	}
}

// apply validates a payload of the given kind and updates the ward.
func (s *Server) apply(bedName, kind string, p json.RawMessage, now time.Time) error {
	var update func(w *ward) bool // run under the ward's lock; false: nothing to forward
	switch kind {
	case kindAlert:
		m, err := alert.ParseAlert(p)
		if err != nil {
			return err
		}
		if m.Site != s.cfg.Site || m.Bed != bedName {
			return fmt.Errorf(`fields "site" and "bed" (%q, %q) differ from the topic's (%q, %q)`, m.Site, m.Bed, s.cfg.Site, bedName)
		}
		update = s.alertUpdate(m, bedName, p, now)
	case kindEnd:
		m, err := alert.ParseEventEnd(p)
		if err != nil {
			return err
		}
		update = func(w *ward) bool {
			if e := w.entryLocked(m.ID, bedName, false, now); e != nil {
				e.End = p
			}
			return true
		}
	case kindStatus:
		if _, err := alert.ParseStatus(p); err != nil {
			return err
		}
		update = func(w *ward) bool { w.bedLocked(bedName).Status = p; return true }
	case kindScore:
		m, err := alert.ParseScore(p)
		if err != nil {
			return err
		}
		update = func(w *ward) bool { w.bedLocked(bedName).addScore(m.T, m.Score); return true }
	case kindEvidence:
		ev, err := alert.ParseEvidence(p)
		if err != nil {
			return err
		}
		update = func(w *ward) bool {
			e := w.entryLocked(ev.AlertID, bedName, true, now)
			e.evidence, e.HasEvidence = p, true
			return true
		}
	case kindFeedback:
		lab, err := alert.ParseFeedback(p, now)
		if err != nil {
			return err
		}
		update = func(w *ward) bool {
			if e := w.entryLocked(lab.AlertID, bedName, false, now); e != nil && lab.AlertID != "" {
				e.Feedback = appendBounded(e.Feedback, p)
			}
			return true
		}
	case kindAck:
		a, err := alert.ParseAck(p)
		if err != nil {
			return err
		}
		s.auditAck(bedName, a)
		update = ackUpdate(strings.ToLower(a.AlertID), bedName, p, now)
	}
	ev, _ := json.Marshal(forwarded{Kind: kind, Topic: "ictal/" + s.cfg.Site + "/" + bedName + "/" + kind,
		Site: s.cfg.Site, Bed: bedName, Payload: p})
	s.ward.mu.Lock()
	defer s.ward.mu.Unlock()
	if s.ward.beds[bedName] == nil && len(s.ward.beds) >= maxBeds {
		return fmt.Errorf("bed %q would be one more than the %d beds a board shows", bedName, maxBeds)
	}
	if update(s.ward) {
		s.ward.hub.broadcast(ev)
	}
	return nil
}

// alertUpdate lists a new alert; a repeat (QoS 1 may deliver an alert
// twice) changes nothing and is not forwarded.
func (s *Server) alertUpdate(m *alert.Event, bedName string, p json.RawMessage, now time.Time) func(*ward) bool {
	return func(w *ward) bool {
		e := w.entryLocked(m.ID, bedName, true, now)
		if e.Alert != nil {
			s.log.Info("board: repeated alert dropped", slog.String("alert_id", m.ID))
			return false
		}
		e.Alert = p
		t := m.DetectedAt
		if b := w.bedLocked(bedName); b.LastAlert == nil || t.After(*b.LastAlert) {
			b.LastAlert = &t
		}
		return true
	}
}

// ackUpdate files a daemon's acknowledgement with its alert, or with the
// bed for an interval label.
func ackUpdate(id, bedName string, p json.RawMessage, now time.Time) func(*ward) bool {
	return func(w *ward) bool {
		if e := w.entryLocked(id, bedName, false, now); e != nil && id != "" {
			e.Acks = appendBounded(e.Acks, p)
		} else {
			w.bedLocked(bedName).LastAck = p
		}
		return true
	}
}

// auditAck writes a daemon's acknowledgement to the audit log.
func (s *Server) auditAck(bedName string, a alert.Ack) {
	status := alert.AckRefused
	if a.Applied {
		status = alert.AckApplied
	}
	r := auditRecord{Who: a.By, Action: "ack", Site: s.cfg.Site, Bed: bedName, AlertID: a.AlertID,
		Verdict: a.Verdict, Label: a.Label, Status: status, Windows: &a.Windows, Reason: a.Reason, Note: a.Note}
	if a.Label != "" {
		r.Start, r.End = a.Start.UTC().Format(time.RFC3339), a.End.UTC().Format(time.RFC3339)
	}
	if err := s.audit.write(r); err != nil {
		s.log.Error("board: audit", slog.String("error", err.Error()))
	}
}

// quoteCut returns at most n bytes of s (for logs).
func quoteCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
