package mqtt

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
	mochipackets "github.com/mochi-mqtt/server/v2/packets"
)

// Store file names, as paho's FileStore writes them, so that a store left
// by either is read by the other: "o.<packet id>.msg" holds one packet as
// it goes on the wire, written as ".tmp" then renamed.
const (
	storeMsgExt     = ".msg"
	storeTmpExt     = ".tmp"
	storeCorruptExt = ".CORRUPT"
)

// storeRetryEvery is how often a degraded store tries the disk again.
const storeRetryEvery = 2 * time.Second

// store is the publisher's paho.Store: one file per packet identifier,
// like paho's FileStore (written to a temporary file, then renamed, so a
// process killed at any moment leaves whole packets), but it never panics.
// When a file cannot be written (a full disk, a read-only or vanished
// directory) the packet is kept in memory instead and the store is
// degraded: the first failure of an episode is logged at ERROR, later
// packets go to memory too, and every storeRetryEvery (on the next Put or
// retry) the store writes what it holds in memory to disk, oldest first;
// when that succeeds it is healthy again and says so in the log.
//
// Memory is bounded by limit bytes of encoded packets: above it, the
// least important packet held in memory is dropped, oldest first within
// its rank (status, then evidence, then feedback acknowledgements, then
// anything else, then event ends, and alerts last); a dropped alert or
// end is logged whole at CRIT (logLost). Packets already on disk do not
// count.
//
// Packets held in memory do not survive the process; those on disk do.
// The order of All is the order of the first Put (for files of an earlier
// process, their modification time, which the store sets to the time of
// the first Put).
type store struct {
	dir    string
	log    *slog.Logger
	create func(name string) (io.WriteCloser, error)
	rank   func(topic string) int
	limit  int

	mu       sync.Mutex
	closed   bool
	seq      uint64
	entries  map[string]*storeEntry
	memBytes int
	held     int       // entries with mem set
	failure  error     // why the store is degraded; nil when healthy
	lastTry  time.Time // of writing to disk while degraded
	dropped  uint64    // packets dropped from memory, in total
	episode  uint64    // packets dropped since the store degraded
}

// storeEntry is one stored packet.
type storeEntry struct {
	seq    uint64
	at     time.Time // first Put, or the file's modification time
	rank   int
	onDisk bool   // a version of the packet is in its file
	mem    []byte // the encoded packet while its newest version is not on disk
}

// createFile is the store's default way to create a file.
func createFile(name string) (io.WriteCloser, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
}

// newStore opens the store in dir, creating the directory if needed, and
// loads the names of the packets an earlier process left there. A dir
// that cannot be a directory (it, or a parent, is a regular file) is a
// configuration error; any other failure (no space, no permission, a
// read-only file system) leaves the store degraded, in memory, and logged
// at ERROR, so that the daemon goes on detecting and publishing. (A
// directory that could not be read at start is not read later: the
// packets an earlier process left there are not sent, and new packets may
// replace them.)
func newStore(dir string, limit int, rank func(string) int, create func(string) (io.WriteCloser, error), log *slog.Logger) (*store, error) {
	if create == nil {
		create = createFile
	}
	s := &store{dir: dir, log: log, create: create, rank: rank, limit: limit, entries: map[string]*storeEntry{}}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EEXIST) {
			return nil, &ConfigError{"StoreDir", dir, "not a directory: " + err.Error()}
		}
		s.degrade(fmt.Errorf("alert: mqtt store %s: %w", dir, err))
		return s, nil
	}
	if err := s.load(); err != nil {
		s.degrade(err)
		return s, nil
	}
	s.mu.Lock()
	s.flushLocked(time.Now()) // probes the disk
	s.mu.Unlock()
	return s, nil
}

// load indexes the packet files in the directory, oldest first, and
// removes temporary files a killed process left.
func (s *store) load() error {
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("alert: mqtt store %s: %w", s.dir, err)
	}
	type file struct {
		key string
		at  time.Time
	}
	var files []file
	for _, de := range des {
		name := de.Name()
		if strings.HasSuffix(name, storeTmpExt) || strings.HasPrefix(name, ".probe-") {
			os.Remove(filepath.Join(s.dir, name))
			continue
		}
		key, ok := strings.CutSuffix(name, storeMsgExt)
		if !ok || !validKey(key) {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue // removed meanwhile
		}
		files = append(files, file{key, info.ModTime()})
	}
	// Equal times (paho's files, within a clock tick) fall back on the
	// packet identifier.
	sort.Slice(files, func(i, j int) bool {
		a, b := files[i], files[j]
		if !a.at.Equal(b.at) {
			return a.at.Before(b.at)
		}
		if len(a.key) != len(b.key) {
			return len(a.key) < len(b.key)
		}
		return a.key < b.key
	})
	for _, f := range files {
		s.seq++
		s.entries[f.key] = &storeEntry{seq: s.seq, at: f.at, rank: rankOther, onDisk: true}
	}
	return nil
}

// validKey reports whether key is "i.<id>" or "o.<id>" with a packet
// identifier: paho panics on any other key.
func validKey(key string) bool {
	if len(key) < 3 || (key[:2] != "i." && key[:2] != "o.") {
		return false
	}
	_, err := strconv.ParseUint(key[2:], 10, 16)
	return err == nil
}

// path returns the file of key, with the given extension.
func (s *store) path(key, ext string) string { return filepath.Join(s.dir, key+ext) }

// write writes one encoded packet to its file: a temporary file whose
// modification time is at, then renamed.
func (s *store) write(key string, b []byte, at time.Time) error {
	tmp := s.path(key, storeTmpExt)
	f, err := s.create(tmp)
	if err != nil {
		return fmt.Errorf("alert: mqtt store %s: packet %s: %w", s.dir, key, err)
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		os.Chtimes(tmp, at, at) // the order of All after a restart; best effort
		werr = os.Rename(tmp, s.path(key, storeMsgExt))
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("alert: mqtt store %s: packet %s: %w", s.dir, key, werr)
	}
	return nil
}

// Open implements paho.Store. The store was opened by newStore.
func (s *store) Open() {}

// Put implements paho.Store: the packet goes to its file or, if the
// store cannot write it, to memory.
func (s *store) Put(key string, m packets.ControlPacket) {
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		s.log.Error("mqtt: store: cannot encode packet; not stored", slog.String("key", key), slog.String("error", err.Error()))
		return
	}
	b := buf.Bytes()
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[key]
	if e == nil {
		s.seq++
		e = &storeEntry{seq: s.seq, at: now, rank: rankOther}
		if p, ok := m.(*packets.PublishPacket); ok && s.rank != nil {
			e.rank = s.rank(p.TopicName)
		}
		s.entries[key] = e
	}
	if s.failure == nil {
		err := s.write(key, b, e.at)
		if err == nil {
			s.setMem(e, nil)
			e.onDisk = true
			return
		}
		s.degradeLocked(err, now)
	}
	s.setMem(e, b)
	s.shed()
	if now.Sub(s.lastTry) >= storeRetryEvery {
		s.flushLocked(now)
	}
}

// setMem sets the in-memory version of e, keeping count of the bytes.
func (s *store) setMem(e *storeEntry, b []byte) {
	switch {
	case e.mem == nil && b != nil:
		s.held++
	case e.mem != nil && b == nil:
		s.held--
	}
	s.memBytes += len(b) - len(e.mem)
	e.mem = b
}

// shed drops packets held in memory, least important and oldest first,
// until they fit the limit.
func (s *store) shed() {
	for s.memBytes > s.limit {
		var key string
		var victim *storeEntry
		for k, e := range s.entries {
			if e.mem == nil {
				continue
			}
			if victim == nil || e.rank < victim.rank || (e.rank == victim.rank && e.seq < victim.seq) {
				key, victim = k, e
			}
		}
		if victim == nil {
			return
		}
		if !victim.onDisk { // else an older version on disk stays
			s.logLost(victim, "dropped from memory: the store is not writable and its memory limit was reached")
			delete(s.entries, key)
		}
		s.setMem(victim, nil)
		s.dropped++
		s.episode++
		if s.episode == 1 {
			s.log.Error("mqtt: store: memory limit reached while the disk is unusable; dropping the least important unacknowledged messages (alerts last)",
				slog.String("dir", s.dir), slog.Int("limit_bytes", s.limit), slog.String("dropped", key))
		}
	}
}

// degrade marks the store degraded by err, logging the start of an
// episode at ERROR.
func (s *store) degrade(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.degradeLocked(err, time.Now())
}

func (s *store) degradeLocked(err error, now time.Time) {
	s.lastTry = now
	if s.failure == nil {
		s.log.Error("mqtt: store not writable; keeping unacknowledged messages in memory (lost if the daemon stops) until it is; detection goes on",
			slog.String("dir", s.dir), slog.String("error", err.Error()))
	}
	s.failure = err
}

// flushLocked writes the packets held in memory to disk, oldest first, or
// probes the disk when there are none; on success a degraded store is
// healthy again.
func (s *store) flushLocked(now time.Time) {
	s.lastTry = now
	held := make([]string, 0, 8)
	for k, e := range s.entries {
		if e.mem != nil {
			held = append(held, k)
		}
	}
	sort.Slice(held, func(i, j int) bool { return s.entries[held[i]].seq < s.entries[held[j]].seq })
	err := os.MkdirAll(s.dir, 0o700) // it may not have existed at start
	if err != nil {
		err = fmt.Errorf("alert: mqtt store %s: %w", s.dir, err)
	} else if len(held) == 0 {
		err = s.probe()
	}
	for i := 0; err == nil && i < len(held); i++ {
		k := held[i]
		e := s.entries[k]
		if err = s.write(k, e.mem, e.at); err != nil {
			break
		}
		s.setMem(e, nil)
		e.onDisk = true
	}
	if err != nil {
		s.degradeLocked(err, now)
		return
	}
	if s.failure != nil {
		s.log.Warn("mqtt: store writable again; messages held in memory written to disk",
			slog.String("dir", s.dir), slog.Int("written", len(held)), slog.Uint64("dropped", s.episode))
	}
	s.failure, s.episode = nil, 0
}

// probe checks that a file can be written in the directory.
func (s *store) probe() error {
	name := filepath.Join(s.dir, ".probe-"+strconv.Itoa(os.Getpid()))
	f, err := s.create(name)
	if err != nil {
		return fmt.Errorf("alert: mqtt store %s is not writable: %w", s.dir, err)
	}
	_, werr := f.Write([]byte("ictal"))
	cerr := f.Close()
	os.Remove(name)
	if err := errors.Join(werr, cerr); err != nil {
		return fmt.Errorf("alert: mqtt store %s is not writable: %w", s.dir, err)
	}
	return nil
}

// retry writes what is held in memory to disk if the store is degraded
// and storeRetryEvery has passed since it last tried.
func (s *store) retry() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := time.Now(); s.failure != nil && now.Sub(s.lastTry) >= storeRetryEvery {
		s.flushLocked(now)
	}
}

// Get implements paho.Store: the packet of key, from memory or its file;
// nil when there is none or its file is unreadable (a corrupt file is
// renamed to .CORRUPT, as paho does).
func (s *store) Get(key string) packets.ControlPacket {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[key]
	if e == nil {
		return nil
	}
	if e.mem != nil {
		p, err := packets.ReadPacket(bytes.NewReader(e.mem))
		if err != nil {
			s.log.Error("mqtt: store: packet held in memory unreadable", slog.String("key", key), slog.String("error", err.Error()))
			return nil
		}
		return p
	}
	f, err := os.Open(s.path(key, storeMsgExt))
	if err != nil {
		s.log.Error("mqtt: store: cannot read packet", slog.String("dir", s.dir), slog.String("key", key), slog.String("error", err.Error()))
		if errors.Is(err, os.ErrNotExist) {
			delete(s.entries, key) // removed behind our back: nothing to send
		}
		return nil
	}
	p, err := readPacketFile(f)
	f.Close()
	if err != nil {
		s.log.Error("mqtt: store: corrupt packet file set aside", slog.String("file", s.path(key, storeCorruptExt)), slog.String("error", err.Error()))
		os.Rename(s.path(key, storeMsgExt), s.path(key, storeCorruptExt))
		delete(s.entries, key)
		return nil
	}
	return p
}

// readPacketFile reads a packet file, which holds exactly one packet of at
// most maxPacketSize bytes. paho's ReadPacket allocates the length its
// fixed header declares before reading it: a damaged header could make it
// allocate 256 MB on a small board, so the declared length is checked
// against the file's first.
func readPacketFile(r io.Reader) (packets.ControlPacket, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxPacketSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxPacketSize {
		return nil, fmt.Errorf("more than %d bytes: larger than any packet the publisher sends", maxPacketSize)
	}
	// The fixed header: a type byte, then the remaining length, decoded
	// as the embedded broker decodes it.
	if len(b) < 2 {
		return nil, fmt.Errorf("%d bytes: no complete packet header", len(b))
	}
	n, lenBytes, err := mochipackets.DecodeLength(bytes.NewReader(b[1:]))
	if err != nil {
		return nil, fmt.Errorf("packet header: remaining length: %w", err)
	}
	if size := 1 + lenBytes + n; size != len(b) {
		return nil, fmt.Errorf("the header declares a packet of %d bytes, the file holds %d", size, len(b))
	}
	p, err := packets.ReadPacket(bytes.NewReader(b))
	if err != nil {
		return nil, err // paho returns the half-read packet too
	}
	return p, nil
}

// All implements paho.Store: the keys, oldest first.
func (s *store) All() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.entries))
	for k := range s.entries {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return s.entries[keys[i]].seq < s.entries[keys[j]].seq })
	return keys
}

// Del implements paho.Store: the packet is forgotten and its file
// removed. A file that cannot be removed is logged: the next process will
// send that message again, which receivers drop by id.
func (s *store) Del(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delLocked(key)
}

func (s *store) delLocked(key string) {
	e := s.entries[key]
	if e == nil {
		return
	}
	s.setMem(e, nil)
	delete(s.entries, key)
	if !e.onDisk {
		return
	}
	if err := os.Remove(s.path(key, storeMsgExt)); err != nil && !errors.Is(err, os.ErrNotExist) {
		s.log.Warn("mqtt: store: cannot remove an acknowledged packet; the next process may send it again",
			slog.String("dir", s.dir), slog.String("key", key), slog.String("error", err.Error()))
	}
}

// Reset implements paho.Store: every packet is removed.
func (s *store) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.entries {
		s.delLocked(k)
	}
}

// Close implements paho.Store: a degraded store makes a last attempt to
// write what it holds in memory, and logs at ERROR how many messages are
// lost, if any, then each lost alert and event end whole, and each lost
// evidence's alert ID, at CRIT (logLost). It may be called more than
// once.
func (s *store) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.failure == nil {
		s.closed = true
		return
	}
	s.closed = true
	s.flushLocked(time.Now())
	if s.failure != nil && s.held > 0 {
		s.log.Error("mqtt: store still not writable at close; unacknowledged messages held in memory are lost",
			slog.String("dir", s.dir), slog.Int("messages", s.held), slog.String("error", s.failure.Error()))
		lost := make([]*storeEntry, 0, s.held)
		for _, e := range s.entries {
			if e.mem != nil && !e.onDisk {
				lost = append(lost, e)
			}
		}
		sort.Slice(lost, func(i, j int) bool { return lost[i].seq < lost[j].seq })
		for _, e := range lost {
			s.logLost(e, "held in memory at close: the store is not writable")
		}
	}
}

// logLost logs, at CRIT, an alert, end or evidence whose only copy, in
// memory, is lost (logLost).
func (s *store) logLost(e *storeEntry, why string) {
	if e.rank != rankAlert && e.rank != rankEnd && e.rank != rankEvidence {
		return
	}
	p, err := packets.ReadPacket(bytes.NewReader(e.mem))
	pub, ok := p.(*packets.PublishPacket)
	if err != nil || !ok {
		s.log.Error("mqtt: store: a lost message is unreadable", slog.Int("bytes", len(e.mem)))
		return
	}
	logLost(s.log, pub.TopicName, pub.Payload, e.rank == rankEvidence, why)
}

// StoreState is the state of the publisher's on-disk store.
type StoreState struct {
	// Err is why the store is degraded (messages kept in memory), nil
	// when it is healthy.
	Err error
	// Held is the number of unacknowledged messages held in memory, and
	// HeldBytes their size; Dropped counts those dropped, in total,
	// because they exceeded StoreMemory.
	Held, HeldBytes int
	Dropped         uint64
}

// state returns the store's state.
func (s *store) state() StoreState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return StoreState{Err: s.failure, Held: s.held, HeldBytes: s.memBytes, Dropped: s.dropped}
}

// Ranks of packets, the order in which a degraded store drops them.
const (
	rankStatus = iota
	rankEvidence
	rankAck
	rankOther
	rankEnd
	rankAlert
)

var _ paho.Store = (*store)(nil)
