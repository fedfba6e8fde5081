package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ictal/ictal/acquire/recording"
	"github.com/ictal/ictal/acquire/resample"
	"github.com/ictal/ictal/internal/cli"
)

const convertUsage = `usage: ictal convert [flags] IN OUT

Writes the recording IN (EDF, EDF+, BDF, BDF+, OpenBCI GUI "Raw EXG Data" text, or
BrainFlow CSV) to OUT as EDF+ (16-bit sources) or BDF+ (24-bit sources: BDF,
OpenBCI), so that it opens in EDFbrowser or MNE. Markers and annotations
become EDF+ annotations. Prints what it wrote as one JSON line.

With -rate R every signal is resampled to R Hz (1 to 65536; a decimal such as
173.61 or a fraction such as 20485/118) by a band-limited Kaiser-windowed-sinc
filter (acquire/resample: Smith & Gossett's interpolation, ICASSP 1984, and
Crochiere & Rabiner's polyphase structure for small ratios, 1983): flat to
0.45 × the lower rate, at least 60 dB down from half the lower rate, so nothing
above the new Nyquist frequency aliases, and no delay: an event or annotation
at t s stays at t s. A data record lasts the rate's denominator in seconds
(1 s for 256, 2 s for 100.5, 100 s for 173.61; the last record is padded).`

// runConvert implements `ictal convert IN OUT`: any recording ictal reads
// (EDF, BDF, OpenBCI GUI, BrainFlow) to EDF+ or BDF+, at its own rate or
// resampled to -rate.
func runConvert(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("convert", convertUsage, stderr)
	labels := fs.String("labels", "", "comma-separated channel names (e.g. Fp1,Fp2,C3,C4,P7,P8,O1,O2) for files that do not name their electrodes")
	board := fs.String("board", "", "BrainFlow board (cyton, cyton-daisy, ganglion) instead of recognising it by column count")
	rateFlag := fs.String("rate", "", "resample every signal to `R` Hz, 1 to 65536 (e.g. 100, 256, 173.61); empty: keep the source's rate")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return fmt.Errorf("want IN and OUT, got %d arguments", fs.NArg())
	}
	opts := &recording.Opts{Board: *board}
	if *labels != "" {
		opts.Labels = strings.Split(*labels, ",")
	}
	var c recording.Converted
	var err error
	if *rateFlag == "" {
		c, err = recording.Convert(fs.Arg(0), fs.Arg(1), opts)
	} else {
		var rate resample.Rate
		if rate, err = parseRate(*rateFlag); err != nil {
			return err
		}
		c, err = recording.ConvertAt(fs.Arg(0), fs.Arg(1), rate, opts)
	}
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(struct {
		Type string `json:"type"`
		In   string `json:"in"`
		Out  string `json:"out"`
		recording.Converted
	}{"convert", fs.Arg(0), fs.Arg(1), c})
}

// parseRate reads the -rate flag: a rate recording.ConvertAt can write
// (recording.MinRate to recording.MaxRate Hz, whole samples in a record).
func parseRate(s string) (resample.Rate, error) {
	r, err := resample.ParseRate(s)
	if err != nil {
		return r, fmt.Errorf("-rate %q: want a rate in Hz from %d to %d such as 100, 173.61 or 20485/118 (%v)", s, recording.MinRate, recording.MaxRate, err)
	}
	if _, _, err := recording.RecordFor(r); err != nil {
		return r, fmt.Errorf("-rate %s: %w", s, err)
	}
	return r, nil
}
