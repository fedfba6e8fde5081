package board

import (
	"fmt"
	"net/http"
	"time"
)

// keepAlive is how often an idle event stream gets a comment, which also
// rechecks that its session is still alive.
const keepAlive = 15 * time.Second

// events streams the ward to a browser as Server-Sent Events: first a
// snapshot, then every change (one JSON object per "data:" line).
func (s *Server) events(w http.ResponseWriter, r *http.Request, ss *session) {
	rc := http.NewResponseController(w)
	st, snap := s.ward.subscribe(ss.token, ss.user, s.conn.Load())
	defer s.ward.hub.remove(st)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprintf(w, "retry: 2000\n\ndata: %s\n\n", snap); err != nil {
		return
	}
	if rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-st.done:
			return
		case <-tick.C:
			if _, ok := s.sessions.get(ss.token, time.Now()); !ok {
				return
			}
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
		case ev := <-st.ch:
			if _, err := fmt.Fprintf(w, "data: %s\n\n", ev); err != nil {
				return
			}
		}
		if rc.Flush() != nil {
			return
		}
	}
}
