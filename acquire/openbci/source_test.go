package openbci

import (
	"context"
	"errors"
	"github.com/ictal/ictal/acquire/openbci/openbcitest"
	"io"
	"log/slog"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ictal/ictal/acquire"
)

// fastOpts returns options for tests: quick back-off and stall detection.
func fastOpts() *Opts {
	o := DefaultOpts
	o.Backoff = Backoff{Initial: 20 * time.Millisecond, Max: 80 * time.Millisecond, Factor: 2}
	o.StallTimeout = 400 * time.Millisecond
	o.ReplyTimeout = 2 * time.Second
	return &o
}

// readFrames reads n frames from s, copying them.
func readFrames(t *testing.T, s *Source, n int) []acquire.Frame {
	t.Helper()
	out := make([]acquire.Frame, 0, n)
	f := acquire.NewFrame(len(s.Info().Channels))
	for range n {
		if err := s.ReadFrame(f); err != nil {
			t.Fatalf("frame %d: %v", len(out), err)
		}
		g := *f
		g.Samples = append([]float64(nil), f.Samples...)
		out = append(out, g)
	}
	return out
}

func TestOpenSerialConfiguresPtyRaw(t *testing.T) {
	p := openbcitest.OpenPty(t)
	port, err := OpenSerial(p.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	tio, err := unix.IoctlGetTermios(int(p.TTY.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if got := tio.Cflag & unix.CBAUD; got != unix.B115200 {
		t.Errorf("baud bits %#o, want B115200", got)
	}
	if tio.Cflag&unix.CSIZE != unix.CS8 || tio.Cflag&(unix.PARENB|unix.CSTOPB) != 0 {
		t.Errorf("cflag %#o, want 8-N-1", tio.Cflag)
	}
	if tio.Lflag&(unix.ICANON|unix.ECHO|unix.ISIG) != 0 || tio.Iflag&(unix.ICRNL|unix.IXON) != 0 || tio.Oflag&unix.OPOST != 0 {
		t.Errorf("not raw: iflag %#o oflag %#o lflag %#o", tio.Iflag, tio.Oflag, tio.Lflag)
	}
	if tio.Cc[unix.VMIN] != 0 || tio.Cc[unix.VTIME] != 1 {
		t.Errorf("VMIN %d VTIME %d, want 0 and 1 (100 ms)", tio.Cc[unix.VMIN], tio.Cc[unix.VTIME])
	}
	// Bytes pass through unchanged both ways, CR and 0xA0 included.
	in := []byte{0xA0, '\r', '\n', 0x03, 0xC0, 0xFF}
	if _, err := p.Master.Write(in); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(in))
	if _, err := io.ReadFull(port, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != string(in) {
		t.Errorf("read % x, want % x", got, in)
	}
	// A read with nothing to read times out with os.ErrDeadlineExceeded.
	start := time.Now()
	if _, err := port.Read(got); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("idle read: %v, want a deadline error", err)
	}
	if d := time.Since(start); d < ReadTimeout/2 {
		t.Errorf("idle read returned after %v", d)
	}
}

// TestSourceCytonOverPty streams the GUI recording, damaged, through a
// pseudo-terminal and the real serial code.
func TestSourceCytonOverPty(t *testing.T) {
	samples := loadGUI(t, 900)
	script, want := damagedGUI(samples)
	p := openbcitest.OpenPty(t)
	board := openbcitest.NewBoard(t, p, false, script)
	s, err := Open(context.Background(), p.Path, fastOpts())
	if err != nil {
		t.Fatal(err)
	}
	// The last packet follows a run of continuous ones, so all are seen.
	got := readFrames(t, s, len(want))
	checkGUIFrames(t, got, samples, want)
	if !strings.HasSuffix(s.Banner(), "$$$") || !strings.Contains(s.Banner(), "Firmware") {
		t.Errorf("banner %q", s.Banner())
	}
	if st := s.Stats(); st.Lost != 5 {
		t.Errorf("stats %+v: lost %d, want 5", st, st.Lost)
	}
	info := s.Info()
	if info.Rate != 250 || len(info.Channels) != 8 || info.Channels[7].Label != "EEG 8" || info.Channels[0].Unit != "uV" || info.Start.IsZero() {
		t.Errorf("info %+v", info)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	<-board.Stopped()
	if got := board.Commands(); got != "svcbs" {
		t.Errorf("board received %q, want \"svcbs\"", got)
	}
	if err := s.ReadFrame(acquire.NewFrame(8)); !errors.Is(err, ErrClosed) {
		t.Errorf("ReadFrame after Close: %v, want ErrClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// daisyScript streams GUI samples as a Cyton with Daisy would: the invalid
// packet 0, then pairs (odd counter: samples 2j's channels as 1–8; even:
// sample 2j+1's as 9–16), with the daisy half of pair 20 and the board
// half of pair 41 lost.
func daisyScript(samples []guiSample) ([]byte, []uint64) {
	var b []byte
	p0 := samples[0].packet()
	p0.Counter = 0
	b = AppendPacket(b, &p0)
	var seqs []uint64
	for j := 0; 2*j+1 < len(samples); j++ {
		board, daisy := samples[2*j].packet(), samples[2*j+1].packet()
		board.Counter, daisy.Counter = uint8(2*j+1), uint8(2*j+2)
		if j != 41 {
			b = AppendPacket(b, &board)
		}
		if j != 20 {
			b = AppendPacket(b, &daisy)
		}
		if j != 20 && j != 41 {
			seqs = append(seqs, uint64(j))
		}
	}
	return b, seqs
}

func TestSourceDaisyOverPty(t *testing.T) {
	samples := loadGUI(t, 600)
	script, seqs := daisyScript(samples)
	p := openbcitest.OpenPty(t)
	board := openbcitest.NewBoard(t, p, true, script)
	o := fastOpts()
	o.Daisy = true
	o.Labels = []string{"Fp1", "Fp2", "C3", "C4", "P7", "P8", "O1", "O2", "F7", "F8", "F3", "F4", "T7", "T8", "P3", "P4"}
	s, err := Open(context.Background(), p.Path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if info := s.Info(); info.Rate != 125 || len(info.Channels) != 16 || info.Channels[15].Label != "P4" || info.Channels[15].Rate != 125 {
		t.Errorf("info %+v", info)
	}
	got := readFrames(t, s, len(seqs))
	for k, seq := range seqs {
		g := got[k]
		gap := seq == 21 || seq == 42
		if g.Seq != seq || (g.Flags&acquire.FlagGap != 0) != gap || g.Time != time.Duration(seq)*8*time.Millisecond {
			t.Fatalf("frame %d: seq %d time %v flags %v, want seq %d gap %v", k, g.Seq, g.Time, g.Flags, seq, gap)
		}
		for c := range 16 {
			want := samples[2*seq+uint64(c/8)].uV[c%8]
			if math.Abs(g.Samples[c]-want) > lsb24 {
				t.Fatalf("frame %d channel %d: %g µV, want %g", k, c+1, g.Samples[c], want)
			}
		}
	}
	if st := s.Stats(); st.Orphans != 3 || st.Lost != 2 {
		t.Errorf("stats %+v, want 3 orphans (packet 0 and two halves), 2 lost", st)
	}
	s.Close()
	<-board.Stopped()
	if got := board.Commands(); got != "svCbs" {
		t.Errorf("board received %q, want \"svCbs\"", got)
	}
}

func TestOpenFailsWithoutDaisy(t *testing.T) {
	p := openbcitest.OpenPty(t)
	openbcitest.NewBoard(t, p, false, nil)
	o := fastOpts()
	o.Daisy = true
	_, err := Open(context.Background(), p.Path, o)
	if !errors.Is(err, ErrNoDaisy) {
		t.Fatalf("error %v, want ErrNoDaisy", err)
	}
}

func TestOpenFailsWhenBoardIsSilent(t *testing.T) {
	p := openbcitest.OpenPty(t)
	board := openbcitest.NewBoard(t, p, false, nil)
	board.SetMute(true)
	o := fastOpts()
	o.ReplyTimeout = 300 * time.Millisecond
	_, err := Open(context.Background(), p.Path, o)
	if !errors.Is(err, ErrNoReply) || !strings.Contains(err.Error(), "reset 'v'") {
		t.Fatalf("error %v, want ErrNoReply for the reset", err)
	}
}

func TestOpenRejectsBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Opts
		want error
	}{
		{"bad gain", Opts{Gains: []int{24, 24, 24, 24, 24, 24, 24, 5}}, ErrGain},
		{"missing port", Opts{}, unix.ENOENT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(context.Background(), "/nonexistent/tty", &tt.opts)
			if !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := Open(context.Background(), "/nonexistent/tty", &Opts{Labels: []string{"a"}}); err == nil || !strings.Contains(err.Error(), "1 labels for 8 channels") {
		t.Errorf("labels: %v", err)
	}
}

// reopener hands the source a new pty on every open after the first, and
// can be told to fail.
type reopener struct {
	t      *testing.T
	paths  chan string
	fails  atomic.Int32 // fail this many more opens
	opened atomic.Int32
}

func (r *reopener) open(string) (io.ReadWriteCloser, error) {
	if r.fails.Load() > 0 {
		r.fails.Add(-1)
		return nil, unix.ENOENT
	}
	select {
	case path := <-r.paths:
		r.opened.Add(1)
		return OpenSerial(path)
	default:
		return nil, unix.ENODEV
	}
}

// TestSourceReconnectsAfterHangup closes the first pty under the source
// (as an unplugged USB adapter would) and checks that it reopens a new one
// with back-off and that frames resume with FlagGap.
func TestSourceReconnectsAfterHangup(t *testing.T) {
	samples := loadGUI(t, 400)
	first, second := openbcitest.OpenPty(t), openbcitest.OpenPty(t)
	openbcitest.NewBoard(t, first, false, guiStream(samples[:200]))
	board2 := openbcitest.NewBoard(t, second, false, guiStream(samples[200:]))
	r := &reopener{t: t, paths: make(chan string, 2)}
	r.paths <- first.Path
	o := fastOpts()
	o.Open = r.open
	var log strings.Builder
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	s, err := Open(context.Background(), "cyton", o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The last packet of a stream is held until the next header
	// confirms it only after a loss; here all are continuous.
	got := readFrames(t, s, 200)
	for i, g := range got {
		if g.Seq != uint64(i) || g.Flags != 0 {
			t.Fatalf("frame %d: seq %d flags %v", i, g.Seq, g.Flags)
		}
	}
	r.fails.Store(2) // the device is not back at once
	first.Close()    // hang up
	hungUp := time.Now()
	r.paths <- second.Path
	got = readFrames(t, s, 150)
	outage := time.Since(hungUp)
	if g := got[0]; g.Flags&acquire.FlagGap == 0 || g.Seq < 200 {
		t.Fatalf("first frame after reconnect: seq %d flags %v, want gap and seq ≥ 200", g.Seq, g.Flags)
	}
	// The jump follows the wall clock: at most the outage at 250 Hz.
	if jump := got[0].Seq - 200; float64(jump) > outage.Seconds()*250+25 {
		t.Errorf("Seq jumped %d frames over a %v outage", jump, outage)
	}
	for i, g := range got {
		if g.Seq != got[0].Seq+uint64(i) || (i > 0 && g.Flags != 0) {
			t.Fatalf("frame %d after reconnect: seq %d flags %v", i, g.Seq, g.Flags)
		}
		if math.Abs(g.Samples[0]-samples[200+i].uV[0]) > lsb24 {
			t.Fatalf("frame %d after reconnect: %g µV, want %g", i, g.Samples[0], samples[200+i].uV[0])
		}
	}
	if r.fails.Load() != 0 || r.opened.Load() != 2 {
		t.Errorf("failed opens left %d, opened %d", r.fails.Load(), r.opened.Load())
	}
	if got := board2.Commands(); got != "svcb" {
		t.Errorf("second board received %q", got)
	}
	t.Logf("log:\n%s", log.String())
	for _, want := range []string{"openbci: link lost", "attempt=1", "attempt=2", "openbci: reconnected", "attempt=3"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

// TestSourceReconnectsAfterStall: a board that stops sending without the
// port failing is reconnected after StallTimeout.
func TestSourceReconnectsAfterStall(t *testing.T) {
	samples := loadGUI(t, 200)
	first, second := openbcitest.OpenPty(t), openbcitest.OpenPty(t)
	openbcitest.NewBoard(t, first, false, guiStream(samples[:100]))
	openbcitest.NewBoard(t, second, false, guiStream(samples[100:]))
	r := &reopener{t: t, paths: make(chan string, 2)}
	r.paths <- first.Path
	r.paths <- second.Path
	o := fastOpts()
	o.Open = r.open
	s, err := Open(context.Background(), "cyton", o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	readFrames(t, s, 100)
	start := time.Now()
	got := readFrames(t, s, 100)
	if d := time.Since(start); d < o.StallTimeout {
		t.Errorf("reconnected after %v, before the stall timeout %v", d, o.StallTimeout)
	}
	if got[0].Flags&acquire.FlagGap == 0 || got[0].Seq <= 100 {
		t.Errorf("first frame after stall: seq %d flags %v", got[0].Seq, got[0].Flags)
	}
}

func TestCloseStopsReconnection(t *testing.T) {
	p := openbcitest.OpenPty(t)
	openbcitest.NewBoard(t, p, false, guiStream(loadGUI(t, 10)))
	r := &reopener{t: t, paths: make(chan string, 1)}
	r.paths <- p.Path
	o := fastOpts()
	o.Open = r.open
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := Open(ctx, "cyton", o)
	if err != nil {
		t.Fatal(err)
	}
	readFrames(t, s, 10)
	p.Close() // every reopen now fails
	done := make(chan error, 1)
	go func() { done <- s.ReadFrame(acquire.NewFrame(8)) }()
	time.Sleep(300 * time.Millisecond) // a few back-off rounds
	s.Close()
	if err := <-done; !errors.Is(err, ErrClosed) { // still blocked after Close: a hang (go test -timeout)
		t.Errorf("ReadFrame: %v, want ErrClosed", err)
	}
}

func TestContextStopsReadFrame(t *testing.T) {
	p := openbcitest.OpenPty(t)
	openbcitest.NewBoard(t, p, false, nil) // answers, never streams
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Open(ctx, p.Path, fastOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := make(chan error, 1)
	go func() { done <- s.ReadFrame(acquire.NewFrame(8)) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) { // still blocked after cancel: a hang
		t.Errorf("ReadFrame: %v, want context.Canceled", err)
	}
}

func TestReadFrameRejectsWrongFrameSize(t *testing.T) {
	p := openbcitest.OpenPty(t)
	openbcitest.NewBoard(t, p, false, nil)
	s, err := Open(context.Background(), p.Path, fastOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.ReadFrame(acquire.NewFrame(16)); !errors.Is(err, acquire.ErrFrameSize) {
		t.Errorf("error %v, want ErrFrameSize", err)
	}
	if got := s.String(); got != "openbci cyton (8 ch, 250 Hz) on "+p.Path {
		t.Errorf("String() = %q", got)
	}
}

func TestReadFrameAllocatesNothing(t *testing.T) {
	samples := loadGUI(t, 1000)
	p := openbcitest.OpenPty(t)
	openbcitest.NewBoard(t, p, false, guiStream(samples))
	s, err := Open(context.Background(), p.Path, fastOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := acquire.NewFrame(8)
	if err := s.ReadFrame(f); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(500, func() {
		if err := s.ReadFrame(f); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%g allocations per ReadFrame, want 0", allocs)
	}
}

// failingPort fails reads with EIO once it has passed on limit bytes, as
// a serial adapter with a fault does.
type failingPort struct {
	io.ReadWriteCloser
	limit int
}

func (p *failingPort) Read(b []byte) (int, error) {
	if p.limit <= 0 {
		return 0, unix.EIO
	}
	n, err := p.ReadWriteCloser.Read(b[:min(len(b), p.limit)])
	p.limit -= n
	return n, err
}

// TestSourceReconnectsAfterReadError: a read error other than a hang-up
// also counts as a lost link; the source reconnects to the same path.
func TestSourceReconnectsAfterReadError(t *testing.T) {
	samples := loadGUI(t, 300)
	p := openbcitest.OpenPty(t)
	board := openbcitest.NewBoard(t, p, false, guiStream(samples))
	board.SetPacing(PacketSize, 2*time.Millisecond) // twice real time: the board is still streaming when 's' comes
	opens := 0
	o := fastOpts()
	o.Reset = false
	o.Open = func(path string) (io.ReadWriteCloser, error) {
		port, err := OpenSerial(path)
		if err != nil {
			return nil, err
		}
		opens++
		if opens == 1 {
			return &failingPort{ReadWriteCloser: port, limit: 100 * PacketSize}, nil
		}
		return port, nil
	}
	s, err := Open(context.Background(), p.Path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := readFrames(t, s, 100)
	if got[99].Seq != 99 || got[99].Flags != 0 {
		t.Fatalf("frame 99: %+v", got[99])
	}
	// The board keeps streaming; the reopened port carries on from
	// wherever the stream is, after a gap.
	next := readFrames(t, s, 10)
	if next[0].Flags&acquire.FlagGap == 0 || next[0].Seq < 100 || opens != 2 {
		t.Errorf("after the read error: seq %d flags %v, %d opens", next[0].Seq, next[0].Flags, opens)
	}
	for i := 1; i < len(next); i++ {
		if next[i].Seq != next[0].Seq+uint64(i) || next[i].Flags != 0 {
			t.Errorf("frame %d after reconnect: seq %d flags %v", i, next[i].Seq, next[i].Flags)
		}
	}
	// 's' on the failed port (best effort), then the handshake again.
	if got := board.Commands(); got != "scbsscb" {
		t.Errorf("board received %q, want \"scbsscb\" (no reset)", got)
	}
}

func TestBackoffGrowsToItsCap(t *testing.T) {
	b := Backoff{Initial: 100 * time.Millisecond, Max: time.Second, Factor: 2}
	d := b.Initial
	var got []time.Duration
	for range 6 {
		got = append(got, d)
		d = b.next(d)
	}
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for i := range want {
		if got[i] != want[i]*time.Millisecond {
			t.Fatalf("delays %v, want %v ms", got, want)
		}
	}
	if huge := (Backoff{Max: time.Minute, Factor: 1e30}).next(time.Hour); huge != time.Minute {
		t.Errorf("overflowing delay gives %v, want the cap", huge)
	}
}
