package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lastLine decodes the last JSON line of out into v.
func lastLine(t *testing.T, out []byte, v any) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), v); err != nil {
		t.Fatalf("%s: %v", lines[len(lines)-1], err)
	}
}

// TestReplayLabelsAndScore replays a recording with its seizures taken
// from a CHB-MIT summary, then rescores the saved output with ictal score
// against the summary's seizures written as an events.tsv: both must agree.
func TestReplayLabelsAndScore(t *testing.T) {
	dir := t.TempDir()
	rec, summary, out := filepath.Join(dir, "chb99_01.edf"), filepath.Join(dir, "chb99-summary.txt"), filepath.Join(dir, "out.jsonl")
	mustRun(t, []string{"synth", "-o", rec, "-duration", "12m", "-seizures", "2", "-seed", "5", "-channels", "4"})
	// The summary lists three seizures (the file's own annotations say two).
	txt := "Data Sampling Rate: 256 Hz\nChannels in EDF Files:\nChannel 1: A-B\n\nFile Name: chb99_01.edf\nFile Start Time: 23:59:00\nFile End Time: 24:11:00\nNumber of Seizures in File: 3\n" +
		"Seizure 1 Start Time: 60 seconds\nSeizure 1 End Time:  90 seconds\nSeizure 2 Start Time: 300 seconds\nSeizure 2 End Time: 330 seconds\nSeizure 3 Start Time: 600 seconds\nSeizure 3 End Time: 640 seconds\n"
	if err := os.WriteFile(summary, []byte(txt), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"replay", "-learn", "annotations", "-labels", summary, rec}, &stdout, &stderr); code != 0 {
		t.Fatalf("replay: %s", stderr.String())
	}
	if err := os.WriteFile(out, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var rep fileReport
	lastLine(t, stdout.Bytes(), &rep)
	if rep.Seizures != 3 || rep.Labels != summary || rep.LearnedPos == 0 || rep.Learn != "annotations" {
		t.Fatalf("replay with -labels: %+v", rep)
	}
	tsv := filepath.Join(dir, "ref.tsv")
	os.WriteFile(tsv, []byte("onset\tduration\teventType\n60\t30\tsz\n300\t30\tsz\n600\t40\tsz\n"), 0o644)
	stdout.Reset()
	if code := run([]string{"score", "-ref", tsv, "-hyp", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("score: %s", stderr.String())
	}
	var sc scoreReport
	lastLine(t, stdout.Bytes(), &sc)
	if sc.Seizures != 3 || sc.Detected != rep.Detected || sc.FalseAlarms != rep.FalseAlarms || sc.Duration != rep.Duration {
		t.Errorf("score %+v disagrees with replay %+v", sc, rep)
	}
	// Against the file's own annotations (two seizures).
	stdout.Reset()
	if code := run([]string{"score", "-ref", rec, "-hyp", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("score: %s", stderr.String())
	}
	lastLine(t, stdout.Bytes(), &sc)
	if sc.Seizures != 2 || sc.Duration != 720 {
		t.Errorf("score against EDF+ annotations: %+v", sc)
	}
	// A recording the summary does not list.
	stderr.Reset()
	other := filepath.Join(dir, "chb99_02.edf")
	os.Link(rec, other)
	if code := run([]string{"replay", "-labels", summary, other}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "does not list chb99_02.edf") {
		t.Errorf("unlisted file: %d %s", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"score", "-ref", tsv}, &stdout, &stderr); code != 1 {
		t.Errorf("score without -hyp: %d", code)
	}
}

// TestReplaySienaLabels: -labels takes a Siena seizure list as well, its
// times of day counted from the recording's registration start (the
// synthetic recordings start at 08:00:00, as the list says of PN99-1);
// one that the list says starts at another time is replayed with a
// warning saying by how much.
func TestReplaySienaLabels(t *testing.T) {
	dir := t.TempDir()
	rec, list := filepath.Join(dir, "PN99-1.edf"), filepath.Join(dir, "Seizures-list-PN99.txt")
	mustRun(t, []string{"synth", "-o", rec, "-duration", "12m", "-seizures", "0", "-seed", "5", "-channels", "4"})
	seizure := func(n int, file, reg, regEnd, start, end string) string {
		return fmt.Sprintf("Seizure n %d\r\nFile name: %s\nRegistration start time: %s\nRegistration end time: %s\nSeizure start time: %s\nSeizure end time: %s\n\n", n, file, reg, regEnd, start, end)
	}
	txt := "PN99\n\nData Sampling Rate: 256 Hz\n\nChannels in EDF files:\nChannel 1: Fp1\n\n" +
		seizure(1, "PN99-1.edf", "08.00.00", "08.12.00", "08.01.00", "08.01.30") + seizure(2, "PN99-1.edf", "08.00.00", "08.12.00", "08.07.00", "08.07.40") +
		seizure(3, "PN99-2.edf", "23.55.00", "00.07.00", "23.58.00", "00.10.00") +
		seizure(4, "PN99-4.edf", "23.55.00", "00.07.00", "23.58.00", "00.01.00")
	if err := os.WriteFile(list, []byte(txt), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"replay", "-learn", "off", "-labels", list, rec}, &stdout, &stderr); code != 0 {
		t.Fatalf("replay: %s", stderr.String())
	}
	var rep fileReport
	lastLine(t, stdout.Bytes(), &rep)
	if rep.Seizures != 2 || rep.Labels != list || rep.Duration != 720 || strings.Contains(stderr.String(), "disagree") {
		t.Fatalf("replay with a Siena list: %+v\n%s", rep, stderr.String())
	}
	// The same recording under other names the list gives other entries.
	for _, tt := range []struct {
		name, why string
		code      int
		want      []string
	}{
		{"PN99-2.edf", "a seizure outside its registration: refused, naming the line", 1,
			[]string{"Seizures-list-PN99.txt:22: seizure 3 of PN99-2.edf, 23.58.00–00.10.00, does not lie within its registration"}},
		{"PN99-4.edf", "the list says 23:55:00, the header 08:00:00: replayed, with a warning", 0,
			[]string{"disagree on when it starts", "header_minus_list=8h5m0s"}},
		{"PN99-3.edf", "a recording the list does not name", 1, []string{"PN99-3.edf: not in the seizure list"}},
	} {
		path := filepath.Join(dir, tt.name)
		os.Link(rec, path)
		stdout.Reset()
		stderr.Reset()
		code := run([]string{"replay", "-learn", "off", "-labels", list, path}, &stdout, &stderr)
		for _, w := range tt.want {
			if code != tt.code || !strings.Contains(stderr.String(), w) {
				t.Errorf("%s (%s): exit %d, want %d and %q in:\n%s", tt.name, tt.why, code, tt.code, w, stderr.String())
			}
		}
	}
}
