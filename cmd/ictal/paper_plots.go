package main

import (
	"fmt"
	"io"
	"os"

	"github.com/ictal/ictal/internal/paper"
)

func runPaperPlots(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("paper plots", "usage: ictal paper plots -in FILE.jsonl... -o DIR\n"+
		"Draws the paper's figures as DIR/NAME.png and DIR/NAME.svg from whatever the inputs hold: auc_mean,\n"+
		"auc_diff and roc_satimage (cv), curve (curve), drift (drift). Prints the names written, one per line.", stderr)
	var in pathsFlag
	fs.Var(&in, "in", "JSON Lines from paper cv, drift or curve (repeatable; more files may follow)")
	out := fs.String("o", "", "`DIR` for the figures (created if needed)")
	alias(fs, "out", "o")
	if err := parseWithPaths(fs, args, &in); err != nil {
		return err
	}
	if len(in) == 0 || *out == "" {
		return fmt.Errorf("-in and -o are required")
	}
	var res paper.Results
	for _, p := range in {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = paper.ReadResults(f, p, &res)
		f.Close()
		if err != nil {
			return err
		}
	}
	names, err := paper.Plot(&res, *out)
	for _, n := range names {
		fmt.Fprintln(stdout, n)
	}
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("no cv, curve or drift records in %v", []string(in))
	}
	return nil
}
