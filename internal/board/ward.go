package board

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"
)

// scoreWindow is how much score trace a bed keeps, measured back from its
// newest score's time; maxScorePoints bounds it whatever the rate.
const (
	scoreWindow    = 10 * time.Minute
	maxScorePoints = 1200
)

// scorePoint is one score, marshalled as [unix ms, score].
type scorePoint struct {
	T int64
	S float64
}

// MarshalJSON writes the point as a two-element array.
func (p scorePoint) MarshalJSON() ([]byte, error) { return json.Marshal([2]any{p.T, p.S}) }

// bed is what the board knows of one bed.
type bed struct {
	Bed       string          `json:"bed"`
	Status    json.RawMessage `json:"status,omitempty"`
	Scores    []scorePoint    `json:"scores"`
	LastAlert *time.Time      `json:"last_alert,omitempty"`
	LastAck   json.RawMessage `json:"last_ack,omitempty"` // of an interval label
}

// entry is one alert of the list with what arrived about it.
type entry struct {
	ID          string            `json:"id"`
	Bed         string            `json:"bed"`
	Alert       json.RawMessage   `json:"alert,omitempty"`
	End         json.RawMessage   `json:"end,omitempty"`
	HasEvidence bool              `json:"has_evidence"`
	Feedback    []json.RawMessage `json:"feedback,omitempty"`
	Acks        []json.RawMessage `json:"acks,omitempty"`
	AckedBy     string            `json:"acked_by,omitempty"`
	AckedAt     *time.Time        `json:"acked_at,omitempty"`
	Received    time.Time         `json:"received"`
	evidence    json.RawMessage
}

// maxPerAlert bounds the feedback and acknowledgements kept per alert.
const maxPerAlert = 20

// maxBeds bounds the beds a board shows: a message that would add one
// more is dropped. A ward has tens; the bound keeps a broker that lets
// anybody publish under the site from growing the board without end.
const maxBeds = 256

// ward is the board's state: beds and the alert list. Every change is
// broadcast to the hub under the same lock, so a snapshot plus the events
// after it is always the whole story.
type ward struct {
	mu     sync.Mutex
	site   string
	max    int
	beds   map[string]*bed
	alerts []*entry // arrival order, oldest first
	byID   map[string]*entry
	hub    *hub
}

func newWard(site string, max int) *ward {
	return &ward{site: site, max: max, beds: make(map[string]*bed), byID: make(map[string]*entry), hub: newHub()}
}

// bedLocked returns the bed, creating it.
func (w *ward) bedLocked(name string) *bed {
	b := w.beds[name]
	if b == nil {
		b = &bed{Bed: name, Scores: []scorePoint{}}
		w.beds[name] = b
	}
	return b
}

// entryLocked returns the alert entry of id, creating it when create is
// set (nil otherwise), and trims the list to its bound.
func (w *ward) entryLocked(id, bedName string, create bool, now time.Time) *entry {
	if e := w.byID[id]; e != nil || !create {
		return e
	}
	e := &entry{ID: id, Bed: bedName, Received: now}
	w.alerts = append(w.alerts, e)
	w.byID[id] = e
	if len(w.alerts) > w.max {
		old := w.alerts[0]
		delete(w.byID, old.ID)
		w.alerts = slices.Delete(w.alerts, 0, 1)
	}
	return e
}

// addScore appends a score and drops points older than scoreWindow.
func (b *bed) addScore(t time.Time, s float64) {
	ms := t.UnixMilli()
	b.Scores = append(b.Scores, scorePoint{ms, s})
	cut := ms - scoreWindow.Milliseconds()
	i := 0
	for i < len(b.Scores) && (b.Scores[i].T < cut || len(b.Scores)-i > maxScorePoints) {
		i++
	}
	if i > 0 {
		b.Scores = slices.Delete(b.Scores, 0, i)
	}
}

// appendBounded appends v to s, keeping the last maxPerAlert.
func appendBounded(s []json.RawMessage, v json.RawMessage) []json.RawMessage {
	s = append(s, v)
	if len(s) > maxPerAlert {
		s = slices.Delete(s, 0, len(s)-maxPerAlert)
	}
	return s
}

// snapshot is the whole state, sent to a browser when it connects.
type snapshot struct {
	Kind      string   `json:"kind"` // "snapshot"
	Site      string   `json:"site"`
	User      string   `json:"user"`
	Connected bool     `json:"connected"`
	Beds      []*bed   `json:"beds"`
	Alerts    []*entry `json:"alerts"` // newest first
}

// snapshotLocked returns the state as JSON.
func (w *ward) snapshotLocked(user string, connected bool) []byte {
	s := snapshot{Kind: "snapshot", Site: w.site, User: user, Connected: connected, Beds: []*bed{}, Alerts: []*entry{}}
	for _, b := range w.beds {
		s.Beds = append(s.Beds, b)
	}
	slices.SortFunc(s.Beds, func(a, b *bed) int { return strings.Compare(a.Bed, b.Bed) })
	for i := len(w.alerts) - 1; i >= 0; i-- {
		s.Alerts = append(s.Alerts, w.alerts[i])
	}
	b, _ := json.Marshal(s) // only marshallable types
	return b
}

// subscribe registers a browser stream and returns it with the snapshot
// it starts from.
func (w *ward) subscribe(session, user string, connected bool) (*stream, []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hub.add(session), w.snapshotLocked(user, connected)
}

// evidence returns the evidence payload of an alert, or nil.
func (w *ward) evidence(id string) json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.byID[strings.ToLower(id)]; e != nil {
		return e.evidence
	}
	return nil
}

// alertBed returns the bed of a known alert.
func (w *ward) alertBed(id string) (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.byID[strings.ToLower(id)]; e != nil {
		return e.Bed, true
	}
	return "", false
}

// acknowledged is the board's event for a silenced alert.
type acknowledged struct {
	Kind    string    `json:"kind"` // "acknowledged"
	AlertID string    `json:"alert_id"`
	Bed     string    `json:"bed"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// acknowledgedBy returns who acknowledged alert id, "" if nobody has (or
// the board does not list it).
func (w *ward) acknowledgedBy(id string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.byID[strings.ToLower(id)]; e != nil && e.AckedAt != nil {
		return e.AckedBy
	}
	return ""
}

// acknowledge silences an alert's ringing; it reports the bed, false for
// an unknown alert. A second acknowledgement keeps the first's name.
func (w *ward) acknowledge(id, by string, at time.Time) (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.byID[strings.ToLower(id)]
	if e == nil {
		return "", false
	}
	if e.AckedAt == nil {
		e.AckedBy, e.AckedAt = by, &at
	}
	b, _ := json.Marshal(acknowledged{Kind: "acknowledged", AlertID: e.ID, Bed: e.Bed, By: e.AckedBy, At: *e.AckedAt})
	w.hub.broadcast(b)
	return e.Bed, true
}

// setConnected tells the browsers whether the board reaches the broker.
func (w *ward) setConnected(c bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	b, _ := json.Marshal(struct {
		Kind      string `json:"kind"`
		Connected bool   `json:"connected"`
	}{"connection", c})
	w.hub.broadcast(b)
}
