package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ictal/ictal/acquire/recording"
	"github.com/ictal/ictal/internal/cli"
)

// runConvert implements `ictal convert IN OUT`: any recording ictal reads
// (EDF, BDF, OpenBCI GUI, BrainFlow) to EDF+ or BDF+.
func runConvert(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("convert", "usage: ictal convert [flags] IN OUT\n\nWrites the recording IN (EDF, EDF+, BDF, BDF+, OpenBCI GUI \"Raw EXG Data\" text, or\nBrainFlow CSV) to OUT as EDF+ (16-bit sources) or BDF+ (24-bit sources: BDF,\nOpenBCI), so that it opens in EDFbrowser or MNE. Markers and annotations\nbecome EDF+ annotations. Prints what it wrote as one JSON line.", stderr)
	labels := fs.String("labels", "", "comma-separated channel names (e.g. Fp1,Fp2,C3,C4,P7,P8,O1,O2) for files that do not name their electrodes")
	board := fs.String("board", "", "BrainFlow board (cyton, cyton-daisy, ganglion) instead of recognising it by column count")
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
	c, err := recording.Convert(fs.Arg(0), fs.Arg(1), opts)
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
