// Package openbcitest plays an OpenBCI Cyton on the master side of a
// pseudo-terminal, so that tests of the serial source (acquire/openbci)
// and of the tools built on it (ictal capture) run the real serial code
// against a board that answers as the firmware does — the way periph's
// spitest replays a bus. It needs a Unix pseudo-terminal (Linux, macOS).
package openbcitest

import (
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// Pty is a pseudo-terminal: the test plays the board on Master; the code
// under test opens Path (the slave) with the real serial code.
type Pty struct {
	Master *os.File // non-blocking, so Close interrupts a blocked Read
	TTY    *os.File // held open so the master never sees a hang-up before the source opens
	Path   string
}

// OpenPty opens a pseudo-terminal, closed when the test ends.
func OpenPty(t testing.TB) *Pty {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("pty: %v", err)
	}
	// pty.Open leaves the master in blocking mode (it calls Fd); a
	// duplicate set non-blocking goes through the runtime poller instead.
	fd, err := syscall.Dup(int(ptmx.Fd()))
	ptmx.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	p := &Pty{Master: os.NewFile(uintptr(fd), "ptmx"), TTY: tty, Path: tty.Name()}
	t.Cleanup(p.Close)
	return p
}

// Close closes both sides: the code under test sees a hang-up.
func (p *Pty) Close() {
	p.Master.Close()
	p.TTY.Close()
}

// Board answers the Cyton's commands on a pty master — 'v' (the banner),
// 'C' and 'c' (attach and remove a Daisy), 'b' and 's' (start and stop
// streaming) — and streams a script of bytes after 'b', from where it
// stopped, as a real board streams new samples.
type Board struct {
	p      *Pty
	daisy  bool          // a Daisy module is attached
	mute   bool          // answer nothing (a board that is off)
	script []byte        // streamed after 'b'
	chunk  int           // write size
	pace   time.Duration // pause after each chunk, as a board sends in real time

	mu       sync.Mutex
	cmds     []byte
	pos      int  // how much of script is written
	on       bool // streaming: between 'b' and 's'
	writing  bool // a stream goroutine runs
	stopOnce sync.Once
	stopped  chan struct{} // closed on the first 's' after 'b'
}

// NewBoard starts a board on p; daisy says whether a Daisy module is
// attached. It stops when p is closed.
func NewBoard(t testing.TB, p *Pty, daisy bool, script []byte) *Board {
	b := &Board{p: p, daisy: daisy, script: script, chunk: 97, stopped: make(chan struct{})}
	go b.serve()
	return b
}

// Commands returns the commands received so far.
func (b *Board) Commands() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.cmds)
}

func (b *Board) serve() {
	var buf [64]byte
	attached := b.daisy // the board sniffs for a Daisy on reset
	for {
		n, err := b.p.Master.Read(buf[:])
		if err != nil {
			return
		}
		for _, c := range buf[:n] {
			b.mu.Lock()
			b.cmds = append(b.cmds, c)
			mute := b.mute
			b.mu.Unlock()
			if mute {
				continue
			}
			switch c {
			case 'v':
				attached = b.daisy
				b.p.Master.WriteString("OpenBCI V3 8-16 channel\nOn Daisy ADS1299 Device ID: 0x3E\nLIS3DH Device ID: 0x33\nFirmware: v3.1.2\n$$$")
			case 'C':
				switch {
				case attached:
					b.p.Master.WriteString("16$$$")
				case b.daisy:
					attached = true
					b.p.Master.WriteString("daisy attached16$$$")
				default:
					b.p.Master.WriteString("no daisy to attach!8$$$")
				}
			case 'c':
				if attached {
					attached = false
					b.p.Master.WriteString("daisy removed$$$")
				}
			case 'b':
				b.mu.Lock()
				b.on = true
				if !b.writing {
					b.writing = true
					go b.stream()
				}
				b.mu.Unlock()
			case 's':
				b.mu.Lock()
				if b.on {
					b.on = false
					b.stopOnce.Do(func() { close(b.stopped) })
				}
				b.mu.Unlock()
			}
		}
	}
}

// stream writes the script from where it stopped until it ends or the
// board is told to stop; a later 'b' carries on, as a real board streams
// new samples.
func (b *Board) stream() {
	for {
		b.mu.Lock()
		if !b.on || b.pos == len(b.script) {
			b.writing = false
			b.mu.Unlock()
			return
		}
		c := b.script[b.pos:min(b.pos+b.chunk, len(b.script))]
		b.pos += len(c)
		pace := b.pace
		b.mu.Unlock()
		if _, err := b.p.Master.Write(c); err != nil {
			b.mu.Lock()
			b.writing = false
			b.mu.Unlock()
			return
		}
		time.Sleep(pace)
	}
}

// Stopped is closed on the first 's' after a 'b'.
func (b *Board) Stopped() <-chan struct{} { return b.stopped }

// SetMute makes the board answer nothing (a board that is off) or answer
// again.
func (b *Board) SetMute(mute bool) {
	b.mu.Lock()
	b.mute = mute
	b.mu.Unlock()
}

// SetPacing makes the board write its script chunk bytes at a time with
// a pause after each (default 97 bytes, no pause).
func (b *Board) SetPacing(chunk int, pace time.Duration) {
	b.mu.Lock()
	b.chunk, b.pace = chunk, pace
	b.mu.Unlock()
}
