package mosquittotest_test

import (
	"net"
	"testing"

	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

func TestStartAcceptsConnectionsAndRestarts(t *testing.T) {
	b := mosquittotest.Start(t, mosquittotest.Opts{Persistence: true})
	dial := func() {
		t.Helper()
		c, err := net.Dial("tcp", b.Addr())
		if err != nil {
			t.Fatalf("dial %s: %v\n%s", b.Addr(), err, b.Log())
		}
		c.Close()
	}
	dial()
	b.Stop()
	b.Restart()
	dial()
}
