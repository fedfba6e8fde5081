package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// chbOutput is ictal chbmit's output, read back into its own types.
type chbOutput struct {
	order    []string // type and file or patient of each line
	records  []chbmitRecord
	skipped  []chbmitSkipped
	patients []chbmitPatient
	overall  chbmitOverall
}

func readCHBOutput(t *testing.T, out string) chbOutput {
	t.Helper()
	var o chbOutput
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var head struct{ Type, Patient, File string }
		err := json.Unmarshal([]byte(l), &head)
		switch head.Type {
		case "record":
			o.records = append(o.records, chbmitRecord{})
			err = errors.Join(err, json.Unmarshal([]byte(l), &o.records[len(o.records)-1]))
		case "skipped":
			o.skipped = append(o.skipped, chbmitSkipped{})
			err = errors.Join(err, json.Unmarshal([]byte(l), &o.skipped[len(o.skipped)-1]))
		case "patient":
			o.patients = append(o.patients, chbmitPatient{})
			err = errors.Join(err, json.Unmarshal([]byte(l), &o.patients[len(o.patients)-1]))
		default:
			err = errors.Join(err, json.Unmarshal([]byte(l), &o.overall))
		}
		if err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		o.order = append(o.order, head.Type+" "+head.Patient+head.File)
	}
	return o
}

// sum adds a record's or a patient's counts to s.
func (s *chbmitScore) sum(records, seizures, detected, falseAlarms int, hours float64, skipped, skippedSeizures int) {
	s.Records += records
	s.Seizures += seizures
	s.Detected += detected
	s.FalseAlarms += falseAlarms
	s.Hours += hours
	s.SkippedRecords += skipped
	s.SkippedSeizures += skippedSeizures
}

// sameCounts compares the counts of two scores, hours up to rounding.
func sameCounts(a, b chbmitScore) bool {
	a.Sensitivity, a.FAPerDay, a.MedianDelay, b.Sensitivity, b.FAPerDay, b.MedianDelay = nil, nil, nil, nil, nil, nil
	d := a.Hours - b.Hours
	a.Hours, b.Hours = 0, 0
	return a == b && d < 1e-9 && d > -1e-9
}

func TestCHBMITLeaveOneRecordOut(t *testing.T) {
	dir := t.TempDir()
	listed := writeCHBTree(t, dir)
	one, e1, c1 := runIctal("chbmit", "-data", dir, "-workers", "1")
	two, e2, c2 := runIctal("chbmit", "-data", dir, "-workers", "2")
	if c1 != 0 || c2 != 0 {
		t.Fatalf("exit %d, %d: %s\n%s", c1, c2, e1, e2)
	}
	if one != two {
		t.Errorf("-workers 1 and 2 differ:\n%s\n%s", one, two)
	}
	out := readCHBOutput(t, one)
	want := "record chb01chb01_01.edf,record chb01chb01_02.edf,record chb01chb01_03.edf,patient chb01," +
		"record chb02chb02_01.edf,record chb02chb02_02.edf,record chb02chb02_03.edf,patient chb02," +
		"record chb03chb03_01.edf,record chb03chb03_02.edf,skipped chb03chb03_03.edf,patient chb03,overall "
	if got := strings.Join(out.order, ","); got != want {
		t.Fatalf("lines %s\nwant  %s", got, want)
	}
	perPatient := map[string]*chbmitScore{}
	for _, p := range out.patients {
		perPatient[p.Patient] = &chbmitScore{}
	}
	for _, r := range out.records {
		if r.Seizures != listed[r.File] {
			t.Errorf("%s: %d seizures scored, the summary lists %d", r.File, r.Seizures, listed[r.File])
		}
		others := 0
		for f, n := range listed {
			if f != r.File && f != "chb03_03.edf" && strings.HasPrefix(f, r.Patient) { // chb03_03 is skipped
				others += n
			}
		}
		if wantTr := map[string]int{"chb01": 2, "chb02": 2, "chb03": 1}[r.Patient]; r.Training != wantTr || r.TrainingSeizures != others {
			t.Errorf("%s: trained on %d records with %d seizures, want %d with %d", r.File, r.Training, r.TrainingSeizures, wantTr, others)
		}
		if wantCh := map[string]int{"chb01": 4, "chb02": 3, "chb03": 3}[r.Patient]; r.Channels != wantCh {
			t.Errorf("%s: %d channels, want %d", r.File, r.Channels, wantCh)
		}
		perPatient[r.Patient].sum(1, r.Seizures, r.Detected, r.FalseAlarms, r.Duration/3600, 0, 0)
	}
	for _, s := range out.skipped {
		if s.File != "chb03_03.edf" || s.Seizures != listed[s.File] || !strings.Contains(s.Reason, "lacks 3 of the 3 channels used: FP1-F7 F7-T7 T7-P7") {
			t.Errorf("skipped %+v", s)
		}
		perPatient[s.Patient].sum(0, 0, 0, 0, 0, 1, s.Seizures)
	}
	var all chbmitScore
	var faDay []float64
	for _, p := range out.patients {
		if !sameCounts(p.chbmitScore, *perPatient[p.Patient]) {
			t.Errorf("%s: %+v, its records add up to %+v", p.Patient, p.chbmitScore, *perPatient[p.Patient])
		}
		all.sum(p.Records, p.Seizures, p.Detected, p.FalseAlarms, p.Hours, p.SkippedRecords, p.SkippedSeizures)
		faDay = append(faDay, *p.FAPerDay)
	}
	o := out.overall
	if o.Patients != 3 || !sameCounts(o.chbmitScore, all) || o.SkippedRecords != 1 {
		t.Errorf("overall %+v, the patients add up to %+v", o, all)
	}
	if slices.Sort(faDay); o.MedianFAPerDay == nil || *o.MedianFAPerDay != faDay[1] {
		t.Errorf("median of the patients' false alarms per 24 h %v, want %v", o.MedianFAPerDay, faDay[1])
	}
	if o.Seizures != 8 || o.Sensitivity == nil || *o.Sensitivity < 0.8 {
		t.Errorf("overall: %d of %d seizures detected, want at least 80%% of 8", o.Detected, o.Seizures)
	}
	t.Logf("overall: %d of %d seizures detected, %d false alarms in %.2f h", o.Detected, o.Seizures, o.FalseAlarms, o.Hours)
	if chb02 := out.patients[1]; fmt.Sprint(chb02.Channels, chb02.Left) != "[FP1-F7 F7-T7 T7-P7] [P7-O1 FZ-CZ]" {
		t.Errorf("chb02 channels %v, left out %v", chb02.Channels, chb02.Left)
	}

	text, errOut, code := runIctal("chbmit", "-data", dir, "-patients", "chb02", "-text")
	if code != 0 {
		t.Fatal(errOut)
	}
	for _, w := range []string{"patient", "sensitivity", "chb02", "overall (1)", "chb02: 3 channels used (FP1-F7 F7-T7 T7-P7); left out: P7-O1 FZ-CZ"} {
		if !strings.Contains(text, w) {
			t.Errorf("-text lacks %q:\n%s", w, text)
		}
	}
}

// TestCHBMITErrorsNameTheFile: what is missing or does not fit is named
// before anything is trained.
func TestCHBMITErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	writeCHBTree(t, dir)
	if err := os.Remove(filepath.Join(dir, "chb02", "chb02_02.edf")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing EDF", nil, "chb02_02.edf, listed at " + filepath.Join(dir, "chb02", "chb02-summary.txt") + ":18, is missing"},
		{"missing summary", []string{"-patients", "chb01,chb07"}, filepath.Join(dir, "chb07", "chb07-summary.txt")},
		{"channel not in a record", []string{"-patients", "chb01", "-channels", "FP1-F7,FZ-CZ"}, `chb01_01.edf (listed at ` + filepath.Join(dir, "chb01", "chb01-summary.txt") + `:11)`},
		{"bad case name", []string{"-patients", "chb01,x"}, `case "x"`},
		{"no data", []string{"-data", ""}, "-data is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runIctal(append([]string{"chbmit", "-data", dir}, tt.args...)...)
			if code != 1 || !strings.Contains(errOut, tt.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errOut, tt.want)
			}
		})
	}
}
