package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/ads1299"
	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/acquire/openbci"
	"github.com/ictal/ictal/acquire/recording"
	"github.com/ictal/ictal/acquire/synth"
)

// OpenSource opens the configured source, paced when source.speed is set.
func OpenSource(ctx context.Context, s SourceConfig, log *slog.Logger) (acquire.Source, error) {
	var src acquire.Source
	var err error
	switch s.Type {
	case "synth":
		src, err = openSynth(s)
		if s.Speed == 0 {
			s.Speed = 1 // a simulated patient is live unless told otherwise
		}
	case "file", "edf":
		src, err = openRecording(s, log)
	case "openbci":
		src, err = openOpenBCI(ctx, s, log)
	case "ads1299":
		src, err = openADS1299(s)
	default:
		err = fieldErr("source.type", "%q: unknown", s.Type)
	}
	if err != nil {
		return nil, err
	}
	if len(s.Labels) > 0 {
		l, err := acquire.Relabel(src, s.Labels)
		if err != nil {
			src.Close()
			var le *acquire.LabelsError
			if errors.As(err, &le) {
				return nil, fieldErr("source.labels", "%s", le.Reason)
			}
			return nil, fieldErr("source.labels", "%v", err)
		}
		src = l
	}
	speed := s.Speed
	if s.RealTime && speed == 0 {
		speed = 1 // source.realtime is speed = 1, kept for existing configurations
	}
	if speed > 0 {
		src = &pacedLabeled{Paced: acquire.NewPaced(ctx, src, speed)}
	}
	return src, nil
}

// openSynth opens the simulated patient source.channels, source.rate,
// source.seizures and source.seed describe, source.duration long
// (default a day).
func openSynth(s SourceConfig) (acquire.Source, error) {
	cfg := synth.DefaultConfig()
	cfg.Channels, cfg.Rate, cfg.Seizures, cfg.Seed = s.Channels, s.Rate, s.Seizures, s.Seed
	cfg.Duration = time.Duration(s.Duration)
	// A live simulation starts now, so its time stamps (and those of
	// its alerts and of clinicians' feedback) are current.
	cfg.Start = time.Now().UTC().Truncate(time.Second)
	if cfg.Duration == 0 {
		cfg.Duration = 24 * time.Hour
	}
	p, err := synth.New(cfg)
	if err != nil {
		return nil, keyed(err)
	}
	return p, nil
}

// openRecording opens the recording at source.path, its seizures marked
// by source.seizure_regexp, and keeps its EEG channels (selectEEG).
func openRecording(s SourceConfig, log *slog.Logger) (acquire.Source, error) {
	o := &recording.Opts{Board: s.Board}
	if s.Seizure != "" {
		re, err := regexp.Compile(s.Seizure)
		if err != nil {
			return nil, fieldErr("source.seizure_regexp", "%v", err)
		}
		o.Seizure = re
	}
	r, format, err := recording.Open(s.Path, o)
	if err != nil {
		return nil, fieldErr("source.path", "%v", err)
	}
	log.Info("recording", slog.String("path", s.Path), slog.String("format", string(format)))
	return selectEEG(r, s, log)
}

// openOpenBCI opens the OpenBCI Cyton (with the Daisy: 16 channels) on
// source.port, every channel at source.gain when it is set.
func openOpenBCI(ctx context.Context, s SourceConfig, log *slog.Logger) (acquire.Source, error) {
	o := openbci.DefaultOpts
	o.Daisy, o.Reset, o.Logger = s.Daisy, s.Reset, log
	if s.Gain != 0 {
		n := 8
		if s.Daisy {
			n = 16
		}
		o.Gains = make([]int, n)
		for i := range o.Gains {
			o.Gains[i] = s.Gain
		}
	}
	b, err := openbci.Open(ctx, s.Port, &o)
	if err != nil {
		return nil, fmt.Errorf("source (openbci %s): %w", s.Port, err)
	}
	return b, nil
}

// openADS1299 opens the ADS1299 wired as source.spi, source.drdy,
// source.reset_pin and source.start_pin say, at source.rate when it is set.
func openADS1299(s SourceConfig) (acquire.Source, error) {
	o := ads1299.DefaultOpts
	if s.Rate != 0 {
		o.Rate = s.Rate
	}
	d, err := ads1299.Open(ads1299.Wiring{SPI: s.SPI, DRDY: s.DRDY, Reset: s.ResetPin, Start: s.StartPin}, &o)
	if err != nil {
		return nil, fmt.Errorf("source (ads1299 %s): %w", s.SPI, err)
	}
	return d, nil
}

// selectEEG keeps the EEG channels of a recording (source.select, else
// those acquire.ChooseEEG finds) and logs the choice once: the channels
// used and every one left out with the reason, the signals the EDF reader
// does not serve (annotation signals, other rates) last.
func selectEEG(r recording.Recording, s SourceConfig, log *slog.Logger) (acquire.Source, error) {
	src, c, err := acquire.SelectEEG(r, s.Select)
	switch {
	case err != nil && len(s.Select) > 0:
		r.Close()
		return nil, fieldErr("source.select", "%s: %v", s.Path, err)
	case err != nil:
		r.Close()
		return nil, fmt.Errorf("%w: source.path: %s: %w (source.select names the channels to use)", ErrConfig, s.Path, err)
	}
	left := make([]string, 0, len(c.Omitted))
	for _, o := range c.Omitted {
		left = append(left, o.Label+": "+o.Reason)
	}
	if e, ok := r.(*edf.Replay); ok {
		for _, sk := range e.Skipped() {
			left = append(left, sk.Label+": "+sk.Reason)
		}
	}
	log.Info("channels", slog.String("by", c.By), slog.Any("used", c.Labels(r.Info())), slog.Any("left_out", left))
	return src, nil
}

// pacedLabeled keeps a paced source's intervals visible.
type pacedLabeled struct{ *acquire.Paced }

// Intervals implements acquire.Labeled when the wrapped source does.
func (p *pacedLabeled) Intervals() []acquire.Interval {
	if l, ok := p.Source.(acquire.Labeled); ok {
		return l.Intervals()
	}
	return nil
}
