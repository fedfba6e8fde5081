package ads1299

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/spi/spitest"
)

// The bus traffic of the ADS1299's commands, as conntest.IO pairs.

func cmdIO(op byte) conntest.IO { return conntest.IO{W: []byte{op}} }

func wregIO(addr, v byte) conntest.IO { return conntest.IO{W: []byte{0x40 | addr, 0x00, v}} }

func rregIO(addr, v byte) conntest.IO {
	return conntest.IO{W: []byte{0x20 | addr, 0x00, 0x00}, R: []byte{0x00, 0x00, v}}
}

// frameIO is one RDATAC read: zeros out on DIN, the frame in on DOUT.
func frameIO(b []byte) conntest.IO { return conntest.IO{W: make([]byte, len(b)), R: b} }

// reg is a register value written during initialisation.
type reg struct{ addr, v byte }

// defaultRegs are the registers DefaultOpts writes on an 8-channel ADS1299,
// in order, spelled out from the datasheet's register map.
var defaultRegs = []reg{
	{0x03, 0xEC},                                           // CONFIG3: PD_REFBUF, reserved 11, BIASREF_INT, PD_BIAS
	{0x01, 0x96},                                           // CONFIG1: reserved 1, 10, DR = 110 (250 SPS)
	{0x02, 0xC0},                                           // CONFIG2: reserved 110, test signal off
	{0x04, 0x00},                                           // LOFF
	{0x05, 0x60}, {0x06, 0x60}, {0x07, 0x60}, {0x08, 0x60}, // CHnSET: gain 24, normal input
	{0x09, 0x60}, {0x0A, 0x60}, {0x0B, 0x60}, {0x0C, 0x60},
	{0x0D, 0xFF}, // BIAS_SENSP
	{0x0E, 0xFF}, // BIAS_SENSN
	{0x0F, 0x00}, // LOFF_SENSP
	{0x10, 0x00}, // LOFF_SENSN
	{0x11, 0x00}, // LOFF_FLIP
	{0x15, 0x00}, // MISC1
	{0x17, 0x00}, // CONFIG4
}

// with returns regs with the values of the given registers replaced.
func with(regs []reg, changes ...reg) []reg {
	out := append([]reg(nil), regs...)
	for _, c := range changes {
		found := false
		for i := range out {
			if out[i].addr == c.addr {
				out[i].v = c.v
				found = true
			}
		}
		if !found {
			panic(fmt.Sprintf("register 0x%02X not in list", c.addr))
		}
	}
	return out
}

// without returns regs without the given addresses.
func without(regs []reg, addrs ...byte) []reg {
	var out []reg
next:
	for _, r := range regs {
		for _, a := range addrs {
			if r.addr == a {
				continue next
			}
		}
		out = append(out, r)
	}
	return out
}

// writesIO is the traffic of writing and reading back regs.
func writesIO(regs []reg) []conntest.IO {
	var ops []conntest.IO
	for _, r := range regs {
		ops = append(ops, wregIO(r.addr, r.v), rregIO(r.addr, r.v))
	}
	return ops
}

// initIO is the whole initialisation without RESET and START pins: reset by
// command, ID, register writes, START and RDATAC.
func initIO(id byte, regs []reg) []conntest.IO {
	ops := []conntest.IO{cmdIO(0x11), cmdIO(0x06), cmdIO(0x11), rregIO(0x00, id)}
	ops = append(ops, writesIO(regs)...)
	return append(ops, cmdIO(0x08), cmdIO(0x10))
}

func cat(parts ...[]conntest.IO) []conntest.IO {
	var out []conntest.IO
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// events records the sleeps and pin levels of an initialisation, in order.
type events struct {
	mu  sync.Mutex
	log []string
}

func (e *events) add(s string) {
	e.mu.Lock()
	e.log = append(e.log, s)
	e.mu.Unlock()
}

func (e *events) sleep(d time.Duration) { e.add("sleep " + d.String()) }

// recPin is an output pin that records its levels.
type recPin struct {
	*gpiotest.Pin
	ev *events
}

func (p *recPin) Out(l gpio.Level) error {
	p.ev.add(p.N + "=" + l.String())
	return p.Pin.Out(l)
}

// newDRDY returns a fake DRDY pin whose falling edges the test sends on
// EdgesChan.
func newDRDY() *gpiotest.Pin {
	return &gpiotest.Pin{N: "DRDY", Num: 25, EdgesChan: make(chan gpio.Level, 512)}
}

// testOpts returns DefaultOpts and has the next Dev record its sleeps in
// ev instead of sleeping (the package's tests do not run in parallel).
func testOpts(ev *events) *Opts {
	sleep = ev.sleep
	o := DefaultOpts
	return &o
}

// newDev opens a Dev over a playback of ops with DRDY on a fake pin, and
// registers a check that the playback was consumed entirely.
func newDev(t *testing.T, o *Opts, ops []conntest.IO) (*Dev, *gpiotest.Pin, *spitest.Playback) {
	t.Helper()
	bus := &spitest.Playback{Playback: conntest.Playback{Ops: ops, DontPanic: true}}
	drdy := newDRDY()
	d, err := New(bus, drdy, nil, nil, o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return d, drdy, bus
}

// closePlayback fails the test if bus has transfers left over.
func closePlayback(t *testing.T, bus *spitest.Playback) {
	t.Helper()
	if err := bus.Close(); err != nil {
		t.Errorf("playback: %v", err)
	}
}

// frameBytes builds an 8-channel RDATAC frame from its status fields and
// channel codes.
func frameBytes(statP, statN, gpio uint8, codes ...int32) []byte {
	b := make([]byte, 3, 27)
	b[0] = 0xC0 | statP>>4
	b[1] = statP<<4 | statN>>4
	b[2] = statN<<4 | gpio&0x0F
	for _, c := range codes {
		u := uint32(c) & 0xFFFFFF
		b = append(b, byte(u>>16), byte(u>>8), byte(u))
	}
	return b
}

func newPlayback(ops []conntest.IO) *spitest.Playback {
	return &spitest.Playback{Playback: conntest.Playback{Ops: ops, DontPanic: true}}
}
