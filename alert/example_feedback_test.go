package alert_test

import (
	"fmt"
	"time"

	"github.com/ictal/ictal/alert"
)

func ExampleParseFeedback() {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	lab, err := alert.ParseFeedback([]byte(`{"v":1,"start":"2026-11-21T09:30:00Z","end":"2026-11-21T09:31:30Z","label":"seizure"}`), now)
	fmt.Println(lab.Start.Format(time.Kitchen), lab.End.Sub(lab.Start), lab.Seizure, err)

	_, err = alert.ParseFeedback([]byte(`{"v":1,"alert_id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","verdict":"confirmed","note":"dr x"}`), now)
	fmt.Println(err)
	// Output:
	// 9:30AM 1m30s true <nil>
	// alert: invalid feedback: byte 78: unknown field "note"
}
