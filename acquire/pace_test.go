package acquire

import (
	"context"
	"io"
	"testing"
	"time"
)

// ramp is a one-channel source of n frames at rate Hz.
type ramp struct {
	n, i int
	rate float64
}

func (r *ramp) Info() Info {
	return Info{Channels: []Channel{{Label: "x", Unit: "uV", Rate: r.rate}}, Rate: r.rate}
}
func (r *ramp) Close() error { return nil }
func (r *ramp) ReadFrame(f *Frame) error {
	if r.i == r.n {
		return io.EOF
	}
	f.Reset()
	f.Seq = uint64(r.i)
	f.Time = time.Duration(float64(r.i) / r.rate * float64(time.Second))
	f.Samples[0] = float64(r.i)
	r.i++
	return nil
}

type fakeClock struct {
	now   time.Time
	slept time.Duration
}

func (c *fakeClock) Now() time.Time        { return c.now }
func (c *fakeClock) Sleep(d time.Duration) { c.slept += d; c.now = c.now.Add(d) }

func TestPaced(t *testing.T) {
	tests := []struct {
		speed float64
		want  time.Duration // total sleep for 10 s of signal read instantly
	}{
		{1, 10 * time.Second},
		{10, time.Second},
		{60, 10 * time.Second / 60},
	}
	for _, tt := range tests {
		c := &fakeClock{now: time.Unix(1000, 0)}
		p := NewPaced(context.Background(), &ramp{n: 2561, rate: 256}, tt.speed)
		p.Clock = c
		f := NewFrame(1)
		for {
			if err := p.ReadFrame(f); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
		}
		if d := c.slept - tt.want; d < -p.Slack || d > p.Slack {
			t.Errorf("speed %v: slept %v, want %v", tt.speed, c.slept, tt.want)
		}
	}
}

func TestPacedStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := &fakeClock{now: time.Unix(0, 0)}
	p := NewPaced(ctx, &ramp{n: 1000, rate: 100}, 1)
	p.Clock = c
	f := NewFrame(1)
	p.ReadFrame(f)
	cancel()
	for i := 0; i < 10; i++ {
		if err := p.ReadFrame(f); err == context.Canceled {
			return
		}
	}
	t.Error("cancelled pacing kept going")
}
