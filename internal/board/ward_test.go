package board

import (
	"flag"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

// The ward simulation is opt-in:
//
//	go test ./internal/board -run Ward -v -ward [-ward-duration=2m] [-ward-alert-every=1m]
var (
	wardRun      = flag.Bool("ward", false, "run TestWard: 50 simulated beds against ictal board in a browser")
	wardDuration = flag.Duration("ward-duration", 2*time.Minute, "how long TestWard publishes")
	wardAlerts   = flag.Duration("ward-alert-every", time.Minute, "TestWard publishes an alert (and its evidence) this often, on the beds in turn")
)

const wardBeds = 50

// TestWard runs ictal board as its own process against 50 beds each
// publishing a score a second, and an alert with its evidence every
// -ward-alert-every, with one browser on the page; it logs the alerts'
// latency from publication to the page's receipt (Date.now() in the page,
// same machine clock), and the board process's CPU and resident memory.
func TestWard(t *testing.T) {
	if !*wardRun {
		t.Skip("opt-in: go test ./internal/board -run Ward -v -ward")
	}
	mq := mosquittotest.Start(t, mosquittotest.Opts{})
	cfg := testConfig(t, mq.URL("tcp"))
	bin := filepath.Join(t.TempDir(), "ictal")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/ictal/ictal/cmd/ictal").CombinedOutput(); err != nil {
		t.Fatalf("go build ictal: %v\n%s", err, out)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", mosquittotest.FreePort(t))
	cmd := exec.Command(bin, "board", "-site", testSite, "-users", cfg.Users, "-audit", cfg.Audit,
		"-listen", addr, "-broker", mq.URL("tcp"), "-client-id", "ward-board")
	logf, _ := os.Create(filepath.Join(t.TempDir(), "board.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() })
	base := "http://" + addr
	waitUntil(t, "ictal board up", func() bool {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == http.StatusOK
	})
	page := newBrowser(t, "ward").ctx
	login(t, page, base, "alice")

	sent := publishWard(t, mq.URL("tcp"), *wardDuration, *wardAlerts)
	waitJS(t, page, "every alert on the page", fmt.Sprintf("Object.keys(window.__board.received).length >= %d", len(sent)))
	got, err := chromedp.Run(page, chromedp.Evaluate[map[string]float64]("window.__board.received"))
	if err != nil {
		t.Fatal(err)
	}
	var lat []float64
	for id, at := range sent {
		lat = append(lat, got[id]-float64(at.UnixMicro())/1000)
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return lat[min(len(lat)-1, int(math.Ceil(p*float64(len(lat))))-1)] }
	cpu, rss, hwm := procStats(t, cmd.Process.Pid)
	t.Logf("%d beds, %v, %d alerts: alert-to-screen latency p50 %.1f ms, p99 %.1f ms, max %.1f ms",
		wardBeds, *wardDuration, len(lat), q(0.50), q(0.99), lat[len(lat)-1])
	t.Logf("board process: %.2f s CPU in total (%.1f%% of one core over the run), RSS %d KiB, peak %d KiB",
		cpu, 100*cpu/wardDuration.Seconds(), rss, hwm)
}

// publishWard publishes the ward's traffic for d and returns when each
// alert was published.
func publishWard(t *testing.T, broker string, d, alertEvery time.Duration) map[string]time.Time {
	c := mosquittotest.Client(t, broker, "ward-beds")
	sent := map[string]time.Time{}
	start := time.Now()
	scores, alerts := time.NewTicker(time.Second), time.NewTicker(alertEvery)
	defer scores.Stop()
	defer alerts.Stop()
	for i := 0; time.Since(start) < d; {
		select {
		case now := <-scores.C:
			for b := range wardBeds {
				s := 0.3 + 0.2*math.Sin(float64(now.Unix())/30+float64(b))
				c.Publish(topic(fmt.Sprintf("bed-%02d", b), "score"), 0, false, alert.AppendScore(nil, alert.Score{T: now, Score: s}))
			}
		case now := <-alerts.C:
			e := testEvent(fmt.Sprintf("bed-%02d", i%wardBeds), now)
			i++
			sent[e.ID] = time.Now()
			mosquittotest.Publish(t, c, topic(e.Bed, "alert"), false, alert.AppendAlert(nil, e))
			mosquittotest.Publish(t, c, topic(e.Bed, "evidence"), false, alert.AppendEvidence(nil, testEvidence(e)))
		}
	}
	return sent
}

// procStats returns a process's CPU time (user + system, seconds), its
// resident memory and its peak resident memory (KiB), from /proc.
func procStats(t *testing.T, pid int) (cpu float64, rss, hwm int) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	cpu = float64(ut+st) / 100 // USER_HZ is 100 on Linux
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		k, v, _ := strings.Cut(line, ":")
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		switch k {
		case "VmRSS":
			rss = n
		case "VmHWM":
			hwm = n
		}
	}
	return cpu, rss, hwm
}
