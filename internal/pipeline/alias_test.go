package pipeline

import "github.com/ictal/ictal/alert"

type (
	alertEvent  = alert.Event
	alertStatus = alert.Status
	alertScore  = alert.Score
	alertEvid   = alert.Evidence
	alertSink   = alert.Sink
	alertRule   = alert.DetectorConfig
)

func alertK(k int) alert.DetectorConfig { return alert.DetectorConfig{K: k, N: 4} }
