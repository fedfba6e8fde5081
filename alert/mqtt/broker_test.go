package mqtt

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

func TestStartBrokerServesMosquittoClients(t *testing.T) {
	subBin := mosquittotest.Tool(t, "mosquitto_sub")
	b, err := StartBroker("127.0.0.1:0", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	host, port, _ := strings.Cut(b.Addr(), ":")
	cfg := testMQTTConfig(t, b.URL())
	if err := b.AdmitPublisher(&cfg); err != nil {
		t.Fatal(err)
	}
	m := newTestMQTT(t, cfg, nil)
	for m.Stats().Acked == 0 { // the retained online status is on the broker
		time.Sleep(10 * time.Millisecond)
	}

	// -C 2: exit after the retained status and one alert (one that never
	// came would leave it, and the test, to go test's -timeout).
	cmd := exec.Command(subBin, "-h", host, "-p", port, "-t", "ictal/#", "-v", "-q", "1", "-C", "2")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	e := testEventN("ward-7", "bed-3")
	// mosquitto_sub says nothing when it has subscribed: publish until it
	// has what it waits for.
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("mosquitto_sub: %v: %s", err, errb.String())
			}
			waiting = false
		case <-tick.C:
			m.Alert(e)
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 ||
		!strings.HasPrefix(lines[0], `ictal/ward-7/bed-3/status {"v":1,"state":"online","since":"`) ||
		!strings.HasPrefix(lines[1], `ictal/ward-7/bed-3/alert {"v":1,"id":"`+e.ID+`"`) {
		t.Errorf("mosquitto_sub printed:\n%s", out.String())
	}
}

func TestStartBrokerAddressInUse(t *testing.T) {
	b, err := StartBroker("127.0.0.1:0", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b2, err := StartBroker(b.Addr(), nil, nil); err == nil || !strings.Contains(err.Error(), b.Addr()) {
		if b2 != nil {
			b2.Close()
		}
		t.Errorf("second broker on %s: %v", b.Addr(), err)
	}
}

func TestBrokerAdmitsLoopbackClientsOnly(t *testing.T) {
	tests := []struct {
		remote string
		want   bool
	}{
		{"127.0.0.1:50000", true},
		{"[::1]:50000", true},
		{"192.0.2.7:50000", false},
		{"[2001:db8::1]:50000", false},
		{"not an address", false},
	}
	a, err := newAccess(BrokerOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.clients = mochi.NewClients()
	for _, tt := range tests {
		cl := &mochi.Client{Net: mochi.ClientConnection{Remote: tt.remote}, ID: "anonymous"}
		if got := a.OnConnectAuthenticate(cl, packets.Packet{}); got != tt.want {
			t.Errorf("%s: admitted %v, want %v", tt.remote, got, tt.want)
		}
	}
}
