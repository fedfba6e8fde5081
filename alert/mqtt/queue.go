package mqtt

import "sync"

// kind is what a queued message is.
type kind uint8

const (
	kindAlert kind = iota + 1
	kindEnd
	kindStatus
	kindScore
	kindEvidence
	kindAck
)

// String names the kind for logs.
func (k kind) String() string {
	switch k {
	case kindAlert:
		return "alert"
	case kindEnd:
		return "end"
	case kindStatus:
		return "status"
	case kindScore:
		return "score"
	case kindEvidence:
		return "evidence"
	case kindAck:
		return "feedback ack"
	}
	return "unknown"
}

// item is one queued payload. Payload buffers of the ring are reused.
type item struct {
	kind    kind
	payload []byte
}

// queue holds what the pipeline handed to the publisher until the
// publishing goroutine takes it. Alerts and event ends wait in an
// unbounded FIFO and are never dropped; status updates and scores share a
// ring of fixed capacity whose slots keep their buffers, so pushing them
// allocates nothing once each slot has been used. When the ring is full a
// new score is dropped; a new status first evicts the oldest score, else
// the oldest status (which the new one supersedes).
type queue struct {
	mu     sync.Mutex
	urgent []item // alerts and ends, in order
	ring   []item
	head   int // index of the oldest ring item
	n      int // ring items

	droppedScores, droppedStatus uint64
}

func newQueue(capacity int) *queue {
	q := &queue{ring: make([]item, capacity)}
	for i := range q.ring {
		q.ring[i].payload = make([]byte, 0, 128)
	}
	return q
}

// pushUrgent queues an alert, end, evidence or acknowledgement; p is
// copied.
func (q *queue) pushUrgent(k kind, p []byte) {
	q.mu.Lock()
	q.urgent = append(q.urgent, item{kind: k, payload: append([]byte(nil), p...)})
	q.mu.Unlock()
}

// slot returns the ring slot of the i-th oldest item.
func (q *queue) slot(i int) *item { return &q.ring[(q.head+i)%len(q.ring)] }

// remove deletes the i-th oldest ring item, keeping the order of the rest
// and the slots' buffers.
func (q *queue) remove(i int) {
	for j := i; j < q.n-1; j++ {
		a, b := q.slot(j), q.slot(j+1)
		*a, *b = *b, *a
	}
	q.n--
}

// oldest returns the index of the oldest ring item of kind k, or -1.
func (q *queue) oldest(k kind) int {
	for i := 0; i < q.n; i++ {
		if q.slot(i).kind == k {
			return i
		}
	}
	return -1
}

// push queues a status or score; p is copied into a slot. It reports the
// kind of the message dropped to make room, or 0.
func (q *queue) push(k kind, p []byte) (dropped kind) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n == len(q.ring) {
		if k == kindScore {
			q.droppedScores++
			return kindScore
		}
		if i := q.oldest(kindScore); i >= 0 {
			q.remove(i)
			q.droppedScores++
			dropped = kindScore
		} else {
			q.remove(q.oldest(kindStatus)) // the ring holds only statuses
			q.droppedStatus++
			dropped = kindStatus
		}
	}
	s := q.slot(q.n)
	s.kind = k
	s.payload = append(s.payload[:0], p...)
	q.n++
	return dropped
}

// pop removes the next message, alerts and ends first, and returns its
// kind and a copy of its payload that the caller owns.
func (q *queue) pop() (kind, []byte, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.urgent) > 0 {
		it := q.urgent[0]
		q.urgent[0] = item{}
		q.urgent = q.urgent[1:]
		if len(q.urgent) == 0 {
			q.urgent = q.urgent[:0:0] // let the backing array go
		}
		return it.kind, it.payload, true
	}
	if q.n == 0 {
		return 0, nil, false
	}
	s := q.slot(0)
	k, p := s.kind, append([]byte(nil), s.payload...)
	q.head = (q.head + 1) % len(q.ring)
	q.n--
	return k, p, true
}

// len returns the number of queued messages.
func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.urgent) + q.n
}

// drops returns the drop counters.
func (q *queue) drops() (scores, status uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.droppedScores, q.droppedStatus
}
