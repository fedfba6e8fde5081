package mqtt

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/ictal/ictal/internal/journal"
)

// msgLost is the message of a lost message's CRIT record.
const msgLost = "mqtt: message lost: neither delivered nor stored"

// logLost logs, at journal.LevelCritical, a message lost for good (why
// says how): an alert's or an event end's topic and whole payload, so that
// the journal keeps each lost alert, in full, when the broker never got
// it and the disk is full; an evidence's topic, alert ID and size (its
// EEG, up to 1 MiB, would be cut into pieces by journald's LineMax, and
// the recording holds the signal). Other messages (status, feedback
// acknowledgements) are counted by their caller's ERROR line alone.
func logLost(log *slog.Logger, topic string, payload []byte, evidence bool, why string) {
	if evidence {
		var ev struct {
			AlertID string `json:"alert_id"`
		}
		json.Unmarshal(payload, &ev) // a payload this process encoded; "" if not
		log.Log(context.Background(), journal.LevelCritical, msgLost, slog.String("why", why), slog.String("topic", topic),
			slog.String("alert_id", ev.AlertID), slog.Int("bytes", len(payload)))
		return
	}
	log.Log(context.Background(), journal.LevelCritical, msgLost, slog.String("why", why), slog.String("topic", topic),
		slog.String("payload", string(payload)))
}
