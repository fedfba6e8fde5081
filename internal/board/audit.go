package board

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"
)

// auditRecord is one line of the audit log. Fields that do not apply are
// left out.
type auditRecord struct {
	At      time.Time `json:"at"`
	Who     string    `json:"who,omitempty"`
	Action  string    `json:"action"` // login, login-failed, logout, acknowledge, feedback, ack
	From    string    `json:"from,omitempty"`
	Site    string    `json:"site,omitempty"`
	Bed     string    `json:"bed,omitempty"`
	AlertID string    `json:"alert_id,omitempty"`
	Verdict string    `json:"verdict,omitempty"`
	Label   string    `json:"label,omitempty"`
	Start   string    `json:"start,omitempty"`
	End     string    `json:"end,omitempty"`
	Status  string    `json:"status,omitempty"` // ack: applied or refused
	Windows *int      `json:"windows,omitempty"`
	Reason  string    `json:"reason,omitempty"`
	Note    string    `json:"note,omitempty"` // ack: what the label replaced or teaches
}

// auditLog appends records to a file, one JSON object a line, and fsyncs
// each before returning.
type auditLog struct {
	mu sync.Mutex
	f  *os.File
}

// openAudit opens (creating, mode 0600) the audit log for appending.
func openAudit(path string) (*auditLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("board: audit log: %w", err)
	}
	return &auditLog{f: f}, nil
}

// write appends r and syncs the file.
func (a *auditLog) write(r auditRecord) error {
	if r.At.IsZero() {
		r.At = time.Now().UTC()
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("board: audit record: %w", err)
	}
	b = append(b, '\n')
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.f.Write(b); err != nil {
		return fmt.Errorf("board: audit log %s: %w", a.f.Name(), err)
	}
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("board: audit log %s: sync: %w", a.f.Name(), err)
	}
	return nil
}

func (a *auditLog) close() error { return a.f.Close() }
