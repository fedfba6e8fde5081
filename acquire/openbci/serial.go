package openbci

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tarm/serial"
)

// Baud is the Cyton dongle's serial rate (8 data bits, no parity, 1 stop
// bit).
const Baud = 115200

// ReadTimeout is how long OpenSerial's Read waits for a first byte before
// it returns an error wrapping os.ErrDeadlineExceeded. It bounds how long a
// blocked read delays Close, a cancelled context or the stall detector.
// The terminal driver counts in tenths of a second, so this is its minimum.
const ReadTimeout = 100 * time.Millisecond

// ErrHangup is returned by a port from OpenSerial when a read returns no
// data at once instead of waiting: the terminal was hung up (a USB adapter
// unplugged).
var ErrHangup = errors.New("openbci: serial port hung up")

// Opener opens the serial port at path. The source calls it on Open and
// again on every reconnection, so it may hand out a different port each
// time. Read on the returned port should give up after a short while with
// an error wrapping os.ErrDeadlineExceeded (as OpenSerial's does) so that
// Close and context cancellation are noticed; any other read error counts
// as a lost link.
type Opener func(path string) (io.ReadWriteCloser, error)

// OpenSerial opens path with github.com/tarm/serial at 115200 8-N-1, raw,
// with ReadTimeout. It is the default Opener.
func OpenSerial(path string) (io.ReadWriteCloser, error) {
	p, err := serial.OpenPort(&serial.Config{Name: path, Baud: Baud, ReadTimeout: ReadTimeout})
	if err != nil {
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			return nil, fmt.Errorf("openbci: %w", err) // names the path already
		}
		return nil, fmt.Errorf("openbci: open %s: %w", path, err)
	}
	return &serialPort{p: p, path: path}, nil
}

// serialPort adapts tarm/serial's Port: with a read timeout the terminal
// returns zero bytes, which os.File reports as io.EOF both on a timeout and
// on a hang-up. They are told apart by how long the read took.
type serialPort struct {
	p    *serial.Port
	path string
}

func (s *serialPort) Read(b []byte) (int, error) {
	start := time.Now()
	n, err := s.p.Read(b)
	if n > 0 {
		return n, nil
	}
	if err == nil || err == io.EOF {
		if time.Since(start) < ReadTimeout/2 {
			return 0, fmt.Errorf("%w: %s", ErrHangup, s.path)
		}
		return 0, os.ErrDeadlineExceeded
	}
	return 0, fmt.Errorf("openbci: read %s: %w", s.path, err)
}

func (s *serialPort) Write(b []byte) (int, error) {
	n, err := s.p.Write(b)
	if err != nil {
		return n, fmt.Errorf("openbci: write %s: %w", s.path, err)
	}
	return n, nil
}

func (s *serialPort) Close() error { return s.p.Close() }
