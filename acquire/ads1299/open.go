package ads1299

import (
	"errors"
	"fmt"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"
)

// Open initialises the host's drivers and opens an ADS1299 by the names a
// configuration file uses: spiName for spireg.Open (e.g. "/dev/spidev0.0",
// "SPI0.0", or "" for the first port) and GPIO names for gpioreg.ByName
// (e.g. "GPIO25"). resetName and startName may be empty when those pins are
// not wired to the host. Close closes the SPI port as well.
//
// Open needs real hardware; tests exercise New with fakes instead.
func Open(spiName, drdyName, resetName, startName string, opts *Opts) (*Dev, error) {
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
