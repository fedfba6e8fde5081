package board

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"
)

// maxBody bounds every request body the board reads.
const maxBody = 16 << 10

// cookieName is the session cookie.
const cookieName = "ictal_board"

// routes builds the board's handler: the mux behind the request-size
// bound, security headers and the cross-origin check of state changes.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /login", s.loginPage)
	mux.HandleFunc("GET /login.css", serveAsset("assets/login.css", "text/css; charset=utf-8"))
	mux.HandleFunc("POST /login", s.login)
	mux.HandleFunc("GET /{$}", s.page(serveAsset("assets/index.html", "text/html; charset=utf-8")))
	mux.HandleFunc("GET /board.js", s.page(serveAsset("assets/board.js", "text/javascript; charset=utf-8")))
	mux.HandleFunc("GET /board.css", s.page(serveAsset("assets/board.css", "text/css; charset=utf-8")))
	mux.HandleFunc("GET /session", s.api(s.sessionInfo))
	mux.HandleFunc("GET /state", s.api(s.state))
	mux.HandleFunc("GET /evidence", s.api(s.evidence))
	mux.HandleFunc("GET /events", s.api(s.events))
	mux.HandleFunc("POST /logout", s.change(s.logout))
	mux.HandleFunc("POST /feedback", s.change(s.feedback))
	mux.HandleFunc("POST /acknowledge", s.change(s.acknowledgeAlert))
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.log.Warn("board: cross-origin request refused", slog.String("path", r.URL.Path),
			slog.String("origin", r.Header.Get("Origin")), slog.String("remote", r.RemoteAddr))
		httpError(w, http.StatusForbidden, "cross-origin request refused")
	}))
	inner := cop.Handler(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		if s.tls != nil {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		if !safeMethod(r.Method) && !sameOriginReferer(r) {
			s.log.Warn("board: cross-site request refused (Referer)", slog.String("path", r.URL.Path),
				slog.String("referer", r.Header.Get("Referer")), slog.String("remote", r.RemoteAddr))
			httpError(w, http.StatusForbidden, "cross-origin request refused")
			return
		}
		inner.ServeHTTP(w, r)
	})
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// sameOriginReferer backs up http.CrossOriginProtection (which goes by
// Sec-Fetch-Site and Origin) for browsers that send neither: a Referer, when
// there is one, must name this host. Requests with neither Origin nor
// Referer are not from a browser page and pass to the CSRF token check.
func sameOriginReferer(r *http.Request) bool {
	if r.Header.Get("Origin") != "" {
		return true // checked by CrossOriginProtection
	}
	ref := r.Header.Get("Referer")
	if ref == "" {
		return true
	}
	u, err := url.Parse(ref)
	return err == nil && u.Host == r.Host
}

// httpError writes a JSON error.
func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(struct {
		Error string `json:"error"`
	}{msg})
}

// writeJSON writes v as JSON with status 200.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// sessionOf returns the request's live session.
func (s *Server) sessionOf(r *http.Request) (*session, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" {
		return nil, false
	}
	return s.sessions.get(c.Value, time.Now())
}

// page wraps a handler of the page: without a session it redirects to the
// login page.
func (s *Server) page(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, ok := s.sessionOf(r); !ok {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		h(w, r)
	}
}

// sessionHandler is a handler that runs with the caller's session.
type sessionHandler func(w http.ResponseWriter, r *http.Request, ss *session)

// api wraps a handler that needs a session: 401 without one.
func (s *Server) api(h sessionHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ss, ok := s.sessionOf(r)
		if !ok {
			httpError(w, http.StatusUnauthorized, "not logged in")
			return
		}
		h(w, r, ss)
	}
}

// change wraps a state-changing handler: it needs a session and the
// session's CSRF token in the X-CSRF-Token header or the csrf form field
// (the cross-origin check ran before).
func (s *Server) change(h sessionHandler) http.HandlerFunc {
	return s.api(func(w http.ResponseWriter, r *http.Request, ss *session) {
		if err := r.ParseForm(); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", maxBody))
				return
			}
			httpError(w, http.StatusBadRequest, "unreadable form: "+err.Error())
			return
		}
		tok := r.Header.Get("X-CSRF-Token")
		if tok == "" {
			tok = r.PostForm.Get("csrf")
		}
		if !ss.validCSRF(tok) {
			s.log.Warn("board: request without a valid CSRF token refused", slog.String("path", r.URL.Path),
				slog.String("user", ss.user), slog.String("remote", r.RemoteAddr))
			httpError(w, http.StatusForbidden, "missing or invalid CSRF token")
			return
		}
		h(w, r, ss)
	})
}

// healthz answers 200 when the board is connected to the broker, 503
// otherwise.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if !s.conn.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "not connected to the MQTT broker")
		return
	}
	fmt.Fprintln(w, "ok")
}

// sessionInfo answers {"user","csrf","site"}.
func (s *Server) sessionInfo(w http.ResponseWriter, r *http.Request, ss *session) {
	writeJSON(w, struct {
		User string `json:"user"`
		CSRF string `json:"csrf"`
		Site string `json:"site"`
	}{ss.user, ss.csrf, s.cfg.Site})
}

// state answers the snapshot a browser starts from.
func (s *Server) state(w http.ResponseWriter, r *http.Request, ss *session) {
	s.ward.mu.Lock()
	b := s.ward.snapshotLocked(ss.user, s.conn.Load())
	s.ward.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// evidence answers the evidence payload of ?alert_id=.
func (s *Server) evidence(w http.ResponseWriter, r *http.Request, ss *session) {
	ev := s.ward.evidence(r.URL.Query().Get("alert_id"))
	if ev == nil {
		httpError(w, http.StatusNotFound, "no evidence for this alert")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(ev)
}

// remoteIP is the client's address (no proxy headers are trusted).
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// auditOrFail writes an audit record; on failure it answers 500 and
// returns false, so nothing unaudited happens.
func (s *Server) auditOrFail(w http.ResponseWriter, rec auditRecord) bool {
	if err := s.audit.write(rec); err != nil {
		s.log.Error("board: audit", slog.String("error", err.Error()))
		httpError(w, http.StatusInternalServerError, "audit log unavailable")
		return false
	}
	return true
}
