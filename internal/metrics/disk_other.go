//go:build !linux

package metrics

import (
	"errors"
	"time"
)

// freeBytes is not implemented off Linux: ictald's boards run Linux, and
// ictal_disk_free_bytes is left out elsewhere.
func freeBytes(string) (uint64, error) {
	return 0, errors.New("metrics: free space: not on this system")
}

// seconds is t as Unix time in seconds.
func seconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }
