// Package checkpoint stores the daemon's model checkpoints on disk so that a
// kill at any moment leaves the last good checkpoint loadable: a new
// checkpoint is written to a temporary file in the same directory, synced,
// renamed over the old one (atomic on POSIX file systems) and the directory
// is synced so the rename itself survives a power cut.
//
// Reading is bounded: Read and Load open only regular files (a symbolic
// link to one is followed), never a FIFO or a device such as /dev/zero
// that a link may point to, and read at most the bound the caller gives,
// so that whatever lies at a checkpoint's path the daemon neither blocks
// nor exhausts its memory before monitoring.
package checkpoint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
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

// ErrNotRegular is wrapped by the errors of Read and Load for a path that
// is not a regular file: a directory, a FIFO, a socket or a device (a
// symbolic link to /dev/zero, say).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the errors of Read and Load for a file longer
// than the bound the caller gave.
var ErrTooLarge = errors.New("file too large")

// Load returns the contents of the checkpoint at path, read as Read reads
// it, at most max bytes. A missing file gives an error wrapping
// fs.ErrNotExist (a first start, not a failure); one that is not a
// regular file or is longer than max, ErrNotRegular or ErrTooLarge.
func Load(path string, max int64) ([]byte, error) {
	b, err := Read(path, max)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	return b, nil
}

// Read returns the contents of the regular file at path, a symbolic link
// to one followed, when it holds at most max bytes. Anything else is
// refused without being read: a path that is not a regular file
// (ErrNotRegular) is not even opened, so that a FIFO cannot block and a
// device cannot stream without end; the file is opened non-blocking and
// checked again once open, in case it was replaced in between; a file
// longer than max (ErrTooLarge) is refused on its size, and one that grows
// past max while it is read is refused when it does. Errors name path.
func Read(path string, max int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := readable(path, fi, max); err != nil {
		return nil, err
	}
	// O_NONBLOCK: a FIFO put there since the Stat does not block the
	// open; O_NOCTTY: a terminal does not become the daemon's.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := readable(path, fi, max); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead) // room to see the end without growing
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(buf.Len()) > max {
		return nil, fmt.Errorf("%s: grew past %d bytes while it was read: %w", path, max, ErrTooLarge)
	}
	return buf.Bytes(), nil
}

// readable checks that fi, the file at path, is a regular file of at most
// max bytes.
func readable(path string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		what := "a " + kind(fi.Mode())
		if target, err := os.Readlink(path); err == nil {
			what += ", through a symbolic link to " + target
		}
		return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, what)
	}
	if fi.Size() > max {
		return fmt.Errorf("%s: %d bytes, more than the %d it may have: %w", path, fi.Size(), max, ErrTooLarge)
	}
	return nil
}

// kind names the type of a file that is not a regular one.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "file of type " + m.Type().String()
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
