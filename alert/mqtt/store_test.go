package mqtt

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/ictal/ictal/alert"
	"github.com/ictal/ictal/alert/mqtt/mosquittotest"
	"github.com/ictal/ictal/internal/journal"
)

// disk is a store directory whose file system the test can fill and free:
// a small tmpfs mounted for the test when running as root, otherwise a
// directory whose files are written through create, which fails with
// ENOSPC while the disk is "full".
type disk struct {
	dir     string                                    // the store directory
	create  func(name string) (io.WriteCloser, error) // nil on tmpfs
	fill    func()
	free    func()
	variant string
}

// newDisk returns a fillable store directory. In CI (CI=true) the tmpfs
// variant must run.
func newDisk(t *testing.T) *disk {
	t.Helper()
	mnt := t.TempDir()
	why := "not root"
	if os.Geteuid() == 0 {
		out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", mnt).CombinedOutput()
		if err == nil {
			t.Cleanup(func() {
				if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
					t.Errorf("umount %s: %v: %s", mnt, err, out)
				}
			})
			t.Logf("variant: a real 64 KiB tmpfs mounted at %s, filled with a file", mnt)
			return tmpfsDisk(t, mnt)
		}
		why = "mount -t tmpfs failed: " + strings.TrimSpace(string(out))
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true: the real-filesystem variant must run, but %s", why)
	}
	t.Logf("variant: injected writer failing with ENOSPC (%s)", why)
	var full atomic.Bool
	return &disk{
		dir: filepath.Join(mnt, "store"),
		create: func(name string) (io.WriteCloser, error) {
			f, err := os.Create(name)
			if err != nil || !full.Load() {
				return f, err
			}
			return enospcFile{f}, nil
		},
		fill: func() { full.Store(true) }, free: func() { full.Store(false) },
		variant: "injected",
	}
}

// tmpfsDisk fills and frees the tmpfs at mnt with a filler file.
func tmpfsDisk(t *testing.T, mnt string) *disk {
	filler := filepath.Join(mnt, "filler")
	return &disk{
		dir: filepath.Join(mnt, "store"),
		fill: func() {
			f, err := os.Create(filler)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			page := make([]byte, 512)
			for n := 0; ; n++ {
				if _, err := f.Write(page); err != nil {
					if !errors.Is(err, syscall.ENOSPC) {
						t.Fatalf("filling %s: %v", mnt, err)
					}
					t.Logf("tmpfs full after %d bytes: %v", n*len(page), err)
					return
				}
			}
		},
		free: func() {
			if err := os.Remove(filler); err != nil {
				t.Fatal(err)
			}
		},
		variant: "tmpfs",
	}
}

// enospcFile is a file whose writes fail as on a full disk.
type enospcFile struct{ f *os.File }

func (e enospcFile) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: e.f.Name(), Err: syscall.ENOSPC}
}

func (e enospcFile) Close() error { return e.f.Close() }

// receiveAlerts waits until every alert of want has arrived on sub; a
// lost alert makes it hang, which go test's -timeout reports (what names
// the wait for the reader).
func receiveAlerts(t *testing.T, sub <-chan received, want map[string]bool, what string) {
	t.Helper()
	got := map[string]bool{}
	for len(got) < len(want) {
		if id := alertID(<-sub); want[id] {
			got[id] = true
		}
	}
}

// storeFiles returns the packet files in dir.
func storeFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "o.*.msg"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// raise publishes n alerts and returns their IDs.
func raise(t *testing.T, m *Publisher, n int, ids map[string]bool) {
	t.Helper()
	for i := 0; i < n; i++ {
		e := testEventN("ward-7", "bed-3")
		ids[e.ID] = true
		if err := m.Alert(e); err != nil {
			t.Fatalf("alert %d: %v", i, err)
		}
	}
}

// brokerDown starts a persistent broker with a subscriber to every alert
// and stops it. It returns the broker, the subscription, a disk that can
// be filled, and a publisher configuration for the broker with its store
// on that disk.
func brokerDown(t *testing.T) (*mosquittotest.Broker, <-chan received, *disk, Config) {
	t.Helper()
	b := mosquittotest.Start(t, mosquittotest.Opts{Persistence: true})
	sub := subscribe(t, brokerClient(t, b.URL("tcp"), "receiver", false), "ictal/+/+/alert")
	b.Stop()
	d := newDisk(t)
	cfg := testMQTTConfig(t, b.URL("tcp"))
	cfg.StoreDir, cfg.storeCreate = d.dir, d.create
	return b, sub, d, cfg
}

func TestStoreFullDiskKeepsAlertsAndRecovers(t *testing.T) {
	b, sub, d, cfg := brokerDown(t)
	log, logs := testLogger()
	m := newTestMQTT(t, cfg, log)
	if s := m.Stats(); s.StoreDegraded {
		t.Fatalf("degraded before the disk filled: %v", m.Store().Err)
	}

	// The disk fills with the broker down: alerts are raised, held in
	// memory, and the store says so once, at ERROR.
	d.fill()
	first := map[string]bool{}
	raise(t, m, 5, first)
	waitUntil(t, "5 alerts held in memory", func() bool { s := m.Stats(); return s.StoreDegraded && s.StoreHeld >= 5 })
	if err := m.Store().Err; !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("store error %v, want ENOSPC", err)
	}
	if n := strings.Count(logs.String(), "level=ERROR msg=\"mqtt: store not writable"); n != 1 {
		t.Errorf("%d ERROR lines for the full store, want 1:\n%s", n, logs)
	}
	if f := storeFiles(t, d.dir); len(f) != 0 {
		t.Errorf("files written on a full disk: %v", f)
	}

	// The broker comes back: the alerts held in memory are delivered and
	// acknowledged.
	b.Restart()
	receiveAlerts(t, sub, first, "after the broker restarted, disk full")
	waitUntil(t, "acknowledged alerts to leave memory", func() bool { return m.Stats().StoreHeld == 0 })

	// The broker goes again, alerts are held, then space returns: the
	// store writes them to disk by itself and says so.
	b.Stop()
	second := map[string]bool{}
	raise(t, m, 3, second)
	waitUntil(t, "3 alerts held in memory", func() bool { return m.Stats().StoreHeld >= 3 })
	d.free()
	waitUntil(t, "the store to recover", func() bool { return !m.Stats().StoreDegraded })
	if f := storeFiles(t, d.dir); len(f) < 3 {
		t.Errorf("after recovery the store holds %d files, want the 3 alerts", len(f))
	}
	if s := m.Stats(); s.StoreHeld != 0 || s.StoreDropped != 0 {
		t.Errorf("after recovery %+v", s)
	}
	if !strings.Contains(logs.String(), "mqtt: store writable again") {
		t.Errorf("recovery not logged:\n%s", logs)
	}
	b.Restart()
	receiveAlerts(t, sub, second, "after recovery")
	t.Logf("%s: 5 alerts held in memory on a full disk and delivered, 3 written to disk on recovery and delivered", d.variant)
}

func TestStoreFullDiskAtStartStillPublishes(t *testing.T) {
	b, sub, d, cfg := brokerDown(t)
	cfg.CloseTimeout = 200 * time.Millisecond

	// A daemon leaves two unacknowledged alerts in its store and stops;
	// then the disk fills.
	want := map[string]bool{}
	m, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	raise(t, m, 2, want)
	waitUntil(t, "2 alerts in the store", func() bool { return len(storeFiles(t, d.dir)) == 2 })
	m.Close()
	d.fill()

	// Restarted with the disk still full, the daemon starts, degraded, and
	// publishes both the old alerts and a new one.
	log, logs := testLogger()
	m = newTestMQTT(t, cfg, log)
	if !m.Stats().StoreDegraded || !strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("started on a full disk: degraded %v, log:\n%s", m.Stats().StoreDegraded, logs)
	}
	raise(t, m, 1, want)
	b.Restart()
	receiveAlerts(t, sub, want, "restarted on a full disk")
	t.Logf("%s: started on a full disk, 2 alerts of the previous process and 1 new delivered", d.variant)
}

// testPacket is a QoS 1 publish on topic with a payload of n bytes.
func testPacket(topic string, id uint16, n int) *packets.PublishPacket {
	p := packets.NewControlPacket(packets.Publish).(*packets.PublishPacket)
	p.Qos, p.TopicName, p.MessageID, p.Payload = 1, topic, id, make([]byte, n)
	return p
}

func TestStoreFullDiskDropsAlertsLast(t *testing.T) {
	const pre = "ictal/ward-7/bed-3/"
	m := &Publisher{topicAlert: pre + "alert", topicEnd: pre + "end", topicStatus: pre + "status",
		topicEvidence: pre + "evidence", topicAck: pre + "feedback/ack"}
	// Every packet is 106 bytes encoded (the payload makes up for the
	// topic's length), so the limits below count packets.
	const size = 106
	puts := []string{"alert", "status", "evidence", "feedback/ack", "end", "status", "alert", "evidence", "end"}
	tests := []struct {
		name  string
		limit int
		want  string // topic and packet id, oldest first
	}{
		{"everything fits", 9 * size, "alert1,status2,evidence3,feedback/ack4,end5,status6,alert7,evidence8,end9"},
		{"statuses go first", 7 * size, "alert1,evidence3,feedback/ack4,end5,alert7,evidence8,end9"},
		{"then evidence", 5 * size, "alert1,feedback/ack4,end5,alert7,end9"},
		{"then acks and ends", 2 * size, "alert1,alert7"},
		{"alerts last, oldest first", size, "alert7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log, logs := testLogger()
			failing := func(name string) (io.WriteCloser, error) {
				return nil, &os.PathError{Op: "open", Path: name, Err: syscall.ENOSPC}
			}
			s, err := newStore(t.TempDir(), tt.limit, m.rank, failing, log)
			if err != nil {
				t.Fatal(err)
			}
			for i, topic := range puts {
				id := uint16(i + 1)
				s.Put("o."+strconv.Itoa(int(id)), testPacket(pre+topic, id, 100-len(pre+topic)))
			}
			var got []string
			for _, k := range s.All() {
				p, ok := s.Get(k).(*packets.PublishPacket)
				if !ok {
					t.Fatalf("%s: %T", k, s.Get(k))
				}
				got = append(got, strings.TrimPrefix(p.TopicName, pre)+strconv.Itoa(int(p.MessageID)))
			}
			if strings.Join(got, ",") != tt.want {
				t.Errorf("kept %s, want %s", strings.Join(got, ","), tt.want)
			}
			if st := s.state(); st.Held != len(got) || st.HeldBytes != size*len(got) || int(st.Dropped) != len(puts)-len(got) {
				t.Errorf("state %+v", st)
			}
			if n := strings.Count(logs.String(), "level=ERROR "); n > 2 {
				t.Errorf("%d ERROR lines, want at most one for the disk and one for drops:\n%s", n, logs)
			}
			// Each dropped alert, end and evidence is logged at CRIT
			// (slog's text handler names the level ERROR+4).
			want := 0
			for i, topic := range puts {
				if (topic == "alert" || topic == "end" || topic == "evidence") && !strings.Contains(tt.want, topic+strconv.Itoa(i+1)) {
					want++
				}
			}
			if n := strings.Count(logs.String(), `level=ERROR+4 msg="mqtt: message lost`); n != want {
				t.Errorf("%d CRIT lines, want %d, one per alert, end and evidence dropped:\n%s", n, want, logs)
			}
		})
	}
}

func TestStoreReadsWhatPahosFileStoreLeft(t *testing.T) {
	// A daemon upgraded from paho's FileStore finds its unacknowledged
	// messages in the same files, in the same order.
	dir := t.TempDir()
	old := paho.NewFileStore(dir)
	old.Open()
	for i, topic := range []string{"alert", "end", "alert"} {
		old.Put("o."+strconv.Itoa(i+1), testPacket("ictal/ward-7/bed-3/"+topic, uint16(i+1), 10))
		time.Sleep(20 * time.Millisecond) // paho orders its files by modification time, of a coarse clock
	}
	old.Close()
	log, logs := testLogger()
	s, err := newStore(dir, DefaultStoreMemory, nil, nil, log)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range s.All() {
		p, ok := s.Get(k).(*packets.PublishPacket)
		if !ok {
			t.Fatalf("%s: %v", k, s.Get(k))
		}
		got = append(got, k+" "+p.TopicName)
	}
	want := "o.1 ictal/ward-7/bed-3/alert,o.2 ictal/ward-7/bed-3/end,o.3 ictal/ward-7/bed-3/alert"
	if strings.Join(got, ",") != want {
		t.Errorf("read %q, want %q", strings.Join(got, ","), want)
	}
	if st := s.state(); st.Err != nil || st.Held != 0 {
		t.Errorf("state %+v\n%s", st, logs)
	}
	// What this store writes, paho's reads.
	s.Put("o.4", testPacket("ictal/ward-7/bed-3/alert", 4, 10))
	s.Del("o.1")
	back := paho.NewFileStore(dir)
	back.Open()
	if keys := strings.Join(back.All(), ","); keys != "o.2,o.3,o.4" {
		t.Errorf("paho's FileStore reads %s", keys)
	}
	if p, ok := back.Get("o.4").(*packets.PublishPacket); !ok || p.MessageID != 4 {
		t.Errorf("paho's FileStore: o.4 is %v", back.Get("o.4"))
	}
}

func TestStoreFullDiskCloseSaysWhatIsLost(t *testing.T) {
	d := newDisk(t)
	cfg := testMQTTConfig(t, "tcp://127.0.0.1:1") // no broker
	cfg.StoreDir, cfg.storeCreate, cfg.CloseTimeout = d.dir, d.create, 200*time.Millisecond
	log, logs := testLogger()
	m, err := New(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	d.fill()
	raise(t, m, 2, map[string]bool{})
	waitUntil(t, "2 alerts held in memory", func() bool { return m.Stats().StoreHeld == 2 })
	err = m.Close()
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "2 held in memory are lost") {
		t.Errorf("close: %v", err)
	}
	if !strings.Contains(logs.String(), `level=ERROR msg="mqtt: store still not writable at close`) {
		t.Errorf("the loss is not logged:\n%s", logs)
	}
	t.Logf("%s: %v", d.variant, err)
}

func TestStoreReadOnlyFileSystemStartsDegradedAndRecovers(t *testing.T) {
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: this test needs root to mount a tmpfs")
		}
		t.Skip("needs root to mount a tmpfs")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	dir := filepath.Join(mnt, "store")
	remount := func(mode string) {
		if out, err := exec.Command("mount", "-o", "remount,"+mode, mnt).CombinedOutput(); err != nil {
			t.Fatalf("remount %s: %v: %s", mode, err, out)
		}
	}
	remount("ro") // the store directory cannot even be created
	log, logs := testLogger()
	s, err := newStore(dir, DefaultStoreMemory, nil, nil, log)
	if err != nil {
		t.Fatalf("a read-only file system refused the start: %v", err)
	}
	s.Put("o.1", testPacket("ictal/ward-7/bed-3/alert", 1, 10))
	if st := s.state(); !errors.Is(st.Err, syscall.EROFS) || st.Held != 1 {
		t.Errorf("on a read-only file system: %+v", st)
	}
	remount("rw")
	s.mu.Lock()
	s.lastTry = time.Time{} // retry now rather than in storeRetryEvery
	s.mu.Unlock()
	s.retry()
	if st := s.state(); st.Err != nil || st.Held != 0 || len(storeFiles(t, dir)) != 1 {
		t.Errorf("after remounting read-write: %+v, files %v\n%s", st, storeFiles(t, dir), logs)
	}
}

// TestStoreFullDiskBrokerDownLogsLostAlertsAtCrit: at stop, with the
// store unable to write (a full disk) and the broker unreachable, each
// alert and event end held in memory is lost for good, and is logged whole
// at CRIT (priority 2 under journald, which keeps it when the state
// directory is full: issue 32 lost 6 alerts without a trace); a lost
// evidence by its alert ID and size. The records are what ictald writes
// to the journal.
func TestStoreFullDiskBrokerDownLogsLostAlertsAtCrit(t *testing.T) {
	d := newDisk(t)
	cfg := testMQTTConfig(t, "tcp://127.0.0.1:1") // no broker
	cfg.StoreDir, cfg.storeCreate, cfg.CloseTimeout = d.dir, d.create, 200*time.Millisecond
	var out syncBuffer
	m, err := New(cfg, slog.New(journal.NewJournalHandler(&out, "json", nil)))
	if err != nil {
		t.Fatal(err)
	}
	d.fill()
	want := map[string]string{} // payload → topic
	var evidence []byte
	var evidenceID string
	for i := range 3 {
		e := testEventN("ward-7", "bed-3")
		m.Alert(e)
		want[string(alert.AppendAlert(nil, e))] = bed3 + "/alert"
		if i == 1 {
			e.End = e.Onset.Add(time.Minute)
			m.EventEnd(e)
			want[string(alert.AppendEventEnd(nil, e))] = bed3 + "/end"
			ev := testEvidence(e, 2, 2*time.Second)
			m.Evidence(ev)
			evidence, evidenceID = alert.AppendEvidence(nil, ev), e.ID
		}
	}
	waitUntil(t, "the messages held in memory", func() bool { return m.Stats().StoreHeld == 5 })
	if err := m.Close(); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("close: %v", err)
	}
	lost := 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.HasPrefix(line, "<2>") {
			continue
		}
		var r struct {
			Level, Msg, Topic, Payload string
			AlertID                    string `json:"alert_id"`
			Bytes                      int
		}
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "<2>")), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if r.Level != "CRIT" || r.Msg != msgLost {
			t.Errorf("priority 2: %s", line)
		}
		if r.Topic == bed3+"/evidence" {
			if r.AlertID != evidenceID || r.Bytes != len(evidence) {
				t.Errorf("lost evidence logged as %s, want alert %s and %d bytes", line, evidenceID, len(evidence))
			}
			lost++
			continue
		}
		if topic, ok := want[r.Payload]; !ok || topic != r.Topic {
			t.Errorf("logged at CRIT: %s; not one of the alerts or ends, whole, on its topic", line)
			continue
		}
		delete(want, r.Payload)
		lost++
	}
	if len(want) > 0 || lost != 5 {
		t.Errorf("%d lost messages logged at CRIT, want 5; not logged whole: %v\n%s", lost, want, out.String())
	}
}

// TestCloseLogsQueuedAlertsAtCrit: alerts, ends and evidence still in the
// publisher's queue at close (never handed to the client, so in no store)
// are logged as lost, at CRIT, the alerts and ends whole; statuses are
// not.
func TestCloseLogsQueuedAlertsAtCrit(t *testing.T) {
	var out syncBuffer
	m := &Publisher{log: slog.New(journal.NewJournalHandler(&out, "text", nil)), q: newQueue(4),
		topicAlert: bed3 + "/alert", topicEnd: bed3 + "/end", topicEvidence: bed3 + "/evidence"}
	e := testEventN("ward-7", "bed-3")
	alertPayload := alert.AppendAlert(nil, e)
	m.q.pushUrgent(kindAlert, alertPayload)
	m.q.pushUrgent(kindEvidence, alert.AppendEvidence(nil, testEvidence(e, 1, time.Second)))
	e.End = e.Onset.Add(time.Minute)
	m.q.pushUrgent(kindEnd, alert.AppendEventEnd(nil, e))
	m.q.push(kindStatus, alert.AppendStatus(nil, alert.Status{State: alert.StateOnline, Since: e.Onset}))
	m.logLeft()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	quote := func(b []byte) string { return strconv.Quote(string(b)) }
	wants := []string{
		"topic=" + bed3 + "/alert payload=" + quote(alertPayload),
		"topic=" + bed3 + "/evidence alert_id=" + e.ID,
		"topic=" + bed3 + "/end payload=" + quote(alert.AppendEventEnd(nil, e)),
	}
	if len(lines) != len(wants) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(wants), out.String())
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, `<2>level=CRIT msg="`+msgLost+`"`) || !strings.Contains(l, wants[i]) {
			t.Errorf("line %d: %s\nwant CRIT with %s", i, l, wants[i])
		}
	}
}
