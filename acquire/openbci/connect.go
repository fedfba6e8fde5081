package openbci

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"
)

// Commands sent to the board (Cyton SDK).
const (
	cmdStop  = 's' // stop streaming
	cmdReset = 'v' // soft reset; replies with a banner ending in "$$$"
	cmdDaisy = 'C' // 16 channels; replies "16$$$", "daisy attached16$$$" or "no daisy to attach!8$$$"
	cmdEight = 'c' // 8 channels; replies "daisy removed$$$" only if one was attached
	cmdStart = 'b' // start streaming binary packets
)

// eot ends every textual reply of the board.
var eot = []byte("$$$")

// connect opens the port, configures the board and starts streaming.
func (s *Source) connect() error {
	p, err := s.opts.Open(s.path)
	if err != nil {
		return err
	}
	if err := s.handshake(p); err != nil {
		p.Close()
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		p.Write([]byte{cmdStop})
		p.Close()
		return ErrClosed
	}
	s.port = p
	s.mu.Unlock()
	s.off, s.n, s.readErr = 0, 0, nil
	s.lastData = time.Now()
	return nil
}

// handshake stops any stream, optionally resets the board, selects 8 or 16
// channels and starts streaming.
func (s *Source) handshake(p io.ReadWriteCloser) error {
	if err := send(p, cmdStop); err != nil {
		return err
	}
	if err := s.drain(p); err != nil {
		return err
	}
	if s.opts.Reset {
		reply, err := s.ask(p, cmdReset, "reset 'v'")
		if err != nil {
			return err
		}
		s.banner = string(reply)
		s.log.Info("openbci: board reset", slog.String("port", s.path), slog.String("banner", s.banner))
	}
	if s.opts.Daisy {
		reply, err := s.ask(p, cmdDaisy, "daisy 'C'")
		if err != nil {
			return err
		}
		if bytes.Contains(reply, []byte("no daisy")) {
			return fmt.Errorf("%w: reply to 'C' on %s: %q", ErrNoDaisy, s.path, reply)
		}
	} else if err := send(p, cmdEight); err != nil {
		// No reply to wait for: a board without Daisy answers nothing.
		// "daisy removed$$$", if it comes, is skipped by the decoder.
		return err
	}
	return send(p, cmdStart)
}

// drain discards what the board sent before it obeyed 's' (the tail of an
// earlier stream) until the line stays quiet for one read timeout, for at
// most ReplyTimeout. (Flushing the terminal instead would also discard the
// 's' not yet transmitted.)
func (s *Source) drain(p io.Reader) error {
	var b [256]byte
	deadline := time.Now().Add(s.opts.ReplyTimeout)
	dropped := 0
	for time.Now().Before(deadline) {
		if err := s.alive(); err != nil {
			return err
		}
		n, err := p.Read(b[:])
		dropped += n
		if n == 0 && errors.Is(err, os.ErrDeadlineExceeded) {
			break
		}
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("openbci: draining %s: %w", s.path, err)
		}
	}
	if dropped > 0 {
		s.log.Debug("openbci: drained earlier stream", slog.String("port", s.path), slog.Int("bytes", dropped))
	}
	return nil
}

func send(p io.Writer, c byte) error {
	if _, err := p.Write([]byte{c}); err != nil {
		return fmt.Errorf("openbci: send %q: %w", c, err)
	}
	return nil
}

// ask sends the command c, reads until the board's reply ends with "$$$"
// and returns the reply (which may start with bytes of an earlier stream).
func (s *Source) ask(p io.ReadWriter, c byte, what string) ([]byte, error) {
	if err := send(p, c); err != nil {
		return nil, err
	}
	var reply []byte
	var b [256]byte
	deadline := time.Now().Add(s.opts.ReplyTimeout)
	for {
		if err := s.alive(); err != nil {
			return nil, err
		}
		n, err := p.Read(b[:])
		reply = append(reply, b[:n]...)
		if i := bytes.Index(reply, eot); i >= 0 {
			return reply[:i+len(eot)], nil
		}
		if len(reply) > 4096 { // keep the tail: enough for any reply
			reply = append(reply[:0], reply[len(reply)-len(eot):]...)
		}
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, fmt.Errorf("openbci: waiting for reply to %s on %s: %w", what, s.path, err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w to %s on %s within %v (got %q)", ErrNoReply, what, s.path, s.opts.ReplyTimeout, tail(reply, 64))
		}
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// reconnect drops the failed port and opens it again, waiting between
// attempts as the back-off says, until it succeeds, Close is called or the
// context is done. The decoder is told how many frames the outage cost.
func (s *Source) reconnect(cause error) error {
	s.log.Warn("openbci: link lost", slog.String("port", s.path), slog.Any("err", cause))
	s.mu.Lock()
	p := s.port
	s.port = nil
	s.mu.Unlock()
	if p != nil {
		p.Write([]byte{cmdStop}) // best effort: the link may be gone
		p.Close()
	}
	s.off, s.n, s.readErr = 0, 0, nil
	delay := s.opts.Backoff.Initial
	for attempt := 1; ; attempt++ {
		if err := s.wait(delay); err != nil {
			return err
		}
		err := s.connect()
		if err == nil {
			lost := uint64(time.Now().Sub(s.lastFrame).Seconds() * s.dec.Rate())
			s.dec.Resume(lost)
			s.log.Info("openbci: reconnected", slog.String("port", s.path), slog.Int("attempt", attempt), slog.Uint64("frames_lost", lost))
			return nil
		}
		if errors.Is(err, ErrClosed) || errors.Is(err, ErrNoDaisy) || s.ctx.Err() != nil {
			return err
		}
		s.log.Warn("openbci: reconnect failed", slog.String("port", s.path), slog.Int("attempt", attempt), slog.Any("err", err), slog.Duration("retry_in", s.opts.Backoff.next(delay)))
		delay = s.opts.Backoff.next(delay)
	}
}

// wait sleeps for d unless the source is closed or its context done.
func (s *Source) wait(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-s.done:
		return ErrClosed
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}
