package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/checkpoint"
	"github.com/ictal/ictal/internal/dayone"
	"github.com/ictal/ictal/internal/modelfile"
)

// LoadModel returns the model the daemon starts with, for the pipeline
// that want describes (modelfile.Describe; cfg.Features is its
// dimension):
//
//  1. the checkpoint at ckpt, if it exists and is good;
//  2. else the trained model at bootstrap (`ictal train`), if set;
//  3. else the day-one model (internal/dayone), when it fits the
//     configured features: a per-channel model that serves any montage;
//  4. else a new, untrained model from cfg.
//
// A checkpoint that does not load (truncated, corrupt), is not a regular
// file (a FIFO, a link to /dev/zero: never opened for reading) or is
// larger than any model makes (modelfile.MaxSize: never read), or does
// not fit (modelfile.Meta.Check: the montage, features or conditioning
// changed) is reported, set aside as ckpt.corrupt-<time>, and the daemon
// starts from 2 or 3 instead of crash-looping, blocking or running out of
// memory on it. A bootstrap model that does
// not load or fit is an error naming the differences: it was configured
// explicitly. A file written before models carried their metadata loads
// with its dimension checked and a warning; the next checkpoint rewrites
// it in the modelfile format (the migration).
//
// The Meta returned is what the daemon's checkpoints record: want, with
// the training recordings of the file the model came from.
func LoadModel(ckpt, bootstrap string, cfg classifier.Config, want modelfile.Meta, log *slog.Logger) (classifier.Model, modelfile.Meta, string, error) {
	if ckpt != "" {
		m, meta, ok, err := loadCheckpoint(ckpt, want, log)
		if err != nil {
			return nil, modelfile.Meta{}, "", err
		}
		if ok {
			return m, withHistory(want, meta), "checkpoint " + ckpt, nil
		}
	}
	if bootstrap != "" && bootstrap != NewModel {
		meta, m, err := modelfile.ReadFile(bootstrap)
		if err != nil {
			return nil, modelfile.Meta{}, "", fmt.Errorf("classifier.model: %w", err)
		}
		if err := meta.Check(want); err != nil {
			return nil, modelfile.Meta{}, "", fmt.Errorf("classifier.model %s does not fit the configured source and features: %w", bootstrap, err)
		}
		if meta.Legacy {
			log.Warn("classifier.model has no metadata (written before models recorded how they were built): only its feature dimension could be checked",
				slog.String("path", bootstrap), slog.Int("features", meta.Classifier.Features))
		}
		return m, withHistory(want, meta), "trained model " + bootstrap, nil
	}
	if bootstrap == NewModel {
		// configured: no day-one model
	} else if meta, m, err := dayone.Load(); err != nil {
		return nil, modelfile.Meta{}, "", err
	} else if err := meta.Check(want); err == nil {
		return m, withHistory(want, meta), "the day-one model", nil
	} else {
		log.Warn("the day-one model does not fit the configured features: starting from a new, untrained model", slog.Any("err", err))
	}
	m, err := classifier.New(cfg)
	if err != nil {
		return nil, modelfile.Meta{}, "", err
	}
	return m, want, "new untrained model", nil
}

// loadCheckpoint loads the checkpoint at path if it exists and fits want
// (ok); one that does not is set aside. The error is for what the
// operator must look at: an unreadable file, or one that could not be set
// aside.
func loadCheckpoint(path string, want modelfile.Meta, log *slog.Logger) (m classifier.Model, meta modelfile.Meta, ok bool, err error) {
	if n, _ := checkpoint.CleanTemp(path); n > 0 {
		log.Warn("removed temporary files of an interrupted checkpoint", slog.Int("files", n))
	}
	b, lerr := checkpoint.Load(path, modelfile.MaxSize)
	switch {
	case errors.Is(lerr, fs.ErrNotExist):
		return nil, meta, false, nil
	case errors.Is(lerr, checkpoint.ErrNotRegular), errors.Is(lerr, checkpoint.ErrTooLarge):
		// Not read (a FIFO, a link to a device, a file no model makes):
		// unusable, as a corrupt one is.
	case lerr != nil:
		return nil, meta, false, lerr // unreadable (permissions): the operator must look
	default:
		meta, m, lerr = modelfile.Decode(b)
		if lerr == nil {
			lerr = meta.Check(want)
		}
	}
	if lerr == nil {
		if meta.Legacy {
			log.Warn("checkpoint has no metadata (written before models recorded how they were built): only its feature dimension was checked; it will be rewritten in the new format at the next checkpoint",
				slog.String("path", path), slog.Int("features", meta.Classifier.Features))
		}
		return m, meta, true, nil
	}
	dst, serr := checkpoint.SetAside(path, time.Now())
	log.Error("checkpoint unusable, set aside; starting without it",
		slog.String("path", path), slog.String("moved_to", dst), slog.Any("err", lerr), slog.Any("set_aside_err", serr))
	if serr != nil {
		return nil, meta, false, fmt.Errorf("checkpoint %s is unusable (%v) and could not be set aside: %w", path, lerr, serr)
	}
	return nil, meta, false, nil
}

// withHistory is want with the training recordings of a loaded model's
// metadata.
//
// For a per-channel model it also carries the model's scoring (with the
// patient's baseline, from a checkpoint) and decision rule, and records
// no montage or rate: the model fits any.
func withHistory(want, loaded modelfile.Meta) modelfile.Meta {
	want.Training = append([]modelfile.Recording(nil), loaded.Training...)
	if loaded.PerChannel() {
		want.Scoring, want.Rule, want.Rate, want.Channels = loaded.Scoring, loaded.Rule, 0, nil
	}
	return want
}
