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
	"github.com/ictal/ictal/acquire/openbci"
)

// runCapture implements `ictal capture -source openbci -port PATH [-frames
// N] [-daisy] [-gain 24]`: frames as CSV on stdout (sequence, time in
// seconds, µV per channel, flags) until N frames or SIGINT/SIGTERM.
func runCapture(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("capture", "usage: ictal capture -source openbci -port PATH [-frames N] [-daisy] [-gain 24] [-no-reset]\n"+
		"Prints frames as CSV: a header line, then per frame its sequence number, its time in\n"+
		"seconds from the start, one value in µV per channel, and its flags (ok, or gap and/or\n"+
		"saturated joined by |). A gap means frames were lost; seq jumps by their number.\n"+
		"Connection events go to stderr; a lost link is reopened with back-off.", stderr)
	source := fs.String("source", "openbci", "hardware to read: openbci (a Cyton on its USB dongle)")
	port := fs.String("port", "", "serial port of the dongle, e.g. /dev/ttyUSB0 (required)")
	frames := fs.Int64("frames", 0, "stop after this many frames; 0 reads until SIGINT or SIGTERM")
	daisy := fs.Bool("daisy", false, "the Daisy module is attached: 16 channels at 125 Hz")
	gain := fs.Int("gain", openbci.DefaultGain, "ADS1299 gain the channels are set to: 1, 2, 4, 6, 8, 12 or 24")
	noReset := fs.Bool("no-reset", false, "do not soft-reset the board ('v') before streaming")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case *source != "openbci":
		return fmt.Errorf("-source %q: only openbci is supported", *source)
	case *port == "":
		return errors.New("-port is required")
	case *frames < 0:
		return fmt.Errorf("-frames %d: must be ≥ 0", *frames)
	}
	if _, err := openbci.Scale(*gain); err != nil {
		return fmt.Errorf("-gain: %w", err)
	}
	opts := openbci.DefaultOpts
	opts.Daisy = *daisy
	opts.Reset = !*noReset
	opts.Logger = slog.New(slog.NewTextHandler(stderr, nil))
	n := openbci.BoardChannels
	if *daisy {
		n *= 2
	}
	opts.Gains = make([]int, n)
	for i := range opts.Gains {
		opts.Gains[i] = *gain
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	src, err := openbci.Open(ctx, *port, &opts)
	if err != nil {
		return err
	}
	got, err := captureCSV(ctx, src, *frames, stdout)
	cerr := src.Close()
	st := src.Stats()
	fmt.Fprintf(stderr, "ictal capture: %d frames, %d lost, %d bytes skipped\n", got, st.Lost, st.Skipped)
	if err != nil {
		return err
	}
	return cerr
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
