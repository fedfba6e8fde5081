package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chbLine is any line of ictal chbmit's output.
type chbLine struct {
	Type             string   `json:"type"`
	Patient          string   `json:"patient"`
	File             string   `json:"file"`
	Training         int      `json:"training_records"`
	TrainingSeizures int      `json:"training_seizures"`
	Channels         any      `json:"channels"`
	Left             []string `json:"channels_left_out"`
	Duration         float64  `json:"duration_s"`
	Records          int      `json:"records"`
	Patients         int      `json:"patients"`
	Hours            float64  `json:"hours"`
	Seizures         int      `json:"seizures"`
	Detected         int      `json:"detected"`
	FalseAlarms      int      `json:"false_alarms"`
	Sensitivity      *float64 `json:"sensitivity"`
	SkippedRecords   int      `json:"skipped_records"`
	SkippedSeizures  int      `json:"skipped_seizures"`
	Reason           string   `json:"reason"`
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
	var lines []chbLine
	for _, l := range strings.Split(strings.TrimSpace(one), "\n") {
		var x chbLine
		if err := json.Unmarshal([]byte(l), &x); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		lines = append(lines, x)
	}
	var order []string
	for _, l := range lines {
		order = append(order, l.Type+" "+l.Patient+l.File)
	}
	want := "record chb01chb01_01.edf,record chb01chb01_02.edf,record chb01chb01_03.edf,patient chb01," +
		"record chb02chb02_01.edf,record chb02chb02_02.edf,record chb02chb02_03.edf,patient chb02," +
		"record chb03chb03_01.edf,record chb03chb03_02.edf,skipped chb03chb03_03.edf,patient chb03,overall "
	if got := strings.Join(order, ","); got != want {
		t.Fatalf("lines %s\nwant  %s", got, want)
	}
	var patient, all chbLine
	for _, l := range lines {
		switch l.Type {
		case "record":
			if l.Seizures != listed[l.File] {
				t.Errorf("%s: %d seizures scored, the summary lists %d", l.File, l.Seizures, listed[l.File])
			}
			others := 0
			for f, n := range listed {
				if f != l.File && strings.HasPrefix(f, l.Patient) {
					others += n
				}
			}
			if l.Patient == "chb03" { // chb03_03 is skipped
				others -= listed["chb03_03.edf"]
			}
			if wantTr := map[string]int{"chb01": 2, "chb02": 2, "chb03": 1}[l.Patient]; l.Training != wantTr || l.TrainingSeizures != others {
				t.Errorf("%s: trained on %d records with %d seizures, want %d with %d", l.File, l.Training, l.TrainingSeizures, wantTr, others)
			}
			if wantCh := map[string]float64{"chb01": 4, "chb02": 3, "chb03": 3}[l.Patient]; l.Channels != wantCh {
				t.Errorf("%s: %v channels, want %v", l.File, l.Channels, wantCh)
			}
			patient.Records++
			patient.Seizures += l.Seizures
			patient.Detected += l.Detected
			patient.FalseAlarms += l.FalseAlarms
			patient.Hours += l.Duration / 3600
		case "skipped":
			if l.File != "chb03_03.edf" || l.Seizures != listed[l.File] || !strings.Contains(l.Reason, "lacks 3 of the 3 channels used: FP1-F7 F7-T7 T7-P7") {
				t.Errorf("skipped %+v", l)
			}
			patient.SkippedRecords++
			patient.SkippedSeizures += l.Seizures
		case "patient":
			if l.Records != patient.Records || l.Seizures != patient.Seizures || l.Detected != patient.Detected ||
				l.FalseAlarms != patient.FalseAlarms || !near(l.Hours, patient.Hours) ||
				l.SkippedRecords != patient.SkippedRecords || l.SkippedSeizures != patient.SkippedSeizures {
				t.Errorf("%s: %+v, its records add up to %+v", l.Patient, l, patient)
			}
			all.Records += l.Records
			all.Seizures += l.Seizures
			all.Detected += l.Detected
			all.FalseAlarms += l.FalseAlarms
			all.Hours += l.Hours
			all.SkippedRecords += l.SkippedRecords
			all.SkippedSeizures += l.SkippedSeizures
			patient = chbLine{}
		case "overall":
			if l.Patients != 3 || l.Records != all.Records || l.Seizures != all.Seizures || l.Detected != all.Detected ||
				l.FalseAlarms != all.FalseAlarms || !near(l.Hours, all.Hours) ||
				l.SkippedRecords != 1 || l.SkippedSeizures != all.SkippedSeizures {
				t.Errorf("overall %+v, the patients add up to %+v", l, all)
			}
			if l.Seizures != 8 || l.Sensitivity == nil || *l.Sensitivity < 0.8 {
				t.Errorf("overall: %d of %d seizures detected, want at least 80%% of 8", l.Detected, l.Seizures)
			}
			t.Logf("overall: %d of %d seizures detected, %d false alarms in %.2f h", l.Detected, l.Seizures, l.FalseAlarms, l.Hours)
		}
	}
	chb02 := lines[7]
	if b, _ := json.Marshal([]any{chb02.Channels, chb02.Left}); string(b) != `[["FP1-F7","F7-T7","T7-P7"],["P7-O1","FZ-CZ"]]` {
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
