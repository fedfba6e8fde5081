// Package ads1299 drives the Texas Instruments ADS1299 (and its 4- and
// 6-channel variants ADS1299-4 and ADS1299-6), a 24-bit simultaneous
// sampling delta-sigma ADC with programmable gain for EEG, over SPI with
// periph.io, and reads it as an acquire.Source.
//
// Datasheet: TI SBAS499C, "ADS1299-x Low-Noise, 4-, 6-, 8-Channel, 24-Bit,
// Analog-to-Digital Converter for EEG and Biopotential Measurements"
// (July 2012, revised January 2017). Section names below are from it.
//
// # Bus
//
// SPI mode 1 (CPOL 0, CPHA 1), 8-bit words, MSB first. The device decodes
// each byte in tSDECODE = 4 tCLK (1.95 µs at fCLK = 2.048 MHz, tCLK =
// 488 ns), and the bytes of a multi-byte command (RREG, WREG) must be that
// far apart. At SCLK ≤ 4 MHz one byte lasts at least 2 µs > 4 tCLK, so
// bytes can be sent back to back; 4 MHz is the default and the maximum
// (the exact bound, 2·fCLK = 4.096 MHz, would leave no margin for the
// internal oscillator's tolerance). Reading a frame takes 216 SCLK periods on the 8-channel
// device, which bounds SCLK from below at high data rates (3.5 MHz at
// 16 kSPS). CS should stay low 4 tCLK after the last SCLK; the host's SPI
// driver controls that edge, not this package.
//
// # Commands
//
//	SDATAC 0x11   stop Read Data Continuous mode; next command after 4 tCLK
//	RDATAC 0x10   Read Data Continuous mode (the power-up default)
//	RESET  0x06   reset; 18 tCLK before the next command
//	START  0x08   start conversions (or the START pin high)
//	STOP   0x0A   stop conversions (or the START pin low)
//	RREG   0x20|r, n-1   read n registers from r
//	WREG   0x40|r, n-1   write n registers from r
//
// In RDATAC mode the device accepts no command but SDATAC, so New sends
// SDATAC before the RESET command, again after the reset (which restores
// RDATAC mode), and Halt sends it before STOP. With a START pin, New sends
// RDATAC and then takes START high; without one it sends START then RDATAC.
//
// # Registers written by New
//
//	0x00 ID          read: REV_ID[7:5], 1, DEV_ID[3:2] = 11, NU_CH[1:0]; ID[4:0] is
//	                 0x1E (ADS1299), 0x1D (-6) or 0x1C (-4), so 0x3E/0x3D/0x3C at REV_ID 001
//	0x03 CONFIG3     PD_REFBUF = 1 (internal 4.5 V reference), BIAS_MEAS, BIASREF_INT,
//	                 PD_BIAS, BIAS_LOFF_SENS from Opts.Bias; BIAS_STAT is read-only
//	0x01 CONFIG1     DR[2:0]: fMOD/64 … fMOD/4096 = 16000 … 250 SPS
//	0x02 CONFIG2     INT_CAL, CAL_AMP0, CAL_FREQ[1:0]: test signal (off by default)
//	0x04 LOFF        COMP_TH[2:0], ILEAD_OFF[1:0] (6 nA, 24 nA, 6 µA, 24 µA), FLEAD_OFF[1:0]
//	0x05… CHnSET     PDn, GAINn[2:0] (1 2 4 6 8 12 24), SRB2, MUXn[2:0]; powered-down
//	                 channels get PDn = 1 with MUX = 001 (input shorted)
//	0x0D BIAS_SENSP, 0x0E BIAS_SENSN   inputs in the bias derivation
//	0x0F LOFF_SENSP, 0x10 LOFF_SENSN, 0x11 LOFF_FLIP   lead-off sensing per input
//	0x15 MISC1       SRB1: common reference to every inverting input
//	0x17 CONFIG4     PD_LOFF_COMP: lead-off comparators on when lead-off is enabled
//
// Each write is read back with RREG; a difference is an ErrReadBack naming
// the register.
//
// # Timing relied on
//
//	tPOR       2^18 tCLK = 128 ms after power-up before any activity; the
//	           start-up flow also waits for VCAP1 ≥ 1.1 V (Opts.PowerUpWait, 1 s)
//	tRST       RESET pulse ≥ 2 tCLK (977 ns)
//	18 tCLK    8.79 µs after a reset before the first command
//	tSDECODE   4 tCLK = 1.95 µs per command byte, and after SDATAC
//	RefSettle  after PD_REFBUF is set; 150 ms by default, a conservative
//	           choice for the reference capacitors, not a datasheet figure
//
// Waits are rounded up to the nanosecond and slept with time.Sleep, which
// never returns early.
//
// # Data
//
// DRDY falls when a conversion is ready, at the data rate, and rises again
// on the first SCLK falling edge of the read. ReadFrame waits for the
// falling edge with gpio.PinIn.WaitForEdge, then clocks out 3 + 3·channels
// bytes (27 on the ADS1299) with DIN low: a 24-bit status word (1100,
// LOFF_STATP[7:0], LOFF_STATN[7:0], GPIO[7:4]) and one 24-bit big-endian
// two's complement code per channel, powered-down channels included. A
// status word not starting with 1100 is an ErrSync. Codes are converted to
// µV with LSB = 2·VREF / gain / 2^24 (VREF = 4.5 V: 0.02235 µV at gain 24);
// codes 0x7FFFFF and 0x800000 are full scale and set FlagSaturated. A
// lead-off status bit is reported only where its LOFF_SENS bit is set, as
// the datasheet requires. Frame.Seq counts DRDY edges since START and
// Frame.Time is Seq / Rate.
//
// RDATAC mode is used rather than RDATA (a command before each read): the
// registers do not change during acquisition, and no command byte is spent
// per frame. The ADS1299 has no sample counter, so a DRDY the host misses
// entirely (the next conversion overwrites the data) cannot be detected from
// the data; frames lost to a bad status word or a failed transfer do
// advance Seq and set FlagGap on the next frame.
//
// Not supported: daisy-chained devices, an external reference, single-shot
// mode, and the four GPIO pins.
package ads1299
