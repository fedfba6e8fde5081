package ads1299

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
)

func TestNewInitialisesDevice(t *testing.T) {
	ev := &events{}
	o := testOpts(ev)
	d, _, bus := newDev(t, o, cat(initIO(0x3E, defaultRegs), []conntest.IO{cmdIO(0x11), cmdIO(0x0A)}))
	info := d.Info()
	if len(info.Channels) != 8 || info.Rate != 250 {
		t.Fatalf("Info = %+v; want 8 channels at 250 SPS", info)
	}
	for i, c := range info.Channels {
		want := acquire.Channel{Label: "CH" + string(rune('1'+i)), Unit: "uV", Rate: 250}
		if c != want {
			t.Errorf("channel %d = %+v; want %+v", i, c, want)
		}
	}
	if info.Start.IsZero() {
		t.Error("Info().Start is zero")
	}
	if got, want := d.String(), "ADS1299{playback, rev 1, 8 channels on, 250 SPS}"; got != want {
		t.Errorf("String() = %q; want %q", got, want)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	closePlayback(t, bus)

	// The waits of the start-up flow, in order: power-up, 18 tCLK after the
	// RESET command (after SDATAC's 4 tCLK), reference settling after
	// CONFIG3, and tSDECODE after each one-byte command.
	want := []string{
		"sleep 1s",
		"sleep 1.954µs", // SDATAC
		"sleep 1.954µs", // RESET
		"sleep 8.79µs",  // 18 tCLK
		"sleep 1.954µs", // SDATAC
		"sleep 150ms",   // reference settling after CONFIG3
		"sleep 1.954µs", // START
		"sleep 1.954µs", // RDATAC
		"sleep 1.954µs", // SDATAC (Close)
		"sleep 1.954µs", // STOP (Close)
	}
	if !slices.Equal(ev.log, want) {
		t.Errorf("waits:\n got %q\nwant %q", ev.log, want)
	}
}

func TestNewConnectsInSPIMode1(t *testing.T) {
	port := &connectSpy{Playback: spitest.Playback{Playback: conntest.Playback{Ops: initIO(0x3E, defaultRegs), DontPanic: true}}}
	o := testOpts(&events{})
	if _, err := New(port, newDRDY(), nil, nil, o); err != nil {
		t.Fatal(err)
	}
	if port.f != 4*physic.MegaHertz || port.mode != spi.Mode1 || port.bits != 8 {
		t.Errorf("Connect(%s, %v, %d); want 4MHz, mode 1, 8 bits", port.f, port.mode, port.bits)
	}
	closePlayback(t, &port.Playback)
}

type connectSpy struct {
	spitest.Playback
	f    physic.Frequency
	mode spi.Mode
	bits int
}

func (c *connectSpy) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	c.f, c.mode, c.bits = f, mode, bits
	return c.Playback.Connect(f, mode, bits)
}

func TestNewWithResetAndStartPins(t *testing.T) {
	ev := &events{}
	o := testOpts(ev)
	reset := &recPin{&gpiotest.Pin{N: "RESET"}, ev}
	start := &recPin{&gpiotest.Pin{N: "START"}, ev}
	ops := []conntest.IO{cmdIO(0x11), rregIO(0x00, 0x3E)}
	ops = append(ops, writesIO(defaultRegs)...)
	ops = append(ops, cmdIO(0x10)) // RDATAC; START is the pin
	ops = append(ops, cmdIO(0x11)) // Halt: SDATAC; STOP is the pin
	bus := &spitest.Playback{Playback: conntest.Playback{Ops: ops, DontPanic: true}}
	d, err := New(bus, newDRDY(), reset, start, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil { // a second Halt sends nothing
		t.Fatal(err)
	}
	closePlayback(t, bus)
	want := []string{
		"START=Low",
		"RESET=High",
		"sleep 1s",
		"RESET=Low",
		"sleep 977ns", // tRST = 2 tCLK
		"RESET=High",
		"sleep 8.79µs",  // 18 tCLK
		"sleep 1.954µs", // SDATAC
		"sleep 150ms",
		"sleep 1.954µs", // RDATAC
		"START=High",
		"sleep 1.954µs", // SDATAC (Halt)
		"START=Low",
	}
	if !slices.Equal(ev.log, want) {
		t.Errorf("events:\n got %q\nwant %q", ev.log, want)
	}
}

func TestNewWritesRegistersFromOpts(t *testing.T) {
	tests := []struct {
		name string
		opts func(o *Opts)
		id   byte
		regs []reg
		n    int // channels on
	}{
		{
			name: "default opts on the 8-channel ADS1299",
			opts: func(o *Opts) {},
			id:   0x3E,
			regs: defaultRegs,
			n:    8,
		},
		{
			name: "any silicon revision is accepted",
			opts: func(o *Opts) {},
			id:   0xDE, // REV_ID 110
			regs: defaultRegs,
			n:    8,
		},
		{
			name: "16 kSPS",
			opts: func(o *Opts) { o.Rate = 16000 },
			id:   0x3E,
			regs: with(defaultRegs, reg{0x01, 0x90}),
			n:    8,
		},
		{
			name: "1 kSPS",
			opts: func(o *Opts) { o.Rate = 1000 },
			id:   0x3E,
			regs: with(defaultRegs, reg{0x01, 0x94}),
			n:    8,
		},
		{
			name: "unused channels are powered down with inputs shorted",
			opts: func(o *Opts) {
				o.Channels[1].Off = true
				o.Channels[7].Off = true
			},
			id:   0x3E,
			regs: with(defaultRegs, reg{0x06, 0x81}, reg{0x0C, 0x81}, reg{0x0D, 0x7D}, reg{0x0E, 0x7D}),
			n:    6,
		},
		{
			name: "gains, inputs and SRB2 per channel",
			opts: func(o *Opts) {
				o.Channels[0].Gain = 1
				o.Channels[1].Gain = 2
				o.Channels[2].Gain = 4
				o.Channels[3].Gain = 6
				o.Channels[4].Gain = 8
				o.Channels[5].Gain = 12
				o.Channels[6].Input = InputShorted
				o.Channels[7].Input = InputTemp
				o.Channels[7].SRB2 = true
			},
			id: 0x3E,
			regs: with(defaultRegs, reg{0x05, 0x00}, reg{0x06, 0x10}, reg{0x07, 0x20}, reg{0x08, 0x30},
				reg{0x09, 0x40}, reg{0x0A, 0x50}, reg{0x0B, 0x61}, reg{0x0C, 0x6C}),
			n: 8,
		},
		{
			name: "internal test signal, double amplitude, DC",
			opts: func(o *Opts) {
				o.Test = TestSignal{On: true, Double: true, Freq: TestDC}
				o.Channels[0].Input = InputTest
			},
			id:   0x3E,
			regs: with(defaultRegs, reg{0x02, 0xD7}, reg{0x05, 0x65}),
			n:    8,
		},
		{
			name: "lead-off detection with per-channel sensing and flip",
			opts: func(o *Opts) {
				o.LeadOff = LeadOff{Enabled: true, Threshold: Threshold90, Current: 24 * physic.NanoAmpere, Freq: LeadOffAC31_2Hz}
				for i := range o.Channels {
					o.Channels[i].LeadOffN = false
				}
				o.Channels[2].LeadOffN = true
				o.Channels[3].LeadOffFlip = true
			},
			id: 0x3E,
			regs: with(defaultRegs, reg{0x04, 0x46}, reg{0x0F, 0xFF}, reg{0x10, 0x04}, reg{0x11, 0x08},
				reg{0x17, 0x02}),
			n: 8,
		},
		{
			name: "SRB1 common reference, bias off",
			opts: func(o *Opts) {
				o.SRB1 = true
				o.Bias = Bias{}
				for i := range o.Channels {
					o.Channels[i].BiasP, o.Channels[i].BiasN = false, false
				}
			},
			id:   0x3E,
			regs: with(defaultRegs, reg{0x03, 0xE0}, reg{0x0D, 0x00}, reg{0x0E, 0x00}, reg{0x15, 0x20}),
			n:    8,
		},
		{
			name: "bias measurement and bias lead-off sense",
			opts: func(o *Opts) {
				o.Bias = Bias{Drive: true, Measure: true, LeadOffSense: true}
				o.Channels[4].Input = InputBiasMeas
			},
			id:   0x3E,
			regs: with(defaultRegs, reg{0x03, 0xF6}, reg{0x09, 0x62}),
			n:    8,
		},
		{
			name: "ADS1299-4 has no channels 5 to 8",
			opts: func(o *Opts) {},
			id:   0x3C,
			regs: with(without(defaultRegs, 0x09, 0x0A, 0x0B, 0x0C), reg{0x0D, 0x0F}, reg{0x0E, 0x0F}),
			n:    4,
		},
		{
			name: "ADS1299-6 has no channels 7 and 8",
			opts: func(o *Opts) {},
			id:   0x3D,
			regs: with(without(defaultRegs, 0x0B, 0x0C), reg{0x0D, 0x3F}, reg{0x0E, 0x3F}),
			n:    6,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := testOpts(&events{})
			tt.opts(o)
			d, _, bus := newDev(t, o, initIO(tt.id, tt.regs))
			closePlayback(t, bus)
			if got := len(d.Info().Channels); got != tt.n {
				t.Errorf("%d channels; want %d", got, tt.n)
			}
		})
	}
}

func TestNewRejects(t *testing.T) {
	start := []conntest.IO{cmdIO(0x11), cmdIO(0x06), cmdIO(0x11)}
	tests := []struct {
		name    string
		opts    func(o *Opts)
		ops     []conntest.IO
		wantErr error
		wantMsg string
	}{
		{
			name:    "ID of an ADS1298",
			ops:     cat(start, []conntest.IO{rregIO(0x00, 0x92)}),
			wantErr: ErrUnknownDevice,
			wantMsg: "reads 0x92",
		},
		{
			name:    "ID 0x00: nothing on the bus",
			ops:     cat(start, []conntest.IO{rregIO(0x00, 0x00)}),
			wantErr: ErrUnknownDevice,
			wantMsg: "reads 0x00",
		},
		{
			name:    "ID 0xFF: MISO pulled up",
			ops:     cat(start, []conntest.IO{rregIO(0x00, 0xFF)}),
			wantErr: ErrUnknownDevice,
			wantMsg: "reads 0xFF",
		},
		{
			name: "CONFIG3 reads back another value",
			ops: cat(start, []conntest.IO{rregIO(0x00, 0x3E),
				wregIO(0x03, 0xEC), rregIO(0x03, 0x60)}),
			wantErr: ErrReadBack,
			wantMsg: "CONFIG3 (0x03) reads back 0x60 after writing 0xEC",
		},
		{
			name: "CH3SET reads back another value",
			ops: cat(start, []conntest.IO{rregIO(0x00, 0x3E)}, writesIO(defaultRegs[:6]),
				[]conntest.IO{wregIO(0x07, 0x60), rregIO(0x07, 0x61)}),
			wantErr: ErrReadBack,
			wantMsg: "CH3SET (0x07) reads back 0x61 after writing 0x60",
		},
		{
			name: "CONFIG4 reads back another value",
			ops: cat(start, []conntest.IO{rregIO(0x00, 0x3E)}, writesIO(defaultRegs[:len(defaultRegs)-1]),
				[]conntest.IO{wregIO(0x17, 0x00), rregIO(0x17, 0x08)}),
			wantErr: ErrReadBack,
			wantMsg: "CONFIG4 (0x17) reads back 0x08",
		},
		{
			name:    "SPI clock too slow for 16 kSPS on 8 channels",
			opts:    func(o *Opts) { o.Rate = 16000; o.SPIFreq = 2 * physic.MegaHertz },
			ops:     cat(start, []conntest.IO{rregIO(0x00, 0x3E)}),
			wantErr: ErrOpts,
			wantMsg: "Opts.SPIFreq 2MHz is too slow to clock 216 bits per sample at 16000 SPS",
		},
		{
			name: "every channel of the ADS1299-4 off",
			opts: func(o *Opts) {
				for i := 0; i < 4; i++ {
					o.Channels[i].Off = true
				}
			},
			ops:     cat(start, []conntest.IO{rregIO(0x00, 0x3C)}),
			wantErr: ErrOpts,
			wantMsg: "every one of the ADS1299-4's 4 channels is off",
		},
		{name: "rate 300 SPS", opts: func(o *Opts) { o.Rate = 300 }, wantErr: ErrOpts, wantMsg: "Opts.Rate 300"},
		{name: "SPI clock 8 MHz", opts: func(o *Opts) { o.SPIFreq = 8 * physic.MegaHertz }, wantErr: ErrOpts, wantMsg: "Opts.SPIFreq 8MHz: want > 0 and ≤ 4MHz"},
		{name: "SPI clock 2 fCLK", opts: func(o *Opts) { o.SPIFreq = 4096 * physic.KiloHertz }, wantErr: ErrOpts, wantMsg: "Opts.SPIFreq 4.096MHz"},
		{name: "SPI clock zero", opts: func(o *Opts) { o.SPIFreq = 0 }, wantErr: ErrOpts, wantMsg: "Opts.SPIFreq"},
		{name: "gain 3", opts: func(o *Opts) { o.Channels[5].Gain = 3 }, wantErr: ErrOpts, wantMsg: "Opts.Channels[5].Gain 3"},
		{name: "gain 0 on a channel that is on", opts: func(o *Opts) { o.Channels[0] = Channel{} }, wantErr: ErrOpts, wantMsg: "Opts.Channels[0].Gain 0"},
		{name: "input 8", opts: func(o *Opts) { o.Channels[2].Input = 8 }, wantErr: ErrOpts, wantMsg: "Opts.Channels[2].Input 8"},
		{
			name:    "lead-off current 10 nA",
			opts:    func(o *Opts) { o.LeadOff.Enabled = true; o.LeadOff.Current = 10 * physic.NanoAmpere },
			wantErr: ErrOpts,
			wantMsg: "Opts.LeadOff.Current 10nA",
		},
		{
			name:    "lead-off threshold 8",
			opts:    func(o *Opts) { o.LeadOff.Enabled = true; o.LeadOff.Threshold = 8 },
			wantErr: ErrOpts,
			wantMsg: "Opts.LeadOff.Threshold 8",
		},
		{
			name:    "lead-off frequency 4",
			opts:    func(o *Opts) { o.LeadOff.Enabled = true; o.LeadOff.Freq = 4 },
			wantErr: ErrOpts,
			wantMsg: "Opts.LeadOff.Freq 4",
		},
		{name: "test frequency 2 (not used)", opts: func(o *Opts) { o.Test = TestSignal{On: true, Freq: 2} }, wantErr: ErrOpts, wantMsg: "Opts.Test.Freq 2"},
		{name: "no DRDY timeout", opts: func(o *Opts) { o.DRDYTimeout = 0 }, wantErr: ErrOpts, wantMsg: "Opts.DRDYTimeout 0s"},
		{name: "power-up wait shorter than tPOR", opts: func(o *Opts) { o.PowerUpWait = 100 * time.Millisecond }, wantErr: ErrOpts, wantMsg: "Opts.PowerUpWait 100ms: want ≥ tPOR = 2^18 tCLK = 128ms"},
		{name: "negative reference settling", opts: func(o *Opts) { o.RefSettle = -1 }, wantErr: ErrOpts, wantMsg: "Opts.RefSettle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := testOpts(&events{})
			if tt.opts != nil {
				tt.opts(o)
			}
			bus := &spitest.Playback{Playback: conntest.Playback{Ops: tt.ops, DontPanic: true}}
			d, err := New(bus, newDRDY(), nil, nil, o)
			if d != nil || !errors.Is(err, tt.wantErr) {
				t.Fatalf("New = %v, %v; want error %v", d, err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not say %q", err, tt.wantMsg)
			}
			// New stopped where the error was found, and not before.
			closePlayback(t, bus)
		})
	}
}

func TestNewRequiresDRDY(t *testing.T) {
	for _, drdy := range []gpio.PinIn{nil, gpio.INVALID} {
		bus := &spitest.Playback{Playback: conntest.Playback{DontPanic: true}}
		if _, err := New(bus, drdy, nil, nil, testOpts(&events{})); !errors.Is(err, ErrOpts) {
			t.Errorf("New with DRDY %v: %v; want ErrOpts", drdy, err)
		}
	}
}

func TestNewReportsBusErrors(t *testing.T) {
	// The playback holds fewer transfers than New needs: the bus error
	// surfaces, wrapped with the register being read.
	bus := &spitest.Playback{Playback: conntest.Playback{Ops: []conntest.IO{cmdIO(0x11), cmdIO(0x06), cmdIO(0x11)}, DontPanic: true}}
	_, err := New(bus, newDRDY(), nil, nil, testOpts(&events{}))
	if err == nil || !conntest.IsErr(errors.Unwrap(err)) || !strings.Contains(err.Error(), "reading ID (0x00)") {
		t.Fatalf("New = %v; want the playback's error while reading ID (0x00)", err)
	}
}

func TestTiming(t *testing.T) {
	tests := []struct {
		name string
		got  time.Duration
		want time.Duration
	}{
		{"tPOR = 2^18 tCLK", tPOR, 128 * time.Millisecond},
		{"tRST = 2 tCLK, rounded up", tRST, 977 * time.Nanosecond},
		{"18 tCLK after reset, rounded up", tReset, 8790 * time.Nanosecond},
		{"tSDECODE = 4 tCLK, rounded up", tSDECODE, 1954 * time.Nanosecond},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %v; want %v", tt.name, tt.got, tt.want)
		}
	}
	// One byte at the fastest allowed SPI clock lasts at least tSDECODE:
	// 8 / fSCLK ≥ 4 / fCLK.
	if sclk := int64(maxSPIFreq / physic.Hertz); 8*fCLK < 4*sclk {
		t.Errorf("a byte at %s lasts less than 4 tCLK", maxSPIFreq)
	}
}

func TestPlaybackCatchesTransfersNotMade(t *testing.T) {
	// The harness itself: a transfer the driver never makes (here a frame
	// that is not read) makes the playback's Close fail, so every test that
	// closes its playback also checks that nothing expected was skipped.
	bus := newPlayback(cat(initIO(0x3E, defaultRegs), []conntest.IO{frameIO(frameBytes(0, 0, 0))}))
	if _, err := New(bus, newDRDY(), nil, nil, testOpts(&events{})); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err == nil || !conntest.IsErr(err) {
		t.Errorf("Close: %v; want the playback's error about a transfer left over", err)
	}
}
