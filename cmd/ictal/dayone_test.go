package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
	"github.com/ictal/ictal/internal/modelfile"
)

// TestDayOneQuietOnRealNonSeizureEEG: `ictal replay -learn off FILE`,
// with no -model (the day-one model), raises no alert on the real
// recordings of people without seizures stored in ../shared: the OpenBCI
// Cyton session (blinks, jaw clenches, alpha), the OpenBCI sleep
// recording, and the clinical exports among the EDF conformance files;
// and it scores their usable windows, on any montage and rate.
func TestDayOneQuietOnRealNonSeizureEEG(t *testing.T) {
	for _, f := range []struct {
		path   []string
		usable bool // long and clean enough for usable windows
	}{
		{[]string{"openbci", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"}, true},
		{[]string{"edf-conformance", "mne-testing-data", "multiple_annotation_chans.bdf"}, true},
		{[]string{"edf-conformance", "mne-testing-data", "chtypes_edf.edf"}, false},
		{[]string{"edf-conformance", "mne-python", "test_edf_stim_channel.edf"}, true},
		{[]string{"edf-conformance", "mne-python", "duplicate_channel_labels.edf"}, true},
	} {
		path := datadir.Path(t, append([]string{"data", "eeg"}, f.path...)...)
		var out, errb bytes.Buffer
		if code := run([]string{"replay", "-learn", "off", path}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", path, code, errb.String())
		}
		var file struct {
			Alerts, Channels int
			Usable           int64
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, `"type":"alert"`) {
				t.Errorf("%s: alert %s", f.path[len(f.path)-1], line)
			}
			if strings.Contains(line, `"type":"file"`) {
				if err := json.Unmarshal([]byte(line), &file); err != nil {
					t.Fatal(err)
				}
			}
		}
		if file.Channels == 0 || f.usable && file.Usable == 0 {
			t.Errorf("%s: %d channels, %d usable windows scored", f.path[len(f.path)-1], file.Channels, file.Usable)
		}
	}
}

// TestTrainFromDayOne: `train -from dayone` adapts the day-one model to a
// patient's recordings of any montage (4 channels, then 8: a per-channel
// model fits both), keeps its scoring, rule and provenance, records the
// patient's baseline, and replay scores with the result.
func TestTrainFromDayOne(t *testing.T) {
	dir := t.TempDir()
	a, b, c8 := synthFiles(t, dir)
	model := filepath.Join(dir, "p.model")
	mustRun(t, []string{"train", "-from", "dayone", "-o", model, a, c8})
	meta, _, err := modelfile.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if !meta.PerChannel() || meta.Rule == nil || len(meta.Training) != 7 || meta.Training[0].File != "bonn/Z" || meta.Training[6].File != "c8.edf" {
		t.Errorf("adapted model's record: per channel %v, rule %v, training %+v", meta.PerChannel(), meta.Rule, meta.Training)
	}
	if bl := meta.Scoring.Baseline; bl == nil || bl.Channels != 8 {
		t.Errorf("baseline %+v: want the last recording's 8 channels", bl)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"replay", "-learn", "off", "-model", model, b}, &out, &errb); code != 0 || !strings.Contains(out.String(), `"type":"file"`) {
		t.Errorf("replay with the adapted model: %d %s", code, errb.String())
	}
	if code := run([]string{"train", "-from", "yesterday", "-o", model, a}, &out, &errb); code == 0 || !strings.Contains(errb.String(), `-from "yesterday"`) {
		t.Errorf("train -from yesterday: %d %s", code, errb.String())
	}
}

// TestDayOneCensors: `ictal bonn day-one -censors LIST` tries exactly the
// bounds listed, reports each one's out-of-fold result, reports and
// stores the chosen one (its scoring's bound, the command in the
// provenance), and refuses a list with a bound that is not one.
func TestDayOneCensors(t *testing.T) {
	data := datadir.Path(t, "data", "eeg", "bonn")
	path := filepath.Join(t.TempDir(), "q.model")
	var out, errb bytes.Buffer
	if code := run([]string{"bonn", "day-one", "-data", data, "-half", "aa", "-censors", "0,1", "-o", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r dayOneReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Censors) != 2 || r.Censors[0].Censor != 0 || r.Censors[1].Censor != 1 {
		t.Fatalf("censors tried: %+v, want 0 and 1", r.Censors)
	}
	chosen := r.Censors[0]
	if r.Censor == 1 {
		chosen = r.Censors[1]
	}
	if r.censorReport != chosen || r.OOFWindowAUC < 0.9 || r.RuleSensitivity < 0.95 {
		t.Errorf("chosen %+v, the report's %+v", chosen, r.censorReport)
	}
	meta, _, err := modelfile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Scoring == nil || meta.Scoring.Censor != r.Censor || !strings.HasSuffix(meta.Program, " -censors 0,1") ||
		meta.Rule == nil || meta.Rule.Threshold != r.Threshold {
		t.Errorf("the file records scoring %+v, rule %+v, program %q; the report censor %v, threshold %v", meta.Scoring, meta.Rule, meta.Program, r.Censor, r.Threshold)
	}
	errb.Reset()
	if code := run([]string{"bonn", "day-one", "-data", data, "-half", "aa", "-censors", "0,-1", "-o", path}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "-censors") {
		t.Errorf("-censors 0,-1: exit %d, %q", code, errb.String())
	}
	// LDA members' evidence cannot be censored: by default none is tried,
	// and a bound asked for is refused with the reason.
	out.Reset()
	if code := run([]string{"bonn", "day-one", "-data", data, "-half", "aa", "-learner", "lda", "-o", path}, &out, &errb); code != 0 {
		t.Fatalf("-learner lda: exit %d: %s", code, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || len(r.Censors) != 1 || r.Censor != 0 {
		t.Errorf("-learner lda: censors %+v, chosen %v (%v)", r.Censors, r.Censor, err)
	}
	errb.Reset()
	if code := run([]string{"bonn", "day-one", "-data", data, "-half", "aa", "-learner", "lda", "-censors", "0,1", "-o", path}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "naive-Bayes") {
		t.Errorf("-learner lda -censors 0,1: exit %d, %q", code, errb.String())
	}
}
