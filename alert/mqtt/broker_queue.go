package mqtt

import (
	"bytes"
	"container/list"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// Ranks of the messages the embedded broker queues for a session, in the
// order they are dropped when a bound is reached: scores first, then
// status, evidence, feedback acknowledgements, anything else (feedback),
// event ends, and alerts last — the order of the publisher's own queue
// and store.
const (
	qrankScore = iota
	qrankStatus
	qrankEvidence
	qrankAck
	qrankOther
	qrankEnd
	qrankAlert
	qranks
)

// qrankNames names the ranks for Stats and logs.
var qrankNames = [qranks]string{"score", "status", "evidence", "feedback ack", "other", "end", "alert"}

// queueRank returns the rank of a message on topic, from its last levels
// (…/alert, …/end, …/feedback/ack, …).
func queueRank(topic string) int {
	switch {
	case strings.HasSuffix(topic, "/feedback/ack"):
		return qrankAck
	case strings.HasSuffix(topic, "/alert"):
		return qrankAlert
	case strings.HasSuffix(topic, "/end"):
		return qrankEnd
	case strings.HasSuffix(topic, "/evidence"):
		return qrankEvidence
	case strings.HasSuffix(topic, "/status"):
		return qrankStatus
	case strings.HasSuffix(topic, "/score"):
		return qrankScore
	}
	return qrankOther
}

// queuedOverhead is what a queued message costs besides its topic and
// payload: mochi's packet structure and the bookkeeping of both.
var queuedOverhead = int(unsafe.Sizeof(packets.Packet{})) + 128

// maxSessionMessages bounds the messages queued for one session whatever
// their size, below mochi's own count limit (MaximumInflight, 8192), at
// which mochi would refuse the newest message, an alert as readily as a
// score.
const maxSessionMessages = 4096

// queueBounds is the embedded broker's bound on what it queues for
// sessions (a mochi hook): the QoS 1 messages a session holds until its
// client acknowledges them (mochi's "inflight" messages, which a
// disconnected persistent session accumulates) cost at most
// sessionMax bytes (and maxSessionMessages messages) per session and
// totalMax bytes for all sessions together. When a new message exceeds a
// bound, the least important queued messages are dropped, oldest first
// within a rank (scores, then status, …, alerts last; see qrankScore),
// from the session for its bound, from any session for the total.
type queueBounds struct {
	mochi.HookBase
	sessionMax, totalMax int
	clients              *mochi.Clients // the broker's
	info                 *int64         // mochi's count of inflight messages ($SYS), kept right
	log                  *slog.Logger

	mu       sync.Mutex
	sessions map[*mochi.Client]*sessionQueue
	all      [qranks]list.List // every droppable message, oldest first
	bytes    int
	dropped  [qranks]uint64
	logged   bool // the first drop was logged
	peak     int  // the most bytes held once the bounds were enforced
}

// sessionQueue is what queueBounds knows of one client's queue.
type sessionQueue struct {
	cl     *mochi.Client
	items  map[uint16]*queuedMsg
	byRank [qranks]list.List
	bytes  int
}

// queuedMsg is one message queued for a session. Acknowledgement packets
// mochi keeps in the same map (QoS 2 flows a client starts) are counted
// but never dropped: they have no rank.
type queuedMsg struct {
	s        *sessionQueue
	pid      uint16
	size     int
	rank     int // -1: not droppable
	inS, inA *list.Element
}

// newQueueBounds returns the hook for srv.
func newQueueBounds(sessionMax, totalMax int, srv *mochi.Server, log *slog.Logger) *queueBounds {
	return &queueBounds{sessionMax: sessionMax, totalMax: totalMax, clients: srv.Clients, info: &srv.Info.Inflight,
		log: log, sessions: map[*mochi.Client]*sessionQueue{}}
}

// ID names the hook for mochi.
func (*queueBounds) ID() string { return "ictal-queue-bounds" }

// Provides says which events the hook handles.
func (*queueBounds) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnQosPublish, mochi.OnQosComplete, mochi.OnQosDropped, mochi.OnClientExpired, mochi.OnPublishDropped}, []byte{b})
}

// OnQosPublish counts a message queued for cl (or sent again) and drops
// what exceeds the bounds.
func (q *queueBounds) OnQosPublish(cl *mochi.Client, pk packets.Packet, _ int64, _ int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ended(cl) {
		// A message queued for a session as it ends (mochi clears its
		// map, or has cleared it, without telling the hooks of this one):
		// counting it would keep the client's memory for nothing.
		if s := q.sessions[cl]; s != nil {
			for _, m := range s.items {
				q.unlink(m)
			}
			delete(q.sessions, cl)
		}
		return
	}
	s := q.session(cl)
	q.put(s, pk)
	if cl.State.Inflight.Len() != len(s.items) {
		// mochi changed the client's map without telling the hooks (a
		// message rolled back, or set again after this hook while the
		// client's receive quota was spent): count it afresh.
		q.resync(s)
	}
	q.enforce(s)
	q.peak = max(q.peak, q.bytes)
}

// OnQosComplete forgets an acknowledged message.
func (q *queueBounds) OnQosComplete(cl *mochi.Client, pk packets.Packet) { q.forget(cl, pk.PacketID) }

// OnQosDropped forgets a message mochi dropped (a clean session ended,
// a session taken over, a message expired).
func (q *queueBounds) OnQosDropped(cl *mochi.Client, pk packets.Packet) { q.forget(cl, pk.PacketID) }

// OnPublishDropped counts cl's queue afresh: mochi removed a message it
// could not hand to the client's writer without saying which.
func (q *queueBounds) OnPublishDropped(cl *mochi.Client, _ packets.Packet) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if s := q.sessions[cl]; s != nil {
		q.resync(s)
	}
}

// OnClientExpired forgets an expired session and all it held.
func (q *queueBounds) OnClientExpired(cl *mochi.Client) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if s := q.sessions[cl]; s != nil {
		for _, m := range s.items {
			q.unlink(m)
		}
		delete(q.sessions, cl)
	}
}

// ended reports whether cl's session is over or ending: its connection
// closed with a clean session, taken over, or no longer the broker's
// client of its ID. (A persistent session expiring while a message is
// queued for it may still be counted: the total bound drops such a
// message first within its rank, being the oldest.)
func (q *queueBounds) ended(cl *mochi.Client) bool {
	if cl.IsTakenOver() {
		return true
	}
	if cl.Closed() && (cl.Properties.ProtocolVersion == 5 && cl.Properties.Props.SessionExpiryInterval == 0 ||
		cl.Properties.ProtocolVersion < 5 && cl.Properties.Clean) {
		return true
	}
	cur, ok := q.clients.Get(cl.ID)
	return !ok || cur != cl
}

// session returns cl's queue, counting what its map already holds when it
// is new to the hook (a session taken over brings its predecessor's).
func (q *queueBounds) session(cl *mochi.Client) *sessionQueue {
	s := q.sessions[cl]
	if s == nil {
		s = &sessionQueue{cl: cl, items: map[uint16]*queuedMsg{}}
		q.sessions[cl] = s
		q.resync(s)
	}
	return s
}

// resync makes s's count what its client's map holds.
func (q *queueBounds) resync(s *sessionQueue) {
	held := s.cl.State.Inflight.GetAll(false)
	in := make(map[uint16]bool, len(held))
	for _, pk := range held {
		in[pk.PacketID] = true
		if m := s.items[pk.PacketID]; m == nil || m.size != msgSize(pk) {
			q.put(s, pk)
		}
	}
	for pid, m := range s.items {
		if !in[pid] {
			q.unlink(m)
		}
	}
}

// msgSize is what a queued packet costs.
func msgSize(pk packets.Packet) int { return len(pk.Payload) + len(pk.TopicName) + queuedOverhead }

// put counts pk in s, replacing what had its packet identifier.
func (q *queueBounds) put(s *sessionQueue, pk packets.Packet) {
	if old := s.items[pk.PacketID]; old != nil {
		q.unlink(old)
	}
	m := &queuedMsg{s: s, pid: pk.PacketID, size: msgSize(pk), rank: -1}
	if pk.FixedHeader.Type == packets.Publish {
		m.rank = queueRank(pk.TopicName)
		m.inS = s.byRank[m.rank].PushBack(m)
		m.inA = q.all[m.rank].PushBack(m)
	}
	s.items[m.pid] = m
	q.sessions[s.cl] = s // again, if replacing its last message forgot it
	s.bytes += m.size
	q.bytes += m.size
}

// unlink forgets m; a session left empty is forgotten too.
func (q *queueBounds) unlink(m *queuedMsg) {
	s := m.s
	if s.items[m.pid] != m {
		return
	}
	delete(s.items, m.pid)
	if m.rank >= 0 {
		s.byRank[m.rank].Remove(m.inS)
		q.all[m.rank].Remove(m.inA)
	}
	s.bytes -= m.size
	q.bytes -= m.size
	if len(s.items) == 0 {
		delete(q.sessions, s.cl)
	}
}

// forget forgets cl's message pid.
func (q *queueBounds) forget(cl *mochi.Client, pid uint16) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if s := q.sessions[cl]; s != nil {
		if m := s.items[pid]; m != nil {
			q.unlink(m)
		}
	}
}

// enforce drops messages until s and the total are within their bounds.
func (q *queueBounds) enforce(s *sessionQueue) {
	for s.bytes > q.sessionMax || len(s.items) > maxSessionMessages {
		if !q.drop(s) {
			break
		}
	}
	for q.bytes > q.totalMax {
		if !q.drop(nil) {
			break
		}
	}
}

// drop drops the least important, oldest message of s (nil: of any
// session); false when there is none.
func (q *queueBounds) drop(s *sessionQueue) bool {
	for r := range qranks {
		l := &q.all[r]
		if s != nil {
			l = &s.byRank[r]
		}
		if e := l.Front(); e != nil {
			q.evict(e.Value.(*queuedMsg))
			return true
		}
	}
	return false
}

// evict removes m from its client's queue and counts it dropped; the
// first drop is logged.
func (q *queueBounds) evict(m *queuedMsg) {
	cl := m.s.cl
	q.unlink(m)
	if cl.State.Inflight.Delete(m.pid) {
		cl.State.Inflight.IncreaseSendQuota()
		if q.info != nil {
			atomic.AddInt64(q.info, -1)
		}
	}
	q.dropped[m.rank]++
	if !q.logged {
		q.logged = true
		q.log.Warn("broker: a session's queue reached its bound; dropping its least important messages (scores first, alerts last)",
			slog.String("client_id", cl.ID), slog.String("dropped", qrankNames[m.rank]),
			slog.Int("session_bytes", q.sessionMax), slog.Int("total_bytes", q.totalMax))
	}
}

// queueStats fills in st's queue fields.
func (q *queueBounds) queueStats(st *BrokerStats) {
	q.mu.Lock()
	defer q.mu.Unlock()
	st.QueuedBytes, st.PeakQueuedBytes, st.Dropped = q.bytes, q.peak, map[string]uint64{}
	for _, s := range q.sessions {
		st.QueuedMessages += len(s.items)
		st.SessionQueuedBytes = max(st.SessionQueuedBytes, s.bytes)
	}
	for r, n := range q.dropped {
		if n > 0 {
			st.Dropped[qrankNames[r]] = n
		}
	}
}
