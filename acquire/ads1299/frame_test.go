package ads1299

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// leadOffOpts enables DC lead-off detection on both inputs of every channel.
func leadOffOpts(ev *events) (*Opts, []reg) {
	o := testOpts(ev)
	o.LeadOff.Enabled = true
	return o, with(defaultRegs, reg{0x0F, 0xFF}, reg{0x10, 0xFF}, reg{0x17, 0x02})
}

// readOneFrame starts a device with options o on a chip answering id,
// expecting the registers regs, reads the one frame the bus then plays
// back into an n-channel frame, and checks that the playback is used up.
// It returns the device and the frame.
func readOneFrame(t *testing.T, o *Opts, id byte, regs []reg, frame []byte, n int) (*Dev, *acquire.Frame) {
	t.Helper()
	d, drdy, bus := newDev(t, o, cat(initIO(id, regs), []conntest.IO{frameIO(frame)}))
	drdy.EdgesChan <- gpio.Low
	f := acquire.NewFrame(n)
	if err := d.ReadFrame(f); err != nil {
		t.Fatal(err)
	}
	closePlayback(t, bus)
	return d, f
}

func TestReadFrameDecodes(t *testing.T) {
	const g24 = 9e6 / 24 / (1 << 24) // µV per code at gain 24
	tests := []struct {
		name      string
		frame     []byte
		wantErr   error
		samples   []float64 // nil: not checked
		flags     acquire.Flags
		leadOff   uint64
		saturated uint64
	}{
		{
			name:    "mid-scale codes of both signs",
			frame:   frameBytes(0, 0, 0, 1, -1, 0x100000, -0x100000, 0, 12345, -12345, 0x3FFFFF),
			samples: []float64{g24, -g24, 23437.5, -23437.5, 0, 12345 * g24, -12345 * g24, 0x3FFFFF * g24},
		},
		{
			name:      "negative full scale on every channel",
			frame:     frameBytes(0, 0, 0, -0x800000, -0x800000, -0x800000, -0x800000, -0x800000, -0x800000, -0x800000, -0x800000),
			samples:   []float64{-187500, -187500, -187500, -187500, -187500, -187500, -187500, -187500},
			flags:     acquire.FlagSaturated,
			saturated: 0xFF,
		},
		{
			name:      "positive full scale on channel 1, one code below on channel 2",
			frame:     frameBytes(0, 0, 0, 0x7FFFFF, 0x7FFFFE, 0, 0, 0, 0, 0, -0x7FFFFF),
			samples:   []float64{0x7FFFFF * g24, 0x7FFFFE * g24, 0, 0, 0, 0, 0, -0x7FFFFF * g24},
			flags:     acquire.FlagSaturated,
			saturated: 0x01,
		},
		{
			name:    "lead-off on channel 2 (positive input) and channel 7 (negative input)",
			frame:   frameBytes(0x02, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0),
			flags:   acquire.FlagLeadOff,
			leadOff: 1<<1 | 1<<6,
		},
		{
			name:    "lead-off on both inputs of channel 8, GPIO bits ignored",
			frame:   frameBytes(0x80, 0x80, 0x0F, 0, 0, 0, 0, 0, 0, 0, 0),
			flags:   acquire.FlagLeadOff,
			leadOff: 1 << 7,
		},
		{
			name:      "lead-off and saturation together",
			frame:     frameBytes(0x01, 0x00, 0, 0x7FFFFF, 0, 0, 0, 0, 0, 0, 0),
			flags:     acquire.FlagLeadOff | acquire.FlagSaturated,
			leadOff:   1,
			saturated: 1,
		},
		{
			name:    "status nibble 1101: lost frame sync",
			frame:   append([]byte{0xD0, 0x00, 0x00}, make([]byte, 24)...),
			wantErr: ErrSync,
		},
		{
			name:    "status nibble 0000 (a frame of zeros): lost frame sync",
			frame:   make([]byte, 27),
			wantErr: ErrSync,
		},
		{
			name:    "status nibble 1111 (MISO stuck high): lost frame sync",
			frame:   append([]byte{0xFF, 0xFF, 0xFF}, make([]byte, 24)...),
			wantErr: ErrSync,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, regs := leadOffOpts(&events{})
			d, drdy, bus := newDev(t, o, cat(initIO(0x3E, regs), []conntest.IO{frameIO(tt.frame)}))
			drdy.EdgesChan <- gpio.Low
			f := acquire.NewFrame(8)
			f.Flags, f.LeadOff, f.Saturated = acquire.FlagGap, 0xFFFF, 0xFFFF // stale values to clear
			err := d.ReadFrame(f)
			closePlayback(t, bus)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ReadFrame: %v; want %v", err, tt.wantErr)
			}
			if err != nil {
				if !strings.Contains(err.Error(), "sample 0") {
					t.Errorf("error %q does not name the sample", err)
				}
				return
			}
			if f.Flags != tt.flags || f.LeadOff != tt.leadOff || f.Saturated != tt.saturated {
				t.Errorf("flags %v lead-off %#x saturated %#x; want %v %#x %#x", f.Flags, f.LeadOff, f.Saturated, tt.flags, tt.leadOff, tt.saturated)
			}
			for i, want := range tt.samples {
				if !closeTo(f.Samples[i], want) {
					t.Errorf("channel %d: %.9g µV; want %.9g", i+1, f.Samples[i], want)
				}
			}
		})
	}
}

func closeTo(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

func TestReadFrameScalesEveryGain(t *testing.T) {
	// Code 2^20 is 1/8 of full scale: 2·4.5 V / gain / 2^24 · 2^20 = 562500 µV / gain.
	tests := []struct {
		gain int
		code byte // GAIN[2:0] in CHnSET
		want float64
	}{
		{1, 0, 562500}, {2, 1, 281250}, {4, 2, 140625}, {6, 3, 93750},
		{8, 4, 70312.5}, {12, 5, 46875}, {24, 6, 23437.5},
	}
	for _, tt := range tests {
		o := testOpts(&events{})
		o.Channels[3].Gain = tt.gain
		regs := with(defaultRegs, reg{0x08, tt.code << 4})
		frame := frameBytes(0, 0, 0, 0, 0, 0, 0x100000, 0, 0, 0, -0x100000)
		_, f := readOneFrame(t, o, 0x3E, regs, frame, 8)
		if !closeTo(f.Samples[3], tt.want) {
			t.Errorf("gain %d: %.9g µV; want %.9g", tt.gain, f.Samples[3], tt.want)
		}
		if !closeTo(f.Samples[7], -23437.5) { // channel 8 stays at gain 24
			t.Errorf("gain %d: channel 8 %.9g µV; want -23437.5", tt.gain, f.Samples[7])
		}
	}
}

func TestReadFrameNumbersSamples(t *testing.T) {
	tests := []struct {
		rate   int
		config byte
		period time.Duration
	}{
		{250, 0x96, 4 * time.Millisecond},
		{500, 0x95, 2 * time.Millisecond},
		{2000, 0x93, 500 * time.Microsecond},
		{16000, 0x90, 62500 * time.Nanosecond},
	}
	for _, tt := range tests {
		o := testOpts(&events{})
		o.Rate = tt.rate
		var frames []conntest.IO
		for i := range 5 {
			frames = append(frames, frameIO(frameBytes(0, 0, 0, int32(i), 0, 0, 0, 0, 0, 0, 0)))
		}
		d, drdy, bus := newDev(t, o, cat(initIO(0x3E, with(defaultRegs, reg{0x01, tt.config})), frames))
		f := acquire.NewFrame(8)
		for i := range 5 {
			drdy.EdgesChan <- gpio.Low
			if err := d.ReadFrame(f); err != nil {
				t.Fatal(err)
			}
			if f.Seq != uint64(i) || f.Time != time.Duration(i)*tt.period || f.Flags != 0 {
				t.Errorf("%d SPS frame %d: Seq %d Time %v Flags %v; want %d %v ok", tt.rate, i, f.Seq, f.Time, f.Flags, i, time.Duration(i)*tt.period)
			}
			if want := float64(i) * 9e6 / 24 / (1 << 24); !closeTo(f.Samples[0], want) {
				t.Errorf("frame %d: channel 1 %g µV; want %g", i, f.Samples[0], want)
			}
		}
		closePlayback(t, bus)
	}
}

func TestReadFrameFlagsGapAfterLostSample(t *testing.T) {
	good := frameBytes(0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0)
	bad := append([]byte{0x00, 0x00, 0x00}, good[3:]...)
	d, drdy, bus := newDev(t, testOpts(&events{}), cat(initIO(0x3E, defaultRegs),
		[]conntest.IO{frameIO(good), frameIO(bad), frameIO(good), frameIO(good)}))
	f := acquire.NewFrame(8)
	want := []struct {
		err   error
		seq   uint64
		flags acquire.Flags
	}{
		{nil, 0, 0},
		{ErrSync, 0, 0},
		{nil, 2, acquire.FlagGap},
		{nil, 3, 0},
	}
	for i, w := range want {
		drdy.EdgesChan <- gpio.Low
		err := d.ReadFrame(f)
		if !errors.Is(err, w.err) {
			t.Fatalf("frame %d: %v; want %v", i, err, w.err)
		}
		if err == nil && (f.Seq != w.seq || f.Flags != w.flags || f.Time != time.Duration(w.seq)*4*time.Millisecond) {
			t.Errorf("frame %d: Seq %d Flags %v Time %v; want %d %v", i, f.Seq, f.Flags, f.Time, w.seq, w.flags)
		}
	}
	closePlayback(t, bus)
}

func TestReadFrameIgnoresLeadOffBitsNotSensed(t *testing.T) {
	// The datasheet: LOFF_STAT bits are to be ignored where LOFF_SENS is 0.
	tests := []struct {
		name    string
		opts    func(o *Opts)
		regs    []reg
		leadOff uint64
	}{
		{"lead-off detection off", func(o *Opts) {}, defaultRegs, 0},
		{
			"only the positive inputs sensed",
			func(o *Opts) {
				o.LeadOff.Enabled = true
				for i := range o.Channels {
					o.Channels[i].LeadOffN = false
				}
			},
			with(defaultRegs, reg{0x0F, 0xFF}, reg{0x17, 0x02}),
			1 << 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := testOpts(&events{})
			tt.opts(o)
			_, f := readOneFrame(t, o, 0x3E, tt.regs, frameBytes(0x02, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0), 8)
			if f.LeadOff != tt.leadOff {
				t.Errorf("LeadOff %#x; want %#x", f.LeadOff, tt.leadOff)
			}
		})
	}
}

func TestReadFrameMapsChannelsThatAreOn(t *testing.T) {
	// Channels 2 and 5 off: the frame's 6 samples are channels 1 3 4 6 7 8,
	// and its lead-off bits follow the same order.
	o, regs := leadOffOpts(&events{})
	o.Channels[1].Off = true
	o.Channels[4].Off = true
	regs = with(regs, reg{0x06, 0x81}, reg{0x09, 0x81}, reg{0x0D, 0xED}, reg{0x0E, 0xED}, reg{0x0F, 0xED}, reg{0x10, 0xED})
	frame := frameBytes(0x04, 0x80, 0, 1, 0, 3, 4, 0, 6, 7, 8)
	d, f := readOneFrame(t, o, 0x3E, regs, frame, 6)
	lsb := 9e6 / 24 / (1 << 24)
	for i, code := range []float64{1, 3, 4, 6, 7, 8} {
		if !closeTo(f.Samples[i], code*lsb) {
			t.Errorf("sample %d = %g; want code %g", i, f.Samples[i], code)
		}
	}
	if want := uint64(1<<1 | 1<<5); f.LeadOff != want { // channel 3 (P) and channel 8 (N)
		t.Errorf("LeadOff %#x; want %#x", f.LeadOff, want)
	}
	labels := []string{"CH1", "CH3", "CH4", "CH6", "CH7", "CH8"}
	for i, c := range d.Info().Channels {
		if c.Label != labels[i] {
			t.Errorf("channel %d label %q; want %q", i, c.Label, labels[i])
		}
	}
}

func TestReadFrameADS1299_4ReadsFifteenBytes(t *testing.T) {
	regs := with(without(defaultRegs, 0x09, 0x0A, 0x0B, 0x0C), reg{0x0D, 0x0F}, reg{0x0E, 0x0F})
	frame := frameBytes(0, 0, 0, 10, 20, 30, -0x800000)
	d, f := readOneFrame(t, testOpts(&events{}), 0x3C, regs, frame, 4)
	if f.Saturated != 1<<3 || !closeTo(f.Samples[3], -187500) || !closeTo(f.Samples[1], 20*9e6/24/(1<<24)) {
		t.Errorf("frame %+v", f)
	}
	if got := d.String(); got != "ADS1299-4{playback, rev 1, 4 channels on, 250 SPS}" {
		t.Errorf("String() = %q", got)
	}
}

func TestReadFrameErrors(t *testing.T) {
	t.Run("no DRDY within the timeout", func(t *testing.T) {
		o := testOpts(&events{})
		o.DRDYTimeout = 5 * time.Millisecond
		d, _, bus := newDev(t, o, initIO(0x3E, defaultRegs))
		err := d.ReadFrame(acquire.NewFrame(8))
		if !errors.Is(err, ErrNoDRDY) || !strings.Contains(err.Error(), "DRDY pin DRDY(25) did not fall within 5ms") {
			t.Errorf("ReadFrame: %v; want ErrNoDRDY naming the pin", err)
		}
		closePlayback(t, bus)
	})
	t.Run("frame with the wrong number of samples", func(t *testing.T) {
		d, drdy, bus := newDev(t, testOpts(&events{}), initIO(0x3E, defaultRegs))
		drdy.EdgesChan <- gpio.Low
		if err := d.ReadFrame(acquire.NewFrame(7)); !errors.Is(err, acquire.ErrFrameSize) {
			t.Errorf("ReadFrame: %v; want acquire.ErrFrameSize", err)
		}
		closePlayback(t, bus) // no transfer was attempted
	})
	t.Run("bus error while reading", func(t *testing.T) {
		d, drdy, bus := newDev(t, testOpts(&events{}), initIO(0x3E, defaultRegs))
		drdy.EdgesChan <- gpio.Low
		err := d.ReadFrame(acquire.NewFrame(8))
		if err == nil || !conntest.IsErr(errors.Unwrap(err)) || !strings.Contains(err.Error(), "reading sample 0") {
			t.Errorf("ReadFrame: %v; want the playback's error", err)
		}
		closePlayback(t, bus)
	})
	t.Run("after Close", func(t *testing.T) {
		d, drdy, bus := newDev(t, testOpts(&events{}), cat(initIO(0x3E, defaultRegs), []conntest.IO{cmdIO(0x11), cmdIO(0x0A)}))
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		drdy.EdgesChan <- gpio.Low
		if err := d.ReadFrame(acquire.NewFrame(8)); !errors.Is(err, ErrHalted) {
			t.Errorf("ReadFrame: %v; want ErrHalted", err)
		}
		if err := d.Close(); err != nil { // a second Close sends nothing
			t.Fatal(err)
		}
		closePlayback(t, bus)
	})
}

// readyPin is a DRDY pin whose queued edges are taken without a timer:
// gpiotest.Pin.WaitForEdge allocates one per call (clockwork's After), which
// would hide the driver's own allocations.
type readyPin struct{ *gpiotest.Pin }

func (p readyPin) WaitForEdge(timeout time.Duration) bool {
	select {
	case l := <-p.EdgesChan:
		_ = p.Out(l)
		return true
	default:
		return p.Pin.WaitForEdge(timeout)
	}
}

func TestReadFrameAllocatesNothing(t *testing.T) {
	const runs = 200
	var frames []conntest.IO
	for i := range runs + 1 { // AllocsPerRun adds a warm-up run
		frames = append(frames, frameIO(frameBytes(0x02, 0x40, 0, int32(i), -int32(i), 0x7FFFFF, -0x800000, 5, 6, 7, 8)))
	}
	o, regs := leadOffOpts(&events{})
	bus := newPlayback(cat(initIO(0x3E, regs), frames))
	drdy := newDRDY()
	d, err := New(bus, readyPin{drdy}, nil, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	for range runs + 1 {
		drdy.EdgesChan <- gpio.Low
	}
	f := acquire.NewFrame(8)
	allocs := testing.AllocsPerRun(runs, func() {
		if err := d.ReadFrame(f); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("ReadFrame allocates %v times per frame; want 0", allocs)
	}
	if f.Seq != runs || f.Flags != acquire.FlagLeadOff|acquire.FlagSaturated {
		t.Errorf("last frame Seq %d Flags %v", f.Seq, f.Flags)
	}
	closePlayback(t, bus)
}
