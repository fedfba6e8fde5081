package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/checkpoint"
)

// LoadModel returns the model the daemon starts with, for d features:
//
//  1. the checkpoint at ckpt, if it exists and is good;
//  2. else the trained model at bootstrap (`ictal train`), if set;
//  3. else a new, untrained model from cfg.
//
// A checkpoint that does not load (truncated, corrupt) or does not fit
// (its dimension differs: the montage or features changed) is reported,
// set aside as ckpt.corrupt-<time>, and the daemon starts from 2 or 3
// instead of crash-looping on it. A bootstrap model that does not load or
// fit is an error: it was configured explicitly.
func LoadModel(ckpt, bootstrap string, cfg classifier.Config, log *slog.Logger) (classifier.Model, string, error) {
	d := cfg.Features
	if ckpt != "" {
		if n, _ := checkpoint.CleanTemp(ckpt); n > 0 {
			log.Warn("removed temporary files of an interrupted checkpoint", slog.Int("files", n))
		}
		b, err := checkpoint.Load(ckpt)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, "", err // unreadable (permissions): the operator must look
		default:
			m, lerr := classifier.Load(b)
			if lerr == nil && m.Config().Features != d {
				lerr = fmt.Errorf("it takes %d features, the configured source and features make %d", m.Config().Features, d)
			}
			if lerr == nil {
				return m, "checkpoint " + ckpt, nil
			}
			dst, serr := checkpoint.SetAside(ckpt, time.Now())
			log.Error("checkpoint unusable, set aside; starting without it",
				slog.String("path", ckpt), slog.String("moved_to", dst), slog.Any("err", lerr), slog.Any("set_aside_err", serr))
			if serr != nil {
				return nil, "", fmt.Errorf("checkpoint %s is unusable (%v) and could not be set aside: %w", ckpt, lerr, serr)
			}
		}
	}
	if bootstrap != "" {
		b, err := os.ReadFile(bootstrap)
		if err != nil {
			return nil, "", fmt.Errorf("classifier.model: %w", err)
		}
		m, err := classifier.Load(b)
		if err != nil {
			return nil, "", fmt.Errorf("classifier.model %s: %w", bootstrap, err)
		}
		if m.Config().Features != d {
			return nil, "", fmt.Errorf("classifier.model %s takes %d features, the configured source and features make %d", bootstrap, m.Config().Features, d)
		}
		return m, "trained model " + bootstrap, nil
	}
	m, err := classifier.New(cfg)
	if err != nil {
		return nil, "", err
	}
	return m, "new untrained model", nil
}

// SaveModel writes m to path atomically.
func SaveModel(path string, m classifier.Model) error {
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	return checkpoint.Save(path, b)
}
