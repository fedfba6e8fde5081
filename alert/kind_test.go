package alert

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The seizure alert's payload before kinds existed: receivers that
// predate them must keep reading exactly these bytes.
const seizurePayload = `{"v":1,"id":"8f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b","site":"ward-7","bed":"bed \"3\"\n",` +
	`"onset":"2026-11-21T09:30:15.250Z","detected_at":"2026-11-21T09:30:20.250Z","score":0.876543,"algorithm":"UOB","channels":["T7-P7","F7-T7"]}`

// Every kind survives AppendAlert → ParseAlert; the default is never
// written, so a seizure's payload is the one it always was.
func TestAlertKindRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		kind     string
		wantJSON string // the payload's "kind", "" when absent
		wantKind string // Event.Kind after ParseAlert
	}{
		{"default", "", "", ""},
		{"seizure written out", KindSeizure, "", ""},
		{"motor", KindMotor, "motor", KindMotor},
		{"status epilepticus", KindStatusEpilepticus, "status-epilepticus", KindStatusEpilepticus},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := testEvent()
			e.Kind = tt.kind
			b := AppendAlert(nil, e)
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			got, has := m["kind"]
			if tt.wantJSON == "" {
				if has {
					t.Fatalf(`payload has "kind" %v for the default: %s`, got, b)
				}
				if string(b) != seizurePayload {
					t.Fatalf("seizure payload changed:\n got %s\nwant %s", b, seizurePayload)
				}
			} else if got != tt.wantJSON {
				t.Fatalf(`"kind" = %v, want %q: %s`, got, tt.wantJSON, b)
			} else if !bytes.HasPrefix(b, []byte(seizurePayload[:len(seizurePayload)-1])) {
				t.Fatalf("the kind changed the other fields: %s", b)
			}
			a, err := ParseAlert(b)
			if err != nil {
				t.Fatalf("ParseAlert(%s): %v", b, err)
			}
			if a.Kind != tt.wantKind || KindOrDefault(a.Kind) != KindOrDefault(tt.kind) {
				t.Fatalf("Kind %q, want %q", a.Kind, tt.wantKind)
			}
			if again := AppendAlert(nil, a); !bytes.Equal(again, b) {
				t.Fatalf("re-encoded:\n got %s\nwant %s", again, b)
			}
			// The JSON-lines sink writes the same fields.
			var buf bytes.Buffer
			j := NewJSONLines(&buf, nil, false)
			if err := j.Alert(e); err != nil {
				t.Fatal(err)
			}
			j.Close()
			line := strings.TrimSuffix(buf.String(), "\n")
			if want := `{"type":"alert",` + string(b[1:]); line != want {
				t.Fatalf("JSON line:\n got %s\nwant %s", line, want)
			}
		})
	}
}

func TestAlertKindRefused(t *testing.T) {
	motor := strings.TrimSuffix(seizurePayload, "}") + `,"kind":"motor"}`
	tests := []struct {
		name, in, errHas string
	}{
		{"unknown kind", strings.Replace(motor, `"motor"`, `"absence"`, 1), `alert: field "kind": "absence" is not a kind of the contract (seizure, motor or status-epilepticus)`},
		{"empty kind", strings.Replace(motor, `"motor"`, `""`, 1), `field "kind": "" is not a kind`},
		{"kind in capitals", strings.Replace(motor, `"motor"`, `"MOTOR"`, 1), `field "kind": "MOTOR"`},
		{"kind not a string", strings.Replace(motor, `"motor"`, `2`, 1), `kind`},
		{"kind twice, one unknown", strings.Replace(motor, `"kind":"motor"`, `"kind":"motor","kind":"tonic"`, 1), `"tonic"`},
		{"Kind misspelt", strings.Replace(motor, `"kind"`, `"Kinds"`, 1), `unknown field "Kinds"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ParseAlert([]byte(tt.in))
			if !errors.Is(err, ErrPayload) || !strings.Contains(err.Error(), tt.errHas) {
				t.Fatalf("ParseAlert(%s) = %+v, %v; want an ErrPayload containing %q", tt.in, a, err, tt.errHas)
			}
		})
	}
	if a, err := ParseAlert([]byte(motor)); err != nil || a.Kind != KindMotor {
		t.Fatalf("the motor alert itself: %+v, %v", a, err)
	}
	if a, err := ParseAlert([]byte(strings.Replace(motor, `"motor"`, `null`, 1))); err != nil || a.Kind != "" {
		t.Fatalf(`"kind":null (as absent): %+v, %v`, a, err)
	}
}

func TestCheckKind(t *testing.T) {
	for _, k := range []string{"", KindSeizure, KindMotor, KindStatusEpilepticus} {
		if err := CheckKind(k); err != nil || !ValidKind(k) {
			t.Errorf("CheckKind(%q) = %v", k, err)
		}
	}
	for _, k := range []string{"Motor", "seizure ", "status_epilepticus", "tonic-clonic"} {
		if err := CheckKind(k); err == nil || ValidKind(k) || !strings.Contains(err.Error(), `field "kind": "`+k+`"`) {
			t.Errorf("CheckKind(%q) = %v, want an error naming the field and value", k, err)
		}
	}
}

// A motor alert is encoded without allocating, like every payload.
func TestAlertKindAllocs(t *testing.T) {
	e := testEvent()
	e.Kind = KindMotor
	buf := make([]byte, 0, 1024)
	if a := testing.AllocsPerRun(100, func() { buf = AppendAlert(buf[:0], e) }); a != 0 {
		t.Errorf("AppendAlert of a motor alert allocates %v", a)
	}
}
