package eval

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
)

const szcoreTSV = "onset\tduration\teventType\tconfidence\tchannels\tdateTime\trecordingDuration\n" +
	"296.0\t40.5\tsz\tn/a\tn/a\t2024-01-01 08:00:00\t3600.0\n" +
	"1200\t20\tsz_foc_a\t0.9\tFp1,F7\t2024-01-01 08:00:00\t3600.0\n"

func TestReadTSV(t *testing.T) {
	rec, err := ReadTSV(strings.NewReader(szcoreTSV), "sub-01_events.tsv")
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{{Start: 296 * s, End: 336500 * time.Millisecond}, {Start: 1200 * s, End: 1220 * s}}
	if len(rec.Events) != 2 || rec.Events[0] != want[0] || rec.Events[1] != want[1] {
		t.Errorf("events %v, want %v", rec.Events, want)
	}
	if rec.Duration != time.Hour || !rec.Start.Equal(time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("duration %v start %v", rec.Duration, rec.Start)
	}
	bg, err := ReadTSV(strings.NewReader("onset\tduration\teventType\tconfidence\tchannels\tdateTime\trecordingDuration\r\n0\t600\tbckg\tn/a\tn/a\tn/a\t600\r\n"), "bg.tsv")
	if err != nil || len(bg.Events) != 0 || bg.Duration != 10*time.Minute {
		t.Errorf("background-only file: %+v, %v", bg, err)
	}
}

func TestTSVRoundTrip(t *testing.T) {
	rec := Recording{Events: []Event{{Start: 10 * s, End: 70 * s}}, Duration: time.Hour, Start: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)}
	var b bytes.Buffer
	if err := WriteTSV(&b, rec); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTSV(&b, "rt.tsv")
	if err != nil || len(got.Events) != 1 || got.Events[0] != rec.Events[0] || got.Duration != rec.Duration || !got.Start.Equal(rec.Start) {
		t.Errorf("%+v %v", got, err)
	}
}

func TestReadTSVErrorsNameFileAndLine(t *testing.T) {
	hdr := "onset\tduration\teventType\n"
	tests := []struct{ name, in, want string }{
		{"empty file", "", "x.tsv: empty file"},
		{"missing column", "onset\tduration\n", "x.tsv:1: header lacks the \"eventType\" column"},
		{"bad onset", hdr + "1\t2\tsz\nabc\t2\tsz\n", "x.tsv:3: onset \"abc\""},
		{"negative duration", hdr + "1\t-2\tsz\n", "x.tsv:2: duration \"-2\""},
		{"unknown event type", hdr + "1\t2\tspike\n", "x.tsv:2: eventType \"spike\""},
		{"short line", hdr + "1\t2\n", "x.tsv:2: 2 fields, header has 3"},
		{"bad date", "onset\tduration\teventType\tdateTime\n1\t2\tsz\tyesterday\n", "x.tsv:2: dateTime \"yesterday\""},
		{"confidence out of range", "onset\tduration\teventType\tconfidence\n1\t2\tsz\t1.5\n", "x.tsv:2: confidence \"1.5\""},
		{"inconsistent duration", "onset\tduration\teventType\trecordingDuration\n1\t2\tsz\t60\n5\t2\tsz\t70\n", "x.tsv:3: recordingDuration 70 differs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadTSV(strings.NewReader(tt.in), "x.tsv")
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want ErrFormat with %q", err, tt.want)
			}
		})
	}
}

const replayOut = `{"type":"status","v":1,"state":"online","since":"2024-01-01T08:00:00Z","reason":""}
{"type":"alert","v":1,"id":"a1","site":"","bed":"","onset":"2024-01-01T08:01:40Z","detected_at":"2024-01-01T08:01:46Z","score":0.9,"algorithm":"UOB","channels":[]}
{"type":"score","v":1,"t":"2024-01-01T08:01:46Z","score":0.9}
{"type":"end","v":1,"id":"a1","onset":"2024-01-01T08:01:40Z","detected_at":"2024-01-01T08:01:46Z","end":"2024-01-01T08:02:10Z","score":0.95}
{"type":"alert","v":1,"id":"a2","site":"","bed":"","onset":"2024-01-01T08:59:00Z","detected_at":"2024-01-01T08:59:03Z","score":0.7,"algorithm":"UOB","channels":[],"kind":"motor"}
{"type":"summary","file":"x.edf","start":"2024-01-01T08:00:00Z","duration_s":3600}
`

func TestReadJSONL(t *testing.T) {
	rec, err := ReadJSONL(strings.NewReader(replayOut), "out.jsonl", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{{Start: 100 * s, End: 130 * s, Detected: 106 * s, Kind: alert.KindSeizure},
		{Start: 3540 * s, End: 3600 * s, Detected: 3543 * s, Kind: alert.KindMotor}}
	if len(rec.Events) != 2 || rec.Events[0] != want[0] || rec.Events[1] != want[1] || rec.Duration != time.Hour {
		t.Errorf("%+v, want events %v", rec, want)
	}
	// Without a summary line the origin comes from the caller.
	lines := strings.Split(replayOut, "\n")
	rec, err = ReadJSONL(strings.NewReader(strings.Join(lines[:4], "\n")), "out.jsonl", time.Date(2024, 1, 1, 8, 1, 0, 0, time.UTC))
	if err != nil || len(rec.Events) != 1 || rec.Events[0].Start != 40*s {
		t.Errorf("%+v %v", rec, err)
	}
}

func TestReadJSONLErrorsNameFileAndLine(t *testing.T) {
	a := `{"type":"alert","id":"a","onset":"2024-01-01T08:00:00Z","detected_at":"2024-01-01T08:00:05Z"}` + "\n"
	tests := []struct{ name, in, want string }{
		{"not json", "{oops\n", "r.jsonl:1:"},
		{"no type", `{"id":"a"}` + "\n", "r.jsonl:1: no \"type\""},
		{"alert without id", `{"type":"alert","onset":"2024-01-01T08:00:00Z","detected_at":"2024-01-01T08:00:05Z"}` + "\n", "r.jsonl:1: alert line without an id"},
		{"duplicate alert", a + a, "r.jsonl:2: alert a appears twice"},
		{"end without alert", `{"type":"end","id":"z","onset":"2024-01-01T08:00:00Z","detected_at":"2024-01-01T08:00:05Z","end":"2024-01-01T08:00:09Z"}` + "\n", "r.jsonl:1: end of event z"},
		{"detected before onset", `{"type":"alert","id":"a","onset":"2024-01-01T08:00:05Z","detected_at":"2024-01-01T08:00:00Z"}` + "\n", "r.jsonl:1: detected_at"},
		{"end before onset", a + `{"type":"end","id":"a","onset":"2024-01-01T08:00:00Z","detected_at":"2024-01-01T08:00:05Z","end":"2024-01-01T07:00:00Z"}` + "\n", "r.jsonl:2: event a ends"},
		{"negative duration", `{"type":"summary","duration_s":-1}` + "\n", "r.jsonl:1: duration_s"},
		{"unknown kind", strings.Replace(a, `}`, `,"kind":"absence"}`, 1), `r.jsonl:1: alert a: field "kind": "absence" is not a kind of the contract`},
		{"kind not a string", strings.Replace(a, `}`, `,"kind":1}`, 1), `r.jsonl:1: json: cannot unmarshal number into Go struct field jsonLine.kind`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadJSONL(strings.NewReader(tt.in), "r.jsonl", time.Time{})
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want ErrFormat with %q", err, tt.want)
			}
		})
	}
}

func FuzzReadTSV(f *testing.F) {
	f.Add(szcoreTSV)
	f.Add("onset\tduration\teventType\n1\t2\tbckg\n")
	f.Fuzz(func(t *testing.T, in string) {
		rec, err := ReadTSV(strings.NewReader(in), "f.tsv")
		if err != nil {
			if !errors.Is(err, ErrFormat) && !strings.Contains(err.Error(), "token too long") {
				t.Fatalf("error without ErrFormat: %v", err)
			}
			return
		}
		for _, e := range rec.Events {
			if e.End < e.Start || e.Start < 0 {
				t.Fatalf("bad event %v", e)
			}
		}
		ev := Events(rec.Events, rec.Events, rec.Duration, DefaultParams())
		if ev.FalseAlarms != 0 {
			t.Fatalf("events scored against themselves: %d false alarms", ev.FalseAlarms)
		}
		if sm := Samples(rec.Events, rec.Events, rec.Duration); sm.FalsePos != 0 || sm.TruePos != sm.Reference {
			t.Fatalf("samples scored against themselves: %+v", sm)
		}
	})
}

func FuzzReadJSONL(f *testing.F) {
	f.Add(replayOut)
	f.Fuzz(func(t *testing.T, in string) {
		rec, err := ReadJSONL(strings.NewReader(in), "f.jsonl", time.Time{})
		if err != nil {
			if !errors.Is(err, ErrFormat) && !strings.Contains(err.Error(), "token too long") {
				t.Fatalf("error without ErrFormat: %v", err)
			}
			return
		}
		for _, e := range rec.Events {
			if e.Detected < e.Start {
				t.Fatalf("detected before start: %v", e)
			}
			if e.Kind == "" || !alert.ValidKind(e.Kind) {
				t.Fatalf("kind %q: %v", e.Kind, e)
			}
		}
	})
}

// FromAlerts carries each alert's kind, the default written out.
func TestFromAlertsCarriesKind(t *testing.T) {
	tests := []struct{ kind, want string }{
		{"", alert.KindSeizure},
		{alert.KindSeizure, alert.KindSeizure},
		{alert.KindMotor, alert.KindMotor},
		{alert.KindStatusEpilepticus, alert.KindStatusEpilepticus},
	}
	for _, tt := range tests {
		ev := FromAlerts([]alert.Event{{OnsetOffset: 10 * s, DetectedOffset: 15 * s, EndOffset: 40 * s, Kind: tt.kind}}, time.Hour)
		if len(ev) != 1 || ev[0] != (Event{Start: 10 * s, End: 40 * s, Detected: 15 * s, Kind: tt.want}) {
			t.Errorf("kind %q: %+v, want kind %q", tt.kind, ev, tt.want)
		}
	}
}
