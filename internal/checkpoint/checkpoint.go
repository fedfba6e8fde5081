// Package checkpoint stores the daemon's model checkpoints on disk so that a
// kill at any moment leaves the last good checkpoint loadable: a new
// checkpoint is written to a temporary file in the same directory, synced,
// renamed over the old one (atomic on POSIX file systems) and the directory
// is synced so the rename itself survives a power cut.
package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Save writes data to path atomically. On error the previous file at path,
// if any, is untouched and no temporary file is left behind.
func Save(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("checkpoint: writing %s: %w", tmp, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("checkpoint: syncing %s: %w", tmp, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("checkpoint: closing %s: %w", tmp, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err = syncDir(dir); err != nil {
		return fmt.Errorf("checkpoint: syncing directory %s: %w", dir, err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Load returns the contents of the checkpoint at path. A missing file gives
// an error wrapping fs.ErrNotExist (a first start, not a failure).
func Load(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	return b, nil
}

// SetAside moves a checkpoint that failed to load out of the way, to
// path.corrupt-<UTC time>, so the daemon can start fresh without
// destroying the evidence or crash-looping on it. It returns the new name.
func SetAside(path string, now time.Time) (string, error) {
	dst := path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
	if err := os.Rename(path, dst); err != nil {
		return "", fmt.Errorf("checkpoint: setting aside: %w", err)
	}
	return dst, syncDir(filepath.Dir(path))
}

// CleanTemp removes temporary files that a Save killed midway left in the
// checkpoint's directory, returning how many it removed.
func CleanTemp(path string) (int, error) {
	matches, err := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*"))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range matches {
		if os.Remove(m) == nil {
			n++
		}
	}
	return n, nil
}
