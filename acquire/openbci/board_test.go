package openbci

import (
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptyPair is a pseudo-terminal: the test plays the board on master; the
// source opens slavePath with the real serial code.
type ptyPair struct {
	master    *os.File // non-blocking, so Close interrupts a blocked Read
	tty       *os.File // held open so the master never sees a hang-up before the source opens
	slavePath string
}

func openPty(t *testing.T) *ptyPair {
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
	p := &ptyPair{master: os.NewFile(uintptr(fd), "ptmx"), tty: tty, slavePath: tty.Name()}
	t.Cleanup(p.close)
	return p
}

func (p *ptyPair) close() {
	p.master.Close()
	p.tty.Close()
}

// fakeBoard answers the Cyton's commands on a pty master and streams a
// script of bytes after 'b'. Set mute, chunk and pace under mu.
type fakeBoard struct {
	p      *ptyPair
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

func newFakeBoard(t *testing.T, p *ptyPair, daisy bool, script []byte) *fakeBoard {
	b := &fakeBoard{p: p, daisy: daisy, script: script, chunk: 97, stopped: make(chan struct{})}
	go b.serve()
	return b
}

// commands returns the commands received so far.
func (b *fakeBoard) commands() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.cmds)
}

func (b *fakeBoard) serve() {
	var buf [64]byte
	attached := b.daisy // the board sniffs for a Daisy on reset
	for {
		n, err := b.p.master.Read(buf[:])
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
				b.p.master.WriteString("OpenBCI V3 8-16 channel\nOn Daisy ADS1299 Device ID: 0x3E\nLIS3DH Device ID: 0x33\nFirmware: v3.1.2\n$$$")
			case 'C':
				switch {
				case attached:
					b.p.master.WriteString("16$$$")
				case b.daisy:
					attached = true
					b.p.master.WriteString("daisy attached16$$$")
				default:
					b.p.master.WriteString("no daisy to attach!8$$$")
				}
			case 'c':
				if attached {
					attached = false
					b.p.master.WriteString("daisy removed$$$")
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
func (b *fakeBoard) stream() {
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
		if _, err := b.p.master.Write(c); err != nil {
			b.mu.Lock()
			b.writing = false
			b.mu.Unlock()
			return
		}
		time.Sleep(pace)
	}
}
