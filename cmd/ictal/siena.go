package main

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/ictal/ictal/acquire/edf"
	"github.com/ictal/ictal/internal/chbmit"
	"github.com/ictal/ictal/internal/siena"
)

// runSiena implements `ictal siena -data DIR [-patients LIST] [-workers N] [-text] [model flags]`.
func runSiena(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("siena", "usage: ictal siena -data DIR [-patients PN00,PN16] [-workers N] [-text] [model flags]\n\nThe protocol of ictal chbmit (patient-specific, leave one record out, SzCORE\nevent scores; see its -h) on the Siena Scalp EEG Database, laid out as on\nPhysioNet (DIR/PN00/Seizures-list-PN00.txt, DIR/PN00/PN00-1.edf, …). A\npatient's records are those its seizure list names, in the list's order,\nwith the seizures it gives, counted from each record's registration start\n(internal/siena); a list with a seizure outside its registration is an error\nnaming the line. Output as ictal chbmit's.", stderr)
	a := addProtocolFlags(fs, "`DIR` holding the database: PN00/Seizures-list-PN00.txt, PN00/PN00-1.edf, … (required)",
		"patients to evaluate, comma-separated (e.g. PN00,PN16; default: every PNnn folder in -data)")
	names, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	ps, err := sienaPatients(a.data, names)
	if err != nil {
		return err
	}
	warnStarts(ps, warnLogger(stderr))
	return leaveOneOut(ps, &a.mf, a.workers, a.text, stdout, stderr)
}

// sienaPatient is the name of a Siena patient's folder.
var sienaPatient = regexp.MustCompile(`^PN[0-9]+$`)

// sienaPatients reads the seizure lists of the patients under dir (those
// named, in that order, or every PNnn folder in name order) as the
// summaries the leave-one-out protocol runs on: one record per file the
// list names, in order of first mention, with its seizures.
func sienaPatients(dir string, names []string) ([]chbmit.Patient, error) {
	names, err := chbmit.Folders(dir, names, sienaPatient, "patient", "PN00", "PN01")
	if err != nil {
		return nil, fmt.Errorf("siena: %w", err)
	}
	var out []chbmit.Patient
	for _, name := range names {
		p := chbmit.Patient{Name: name, Dir: filepath.Join(dir, name)}
		p.List = filepath.Join(p.Dir, "Seizures-list-"+name+".txt")
		l, err := siena.ReadFile(p.List)
		if err != nil {
			return nil, fmt.Errorf("siena: patient %s: %w", name, err)
		}
		labels := make([]string, len(l.Channels))
		for k, c := range l.Channels {
			labels[k] = c.Label
		}
		p.Summary = &chbmit.Summary{Rate: l.Rate}
		for _, s := range l.Seizures {
			if slices.ContainsFunc(p.Summary.Files, func(f chbmit.File) bool { return f.Name == s.File }) {
				continue
			}
			iv, err := l.Intervals(s.File)
			if err != nil {
				return nil, err
			}
			// Start and End: the registration's times of day (End past
			// 24 h when it runs past midnight), as chbmit.File holds them.
			f := chbmit.File{Name: s.File, Channels: labels, Line: s.Line, HasTimes: true, Start: s.RegStart, End: s.RegEnd}
			if f.End < f.Start {
				f.End += 24 * time.Hour
			}
			for _, v := range iv {
				f.Seizures = append(f.Seizures, chbmit.Seizure{Start: v.Start, End: v.End})
			}
			p.Summary.Files = append(p.Summary.Files, f)
		}
		out = append(out, p)
	}
	return out, nil
}

// warnStarts logs each recording whose EDF header starts at another time
// of day than its list's registration (by more than a second): the list's
// times count from the registration, so its seizures are shifted by as
// much. A recording that cannot be opened is left to the protocol's own
// checks, which name it.
func warnStarts(ps []chbmit.Patient, log *slog.Logger) {
	for _, p := range ps {
		for _, f := range p.Summary.Files {
			r, err := edf.Open(p.Path(f))
			if err != nil {
				continue
			}
			warnStart(log, p.Path(f), p.List, r.Header().Start, f.Start)
			r.Close()
		}
	}
}

// warnStart logs a recording whose header starts (header; zero: not
// known) more than a second away from its list's registration start.
func warnStart(log *slog.Logger, file, list string, header time.Time, registration time.Duration) {
	if d := siena.Mismatch(header, registration); d != 0 && !header.IsZero() {
		log.Warn("the recording's header and its seizure list disagree on when it starts; seizures are placed from the list's time",
			slog.String("file", file), slog.String("header", header.Format("15:04:05")), slog.String("list", list), slog.Duration("header_minus_list", d))
	}
}
