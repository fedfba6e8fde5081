package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/ads1299"
	"github.com/ictal/ictal/acquire/openbci"
)

// captureSources are the hardware `ictal capture -source` reads, as the
// daemon's source.type names them.
var captureSources = []string{"openbci", "ads1299"}

// runCapture implements `ictal capture -source openbci -port PATH [-frames
// N] [-daisy] [-gain 24]` and `ictal capture -source ads1299 -drdy GPIO
// [-spi PORT] [-reset GPIO] [-start GPIO] [-rate 250]`: frames as CSV on
// stdout (sequence, time in seconds, µV per channel, flags) until N
// frames or SIGINT/SIGTERM.
func runCapture(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("capture", "usage: ictal capture -source openbci -port PATH [-frames N] [-daisy] [-gain 24] [-no-reset]\n"+
		"       ictal capture -source ads1299 -drdy GPIO [-spi PORT] [-reset GPIO] [-start GPIO] [-rate 250] [-frames N] [-gain 24]\n"+
		"Sources: openbci, an OpenBCI Cyton (8 channels, or 16 with the Daisy module) on its USB\n"+
		"dongle, over serial; ads1299, a TI ADS1299 (-4, -6 or 8 channels) on the host's SPI bus\n"+
		"with its DRDY pin on a GPIO (Linux spidev and GPIO character devices, through periph.io).\n"+
		"Prints frames as CSV: a header line, then per frame its sequence number, its time in\n"+
		"seconds from the start, one value in µV per channel, and its flags (ok, or gap and/or\n"+
		"saturated joined by |). A gap means frames were lost; seq jumps by their number.\n"+
		"Connection events go to stderr; a lost serial link is reopened with back-off.", stderr)
	source := fs.String("source", "openbci", "hardware to read: "+strings.Join(captureSources, " or "))
	port := fs.String("port", "", "openbci: serial port of the dongle, e.g. /dev/ttyUSB0 (required)")
	frames := fs.Int64("frames", 0, "stop after this many frames; 0 reads until SIGINT or SIGTERM")
	daisy := fs.Bool("daisy", false, "openbci: the Daisy module is attached: 16 channels at 125 Hz")
	gain := fs.Int("gain", openbci.DefaultGain, "ADS1299 gain every channel is set to: 1, 2, 4, 6, 8, 12 or 24")
	noReset := fs.Bool("no-reset", false, "openbci: do not soft-reset the board ('v') before streaming")
	spiPort := fs.String("spi", "", "ads1299: SPI port, e.g. /dev/spidev0.0 (default: the first)")
	drdy := fs.String("drdy", "", "ads1299: GPIO wired to DRDY, e.g. GPIO25 (required)")
	resetPin := fs.String("reset", "", "ads1299: GPIO wired to RESET (default: the RESET command)")
	startPin := fs.String("start", "", "ads1299: GPIO wired to START (default: the START command)")
	rate := fs.Int("rate", ads1299.DefaultOpts.Rate, "ads1299: samples per second: 250, 500, 1000, 2000, 4000, 8000 or 16000")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *frames < 0 {
		return fmt.Errorf("-frames %d: must be ≥ 0", *frames)
	}
	if _, err := openbci.Scale(*gain); err != nil {
		return fmt.Errorf("-gain: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var (
		src   acquire.Source
		stats func() string
	)
	switch *source {
	case "openbci":
		if *port == "" {
			return errors.New("-port is required")
		}
		b, err := openCyton(ctx, *port, *daisy, *gain, !*noReset, stderr)
		if err != nil {
			return err
		}
		src = b
		stats = func() string {
			st := b.Stats()
			return fmt.Sprintf("%d lost, %d bytes skipped", st.Lost, st.Skipped)
		}
	case "ads1299":
		if *drdy == "" {
			return errors.New("-drdy is required for an ads1299 (the GPIO wired to DRDY, e.g. GPIO25)")
		}
		o := ads1299.DefaultOpts
		o.Rate = *rate
		for i := range o.Channels {
			o.Channels[i].Gain = *gain
		}
		d, err := ads1299.Open(ads1299.Wiring{SPI: *spiPort, DRDY: *drdy, Reset: *resetPin, Start: *startPin}, &o)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "ictal capture: %v\n", d)
		src = d
	default:
		return fmt.Errorf("-source %q: want %s", *source, strings.Join(captureSources, " or "))
	}
	got, err := captureCSV(ctx, src, *frames, stdout)
	cerr := src.Close()
	summary := fmt.Sprintf("ictal capture: %d frames", got)
	if stats != nil {
		summary += ", " + stats()
	}
	fmt.Fprintln(stderr, summary)
	if err != nil {
		return err
	}
	return cerr
}

// openCyton opens a Cyton (with daisy, 16 channels) on the serial port
// with every channel at gain.
func openCyton(ctx context.Context, port string, daisy bool, gain int, reset bool, stderr io.Writer) (*openbci.Source, error) {
	opts := openbci.DefaultOpts
	opts.Daisy = daisy
	opts.Reset = reset
	opts.Logger = slog.New(slog.NewTextHandler(stderr, nil))
	n := openbci.BoardChannels
	if daisy {
		n *= 2
	}
	opts.Gains = make([]int, n)
	for i := range opts.Gains {
		opts.Gains[i] = gain
	}
	return openbci.Open(ctx, port, &opts)
}

// captureCSV writes frames of src to w as CSV until limit frames (0: no
// limit) or until ctx is done, which ends the capture without error. It
// returns the number of frames written.
func captureCSV(ctx context.Context, src acquire.Source, limit int64, w io.Writer) (int64, error) {
	info := src.Info()
	bw := bufio.NewWriter(w)
	line := []byte("seq,time")
	for _, c := range info.Channels {
		line = append(line, ',')
		line = append(line, captureField(c.Label)...)
	}
	line = append(line, ",flags\n"...)
	if _, err := bw.Write(line); err != nil {
		return 0, err
	}
	// Flush about ten times a second so a live capture can be watched.
	every := max(int64(info.Rate/10), 1)
	f := acquire.NewFrame(len(info.Channels))
	var n int64
	for limit == 0 || n < limit {
		if err := src.ReadFrame(f); err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				break
			}
			bw.Flush()
			return n, err
		}
		line = strconv.AppendUint(line[:0], f.Seq, 10)
		line = append(line, ',')
		line = strconv.AppendFloat(line, f.Time.Seconds(), 'f', 3, 64)
		for _, v := range f.Samples {
			line = append(line, ',')
			line = strconv.AppendFloat(line, v, 'f', 4, 64) // a count is ≥ 0.02 µV
		}
		line = append(line, ',')
		line = append(line, f.Flags.String()...)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return n, err
		}
		n++
		if n%every == 0 {
			if err := bw.Flush(); err != nil {
				return n, err
			}
		}
	}
	return n, bw.Flush()
}

// captureField quotes a CSV header field when it needs it.
func captureField(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
