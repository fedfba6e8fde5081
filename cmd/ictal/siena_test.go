package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sienaTree is a synthetic Siena-like database: each patient's records
// (4 minutes, ictal synth's code) with their seizures' onsets, and the
// time of day its registration starts. PN01's second record holds two
// seizures, listed as two entries; its third runs past midnight.
var sienaTree = map[string][]struct {
	name   string
	start  time.Duration
	onsets []time.Duration
}{
	"PN01": {
		{"PN01-1.edf", 19*time.Hour + 39*time.Minute + 33*time.Second, []time.Duration{100 * time.Second}},
		{"PN01-2.edf", 2*time.Hour + 18*time.Minute + 17*time.Second, []time.Duration{20 * time.Second, 180 * time.Second}},
		{"PN01-3.edf", 23*time.Hour + 58*time.Minute, []time.Duration{150 * time.Second}},
	},
	"PN02": {
		{"PN02-1.edf", 8 * time.Hour, []time.Duration{60 * time.Second}}, // as the synthetic header says
		{"PN02-2.edf", 11 * time.Hour, []time.Duration{130 * time.Second}},
	},
}

// writeSienaTree writes sienaTree under dir as PhysioNet lays out the
// Siena database, each list in its real format (a title line, CRLF after
// the channel lines, channels the records do not hold, "Seizure n N"
// headers, hh.mm.ss times of day), and returns the seizures per record.
func writeSienaTree(t *testing.T, dir string) map[string]int {
	t.Helper()
	montage := []string{"Fp1", "F3", "C3", "P3"}
	listed := map[string]int{}
	for p, patient := range []string{"PN01", "PN02"} {
		folder := filepath.Join(dir, patient)
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		var l bytes.Buffer
		fmt.Fprintf(&l, "%s\n\nData Sampling Rate: 256 Hz\n\nChannels in EDF files:\n", patient)
		for k, c := range append(montage, "1", "EKG 1") {
			fmt.Fprintf(&l, "Channel %d: %s      \r\n", k+1, c)
		}
		n := 0
		for i, r := range sienaTree[patient] {
			zs := writeCHBRecord(t, filepath.Join(folder, r.name), montage, r.onsets, uint64(10*p+i+1))
			for _, z := range zs {
				n++
				fmt.Fprintf(&l, "\n\nSeizure n %d\nFile name: %s\nRegistration start time: %s\nRegistration end time: %s\nSeizure start time: %s\nSeizure end time: %s\n",
					n, r.name, dots(r.start), dots(r.start+4*time.Minute), dots(r.start+z.Start.Truncate(time.Second)), dots(r.start+z.End.Truncate(time.Second)+time.Second))
			}
			listed[r.name] = len(zs)
		}
		writeFile(t, filepath.Join(folder, "Seizures-list-"+patient+".txt"), l.String())
	}
	return listed
}

// dots writes a time of day as the Siena lists do.
func dots(d time.Duration) string {
	return strings.ReplaceAll(hms(d%(24*time.Hour)), ":", ".")
}

func TestSienaLeaveOneRecordOut(t *testing.T) {
	dir := t.TempDir()
	listed := writeSienaTree(t, dir)
	stdout, stderr, code := runIctal("siena", "-data", dir, "-workers", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := readCHBOutput(t, stdout)
	want := "record PN01PN01-1.edf,record PN01PN01-2.edf,record PN01PN01-3.edf,patient PN01,record PN02PN02-1.edf,record PN02PN02-2.edf,patient PN02,overall "
	if got := strings.Join(out.order, ","); got != want {
		t.Fatalf("lines %s\nwant  %s", got, want)
	}
	total := 0
	for _, r := range out.records {
		if r.Seizures != listed[r.File] || r.Channels != 4 || r.Training != len(sienaTree[r.Patient])-1 {
			t.Errorf("%s: %d seizures scored (listed %d), %d channels, %d training records", r.File, r.Seizures, listed[r.File], r.Channels, r.Training)
		}
		total += r.Seizures
	}
	if total != 6 || out.overall.Seizures != total || out.overall.Records != 5 || out.overall.Detected == 0 {
		t.Errorf("overall %+v, %d seizures in the records", out.overall, total)
	}
	for _, p := range out.patients {
		if strings.Join(p.Channels, ",") != "Fp1,F3,C3,P3" {
			t.Errorf("%s: channels %v, want the list's EEG channels", p.Patient, p.Channels)
		}
	}
	// The synthetic records' headers start at 08:00:00: every other
	// registration time is warned about, once per record.
	for _, f := range []string{"PN01-1.edf", "PN01-2.edf", "PN01-3.edf", "PN02-1.edf", "PN02-2.edf"} {
		n := strings.Count(stderr, f+" header=08:00:00")
		if want := map[bool]int{true: 0, false: 1}[f == "PN02-1.edf"]; n != want {
			t.Errorf("%s: %d warnings of a start that disagrees with the list, want %d:\n%s", f, n, want, stderr)
		}
	}

	// A seizure outside its registration, a missing list, a bad name.
	list := filepath.Join(dir, "PN02", "Seizures-list-PN02.txt")
	b, _ := os.ReadFile(list)
	writeFile(t, list, strings.Replace(string(b), "Seizure end time: 11.0", "Seizure end time: 12.0", 1))
	if _, stderr, code := runIctal("siena", "-data", dir, "-patients", "PN02"); code != 1 || !strings.Contains(stderr, "Seizures-list-PN02.txt:22: seizure 2 of PN02-2.edf") || !strings.Contains(stderr, "does not lie within its registration") {
		t.Errorf("a seizure outside its registration: %d %s", code, stderr)
	}
	os.Remove(list)
	if _, stderr, code := runIctal("siena", "-data", dir, "-patients", "PN02"); code != 1 || !strings.Contains(stderr, "Seizures-list-PN02.txt: no such file") {
		t.Errorf("a missing list: %d %s", code, stderr)
	}
	if _, stderr, code := runIctal("siena", "-data", dir, "-patients", "chb01"); code != 1 || !strings.Contains(stderr, `patient "chb01": want a name such as PN00`) {
		t.Errorf("a bad name: %d %s", code, stderr)
	}
}
