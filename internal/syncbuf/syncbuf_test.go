package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

func TestConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Write([]byte("x\n"))
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if got := strings.Count(b.String(), "x\n"); got != 800 {
		t.Errorf("%d lines, want 800", got)
	}
}
