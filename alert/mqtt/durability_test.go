package mqtt

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

// The child process of the durability tests: a daemon's publisher run by
// re-executing the test binary, so that the parent can SIGKILL it.
const childEnv = "ICTAL_ALERT_MQTT_CHILD"

// TestMQTTChild is not a test: with childEnv set, it runs a publisher as
// the environment says, reports on stdout, and waits to be killed.
func TestMQTTChild(t *testing.T) {
	mode := os.Getenv(childEnv)
	if mode == "" {
		return
	}
	cfg := Config{
		Connection: Connection{Brokers: []string{os.Getenv("ICTAL_BROKER")}, ConnectTimeout: time.Second},
		Site:       "ward-7", Bed: "bed-3", StoreDir: os.Getenv("ICTAL_STORE"), MaxReconnectInterval: 500 * time.Millisecond,
	}
	m, err := New(cfg, nil)
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	switch mode {
	case "online": // connected, online acknowledged
		for m.Stats().Acked == 0 {
			time.Sleep(10 * time.Millisecond)
		}
	case "queue": // alerts raised with the broker down, all in the store
		n, _ := strconv.Atoi(os.Getenv("ICTAL_ALERTS"))
		for i := 0; i < n; i++ {
			e := testEventN("ward-7", "bed-3")
			fmt.Println("ID", e.ID)
			m.Alert(e)
		}
		for m.Stats().Published < uint64(n) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	fmt.Println("READY")
	select {} // until SIGKILL
}

// child starts the test binary as a publisher and returns it with the
// lines it printed before READY. It is killed when the test ends.
func child(t *testing.T, mode, broker, store string, alerts int) (*exec.Cmd, []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMQTTChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, "ICTAL_BROKER="+broker, "ICTAL_STORE="+store, "ICTAL_ALERTS="+strconv.Itoa(alerts))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, out)
	}()
	var got []string
	for l := range lines {
		if l == "READY" {
			return cmd, got
		}
		got = append(got, l)
	}
	t.Fatalf("child exited before READY: %v", got)
	return nil, nil
}

func TestMQTTLastWillWhenTheDaemonDies(t *testing.T) {
	if os.Getenv("ICTAL_EMULATED") != "" {
		t.Skip("under qemu-user (cross/test): the test re-executes its own binary as the daemon, and qemu-user cannot exec a foreign-architecture binary without binfmt_misc")
	}
	b := mosquittotest.Start(t, mosquittotest.Opts{})
	sub := subscribe(t, brokerClient(t, b.URL("tcp"), "nurse", true), "ictal/ward-7/bed-3/status")
	cmd, _ := child(t, "online", b.URL("tcp"), t.TempDir(), 0)
	waitFor(t, sub, "online", isState("ictal/ward-7/bed-3/status", alert.StateOnline))
	cmd.Process.Kill() // SIGKILL: no DISCONNECT, the kernel closes the socket
	cmd.Wait()
	r := waitFor(t, sub, "the last will", isState("ictal/ward-7/bed-3/status", alert.StateOffline))
	if string(r.payload) != alert.OfflinePayload {
		t.Errorf("will %s", r.payload)
	}
	// Retained: a newcomer sees the bed offline.
	late := subscribe(t, brokerClient(t, b.URL("tcp"), "late", true), "ictal/ward-7/bed-3/status")
	if r := waitFor(t, late, "retained offline", isState("ictal/ward-7/bed-3/status", alert.StateOffline)); !r.retained {
		t.Error("will not retained")
	}
}

func TestMQTTKilledDaemonDeliversQueuedAlertsAfterRestart(t *testing.T) {
	if os.Getenv("ICTAL_EMULATED") != "" {
		t.Skip("under qemu-user (cross/test): the test re-executes its own binary as the daemon, and qemu-user cannot exec a foreign-architecture binary without binfmt_misc")
	}
	// A clinician's receiver has a persistent session on a broker that
	// keeps it on disk; then the broker goes down.
	b := mosquittotest.Start(t, mosquittotest.Opts{Persistence: true})
	sub := subscribe(t, brokerClient(t, b.URL("tcp"), "receiver", false), "ictal/+/+/alert")
	b.Stop()
	// With the broker down, the daemon raises alerts, they reach its
	// store, and it is killed.
	store := t.TempDir()
	cmd, lines := child(t, "queue", b.URL("tcp"), store, 20)
	cmd.Process.Kill()
	cmd.Wait()
	want := map[string]bool{}
	for _, l := range lines {
		if id, ok := strings.CutPrefix(l, "ID "); ok {
			want[id] = true
		}
	}
	if len(want) != 20 {
		t.Fatalf("child raised %d alerts", len(want))
	}
	// The daemon restarts with the same client ID and store and, the
	// broker still down, raises a new alert: it must not take the place of
	// an old one in the store.
	cfg := testMQTTConfig(t, b.URL("tcp"))
	cfg.StoreDir = store
	m := newTestMQTT(t, cfg, nil)
	fresh := testEventN("ward-7", "bed-3")
	m.Alert(fresh)
	want[fresh.ID] = true
	waitPublished(t, m)
	b.Restart()
	got := map[string]int{}
	for len(got) < len(want) { // until every alert arrives: a lost one hangs (go test -timeout)
		if id := alertID(<-sub); id != "" {
			if !want[id] {
				t.Errorf("unexpected alert %s", id)
			}
			got[id]++
		}
	}
}

func TestMQTTBrokerRestartMidStreamLosesNoAlert(t *testing.T) {
	b := mosquittotest.Start(t, mosquittotest.Opts{Persistence: true})
	sub := subscribe(t, brokerClient(t, b.URL("tcp"), "receiver", false), "ictal/+/+/alert")
	m := newTestMQTT(t, testMQTTConfig(t, b.URL("tcp")), nil)
	const n = 150
	want := map[string]bool{}
	for i := 0; i < n; i++ {
		e := testEventN("ward-7", "bed-3")
		want[e.ID] = true
		if err := m.Alert(e); err != nil {
			t.Fatal(err)
		}
		switch i {
		case 50:
			b.Stop()
		case 100:
			b.Restart()
		}
		time.Sleep(5 * time.Millisecond)
	}
	got := map[string]int{}
	for len(got) < n { // until every alert arrives: a lost one hangs (go test -timeout)
		if id := alertID(<-sub); id != "" && want[id] {
			got[id]++
		}
	}
	dups := 0
	for _, c := range got {
		dups += c - 1
	}
	t.Logf("%d alerts across a broker restart, all received; %d duplicates (dropped by id)", n, dups)
}
