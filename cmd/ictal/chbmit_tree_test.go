package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ictal/ictal/acquire/synth"
)

// chbRecordSpec is one synthetic record of a CHB-MIT-like tree.
type chbRecordSpec struct {
	name     string
	montage  []string        // "Channels in EDF Files" or "Channels changed" when it differs from the previous record's
	onsets   []time.Duration // seizures
	numbered bool            // "Seizure 1 Start Time:" rather than "Seizure Start Time:"
}

// chbTree is the synthetic database: chb01 keeps one montage and labels
// its seizures un-numbered; chb02 changes montage before its last record
// (dropping P7-O1 for an unused slot "-" and adding FZ-CZ) and numbers
// its seizures, two in one record; chb03's last record has a montage that
// shares no channel with the others' and is skipped.
var chbTree = map[string][]chbRecordSpec{
	"chb01": {
		{name: "chb01_01.edf", montage: []string{"FP1-F7", "F7-T7", "T7-P7", "P7-O1"}, onsets: []time.Duration{100 * time.Second}},
		{name: "chb01_02.edf"},
		{name: "chb01_03.edf", onsets: []time.Duration{60 * time.Second}},
	},
	"chb02": {
		{name: "chb02_01.edf", montage: []string{"FP1-F7", "F7-T7", "T7-P7", "P7-O1"}, onsets: []time.Duration{90 * time.Second}, numbered: true},
		{name: "chb02_02.edf", onsets: []time.Duration{30 * time.Second, 180 * time.Second}, numbered: true},
		{name: "chb02_03.edf", montage: []string{"FP1-F7", "-", "F7-T7", "T7-P7", "FZ-CZ"}, onsets: []time.Duration{120 * time.Second}, numbered: true},
	},
	"chb03": {
		{name: "chb03_01.edf", montage: []string{"FP1-F7", "F7-T7", "T7-P7"}, onsets: []time.Duration{80 * time.Second}},
		{name: "chb03_02.edf", onsets: []time.Duration{140 * time.Second}},
		{name: "chb03_03.edf", montage: []string{"FP1-CS2", "F7-CS2", "T7-CS2"}, onsets: []time.Duration{100 * time.Second}},
	},
}

// writeCHBTree writes chbTree under dir as PhysioNet lays out CHB-MIT:
// four-minute records made by ictal synth's code, and a summary per case
// in the database's format. It returns the seizures of each record, as
// the summary lists them.
func writeCHBTree(t *testing.T, dir string) map[string]int {
	t.Helper()
	seizures := map[string]int{}
	for c, caseNo := range []string{"chb01", "chb02", "chb03"} {
		folder := filepath.Join(dir, caseNo)
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		var sum bytes.Buffer
		sum.WriteString("Data Sampling Rate: 256 Hz\n*************************\n\n")
		clock := 11*time.Hour + 42*time.Minute + 54*time.Second
		for i, r := range chbTree[caseNo] {
			if r.montage != nil {
				if i == 0 {
					sum.WriteString("Channels in EDF Files:\n**********************\n")
				} else {
					sum.WriteString("Channels changed:\n*****************\n")
				}
				for k, l := range r.montage {
					fmt.Fprintf(&sum, "Channel %d: %s\n", k+1, l)
				}
				sum.WriteString("\n")
			}
			montage := r.montage
			for j := i; montage == nil; j-- {
				montage = chbTree[caseNo][j].montage
			}
			zs := writeCHBRecord(t, filepath.Join(folder, r.name), montage, r.onsets, uint64(10*c+i+1))
			end := clock + 4*time.Minute
			fmt.Fprintf(&sum, "File Name: %s\nFile Start Time: %s\nFile End Time: %s\nNumber of Seizures in File: %d\n", r.name, hms(clock), hms(end), len(zs))
			for k, z := range zs {
				label := "Seizure"
				if r.numbered {
					label = fmt.Sprintf("Seizure %d", k+1)
				}
				fmt.Fprintf(&sum, "%s Start Time: %d seconds\n%s End Time:  %d seconds\n", label, int(z.Start.Seconds()), label, int((z.End+time.Second-1)/time.Second))
			}
			sum.WriteString("\n")
			seizures[r.name] = len(zs)
			clock = end + 3*time.Second
		}
		writeFile(t, filepath.Join(folder, caseNo+"-summary.txt"), sum.String())
	}
	return seizures
}

// near reports whether sums of hours added in another order agree.
func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func hms(d time.Duration) string {
	s := int(d.Seconds())
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// writeCHBRecord writes a four-minute synthetic record with the montage's
// labels ("-" included) and seizures at onsets, as ictal synth does.
func writeCHBRecord(t *testing.T, path string, montage []string, onsets []time.Duration, seed uint64) []synth.Seizure {
	t.Helper()
	cfg := synth.DefaultConfig()
	cfg.Labels, cfg.Channels, cfg.Duration, cfg.Onsets, cfg.Seizures, cfg.Seed = montage, 0, 4*time.Minute, onsets, 0, seed
	cfg.SeizureMin, cfg.SeizureMax = 30*time.Second, 50*time.Second
	p, err := synth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := os.Create(path)
	if err == nil {
		_, err = writeSynth(f, p, new(bytes.Buffer)) // progress not wanted
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p.Seizures()
}
