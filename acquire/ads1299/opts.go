package ads1299

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/physic"
)

// Input selects what a channel's multiplexer connects to the PGA (CHnSET
// MUX[2:0]).
type Input uint8

// Channel inputs, numbered as MUX[2:0].
const (
	InputNormal   Input = 0 // the electrodes INnP and INnN
	InputShorted  Input = 1 // inputs shorted together: offset and noise measurement
	InputBiasMeas Input = 2 // BIASIN, with Bias.Measure set
	InputSupply   Input = 3 // MVDD supply measurement
	InputTemp     Input = 4 // temperature sensor
	InputTest     Input = 5 // internal test signal (see TestSignal)
	InputBiasDRP  Input = 6 // positive electrode is the bias driver
	InputBiasDRN  Input = 7 // negative electrode is the bias driver
)

// Channel configures one of the eight inputs (CHnSET, and the channel's bit
// in BIAS_SENSP/N, LOFF_SENSP/N and LOFF_FLIP).
type Channel struct {
	// Off powers the channel down (PDn = 1, input shorted). An off channel
	// is left out of Info and of every Frame.
	Off bool
	// Label names the channel in Info, e.g. "Fp1-REF"; "CHn" when empty.
	Label string
	// Gain is the PGA gain: 1, 2, 4, 6, 8, 12 or 24.
	Gain int
	// Input is the multiplexer setting.
	Input Input
	// SRB2 connects the channel's inverting input to the SRB2 pin.
	SRB2 bool
	// BiasP and BiasN include the positive or negative input in the bias
	// drive derivation (BIAS_SENSP, BIAS_SENSN).
	BiasP, BiasN bool
	// LeadOffP and LeadOffN enable lead-off detection on the positive or
	// negative input (LOFF_SENSP, LOFF_SENSN) when LeadOff.Enabled is set.
	// Only these inputs are reported in Frame.LeadOff: the datasheet says
	// the other LOFF_STAT bits are to be ignored.
	LeadOffP, LeadOffN bool
	// LeadOffFlip reverses the lead-off current direction (LOFF_FLIP).
	LeadOffFlip bool
}

// Bias configures the bias drive amplifier (CONFIG3).
type Bias struct {
	// Drive powers the bias buffer up (PD_BIAS).
	Drive bool
	// InternalRef generates the bias reference internally at
	// (AVDD + AVSS) / 2 (BIASREF_INT); otherwise it comes from BIASREF.
	InternalRef bool
	// Measure routes BIASIN to the channels whose Input is InputBiasMeas
	// (BIAS_MEAS).
	Measure bool
	// LeadOffSense enables the bias lead-off sense function
	// (BIAS_LOFF_SENS).
	LeadOffSense bool
}

// LeadOffThreshold is the lead-off comparator threshold (LOFF COMP_TH[2:0]),
// given as the positive side; the negative side is its complement.
type LeadOffThreshold uint8

// Comparator thresholds, numbered as COMP_TH[2:0].
const (
	Threshold95   LeadOffThreshold = iota // 95 % / 5 %
	Threshold92_5                         // 92.5 % / 7.5 %
	Threshold90                           // 90 % / 10 %
	Threshold87_5                         // 87.5 % / 12.5 %
	Threshold85                           // 85 % / 15 %
	Threshold80                           // 80 % / 20 %
	Threshold75                           // 75 % / 25 %
	Threshold70                           // 70 % / 30 %
)

// LeadOffFreq selects DC or AC lead-off detection (LOFF FLEAD_OFF[1:0]).
type LeadOffFreq uint8

// Lead-off excitation frequencies, numbered as FLEAD_OFF[1:0].
const (
	LeadOffDC          LeadOffFreq = 0 // DC lead-off detection
	LeadOffAC7_8Hz     LeadOffFreq = 1 // AC at fCLK / 2^18 = 7.8 Hz
	LeadOffAC31_2Hz    LeadOffFreq = 2 // AC at fCLK / 2^16 = 31.2 Hz
	LeadOffACQuarterDR LeadOffFreq = 3 // AC at fDR / 4
)

// LeadOff configures lead-off detection (LOFF, CONFIG4 PD_LOFF_COMP).
type LeadOff struct {
	// Enabled turns the lead-off comparators on and writes the channels'
	// LeadOffP/N and LeadOffFlip bits; when false those registers are 0.
	Enabled bool
	// Threshold is the comparator threshold.
	Threshold LeadOffThreshold
	// Current is the excitation current magnitude: 6 nA, 24 nA, 6 µA or
	// 24 µA (ILEAD_OFF[1:0]).
	Current physic.ElectricCurrent
	// Freq selects DC or AC detection.
	Freq LeadOffFreq
}

// TestFreq is the internal test signal's frequency (CONFIG2 CAL_FREQ[1:0]).
type TestFreq uint8

// Test signal frequencies, numbered as CAL_FREQ[1:0].
const (
	TestPulseSlow TestFreq = 0 // square wave at fCLK / 2^21 ≈ 0.98 Hz
	TestPulseFast TestFreq = 1 // square wave at fCLK / 2^20 ≈ 1.95 Hz
	TestDC        TestFreq = 3 // DC
)

// TestSignal configures the internal test signal (CONFIG2). A channel shows
// it when its Input is InputTest.
type TestSignal struct {
	// On generates the test signal internally (INT_CAL).
	On bool
	// Double sets the amplitude to 2 × −(VREFP − VREFN) / 2.4 mV instead
	// of 1 × (CAL_AMP0).
	Double bool
	// Freq is the signal's frequency.
	Freq TestFreq
}

// Opts configures a Dev. Start from DefaultOpts.
type Opts struct {
	// Rate is the output data rate in samples per second: 250, 500, 1000,
	// 2000, 4000, 8000 or 16000 (CONFIG1 DR[2:0], with fCLK = 2.048 MHz).
	Rate int
	// SPIFreq is the SPI clock. It may not exceed 4 MHz, so that each byte
	// of a multi-byte command lasts at least tSDECODE (4 tCLK = 1.95 µs),
	// and it must be fast enough to clock a whole frame out within one
	// sample period.
	SPIFreq physic.Frequency
	// Channels configures the eight inputs. On the ADS1299-4 and -6,
	// Channels[4:] and Channels[6:] are ignored: those inputs do not exist.
	Channels [maxChannels]Channel
	// SRB1 connects SRB1 to every channel's inverting input (MISC1), for a
	// common reference electrode.
	SRB1 bool
	// Bias configures the bias drive.
	Bias Bias
	// LeadOff configures lead-off detection.
	LeadOff LeadOff
	// Test configures the internal test signal; off by default.
	Test TestSignal
	// DRDYTimeout bounds ReadFrame's wait for DRDY's falling edge.
	DRDYTimeout time.Duration
	// PowerUpWait is waited before the reset, for VCAP1 to charge past
	// 1.1 V after power-up (the datasheet's start-up flow waits 1 s). It may
	// not be shorter than tPOR = 2^18 tCLK = 128 ms.
	PowerUpWait time.Duration
	// RefSettle is waited after the internal reference buffer is turned on
	// (CONFIG3 PD_REFBUF), before the other registers are written.
	RefSettle time.Duration
}

// DefaultOpts is a usual EEG setup: 250 SPS, 4 MHz SPI, all channels on
// their electrodes at gain 24 and in the bias derivation, bias drive on with
// its reference generated internally, lead-off detection and test signals
// off.
var DefaultOpts = Opts{
	Rate:        250,
	SPIFreq:     4 * physic.MegaHertz,
	Channels:    defaultChannels(),
	Bias:        Bias{Drive: true, InternalRef: true},
	LeadOff:     LeadOff{Threshold: Threshold95, Current: 6 * physic.NanoAmpere, Freq: LeadOffDC},
	DRDYTimeout: 100 * time.Millisecond,
	PowerUpWait: time.Second,
	RefSettle:   150 * time.Millisecond,
}

func defaultChannels() [maxChannels]Channel {
	var c [maxChannels]Channel
	for i := range c {
		c[i] = Channel{Gain: 24, Input: InputNormal, BiasP: true, BiasN: true, LeadOffP: true, LeadOffN: true}
	}
	return c
}

// Clock and timing of the ADS1299 at its nominal master clock.
const (
	fCLK = 2048000 // Hz, internal oscillator or external clock on CLK
	// maxSPIFreq makes one byte last 2 µs ≥ tSDECODE = 4 tCLK = 1.95 µs,
	// the datasheet's own example. The exact bound, 2·fCLK = 4.096 MHz,
	// leaves no margin for the internal oscillator's tolerance.
	maxSPIFreq = 4 * physic.MegaHertz
)

// tCLK returns the duration of n master clock periods, rounded up to the
// nanosecond.
func tCLK(n int64) time.Duration {
	return time.Duration((n*int64(time.Second) + fCLK - 1) / fCLK)
}

var (
	tPOR     = tCLK(1 << 18) // power-on reset: 128 ms
	tRST     = tCLK(2)       // minimum RESET pulse width: 977 ns
	tReset   = tCLK(18)      // after a reset, before the first command: 8.79 µs
	tSDECODE = tCLK(4)       // command decode time: 1.95 µs
)

// rateCodes maps the data rate in SPS to CONFIG1 DR[2:0].
var rateCodes = map[int]uint8{16000: 0, 8000: 1, 4000: 2, 2000: 3, 1000: 4, 500: 5, 250: 6}

// gainCodes maps the PGA gain to CHnSET GAIN[2:0].
var gainCodes = map[int]uint8{1: 0, 2: 1, 4: 2, 6: 3, 8: 4, 12: 5, 24: 6}

// leadOffCurrents maps the excitation current to LOFF ILEAD_OFF[1:0].
var leadOffCurrents = map[physic.ElectricCurrent]uint8{
	6 * physic.NanoAmpere:   0,
	24 * physic.NanoAmpere:  1,
	6 * physic.MicroAmpere:  2,
	24 * physic.MicroAmpere: 3,
}

// validate checks the options that do not depend on the device variant.
func (o *Opts) validate() error {
	if _, ok := rateCodes[o.Rate]; !ok {
		return fmt.Errorf("ads1299: Opts.Rate %d SPS: want 250, 500, 1000, 2000, 4000, 8000 or 16000: %w", o.Rate, ErrOpts)
	}
	if o.SPIFreq <= 0 || o.SPIFreq > maxSPIFreq {
		return fmt.Errorf("ads1299: Opts.SPIFreq %s: want > 0 and ≤ %s so each command byte lasts tSDECODE = 4 tCLK: %w", o.SPIFreq, maxSPIFreq, ErrOpts)
	}
	for i := range o.Channels {
		c := &o.Channels[i]
		if c.Off {
			continue
		}
		if _, ok := gainCodes[c.Gain]; !ok {
			return fmt.Errorf("ads1299: Opts.Channels[%d].Gain %d: want 1, 2, 4, 6, 8, 12 or 24: %w", i, c.Gain, ErrOpts)
		}
		if c.Input > InputBiasDRN {
			return fmt.Errorf("ads1299: Opts.Channels[%d].Input %d: want 0..7: %w", i, c.Input, ErrOpts)
		}
	}
	if o.LeadOff.Enabled {
		if o.LeadOff.Threshold > Threshold70 {
			return fmt.Errorf("ads1299: Opts.LeadOff.Threshold %d: want 0..7: %w", o.LeadOff.Threshold, ErrOpts)
		}
		if _, ok := leadOffCurrents[o.LeadOff.Current]; !ok {
			return fmt.Errorf("ads1299: Opts.LeadOff.Current %s: want 6nA, 24nA, 6µA or 24µA: %w", o.LeadOff.Current, ErrOpts)
		}
		if o.LeadOff.Freq > LeadOffACQuarterDR {
			return fmt.Errorf("ads1299: Opts.LeadOff.Freq %d: want 0..3: %w", o.LeadOff.Freq, ErrOpts)
		}
	}
	if o.Test.On && o.Test.Freq != TestPulseSlow && o.Test.Freq != TestPulseFast && o.Test.Freq != TestDC {
		return fmt.Errorf("ads1299: Opts.Test.Freq %d: want 0, 1 or 3: %w", o.Test.Freq, ErrOpts)
	}
	if o.DRDYTimeout <= 0 {
		return fmt.Errorf("ads1299: Opts.DRDYTimeout %s: want > 0: %w", o.DRDYTimeout, ErrOpts)
	}
	if o.PowerUpWait < tPOR {
		return fmt.Errorf("ads1299: Opts.PowerUpWait %s: want ≥ tPOR = 2^18 tCLK = %s: %w", o.PowerUpWait, tPOR, ErrOpts)
	}
	if o.RefSettle < 0 {
		return fmt.Errorf("ads1299: Opts.RefSettle %s: want ≥ 0: %w", o.RefSettle, ErrOpts)
	}
	return nil
}

// validateFor checks the options against the variant found: at least one
// channel on, and an SPI clock fast enough to read a frame within a sample
// period.
func (o *Opts) validateFor(v variant) error {
	on := 0
	for i := 0; i < v.channels; i++ {
		if !o.Channels[i].Off {
			on++
		}
	}
	if on == 0 {
		return fmt.Errorf("ads1299: Opts.Channels: every one of the %s's %d channels is off: %w", v.name, v.channels, ErrOpts)
	}
	bits := int64(8 * (statusBytes + sampleBytes*v.channels))
	if need := physic.Frequency(bits*int64(o.Rate)) * physic.Hertz; o.SPIFreq < need {
		return fmt.Errorf("ads1299: Opts.SPIFreq %s is too slow to clock %d bits per sample at %d SPS (need ≥ %s): %w", o.SPIFreq, bits, o.Rate, need, ErrOpts)
	}
	return nil
}

// write is one register write of the initialisation, verified by reading
// it back through mask (read-only bits are left out).
type write struct {
	addr, value, mask uint8
}

// config3 is CONFIG3: the reference buffer on, and the bias options.
func (o *Opts) config3() uint8 {
	config3 := uint8(config3Reserved | config3RefBuf)
	if o.Bias.Measure {
		config3 |= config3BiasMeas
	}
	if o.Bias.InternalRef {
		config3 |= config3BiasRef
	}
	if o.Bias.Drive {
		config3 |= config3PDBias
	}
	if o.Bias.LeadOffSense {
		config3 |= config3BiasLoff
	}
	return config3
}

// registers returns the register writes for v, in the order the start-up
// flow wants them: CONFIG3 first (reference buffer on), then the rest.
func (o *Opts) registers(v variant) []write {
	config1 := config1Reserved | rateCodes[o.Rate]

	config2 := uint8(config2Reserved)
	if o.Test.On {
		config2 |= config2IntCal | uint8(o.Test.Freq)
		if o.Test.Double {
			config2 |= config2CalAmp
		}
	}

	config3 := o.config3()

	var loff, config4 uint8
	if o.LeadOff.Enabled {
		loff = uint8(o.LeadOff.Threshold)<<5 | leadOffCurrents[o.LeadOff.Current]<<2 | uint8(o.LeadOff.Freq)
		config4 = config4LoffComp
	}

	w := []write{
		{regCONFIG3, config3, ^uint8(config3BiasStat)},
		{regCONFIG1, config1, 0xFF},
		{regCONFIG2, config2, 0xFF},
		{regLOFF, loff, 0xFF},
	}
	var biasP, biasN, loffP, loffN, flip uint8
	for i := 0; i < v.channels; i++ {
		c := &o.Channels[i]
		set := uint8(chPowerDown | InputShorted)
		if !c.Off {
			set = gainCodes[c.Gain]<<4 | uint8(c.Input)
			if c.SRB2 {
				set |= chSRB2
			}
			bit := uint8(1) << i
			if c.BiasP {
				biasP |= bit
			}
			if c.BiasN {
				biasN |= bit
			}
			if o.LeadOff.Enabled {
				if c.LeadOffP {
					loffP |= bit
				}
				if c.LeadOffN {
					loffN |= bit
				}
				if c.LeadOffFlip {
					flip |= bit
				}
			}
		}
		w = append(w, write{uint8(regCH1SET + i), set, 0xFF})
	}
	var misc1 uint8
	if o.SRB1 {
		misc1 = misc1SRB1
	}
	return append(w,
		write{regBIASSENSP, biasP, 0xFF},
		write{regBIASSENSN, biasN, 0xFF},
		write{regLOFFSENSP, loffP, 0xFF},
		write{regLOFFSENSN, loffN, 0xFF},
		write{regLOFFFLIP, flip, 0xFF},
		write{regMISC1, misc1, 0xFF},
		write{regCONFIG4, config4, 0xFF},
	)
}
