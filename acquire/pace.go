package acquire

import (
	"context"
	"time"
)

// Clock is the time source of Paced; tests inject a fake one.
type Clock interface {
	Now() time.Time
	Sleep(d time.Duration)
}

type systemClock struct{}

func (systemClock) Now() time.Time        { return time.Now() }
func (systemClock) Sleep(d time.Duration) { time.Sleep(d) }

// Paced wraps a source so that frames come no faster than Speed times real
// time: frame k is returned no earlier than its Time/Speed after the first
// ReadFrame. It lets a recording or a simulated patient play as if live
// (Speed 1) or accelerated (a demo at Speed 60). It sleeps only when it is
// ahead by more than Slack, so sleeping costs little per frame.
type Paced struct {
	Source
	Speed float64
	Slack time.Duration
	Clock Clock
	ctx   context.Context

	started bool
	t0      time.Time
	first   time.Duration
}

// NewPaced paces src at speed times real time (speed > 0), stopping its
// sleeps when ctx is done.
func NewPaced(ctx context.Context, src Source, speed float64) *Paced {
	return &Paced{Source: src, Speed: speed, Slack: 5 * time.Millisecond, Clock: systemClock{}, ctx: ctx}
}

// ReadFrame implements Source.
func (p *Paced) ReadFrame(f *Frame) error {
	if err := p.Source.ReadFrame(f); err != nil {
		return err
	}
	now := p.Clock.Now()
	if !p.started {
		p.started, p.t0, p.first = true, now, f.Time
		return nil
	}
	due := p.t0.Add(time.Duration(float64(f.Time-p.first) / p.Speed))
	if ahead := due.Sub(now); ahead > p.Slack {
		if p.ctx != nil && p.ctx.Err() != nil {
			return p.ctx.Err()
		}
		p.Clock.Sleep(ahead)
	}
	return nil
}
