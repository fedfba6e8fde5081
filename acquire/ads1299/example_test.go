package ads1299_test

import (
	"fmt"
	"log"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/ads1299"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/spi/spitest"
)

// session is the SPI traffic of an ADS1299 started with DefaultOpts and
// read once, as a logic analyser would show it.
func session() []conntest.IO {
	ops := []conntest.IO{
		{W: []byte{0x11}}, // SDATAC
		{W: []byte{0x06}}, // RESET
		{W: []byte{0x11}}, // SDATAC
		{W: []byte{0x20, 0x00, 0x00}, R: []byte{0x00, 0x00, 0x3E}}, // RREG ID: ADS1299
	}
	regs := [][2]byte{
		{0x03, 0xEC}, {0x01, 0x96}, {0x02, 0xC0}, {0x04, 0x00}, // CONFIG3 CONFIG1 CONFIG2 LOFF
		{0x05, 0x60}, {0x06, 0x60}, {0x07, 0x60}, {0x08, 0x60}, // CH1SET…CH8SET
		{0x09, 0x60}, {0x0A, 0x60}, {0x0B, 0x60}, {0x0C, 0x60},
		{0x0D, 0xFF}, {0x0E, 0xFF}, {0x0F, 0x00}, {0x10, 0x00}, // BIAS_SENSP/N LOFF_SENSP/N
		{0x11, 0x00}, {0x15, 0x00}, {0x17, 0x00}, // LOFF_FLIP MISC1 CONFIG4
	}
	for _, r := range regs {
		ops = append(ops,
			conntest.IO{W: []byte{0x40 | r[0], 0x00, r[1]}},                        // WREG
			conntest.IO{W: []byte{0x20 | r[0], 0x00, 0x00}, R: []byte{0, 0, r[1]}}) // RREG
	}
	frame := []byte{
		0xC0, 0x00, 0x00, // status: 1100, no lead-off
		0x00, 0x04, 0x00, // CH1: 1024 codes
		0xFF, 0xFC, 0x00, // CH2: −1024 codes
		0x7F, 0xFF, 0xFF, // CH3: positive full scale
	}
	frame = append(frame, make([]byte, 15)...) // CH4…CH8: 0
	return append(ops,
		conntest.IO{W: []byte{0x08}},                               // START
		conntest.IO{W: []byte{0x10}},                               // RDATAC
		conntest.IO{W: make([]byte, 27), R: frame},                 // one frame
		conntest.IO{W: []byte{0x11}}, conntest.IO{W: []byte{0x0A}}) // Close: SDATAC, STOP
}

func Example() {
	bus := &spitest.Playback{Playback: conntest.Playback{Ops: session(), DontPanic: true}}
	drdy := &gpiotest.Pin{N: "GPIO25", Num: 25, EdgesChan: make(chan gpio.Level, 1)}

	opts := ads1299.DefaultOpts
	opts.PowerUpWait = 128 * time.Millisecond // tPOR: the board was powered long before
	d, err := ads1299.New(bus, drdy, nil, nil, &opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d)

	f := acquire.NewFrame(len(d.Info().Channels))
	drdy.EdgesChan <- gpio.Low // the ADS1299 pulls DRDY low: a conversion is ready
	if err := d.ReadFrame(f); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("sample %d at %v: %.4f %.4f %.1f µV, %v\n", f.Seq, f.Time, f.Samples[0], f.Samples[1], f.Samples[2], f.Flags)

	if err := d.Close(); err != nil {
		log.Fatal(err)
	}
	if err := bus.Close(); err != nil { // every expected transfer happened
		log.Fatal(err)
	}
	// Output:
	// ADS1299{playback, rev 1, 8 channels on, 250 SPS}
	// sample 0 at 0s: 22.8882 -22.8882 187500.0 µV, saturated
}

// Open builds the device from the names in the daemon's configuration. It
// needs the hardware, so this example is compiled but not run.
func ExampleOpen() {
	opts := ads1299.DefaultOpts
	opts.Channels[0].Label = "Fp1"
	opts.Channels[1].Label = "Fp2"
	d, err := ads1299.Open(ads1299.Wiring{SPI: "/dev/spidev0.0", DRDY: "GPIO25", Reset: "GPIO22"}, &opts)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	f := acquire.NewFrame(len(d.Info().Channels))
	for range 250 {
		if err := d.ReadFrame(f); err != nil {
			log.Fatal(err)
		}
	}
}
