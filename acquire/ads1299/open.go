package ads1299

import (
	"errors"
	"fmt"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"
)

// Wiring names the SPI port and the GPIOs an ADS1299 is wired to, as a
// configuration file spells them.
type Wiring struct {
	// SPI is the port for spireg.Open: "/dev/spidev0.0", "SPI0.0", or ""
	// for the first port.
	SPI string
	// DRDY, Reset and Start are GPIO names for gpioreg.ByName ("GPIO25").
	// DRDY is required; Reset and Start are empty when those pins are not
	// wired to the host (the RESET and START commands are used instead).
	DRDY, Reset, Start string
}

// Open initialises the host's drivers and opens the ADS1299 wired as w.
// Close closes the SPI port as well.
//
// Open needs real hardware; tests exercise New with fakes instead.
func Open(w Wiring, opts *Opts) (*Dev, error) {
	spiName, drdyName, resetName, startName := w.SPI, w.DRDY, w.Reset, w.Start
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("ads1299: initialising host drivers: %w", err)
	}
	drdy, err := pin("DRDY", drdyName)
	if err != nil {
		return nil, err
	}
	if drdy == nil {
		return nil, fmt.Errorf("ads1299: a DRDY pin name is required: %w", ErrOpts)
	}
	reset, err := pin("RESET", resetName)
	if err != nil {
		return nil, err
	}
	start, err := pin("START", startName)
	if err != nil {
		return nil, err
	}
	port, err := spireg.Open(spiName)
	if err != nil {
		return nil, fmt.Errorf("ads1299: opening SPI port %q: %w", spiName, err)
	}
	d, err := New(port, drdy, reset, start, opts)
	if err != nil {
		return nil, errors.Join(err, port.Close())
	}
	d.closer = port
	return d, nil
}

// pin looks a GPIO up by name; the empty name means not wired.
func pin(role, name string) (gpio.PinIO, error) {
	if name == "" {
		return nil, nil
	}
	p := gpioreg.ByName(name)
	if p == nil {
		return nil, fmt.Errorf("ads1299: %s pin %q: no such GPIO on this host", role, name)
	}
	return p, nil
}
