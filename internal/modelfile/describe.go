package modelfile

import (
	"fmt"
	"strings"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/checkpoint"
)

// Describe returns the Meta of the signal path a pipeline builds from fcfg
// on a source with info: the features (window and step with the
// features package's defaults applied, the per-channel feature names,
// summaries, and the dimension for info's channels and rate), the
// conditioning as fcfg describes it (Conditioning.String, which does not
// depend on the rate), the rate, and the channel labels with a leading
// "EEG " removed, as the pipeline names them. fcfg's Channels, Labels and
// Rate are ignored: they come from info. Program, Created and Training
// are the caller's to fill in.
//
// The result is what Meta.Check compares a model with, and what a model
// trained through that pipeline records.
func Describe(fcfg features.Config, info acquire.Info) (Meta, error) {
	fcfg.Channels, fcfg.Labels, fcfg.Rate = len(info.Channels), nil, info.Rate
	dim, err := fcfg.Dim()
	if err != nil {
		return Meta{}, fmt.Errorf("modelfile: features for %d channels at %g Hz: %w", len(info.Channels), info.Rate, err)
	}
	window, step := fcfg.Window, fcfg.Step
	if window == 0 {
		window = features.DefaultWindow
	}
	if step == 0 {
		step = features.DefaultStep
	}
	list := fcfg.Features
	if list == nil {
		list = features.AllFeatures()
	}
	names := make([]string, len(list))
	for i, f := range list {
		names[i] = f.String()
	}
	m := Meta{
		Features: Features{
			Window: window.Seconds(), Step: step.Seconds(),
			Names: names, Summaries: fcfg.Summaries, Dim: dim,
		},
		Conditioning: fcfg.Conditioning.String(),
		Rate:         info.Rate,
	}
	named := false
	labels := make([]string, len(info.Channels))
	for i, ch := range info.Channels {
		labels[i] = strings.TrimPrefix(ch.Label, "EEG ")
		named = named || labels[i] != ""
	}
	if named {
		m.Channels = labels
	}
	return m, nil
}

// ReadFile reads and decodes the model file at path (see Decode). Its
// errors name the file. It reads only a regular file (a symbolic link to
// one is followed) of at most MaxSize bytes, as checkpoint.Read does:
// anything else is refused unread, wrapping checkpoint.ErrNotRegular or
// checkpoint.ErrTooLarge.
func ReadFile(path string) (Meta, classifier.Model, error) {
	b, err := checkpoint.Read(path, MaxSize)
	if err != nil {
		return Meta{}, nil, err
	}
	meta, m, err := Decode(b)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	return meta, m, nil
}

// WriteFile writes m with meta to path atomically (internal/checkpoint):
// on error the previous file at path, if any, is untouched.
func WriteFile(path string, meta Meta, m classifier.Model) error {
	b, err := Encode(meta, m)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return checkpoint.Save(path, b)
}
