package daemon

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
	"github.com/ictal/ictal/internal/users"
)

// TestRunWithEmbeddedBroker runs the daemon with broker = "embedded",
// checks its retained status reaches a subscriber, and that a clinician's
// interval feedback on …/feedback, from a user of broker_users, becomes a
// label the pipeline applies.
func TestRunWithEmbeddedBroker(t *testing.T) {
	dir := t.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", mosquittotest.FreePort(t))
	usersFile := filepath.Join(dir, "broker-users")
	if err := users.Add(usersFile, "clinician-alice", []byte("alice-Wx5%pass")); err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(simulatedPatient+`
[site]
site = "ward-7"
bed = "bed-3"
[checkpoint]
path = "`+filepath.Join(dir, "model.ckpt")+`"
[mqtt]
broker = "embedded"
listen = "`+addr+`"
broker_users = "`+usersFile+`"
`, "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	r := startRun(t, cfg, Options{})
	logs, done := r.logs, r.done

	conn := mqtt.Connection{Brokers: []string{"tcp://" + addr}, Username: "clinician-alice", Password: "alice-Wx5%pass"}
	opts, err := conn.ClientOptions("clinician")
	if err != nil {
		t.Fatal(err)
	}
	c := paho.NewClient(opts)
	for i := 0; ; i++ {
		// Each attempt ends when the broker answers (the password check
		// is bcrypt's) or refuses the connection (not listening yet).
		tok := c.Connect()
		if tok.Wait() && tok.Error() == nil {
			break
		}
		if i == 30 {
			t.Fatalf("cannot connect to the embedded broker: %v", tok.Error())
		}
		time.Sleep(100 * time.Millisecond)
	}
	defer c.Disconnect(100)
	status := make(chan string, 10) // payloads
	c.Subscribe("ictal/ward-7/bed-3/status", 1, func(_ paho.Client, m paho.Message) { status <- string(m.Payload()) }).Wait()
	// The first windows are "artifact" (settling); wait for "online".
	var since time.Time
	for since.IsZero() {
		select {
		case s := <-status:
			var st struct{ State, Since string }
			if err := json.Unmarshal([]byte(s), &st); err != nil || st.State != "online" && st.State != "artifact" {
				t.Fatalf("status %s", s)
			}
			if st.State == "online" {
				since, _ = time.Parse(time.RFC3339, st.Since)
			}
		case err := <-done: // no clock here: the daemon's own context ends the wait
			t.Fatalf("the daemon stopped before its status was online: %v", err)
		}
	}
	// The status says since when the signal has been good: the end of
	// the first window scored. Label the 20 simulated seconds from the
	// start of that window (played at 20×) as non-seizure.
	time.Sleep(1500 * time.Millisecond)
	start := since.Add(-2 * time.Second)
	fb := fmt.Sprintf(`{"v":1,"start":%q,"end":%q,"label":"non-seizure"}`, start.Format(time.RFC3339Nano), start.Add(20*time.Second).Format(time.RFC3339Nano))
	acks := make(chan []byte, 10)
	c.Subscribe("ictal/ward-7/bed-3/feedback/ack", 1, func(_ paho.Client, m paho.Message) { acks <- m.Payload() }).Wait()
	c.Publish("ictal/ward-7/bed-3/feedback", 1, false, fb).Wait()
	// The daemon answers on …/feedback/ack: applied, to how many windows.
	select {
	case p := <-acks:
		a, err := alert.ParseAck(p)
		if err != nil || !a.Applied || a.Windows == 0 || a.Label != alert.LabelNonSeizure || !a.Start.Equal(start) {
			t.Errorf("ack %s: %v", p, err)
		}
	case err := <-done: // no clock here: the daemon's own context ends the wait
		t.Fatalf("the daemon stopped before acknowledging the feedback: %v\n%s", err, logs.String())
	}
	r.stop(t)
	if !strings.Contains(logs.String(), "label applied") {
		t.Errorf("feedback was not applied:\n%s", logs.String())
	}
}
