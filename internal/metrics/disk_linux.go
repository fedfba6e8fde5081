package metrics

import (
	"time"

	"golang.org/x/sys/unix"
)

// freeBytes returns the bytes an unprivileged process may still write on
// the file system of dir (statfs(2)'s f_bavail blocks).
func freeBytes(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}

// seconds is t as Unix time in seconds.
func seconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }
