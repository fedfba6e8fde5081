package board

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
)

// chromium returns the path of the browser the page is tested in; a
// missing browser fails the test.
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium not found: .ci/run installs it with apt-get install chromium")
	return ""
}

// browser is one headless chromium with a fresh profile.
type browser struct {
	t   testing.TB
	ctx context.Context
}

// newBrowser starts a chromium of its own (own profile, so own cookies);
// it is closed when the test ends. Console messages and uncaught
// exceptions of its page go to the test log, prefixed with name.
//
// Two browsers rather than two chromedp.WithNewBrowserContext tabs: with
// chromedp v0.23, Evaluate in such a tab hangs once it has navigated.
func newBrowser(t testing.TB, name string) *browser {
	t.Helper()
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(pageLogger(t, name)))
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		cancel()
		cancelAlloc()
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() { cancel(); cancelAlloc() })
	return &browser{t: t, ctx: ctx}
}

// pageLogger logs a page's console and exceptions.
func pageLogger(t testing.TB, name string) func(any) {
	return func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value))
			}
			t.Logf("%s console.%s: %s", name, e.Type, strings.Join(args, " "))
		case *runtime.EventExceptionThrown:
			t.Logf("%s exception: %s %+v", name, e.ExceptionDetails.Text, e.ExceptionDetails.Exception)
		}
	}
}

// do runs steps. No wait of these tests has a deadline: what they wait
// for must happen, however busy the machine, and one that never does is a
// hang, which go test's -timeout reports.
func do(t testing.TB, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// waitJS polls a JavaScript condition until it is truthy (no deadline,
// as do); if the poll fails, it logs where the page is and what it shows.
func waitJS(t testing.TB, ctx context.Context, what, expr string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(0), chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		page, perr := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText.slice(0, 2000)`))
		page += fmt.Sprint(perr)
		t.Fatalf("%s: %v\npage: %s", what, err, page)
	}
}

// evalInt evaluates a JavaScript expression with a number value.
func evalInt(t testing.TB, ctx context.Context, expr string) int {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[int](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// login logs user in through the page's form and waits for the board.
func login(t testing.TB, ctx context.Context, base, user string) {
	t.Helper()
	do(t, ctx, "log in as "+user,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("user")),
		chromedp.SendKeys(chromedp.ID("user"), user),
		chromedp.SendKeys(chromedp.ID("password"), testPassword),
		chromedp.Click(chromedp.ID("submit")),
		chromedp.WaitVisible(chromedp.CSS("#beds")))
	waitJS(t, ctx, "the user's name on the page", fmt.Sprintf(`document.getElementById("user").textContent === %q`, user))
}

// screenshot saves the page as PNG under dir and logs its path.
func screenshot(t testing.TB, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// inkJS counts the dark pixels of a canvas (0 for a blank one).
const inkJS = `(() => { const c = document.querySelector(%q); if (!c) return 0;
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data; let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] < 100 && d[i+1] < 100 && d[i+2] < 140) n++; return n; })()`

func TestBrowserAlertEvidenceConfirmAckAcknowledge(t *testing.T) {
	b, daemon, feedback := startWithDaemon(t)
	now := time.Now()
	mosquittotest.Publish(t, daemon, topic("bed-3", "status"), true, alert.AppendStatus(nil, alert.Status{State: alert.StateOnline, Since: now.Add(-time.Hour)}))
	for i := 120; i > 0; i-- {
		mosquittotest.Publish(t, daemon, topic("bed-3", "score"), false, alert.AppendScore(nil, alert.Score{T: now.Add(-time.Duration(i) * time.Second), Score: 0.1 + 0.8*float64(i%40)/40}))
	}
	shots := t.TempDir()
	if d := os.Getenv("ICTAL_SCREENSHOTS"); d != "" { // keep them after the test
		shots = d
	}
	alice := newBrowser(t, "alice").ctx
	login(t, alice, b.url, "alice")
	do(t, alice, "bed-3's tile", chromedp.WaitVisible(chromedp.CSS(`.tile[data-bed="bed-3"].st-online`)))
	waitJS(t, alice, "bed-3's score trace", fmt.Sprintf(inkJS, `.tile[data-bed="bed-3"] canvas`)+" > 50")

	e := testEvent("bed-3", now)
	mosquittotest.Publish(t, daemon, topic("bed-3", "alert"), false, alert.AppendAlert(nil, e))
	mosquittotest.Publish(t, daemon, topic("bed-3", "evidence"), false, alert.AppendEvidence(nil, testEvidence(e)))
	card := fmt.Sprintf(`.alert[data-id=%q]`, e.ID)
	do(t, alice, "the alert ringing", chromedp.WaitVisible(chromedp.CSS(card+`.ringing[data-ringing="true"]`)))
	do(t, alice, "the EEG drawn", chromedp.WaitVisible(chromedp.CSS(card+` canvas.eeg[data-drawn="true"]`)))
	if ink := evalInt(t, alice, fmt.Sprintf(inkJS, card+" canvas.eeg")); ink < 2000 {
		t.Fatalf("the EEG canvas has %d dark pixels: blank", ink)
	}
	screenshot(t, alice, shots, "1-ringing")

	do(t, alice, "click Confirm", chromedp.Click(chromedp.CSS(card+" button.confirm")))
	lab, err := alert.ParseFeedback(<-feedback, time.Now())
	if err != nil || lab.AlertID != e.ID || !lab.Seizure || lab.By != "alice" {
		t.Fatalf("feedback on the broker: %+v, %v", lab, err)
	}
	waitJS(t, alice, "the confirmed alert silenced (a verdict acknowledges it)", fmt.Sprintf(
		`document.querySelector(%q)?.dataset.ringing === "false" && document.querySelector(%q).textContent.includes("Acknowledged by alice")`, card, card+" .acked"))
	ack := alert.AckOf(lab)
	ack.Applied, ack.Windows, ack.At = true, 17, time.Now()
	ack.Note = "the detector already had 12 of the 17 windows right; the model learns the other 5"
	mosquittotest.Publish(t, daemon, topic("bed-3", "feedback/ack"), false, alert.AppendAck(nil, ack))
	waitJS(t, alice, "the daemon's ack beside the alert, with what the label teaches",
		fmt.Sprintf(`(document.querySelector(%q) || {}).textContent?.includes("applied confirmed from alice — 17 windows; the detector already had 12 of the 17 windows right; the model learns the other 5")`, card+" .acks li.applied"))

	tile := `.tile[data-bed="bed-3"]`
	do(t, alice, "label a missed seizure", chromedp.Click(chromedp.CSS(tile+" button.miss")),
		chromedp.WaitVisible(chromedp.CSS(tile+" form.missed")), chromedp.Click(chromedp.CSS(tile+" button.send")))
	lab, err = alert.ParseFeedback(<-feedback, time.Now())
	if err != nil || lab.AlertID != "" || !lab.Seizure || lab.By != "alice" || lab.End.Sub(lab.Start) != 2*time.Minute {
		t.Fatalf("interval label on the broker: %+v, %v", lab, err)
	}
	waitJS(t, alice, "the label sent", fmt.Sprintf(`document.querySelector(%q).textContent === "sent"`, tile+" .msg"))

	// A second alert, a motor seizure, silenced with Acknowledge before
	// any verdict; bob, logged in later, sees the first one already
	// acknowledged. Each card says what kind of seizure it is, in words:
	// alice's from the live message, bob's from his snapshot.
	e2 := testEvent("bed-3", now.Add(time.Minute))
	e2.Kind = alert.KindMotor
	mosquittotest.Publish(t, daemon, topic("bed-3", "alert"), false, alert.AppendAlert(nil, e2))
	card2 := fmt.Sprintf(`.alert[data-id=%q]`, e2.ID)
	do(t, alice, "the motor alert ringing for alice", chromedp.WaitVisible(chromedp.CSS(card2+`.ringing[data-ringing="true"]`)))
	bob := newBrowser(t, "bob").ctx // after the board has the alert: bob's comes in his snapshot
	login(t, bob, b.url, "bob")
	do(t, bob, "the second alert ringing for bob", chromedp.WaitVisible(chromedp.CSS(card2+`.ringing[data-ringing="true"]`)))
	for name, ctx := range map[string]context.Context{"alice": alice, "bob": bob} {
		for _, c := range []struct{ card, want string }{
			{card, "bed-3 — seizure alert, detected "},
			{card2, "bed-3 — motor seizure (convulsive) alert, detected "},
		} {
			head, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).textContent`, c.card+" .head")))
			if err != nil || !strings.HasPrefix(head, c.want) {
				t.Errorf("%s sees the card %q (%v), want it to begin %q", name, head, err, c.want)
			}
		}
	}
	waitJS(t, bob, "the first alert acknowledged for bob", fmt.Sprintf(`document.querySelector(%q)?.dataset.ringing === "false"`, card))
	do(t, alice, "click Acknowledge", chromedp.Click(chromedp.CSS(card2+" button.ack")))
	for name, ctx := range map[string]context.Context{"alice": alice, "bob": bob} {
		waitJS(t, ctx, name+" sees the acknowledgement", fmt.Sprintf(
			`document.querySelector(%q)?.dataset.ringing === "false" && document.querySelector(%q).textContent.includes("Acknowledged by alice")`, card2, card2+" .acked"))
	}
	screenshot(t, alice, shots, "2-acknowledged-alice")
	screenshot(t, bob, shots, "3-acknowledged-bob")
	if got := evalInt(t, bob, `document.querySelectorAll(".alert").length`); got != 2 {
		t.Fatalf("bob sees %d alerts, want 2", got)
	}
}

// TestBrowserTileHoldsBriefArtifacts: a blink (an artifact of 3 s of the
// bed's signal) leaves the tile showing "online" with its first "since";
// an artifact that lasts 6 s is shown, and electrode-off at once. The
// page's log of the states it drew (window.__board.shown) is compared
// after the last one is visible, so the result does not depend on timing.
func TestBrowserTileHoldsBriefArtifacts(t *testing.T) {
	b, daemon, _ := startWithDaemon(t)
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) // the bed's signal time; the page's clock plays no part
	status := func(st alert.Status) {
		mosquittotest.Publish(t, daemon, topic("bed-3", "status"), true, alert.AppendStatus(nil, st))
	}
	scores := func(from time.Time, n int) {
		for i := range n {
			mosquittotest.Publish(t, daemon, topic("bed-3", "score"), false, alert.AppendScore(nil, alert.Score{T: from.Add(time.Duration(i) * time.Second), Score: 0.1}))
		}
	}
	t0, t1, t2, t3 := now.Add(-time.Hour), now.Add(-60*time.Second), now.Add(-30*time.Second), now.Add(-10*time.Second)
	status(alert.Status{State: alert.StateOnline, Since: t0})
	alice := newBrowser(t, "alice").ctx
	login(t, alice, b.url, "alice")
	tile := `.tile[data-bed="bed-3"]`
	do(t, alice, "bed-3 online", chromedp.WaitVisible(chromedp.CSS(tile+".st-online")))
	// The page's own clock would also end a hold after 5 s; made long here,
	// so that only the scores' times count however slowly this machine runs.
	if _, err := chromedp.Run(alice, chromedp.Evaluate[int]("window.__board.artifactHoldWall = 3600000")); err != nil {
		t.Fatal(err)
	}

	eye := alert.Status{State: alert.StateArtifact, Since: t1, Reason: "eye on Fp1", Artifact: "eye", Channels: []string{"Fp1"}}
	status(eye) // a blink: 3 s, then online again
	scores(t1, 3)
	status(alert.Status{State: alert.StateOnline, Since: t1.Add(3 * time.Second)})
	scores(t1.Add(3*time.Second), 5)
	muscle := alert.Status{State: alert.StateArtifact, Since: t2, Reason: "muscle on T7", Artifact: "muscle", Channels: []string{"T7"}}
	status(muscle) // lasts: shown after 5 s of signal
	scores(t2, 7)
	do(t, alice, "the lasting artifact shown", chromedp.WaitVisible(chromedp.CSS(tile+".st-artifact")))
	status(alert.Status{State: alert.StateElectrodeOff, Since: t3, Reason: "lead-off on C3", Channels: []string{"C3"}, Scored: 22})
	do(t, alice, "electrode-off shown at once", chromedp.WaitVisible(chromedp.CSS(tile+".st-electrode-off")))
	// The tile names the electrode and says the bed is still monitored.
	label, err := chromedp.Run(alice, chromedp.Evaluate[string](`document.querySelector('`+tile+` .state').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(label, "electrode-off on C3 since ") || !strings.HasSuffix(label, " — monitoring the other 22 channels") {
		t.Errorf("tile %q, want electrode-off on C3, monitoring the other 22 channels", label)
	}

	shown, err := chromedp.Run(alice, chromedp.Evaluate[[]string]("window.__board.shown"))
	if err != nil {
		t.Fatal(err)
	}
	stamp := func(x time.Time) string { return x.Format("2006-01-02T15:04:05.000Z") }
	want := []string{"bed-3 online " + stamp(t0), "bed-3 artifact " + stamp(t2), "bed-3 electrode-off " + stamp(t3)}
	if strings.Join(shown, "|") != strings.Join(want, "|") {
		t.Errorf("tile states drawn:\n%q\nwant\n%q", shown, want)
	}

	// Without scores (mqtt.scores off), the page's clock ends the hold.
	if _, err := chromedp.Run(alice, chromedp.Evaluate[int]("window.__board.artifactHoldWall = 50")); err != nil {
		t.Fatal(err)
	}
	status(alert.Status{State: alert.StateOnline, Since: now.Add(-5 * time.Second)})
	do(t, alice, "online again", chromedp.WaitVisible(chromedp.CSS(tile+".st-online")))
	status(alert.Status{State: alert.StateArtifact, Since: now, Reason: "electrode on C3", Artifact: "electrode", Channels: []string{"C3"}})
	do(t, alice, "an artifact shown without scores", chromedp.WaitVisible(chromedp.CSS(tile+".st-artifact")))
	if label, err := chromedp.Run(alice, chromedp.Evaluate[string](`document.querySelector('`+tile+` .state').textContent`)); err != nil || !strings.HasPrefix(label, "artifact: electrode on C3 since ") || !strings.HasSuffix(label, " — not monitoring") {
		t.Errorf("tile %q (%v), want the artifact named and not monitoring", label, err)
	}
}
