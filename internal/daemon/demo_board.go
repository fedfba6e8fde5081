package daemon

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt"
	"github.com/ictal/ictal/internal/board"
)

// demoBoard is the ward board the demo runs on loopback, and the demo's
// own clinician logged in to it.
type demoBoard struct {
	url    string
	client *board.Client
	stop   func()
}

// demoUser is the login printed for the person running the demo;
// demoClinicianUser is the one the demo's simulated clinician uses.
const (
	demoUser          = "demo"
	demoClinicianUser = "dr-demo"
)

// startDemoBoard starts `ictal board` inside the demo: a users file with
// one-time passwords in a temporary directory, the board subscribed to
// the embedded broker through conn (a user of the broker, so that it may
// publish feedback) and serving on o.BoardListen (a free port if that is
// taken), and the demo's clinician logged in through the board's HTTP
// API.
func startDemoBoard(ctx context.Context, o DemoOptions, conn mqtt.Connection, out io.Writer, log *slog.Logger) (*demoBoard, error) {
	dir, err := os.MkdirTemp("", "ictald-demo-board-")
	if err != nil {
		return nil, err
	}
	users := filepath.Join(dir, "users")
	pw, clinPW := oneTimePassword(), oneTimePassword()
	if err := board.AddUser(users, demoUser, []byte(pw)); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := board.AddUser(users, demoClinicianUser, []byte(clinPW)); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	srv, err := board.New(board.Config{Site: o.Site, Users: users, Audit: filepath.Join(dir, "audit.jsonl"),
		MQTT: conn, ClientID: fmt.Sprintf("ictal-board-demo-%d", os.Getpid())},
		log.With(slog.String("component", "board")))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	ln, err := net.Listen("tcp", o.BoardListen)
	if errors.Is(err, syscall.EADDRINUSE) {
		fmt.Fprintf(out, "ictald demo: %s is taken; the ward board uses a free port instead\n", o.BoardListen)
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("ward board: %w", err)
	}
	bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := srv.Serve(bctx, ln); err != nil {
			log.Error("ward board stopped", slog.Any("err", err))
		}
	}()
	b := &demoBoard{url: "http://" + ln.Addr().String()}
	b.stop = func() { cancel(); <-served; os.RemoveAll(dir) }
	if b.client, err = board.Login(ctx, b.url, demoClinicianUser, clinPW, nil); err != nil {
		b.stop()
		return nil, err
	}
	fmt.Fprintf(out, "ictald demo: ward board at %s — log in as %q with the one-time password %s\n", b.url, demoUser, pw)
	return b, nil
}

// oneTimePassword returns 12 random bytes in URL-safe base64.
func oneTimePassword() string {
	var b [12]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// demoClinician is a Sink that plays the clinician at the ward board: for
// every alert it waits until the board shows it, then presses Confirm
// when the alert overlaps one of the recording's seizures and Reject when
// it does not, through the board's HTTP API. The board publishes the
// verdict on …/feedback, the pipeline learns it and answers on
// …/feedback/ack, which the board shows beside the alert.
type demoClinician struct {
	ctx      context.Context
	board    *demoBoard
	seizures []acquire.Interval
	out      io.Writer

	wg                  sync.WaitGroup
	mu                  sync.Mutex
	confirmed, rejected int
	alerts, labels      int           // alerts judged; verdicts handed to the pipeline
	applied, windows    int           // acknowledgements of verdicts applied; windows learned
	changed             chan struct{} // closed and replaced when labels grows
}

// Ack counts the pipeline's acknowledgements of the demo clinician's
// verdicts (the same the board receives on …/feedback/ack); feedback from
// anyone else is acknowledged on MQTT, and printed from there, but not
// counted here.
func (c *demoClinician) Ack(a alert.Ack) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a.Applied && a.By == demoClinicianUser {
		c.applied++
		c.windows += a.Windows
	}
	return nil
}

// labelled counts a verdict handed to the pipeline (forwardLabels).
func (c *demoClinician) labelled() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.labels++
	close(c.changed)
	c.changed = make(chan struct{})
}

// verdictWait bounds how long the end of the recording waits for the
// clinician's last verdicts to reach the pipeline.
const verdictWait = 30 * time.Second

// awaitVerdicts waits until every alert's verdict has reached the
// pipeline, ctx is done, or verdictWait has passed.
func (c *demoClinician) awaitVerdicts(ctx context.Context) {
	limit := time.NewTimer(verdictWait)
	defer limit.Stop()
	for {
		c.mu.Lock()
		done, changed := c.labels >= c.alerts, c.changed
		c.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		case <-limit.C:
			fmt.Fprintf(c.out, "ictald demo: gave up waiting for the clinician's verdicts after %v\n", verdictWait)
			return
		}
	}
}

// judgedEnd holds back the end of the monitored recording until the
// clinician's verdicts on its alerts have reached the pipeline, which
// applies them and answers on …/feedback/ack as it finishes: at 15× real
// time the last alert's verdict could otherwise arrive after the end.
type judgedEnd struct {
	acquire.Source
	clin *demoClinician
	ctx  context.Context
}

func (j *judgedEnd) ReadFrame(f *acquire.Frame) error {
	err := j.Source.ReadFrame(f)
	if errors.Is(err, io.EOF) {
		j.clin.awaitVerdicts(j.ctx)
	}
	return err
}

func (c *demoClinician) Alert(e *alert.Event) error {
	verdict := alert.VerdictRejected
	for _, s := range c.seizures {
		if s.Seizure && e.OnsetOffset < s.End && e.DetectedOffset+time.Minute > s.Start { // eval.Match's rule
			verdict = alert.VerdictConfirmed
		}
	}
	id := e.ID
	c.mu.Lock()
	c.alerts++
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if err := c.judge(id, verdict); err != nil {
			fmt.Fprintf(c.out, "ictald demo: the clinician's %s of %s failed: %v\n", verdict, id, err)
		}
	}()
	return nil
}

// judge waits for the board to list the alert, then sends the verdict.
func (c *demoClinician) judge(id, verdict string) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		ids, err := c.board.client.AlertIDs(c.ctx)
		if err != nil {
			return err
		}
		if slices.Contains(ids, id) {
			break
		}
		select {
		case <-c.ctx.Done():
			return c.ctx.Err()
		case <-tick.C:
		}
	}
	if err := c.board.client.Verdict(c.ctx, id, verdict); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if verdict == alert.VerdictConfirmed {
		c.confirmed++
	} else {
		c.rejected++
	}
	fmt.Fprintf(c.out, "            ↳ board: %s pressed %s on alert %s\n", demoClinicianUser, verdict, id)
	return nil
}

// report waits for the verdicts in flight and says what the clinician
// did and what the monitor made of it.
func (c *demoClinician) report() string {
	c.wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("ward board %s: %s confirmed %d alerts and rejected %d through the board's HTTP API; the monitor applied %d of these verdicts, to %d windows",
		c.board.url, demoClinicianUser, c.confirmed, c.rejected, c.applied, c.windows)
}
