package openbci

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/ictal/ictal/acquire"
)

// Backoff is the schedule of reconnection attempts: the first waits
// Initial, each next one Factor times longer, never more than Max.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	Factor  float64
}

// next returns the delay after d.
func (b Backoff) next(d time.Duration) time.Duration {
	n := time.Duration(float64(d) * b.Factor)
	if n > b.Max || n <= 0 {
		return b.Max
	}
	return n
}

// Opts configures a Source.
type Opts struct {
	// Daisy selects 16 channels ('C') instead of 8 ('c').
	Daisy bool
	// Gains holds the gain each channel is configured with on the board (8
	// or 16 values); nil means DefaultGain, the firmware's setting after a
	// reset. The source scales with them; it does not program the board.
	Gains []int
	// Labels names the channels in Info; nil means "EEG 1", "EEG 2", ….
	Labels []string
	// Reset sends the soft reset 'v' and waits for the board's "$$$"
	// banner before configuring it.
	Reset bool
	// Open opens the serial port; nil means OpenSerial.
	Open Opener
	// Backoff schedules reconnection attempts after the link is lost.
	Backoff Backoff
	// StallTimeout is how long the stream may stay silent before the link
	// counts as lost.
	StallTimeout time.Duration
	// ReplyTimeout is how long to wait for a "$$$"-terminated reply.
	ReplyTimeout time.Duration
	// Logger receives connection events; nil discards them.
	Logger *slog.Logger
}

// DefaultOpts are the options used when Open is given nil: a Cyton
// without Daisy, reset on connect, reconnection after 250 ms doubling up
// to 10 s.
var DefaultOpts = Opts{
	Reset:        true,
	Backoff:      Backoff{Initial: 250 * time.Millisecond, Max: 10 * time.Second, Factor: 2},
	StallTimeout: 2 * time.Second,
	ReplyTimeout: 5 * time.Second,
}

// Errors of the serial source.
var (
	// ErrClosed is returned by ReadFrame after Close.
	ErrClosed = errors.New("openbci: source closed")
	// ErrNoDaisy is returned when Daisy mode is asked for and the board
	// has none.
	ErrNoDaisy = errors.New("openbci: board reports no Daisy module")
	// ErrNoReply is returned when the board does not finish a reply with
	// "$$$" within ReplyTimeout.
	ErrNoReply = errors.New("openbci: no reply from board")
	// ErrStalled is the cause logged when the stream stays silent longer
	// than StallTimeout (the source then reconnects).
	ErrStalled = errors.New("openbci: stream stalled")

	// errNoPort means an earlier reconnection gave up; ReadFrame tries again.
	errNoPort = errors.New("openbci: port not open")
)

// Source reads frames from a Cyton (with or without Daisy) over a serial
// port. It implements acquire.Source. Frames are stamped from their
// sequence number and the frame rate, so Time is exact and monotonic. When
// the port fails or the stream stalls, ReadFrame reconnects with back-off;
// the first frame afterwards carries acquire.FlagGap and its Seq advances by
// the frames estimated lost from the wall clock.
//
// ReadFrame is used by one goroutine; Close may be called from another and
// makes a blocked ReadFrame return ErrClosed within ReadTimeout.
type Source struct {
	ctx  context.Context
	path string
	opts Opts
	log  *slog.Logger
	dec  *Decoder
	info acquire.Info

	mu        sync.Mutex
	port      io.ReadWriteCloser
	closed    bool
	done      chan struct{}
	closeOnce sync.Once

	buf       [1024]byte
	off, n    int
	readErr   error     // error of the read that filled buf, handled once buf is decoded
	lastData  time.Time // when bytes last arrived
	lastFrame time.Time // when the last frame was decoded
	banner    string
}

// Open opens the port at path, configures the board and starts streaming.
// It does not retry: if the port cannot be opened or the board does not
// answer, it returns the error. ctx bounds the source's life: when it is done, ReadFrame returns its
// error and reconnection stops. Zero durations and a zero Backoff in opts
// take DefaultOpts' values; nil opts means DefaultOpts.
func Open(ctx context.Context, path string, opts *Opts) (*Source, error) {
	o := DefaultOpts
	if opts != nil {
		o = *opts
	}
	if o.Backoff.Initial <= 0 {
		o.Backoff.Initial = DefaultOpts.Backoff.Initial
	}
	if o.Backoff.Max < o.Backoff.Initial {
		o.Backoff.Max = max(DefaultOpts.Backoff.Max, o.Backoff.Initial)
	}
	if o.Backoff.Factor < 1 {
		o.Backoff.Factor = DefaultOpts.Backoff.Factor
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = DefaultOpts.StallTimeout
	}
	if o.ReplyTimeout <= 0 {
		o.ReplyTimeout = DefaultOpts.ReplyTimeout
	}
	if o.Open == nil {
		o.Open = OpenSerial
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dec, err := NewDecoder(Config{Daisy: o.Daisy, Gains: o.Gains})
	if err != nil {
		return nil, err
	}
	nch := dec.Channels()
	if o.Labels != nil && len(o.Labels) != nch {
		return nil, fmt.Errorf("openbci: %d labels for %d channels", len(o.Labels), nch)
	}
	s := &Source{ctx: ctx, path: path, opts: o, log: log, dec: dec, done: make(chan struct{})}
	s.info.Rate = dec.Rate()
	s.info.Channels = make([]acquire.Channel, nch)
	for i := range s.info.Channels {
		label := "EEG " + strconv.Itoa(i+1)
		if o.Labels != nil {
			label = o.Labels[i]
		}
		s.info.Channels[i] = acquire.Channel{Label: label, Unit: "uV", Rate: s.info.Rate}
	}
	if err := s.connect(); err != nil {
		return nil, err
	}
	s.info.Start = s.lastData
	s.lastFrame = s.lastData
	return s, nil
}

// Info describes the channels; Start is the wall clock time streaming was
// requested ('b' sent) on Open.
func (s *Source) Info() acquire.Info { return s.info }

// Banner returns the board's reply to the last reset ('v'), "$$$" included,
// or "" when Reset is off.
func (s *Source) Banner() string { return s.banner }

// Stats returns the decoder's counters.
func (s *Source) Stats() Stats { return s.dec.Stats() }

// Board returns the packet that carried channels 1–8 of the last frame,
// for its auxiliary data.
func (s *Source) Board() Packet { return s.dec.Board() }

// String describes the source.
func (s *Source) String() string {
	kind := "cyton"
	if s.opts.Daisy {
		kind = "cyton+daisy"
	}
	return fmt.Sprintf("openbci %s (%d ch, %g Hz) on %s", kind, len(s.info.Channels), s.info.Rate, s.path)
}

// ReadFrame fills f with the next frame, blocking until one arrives. It
// returns ErrClosed after Close, the context's error once it is done, and
// an error wrapping acquire.ErrFrameSize if f has the wrong number of
// samples. In steady state it allocates nothing.
func (s *Source) ReadFrame(f *acquire.Frame) error {
	if len(f.Samples) != len(s.info.Channels) {
		return fmt.Errorf("openbci: frame has %d samples for %d channels: %w", len(f.Samples), len(s.info.Channels), acquire.ErrFrameSize)
	}
	for {
		for s.off < s.n {
			n, ok, err := s.dec.Decode(s.buf[s.off:s.n], f)
			s.off += n
			if err != nil {
				return err
			}
			if ok {
				s.lastFrame = time.Now()
				return nil
			}
		}
		if err := s.alive(); err != nil {
			return err
		}
		err := s.readErr
		s.readErr = nil
		if err == nil {
			err = s.fill()
		}
		if err == nil {
			continue
		}
		if aerr := s.alive(); aerr != nil {
			return aerr
		}
		if err := s.reconnect(err); err != nil {
			return err
		}
	}
}

// fill reads the port into buf. It returns nil after a timeout while the
// stream is not yet stalled.
func (s *Source) fill() error {
	s.mu.Lock()
	p := s.port
	s.mu.Unlock()
	if p == nil {
		return errNoPort
	}
	n, err := p.Read(s.buf[:])
	now := time.Now()
	s.off, s.n = 0, n
	if n > 0 {
		s.lastData = now
		s.readErr = err // decode what came first; handle the error after
		return nil
	}
	if err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		if silent := now.Sub(s.lastData); silent >= s.opts.StallTimeout {
			return fmt.Errorf("%w: no data for %v", ErrStalled, silent.Round(time.Millisecond))
		}
		return nil
	}
	return err
}

// alive returns ErrClosed after Close and the context's error once done.
func (s *Source) alive() error {
	select {
	case <-s.done:
		return ErrClosed
	default:
	}
	return s.ctx.Err()
}

// Close stops streaming ('s'), closes the port and stops any
// reconnection. It is safe to call more than once and concurrently with
// ReadFrame.
func (s *Source) Close() error {
	s.closeOnce.Do(func() { close(s.done) })
	s.mu.Lock()
	p := s.port
	s.port, s.closed = nil, true
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	_, werr := p.Write([]byte{'s'})
	cerr := p.Close()
	if werr != nil || cerr != nil {
		return fmt.Errorf("openbci: close %s: %w", s.path, errors.Join(werr, cerr))
	}
	return nil
}
