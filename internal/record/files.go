package record

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ictal/ictal/acquire/edf"
)

// stored is a finished recording in the directory.
type stored struct {
	path string
	size int64
}

// nameRE matches the names of recordings: site_bed_start[-n].edf|bdf.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9.-]+_[A-Za-z0-9.-]+_(\d{8}T\d{6}Z)(-\d+)?\.(edf|bdf)$`)

// IsRecording reports whether name (a base name) is that of a recording.
func IsRecording(name string) bool { return nameRE.MatchString(name) }

// scan lists the recordings in dir, oldest first (by the start time in
// their names), repairing those a killed daemon left inconsistent.
func scan(dir string, log *slog.Logger, st *Stats) ([]stored, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []stored
	for _, e := range ents {
		if !e.Type().IsRegular() || !IsRecording(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		size, err := repairFile(p, log)
		if err != nil {
			log.Warn("recording: cannot repair; left as it is", slog.String("path", p), slog.Any("err", err))
		} else if size < 0 {
			st.Repaired++
			size = -size
		}
		files = append(files, stored{p, size})
	}
	sort.Slice(files, func(i, j int) bool { return olderFirst(files[i].path, files[j].path) })
	return files, nil
}

// repairFile repairs the recording at p if it needs it and returns its
// size, negated when it was repaired.
func repairFile(p string, log *slog.Logger) (int64, error) {
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	rep, err := edf.Repair(f, fi.Size())
	if err != nil {
		return fi.Size(), err
	}
	if !rep.Changed() {
		return fi.Size(), nil
	}
	log.Info("recording repaired", slog.String("path", p), slog.Int64("records", rep.Records),
		slog.Int64("header_said", rep.Declared), slog.Int64("cut_bytes", rep.Dropped))
	return -(fi.Size() - rep.Dropped), f.Sync()
}

// makeRoom deletes the oldest recordings until the file about to start
// fits the quota with them, and says so in the log.
func (r *Recorder) makeRoom() {
	q := r.cfg.Quota
	if q == 0 {
		return
	}
	var used int64
	for _, f := range r.files {
		used += f.size
	}
	for len(r.files) > 0 && used+r.need > q {
		old := r.files[0]
		err := os.Remove(old.path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			r.log.Error("recording: cannot delete an old recording to keep the quota", slog.String("path", old.path), slog.Any("err", err))
			return
		}
		r.files = r.files[1:]
		used -= old.size
		r.stats.Deleted++
		r.log.Info("recording deleted to keep the quota", slog.String("path", old.path), slog.Int64("bytes", old.size),
			slog.Int64("quota", q), slog.Int64("kept_bytes", used))
	}
	if used+r.need > q && !r.quotaWarn {
		r.quotaWarn = true
		r.log.Warn("record.quota is smaller than one file; keeping only the file in progress", slog.Int64("quota", q),
			slog.Int64("file_bytes", r.need), slog.String("rotate", r.cfg.Rotate.String()))
	}
}

// Recordings lists the recordings in dir, oldest first, without changing
// them.
func Recordings(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && IsRecording(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Slice(out, func(i, j int) bool { return olderFirst(out[i], out[j]) })
	return out, nil
}

// olderFirst orders recordings by the start time in their names, then by
// their number (a second file started in the same second is "-2"), then
// by name.
func olderFirst(a, b string) bool {
	ma, mb := nameRE.FindStringSubmatch(filepath.Base(a)), nameRE.FindStringSubmatch(filepath.Base(b))
	if ma[1] != mb[1] {
		return ma[1] < mb[1]
	}
	na, _ := strconv.Atoi(strings.TrimPrefix(ma[2], "-"))
	nb, _ := strconv.Atoi(strings.TrimPrefix(mb[2], "-"))
	if na != nb {
		return na < nb
	}
	return a < b
}
