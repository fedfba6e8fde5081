package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
)

// TestReplayRefusesUnboundedCost checks that settings beyond the
// classifier's bounds are refused before any work, naming the flag:
// `ictal replay -algorithm SB -c 1e10` used to run for 655 s, deaf to
// SIGTERM.
func TestReplayRefusesUnboundedCost(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "a.edf")
	mustRun(t, []string{"synth", "-o", rec, "-duration", "2m", "-seizures", "0", "-channels", "2"})
	var out, errb bytes.Buffer
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-algorithm", "SB", "-c", "1e10"}, "-c 1e+10: want a cost in [0.001, 1000]"},
		{[]string{"-algorithm", "SBO1", "-c", "1e-9"}, "-c 1e-09: want a cost in [0.001, 1000]"},
		{[]string{"-algorithm", "AC2", "-cn", "1e-6"}, "-cn 1e-06: want a cost in [0.001, 1000]"},
		{[]string{"-members", "5000"}, "-members 5000: want 1..1024"},
	}
	for _, tt := range tests {
		out.Reset()
		errb.Reset()
		args := append(append([]string{"replay", "-learn", "annotations"}, tt.args...), rec)
		if code := run(args, &out, &errb); code == 0 {
			t.Errorf("%v: accepted", tt.args)
			continue
		}
		if msg := errb.String(); !strings.Contains(msg, tt.want) || strings.Contains(msg, "Config.") {
			t.Errorf("%v: %q, want it to name the flag: %q", tt.args, msg, tt.want)
		}
	}
}

// TestReplayStopsOnSIGTERM replays a recording with the costliest
// configuration the bounds accept, SBO1 of as many qda members as the work
// bound allows with the smallest C, learning from labels that make every
// window after the first one or two a positive, so that every Learn's
// synthetic draws hit their cap; it sends SIGTERM once the pipeline is
// running: replay must stop between windows and report the part it
// replayed, well before the recording's end. (When the signal lands
// relative to the first positive depends on scheduling, so the test does
// not require one: TestFinalCheckpointAfterCancelWhileLearning in
// internal/pipeline cancels after positives deterministically.)
func TestReplayStopsOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	rec, labels := filepath.Join(dir, "a.edf"), filepath.Join(dir, "summary.txt")
	mustRun(t, []string{"synth", "-o", rec, "-duration", "30m", "-seizures", "0", "-channels", "4"})
	summary := "Data Sampling Rate: 256 Hz\nChannels in EDF Files:\nChannel 1: FP1-F7\n\n" +
		"File Name: a.edf\nNumber of Seizures in File: 1\nSeizure Start Time: 2 seconds\nSeizure End Time: 1795 seconds\n"
	if err := os.WriteFile(labels, []byte(summary), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := features.Config{Channels: 4, Rate: 256}.Dim()
	if err != nil {
		t.Fatal(err)
	}
	members := classifier.MaxMembers
	for ; members > 1; members /= 2 {
		if _, err := classifier.New(classifier.Config{Algorithm: "SBO1", Learner: "qda", Features: d, Members: members, C: 1.0 / classifier.MaxCost}); err == nil {
			break
		}
	}
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"replay", "-learn", "annotations", "-labels", labels, "-artifacts=false", "-algorithm", "SBO1", "-learner", "qda",
			"-members", fmt.Sprint(members), "-c", "0.001", rec}, pw, &stderr)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	if !sc.Scan() { // the first status line: the pipeline runs, the handler is installed
		t.Fatalf("no output: %s", stderr.String())
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var sum fileReport
	for sc.Scan() {
		var r fileReport
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Type == "file" {
			sum = r
		}
	}
	if code := <-done; code != 0 {
		t.Fatalf("exit %d after SIGTERM: %s", code, stderr.String())
	}
	const total = 30*60 - 1 // 2 s windows every second
	if sum.Type != "file" || sum.Windows >= total {
		t.Fatalf("summary %+v: want one covering fewer than the recording's %d windows", sum, total)
	}
	t.Logf("SBO1 with %d qda members at d = %d: stopped after %d of %d windows (%d+ %d- learned)", members, d, sum.Windows, total, sum.LearnedPos, sum.LearnedNeg)
}

// TestReplayWorkersGiveTheLinesOfOne replays three recordings, with
// seizures, learning from their annotations (so that each starts from the
// same model and the lines depend on it), by one worker and by three: the
// lines are the same, in the order of the arguments, but for the time the
// replay took (elapsed_s, x_realtime) and the alerts' random ids. Several
// recordings with -o are refused.
func TestReplayWorkersGiveTheLinesOfOne(t *testing.T) {
	dir := t.TempDir()
	var recs []string
	for i, seed := range []string{"3", "1", "2"} {
		rec := filepath.Join(dir, fmt.Sprintf("r%d.edf", i))
		mustRun(t, []string{"synth", "-o", rec, "-duration", "6m", "-seizures", "1", "-channels", "2", "-seed", seed})
		recs = append(recs, rec)
	}
	replay := func(workers string) []map[string]any {
		t.Helper()
		var out, errb bytes.Buffer
		args := append([]string{"replay", "-learn", "annotations", "-scores", "-workers", workers}, recs...)
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("-workers %s: %s", workers, errb.String())
		}
		var lines []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			for _, k := range []string{"elapsed_s", "x_realtime", "id", "alert_id"} {
				delete(m, k)
			}
			lines = append(lines, m)
		}
		return lines
	}
	one, three := replay("1"), replay("3")
	if len(one) != len(three) {
		t.Fatalf("%d lines with one worker, %d with three", len(one), len(three))
	}
	var files []string
	for i := range one {
		a, _ := json.Marshal(one[i])
		b, _ := json.Marshal(three[i])
		if !bytes.Equal(a, b) {
			t.Fatalf("line %d: one worker %s, three %s", i, a, b)
		}
		if one[i]["type"] == "file" {
			files = append(files, one[i]["file"].(string))
		}
	}
	if strings.Join(files, " ") != strings.Join(recs, " ") {
		t.Errorf("file records for %v, want %v in order", files, recs)
	}
	var out, errb bytes.Buffer
	if code := run(append([]string{"replay", "-o", filepath.Join(dir, "m.model")}, recs...), &out, &errb); code == 0 || !strings.Contains(errb.String(), "-o takes one recording") {
		t.Errorf("-o with several recordings: exit %d, %s", code, errb.String())
	}
}
