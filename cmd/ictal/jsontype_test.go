package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
)

// TestJSONLinesHaveTypes runs the commands that print JSON and checks
// that every line carries a "type" and that one type names one record
// kind: a type's lines have the same fields wherever they come from (up
// to fields left out when empty), and the kinds that used to share a
// type (replay's per-window "score" and ictal score's report) no longer
// do.
func TestJSONLinesHaveTypes(t *testing.T) {
	dir := t.TempDir()
	a, b, _ := synthFiles(t, dir)
	model, hyp := filepath.Join(dir, "m.model"), filepath.Join(dir, "hyp.jsonl")
	iris0 := datadir.Path(t, "data", "keel", "iris0.dat")
	chb := filepath.Join(dir, "chb")
	writeCHBTree(t, chb)
	sienaDir := filepath.Join(dir, "siena")
	writeSienaTree(t, sienaDir)
	runs := []struct {
		args  []string
		types []string // the types the command prints
	}{
		{[]string{"synth", "-o", filepath.Join(dir, "s.edf"), "-duration", "1m", "-seizures", "0", "-channels", "2"}, []string{"synth"}},
		{[]string{"edf", "info", a}, []string{"edf-info"}},
		{[]string{"convert", a, filepath.Join(dir, "a.bdf")}, []string{"convert"}},
		{[]string{"train", "-o", model, a}, []string{"channels", "file"}},
		{[]string{"model", "info", model}, []string{"model-info"}},
		{[]string{"replay", "-model", model, "-scores", b}, []string{"channels", "alert", "end", "status", "score", "file"}},
		{[]string{"score", "-ref", b, "-hyp", hyp}, []string{"evaluation"}},
		{[]string{"chbmit", "-data", chb, "-patients", "chb03"}, []string{"record", "skipped", "patient", "overall"}},
		{[]string{"siena", "-data", sienaDir, "-patients", "PN02"}, []string{"record", "patient", "overall"}},
		{[]string{"paper", "drift", "-streams", "sine1", "-learner", "nb", "-runs", "1", "-length", "300", "-ratio", "10", "-q"}, []string{"drift"}},
		{[]string{"paper", "cv", "-data", iris0, "-algorithm", "AC2", "-learner", "nb", "-mode", "online", "-folds", "2", "-points", "2", "-q"}, []string{"cv"}},
		{[]string{"paper", "curve", "-data", iris0, "-algorithm", "UOB", "-learner", "nb", "-mode", "online", "-fractions", "0.5", "-reps", "1", "-points", "2", "-q"}, []string{"curve"}},
	}
	fields := map[string]map[string]string{} // type → field set → command
	for _, r := range runs {
		out, errOut, code := runIctal(r.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", r.args, code, errOut)
		}
		if r.args[0] == "replay" {
			writeFile(t, hyp, out)
		}
		if r.args[0] == "model" {
			out = compact(t, out) // model info indents its one object
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%v: %v: %s", r.args, err, line)
			}
			typ, _ := m["type"].(string)
			if typ == "" {
				t.Errorf("%v: a line without a type: %.200s", r.args, line)
				continue
			}
			seen[typ] = true
			var keys []string
			for k := range m {
				switch k {
				case "start", "labels", "phase", "reason", "artifact", "channels": // left out when empty
				default:
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			set := strings.Join(keys, ",")
			if fields[typ] == nil {
				fields[typ] = map[string]string{}
			}
			fields[typ][set] = strings.Join(r.args[:1], " ")
		}
		for _, typ := range r.types {
			if !seen[typ] && typ != "end" && typ != "alert" && typ != "status" {
				t.Errorf("%v printed no %q line:\n%.500s", r.args, typ, out)
			}
		}
		for typ := range seen {
			if !contains(r.types, typ) {
				t.Errorf("%v printed a %q line, not one of %v", r.args, typ, r.types)
			}
		}
	}
	for typ, sets := range fields {
		if len(sets) > 1 {
			t.Errorf("type %q names different records: %v", typ, sets)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func compact(t *testing.T, s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b) + "\n"
}

func writeFile(t *testing.T, path, s string) {
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
