package board

import (
	"embed"
	"html"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
)

//go:embed assets
var assets embed.FS

// serveAsset serves one embedded file.
func serveAsset(name, contentType string) http.HandlerFunc {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic("board: missing embedded asset " + name) // a build error, not input
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Write(b)
	}
}

// loginHTML is the login page; {{SITE}} and {{MESSAGE}} are replaced,
// HTML-escaped. (Not html/template: its reflection keeps the linker from
// dropping unused methods and costs ictal about 3 MB.)
var loginHTML = func() string {
	b, err := assets.ReadFile("assets/login.html")
	if err != nil {
		panic("board: missing embedded asset assets/login.html") // a build error, not input
	}
	return string(b)
}()

// renderLogin writes the login page with an optional message.
func (s *Server) renderLogin(w http.ResponseWriter, code int, msg string) {
	if msg != "" {
		msg = `<p class="message" role="alert" id="message">` + html.EscapeString(msg) + `</p>`
	}
	page := strings.NewReplacer("{{SITE}}", html.EscapeString(s.cfg.Site), "{{MESSAGE}}", msg).Replace(loginHTML)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	if _, err := io.WriteString(w, page); err != nil {
		s.log.Debug("board: login page", slog.String("error", err.Error()))
	}
}

// loginPage serves the login form.
func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	s.renderLogin(w, http.StatusOK, "")
}

// login checks form fields user and password; on success it sets the
// session cookie and redirects to the board (303 to /). A user name
// tried from an address that failed too often answers 429 with
// Retry-After while its delay runs (limiter); other names, and the same
// name from other addresses, are not held up.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.renderLogin(w, http.StatusBadRequest, "The form could not be read.")
		return
	}
	now := s.limiter.now()
	user, password, ip := r.PostForm.Get("user"), r.PostForm.Get("password"), remoteIP(r)
	failed := func(delay time.Duration) { // delay: the pair's next attempt waits this long
		rec := auditRecord{Action: "login-failed", From: ip}
		if validIdent(user) {
			rec.Who = user
		}
		s.audit.write(rec)
		s.log.Warn("board: login failed", slog.String("user", quoteCut(user, 64)), slog.String("remote", ip), slog.Duration("delay", delay))
		s.renderLogin(w, http.StatusUnauthorized, "Wrong user name or password.")
	}
	if !validIdent(user) { // no account has this name: nothing to guess, nothing to count
		failed(0)
		return
	}
	if wait, ok := s.limiter.admit(user, ip, now); !ok {
		secs := int((wait + time.Second - 1) / time.Second)
		s.log.Warn("board: login refused: waiting after failed logins", slog.String("user", user), slog.String("remote", ip),
			slog.Int("retry_after_s", secs))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		s.renderLogin(w, http.StatusTooManyRequests, "Too many failed logins as "+user+" from this computer: try again in "+waitText(secs)+".")
		return
	}
	ok, delay, err := s.attempt(user, ip, password)
	switch {
	case err != nil:
		s.log.Error("board: login", slog.String("error", err.Error()))
		s.renderLogin(w, http.StatusInternalServerError, "The users file cannot be read; tell the administrator.")
		return
	case !ok:
		failed(delay)
		return
	}
	if !s.auditOrFail(w, auditRecord{Who: user, Action: "login", From: ip}) {
		return
	}
	ss := s.sessions.create(user, now)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: ss.token, Path: "/", HttpOnly: true,
		Secure: s.tls != nil, SameSite: http.SameSiteStrictMode, MaxAge: int(sessionLifetime / time.Second)})
	s.log.Info("board: login", slog.String("user", user), slog.String("remote", ip))
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// attempt checks the password of an attempt the limiter admitted and
// tells the limiter how it went; after a failure, delay is how long the
// pair's next attempt must wait. An error (the users file cannot be
// read) is no failure of the user's.
func (s *Server) attempt(user, ip, password string) (ok bool, delay time.Duration, err error) {
	decided := false
	defer func() { // whatever happens, the attempt is no longer in flight
		if !decided {
			s.limiter.release(user, ip)
		}
	}()
	if len(password) <= 72 {
		if ok, err = checkPassword(s.cfg.Users, user, []byte(password)); err != nil {
			return false, 0, err
		}
	}
	decided = true
	if ok {
		s.limiter.succeed(user, ip)
		return true, 0, nil
	}
	return false, s.limiter.fail(user, ip, s.limiter.now()), nil
}

// waitText says secs seconds for a person: "1 second", "40 seconds",
// "3 minutes" (rounded up).
func waitText(secs int) string {
	n, unit := secs, "second"
	if secs >= 60 {
		n, unit = (secs+59)/60, "minute"
	}
	if n != 1 {
		unit += "s"
	}
	return strconv.Itoa(n) + " " + unit
}

// logout ends the session and its event streams.
func (s *Server) logout(w http.ResponseWriter, r *http.Request, ss *session) {
	s.audit.write(auditRecord{Who: ss.user, Action: "logout", From: remoteIP(r)})
	s.sessions.delete(ss.token)
	s.ward.hub.closeSession(ss.token)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", HttpOnly: true,
		Secure: s.tls != nil, SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}
