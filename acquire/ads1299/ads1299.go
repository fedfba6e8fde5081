package ads1299

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/ictal/ictal/acquire"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/spi"
)

// Sentinel errors, for callers that branch on the cause.
var (
	// ErrOpts reports an invalid option; the message names the field.
	ErrOpts = errors.New("ads1299: invalid option")
	// ErrUnknownDevice reports an ID register that is not the ADS1299
	// family's.
	ErrUnknownDevice = errors.New("ads1299: not an ADS1299")
	// ErrReadBack reports a register that did not read back what was
	// written.
	ErrReadBack = errors.New("ads1299: register read-back mismatch")
	// ErrNoDRDY reports that DRDY did not fall within Opts.DRDYTimeout.
	ErrNoDRDY = errors.New("ads1299: no DRDY")
	// ErrSync reports a status word that does not start with 1100: the
	// frame is not aligned on the bus and its data are discarded.
	ErrSync = errors.New("ads1299: lost frame sync")
	// ErrHalted is returned by ReadFrame after Halt or Close.
	ErrHalted = errors.New("ads1299: halted")
)

// Dev is an ADS1299 acquiring in Read Data Continuous mode. It implements
// acquire.Source. Its methods may be called from several goroutines; a
// ReadFrame in progress delays Halt by at most Opts.DRDYTimeout.
type Dev struct {
	mu      sync.Mutex
	c       spi.Conn
	drdy    gpio.PinIn
	start   gpio.PinOut // nil: START by command
	closer  io.Closer   // the port, when Open opened it
	sleep   func(time.Duration)
	timeout time.Duration
	variant variant
	rev     uint8
	info    acquire.Info
	period  time.Duration
	halted  bool

	dec    decoder
	seq    uint64 // index of the next sample
	gap    bool   // a sample was lost since the last frame returned
	zeros  [maxFrameBytes]byte
	buf    [maxFrameBytes]byte
	nbytes int
}

// sleep waits out the start-up timings; the package's tests record the
// waits instead (helpers_test.go).
var sleep = time.Sleep

// New initialises the ADS1299 on port, with DRDY on drdy, and starts
// continuous conversions. reset and start are the RESET and START pins when
// the board wires them to the host, nil (or gpio.INVALID) otherwise: the
// RESET and START commands are used instead. A nil opts means DefaultOpts.
//
// New follows the datasheet's start-up flow: it waits Opts.PowerUpWait
// (VCAP1 ≥ 1.1 V, tPOR), resets the device (RESET pulse of tRST, or SDATAC
// then the RESET command) and waits 18 tCLK, sends SDATAC (the device wakes
// in RDATAC mode, where it ignores register commands), checks the ID
// register, writes and reads back every configuration register, starts
// conversions and enters RDATAC mode.
func New(port spi.Port, drdy gpio.PinIn, reset, start gpio.PinOut, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if drdy == nil || drdy == gpio.INVALID {
		return nil, fmt.Errorf("ads1299: a DRDY pin is required: %w", ErrOpts)
	}
	c, err := port.Connect(opts.SPIFreq, spi.Mode1, 8)
	if err != nil {
		return nil, fmt.Errorf("ads1299: connecting to %s in SPI mode 1 at %s: %w", port, opts.SPIFreq, err)
	}
	d := &Dev{
		c:       c,
		drdy:    drdy,
		sleep:   sleep,
		timeout: opts.DRDYTimeout,
		period:  time.Second / time.Duration(opts.Rate),
	}
	if start != nil && start != gpio.INVALID {
		d.start = start
	}
	if reset == gpio.INVALID {
		reset = nil
	}
	if err := d.init(reset, opts); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Dev) init(reset gpio.PinOut, o *Opts) error {
	if err := d.drdy.In(gpio.PullUp, gpio.FallingEdge); err != nil {
		return fmt.Errorf("ads1299: DRDY pin %s: %w", d.drdy, err)
	}
	if d.start != nil {
		if err := d.start.Out(gpio.Low); err != nil {
			return fmt.Errorf("ads1299: START pin %s: %w", d.start, err)
		}
	}
	if reset != nil {
		if err := reset.Out(gpio.High); err != nil {
			return fmt.Errorf("ads1299: RESET pin %s: %w", reset, err)
		}
	}
	if err := d.reset(reset, o.PowerUpWait); err != nil {
		return err
	}
	d.sleep(tReset)
	if err := d.command(cmdSDATAC); err != nil {
		return err
	}

	id, err := d.readRegister(regID)
	if err != nil {
		return err
	}
	v, ok := variants[id&0x1F]
	if !ok {
		return fmt.Errorf("ads1299: ID register (0x00) reads 0x%02X; want 0x3E (ADS1299), 0x3D (ADS1299-6) or 0x3C (ADS1299-4): %w", id, ErrUnknownDevice)
	}
	d.variant, d.rev = v, id>>5
	if err := o.validateFor(v); err != nil {
		return err
	}

	for i, w := range o.registers(v) {
		if err := d.writeRegister(w); err != nil {
			return err
		}
		if i == 0 {
			d.sleep(o.RefSettle) // CONFIG3 turned the reference buffer on
		}
	}

	d.setup(v, o)

	if err := d.startConversions(); err != nil {
		return err
	}
	d.info.Start = time.Now()
	return nil
}

// reset waits for power-up and resets the device, with the RESET pin
// when the board wires it, else with the RESET command.
func (d *Dev) reset(reset gpio.PinOut, powerUp time.Duration) error {
	d.sleep(powerUp)
	if reset == nil {
		// The RESET command would be ignored in RDATAC mode.
		return d.command(cmdSDATAC, cmdReset)
	}
	if err := reset.Out(gpio.Low); err != nil {
		return fmt.Errorf("ads1299: RESET pin %s: %w", reset, err)
	}
	d.sleep(tRST)
	if err := reset.Out(gpio.High); err != nil {
		return fmt.Errorf("ads1299: RESET pin %s: %w", reset, err)
	}
	return nil
}

// startConversions starts conversions, then enters RDATAC. With a START
// pin RDATAC goes first so that no command follows it; the START command
// must precede RDATAC, since in RDATAC mode only SDATAC is accepted.
func (d *Dev) startConversions() error {
	if d.start == nil {
		return d.command(cmdStart, cmdRDATAC)
	}
	if err := d.command(cmdRDATAC); err != nil {
		return err
	}
	if err := d.start.Out(gpio.High); err != nil {
		return fmt.Errorf("ads1299: START pin %s: %w", d.start, err)
	}
	return nil
}

// setup prepares the frame decoder and Info for the channels that are on.
func (d *Dev) setup(v variant, o *Opts) {
	d.nbytes = statusBytes + sampleBytes*v.channels
	d.info.Rate = float64(o.Rate)
	d.dec = decoder{}
	for i := 0; i < v.channels; i++ {
		c := &o.Channels[i]
		if c.Off {
			continue
		}
		label := c.Label
		if label == "" {
			label = "CH" + strconv.Itoa(i+1)
		}
		d.info.Channels = append(d.info.Channels, acquire.Channel{Label: label, Unit: "uV", Rate: float64(o.Rate)})
		d.dec.add(i, c.Gain)
		if o.LeadOff.Enabled {
			if c.LeadOffP {
				d.dec.senseP |= 1 << i
			}
			if c.LeadOffN {
				d.dec.senseN |= 1 << i
			}
		}
	}
}

// command sends one-byte opcodes in turn, each followed by tSDECODE
// before anything else is sent, and stops at the first that fails.
func (d *Dev) command(ops ...byte) error {
	for _, op := range ops {
		if err := d.c.Tx([]byte{op}, nil); err != nil {
			return fmt.Errorf("ads1299: sending %s (0x%02X): %w", commandNames[op], op, err)
		}
		d.sleep(tSDECODE)
	}
	return nil
}

// readRegister reads one register with RREG.
func (d *Dev) readRegister(addr uint8) (uint8, error) {
	w := []byte{cmdRREG | addr, 0x00, 0x00}
	r := make([]byte, len(w))
	if err := d.c.Tx(w, r); err != nil {
		return 0, fmt.Errorf("ads1299: reading %s: %w", registerName(addr), err)
	}
	return r[2], nil
}

// writeRegister writes one register with WREG and reads it back.
func (d *Dev) writeRegister(w write) error {
	if err := d.c.Tx([]byte{cmdWREG | w.addr, 0x00, w.value}, nil); err != nil {
		return fmt.Errorf("ads1299: writing %s: %w", registerName(w.addr), err)
	}
	got, err := d.readRegister(w.addr)
	if err != nil {
		return err
	}
	if got&w.mask != w.value&w.mask {
		return fmt.Errorf("ads1299: %s reads back 0x%02X after writing 0x%02X: %w", registerName(w.addr), got, w.value, ErrReadBack)
	}
	return nil
}

// Info describes the channels that are on, in input order, in µV. Start is
// the host's clock when conversions were started; the first frame follows
// it by the digital filter's settling time (a few sample periods).
func (d *Dev) Info() acquire.Info {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := d.info
	i.Channels = slices.Clone(i.Channels)
	return i
}

// String names the device variant and its SPI connection.
func (d *Dev) String() string {
	return fmt.Sprintf("%s{%s, rev %d, %d channels on, %g SPS}", d.variant.name, d.c, d.rev, len(d.info.Channels), d.info.Rate)
}

// Halt stops Read Data Continuous mode (SDATAC) and conversions (STOP
// command, or the START pin taken low). ReadFrame then returns ErrHalted.
// Halting a halted device does nothing.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.halted {
		return nil
	}
	d.halted = true
	err := d.command(cmdSDATAC)
	if d.start != nil {
		if e := d.start.Out(gpio.Low); e != nil {
			err = errors.Join(err, fmt.Errorf("ads1299: START pin %s: %w", d.start, e))
		}
	} else {
		err = errors.Join(err, d.command(cmdStop))
	}
	return err
}

// Close halts the device and, when Open opened the SPI port, closes it.
func (d *Dev) Close() error {
	err := d.Halt()
	if d.closer != nil {
		err = errors.Join(err, d.closer.Close())
		d.closer = nil
	}
	return err
}

var _ acquire.Source = (*Dev)(nil)
