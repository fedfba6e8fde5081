package board

import "sync"

// streamBuffer is how many events a browser may lag behind before its
// stream is closed; the browser then reconnects and starts from a fresh
// snapshot, so a slow screen never slows the board or the others.
const streamBuffer = 1024

// stream is one browser's event stream.
type stream struct {
	session string
	ch      chan []byte
	done    chan struct{} // closed when the hub drops the stream
}

// hub fans events out to the browsers' streams.
type hub struct {
	mu      sync.Mutex
	streams map[*stream]struct{}
}

func newHub() *hub { return &hub{streams: make(map[*stream]struct{})} }

// add registers a stream for a session.
func (h *hub) add(session string) *stream {
	s := &stream{session: session, ch: make(chan []byte, streamBuffer), done: make(chan struct{})}
	h.mu.Lock()
	h.streams[s] = struct{}{}
	h.mu.Unlock()
	return s
}

// remove unregisters a stream (idempotent).
func (h *hub) remove(s *stream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.streams[s]; ok {
		delete(h.streams, s)
		close(s.done)
	}
}

// broadcast queues an event on every stream, dropping the streams that
// are full.
func (h *hub) broadcast(ev []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.streams {
		select {
		case s.ch <- ev:
		default:
			delete(h.streams, s)
			close(s.done)
		}
	}
}

// closeSession drops every stream of a session (at logout).
func (h *hub) closeSession(session string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.streams {
		if s.session == session {
			delete(h.streams, s)
			close(s.done)
		}
	}
}

// count returns the number of open streams.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.streams)
}
