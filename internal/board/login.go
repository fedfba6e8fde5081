package board

import (
	"embed"
	"html"
	"io"
	"log/slog"
	"net/http"
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
// session cookie and redirects to the board (303 to /).
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.renderLogin(w, http.StatusBadRequest, "The form could not be read.")
		return
	}
	now := time.Now()
	user, password, ip := r.PostForm.Get("user"), r.PostForm.Get("password"), remoteIP(r)
	if s.limiter.blocked(now, "user:"+user, "ip:"+ip) {
		s.log.Warn("board: login refused: too many failures", slog.String("user", quoteCut(user, 64)), slog.String("remote", ip))
		s.renderLogin(w, http.StatusTooManyRequests, "Too many failed logins: try again in 15 minutes.")
		return
	}
	ok := false
	if validIdent(user) && len(password) <= 72 {
		var err error
		if ok, err = checkPassword(s.cfg.Users, user, []byte(password)); err != nil {
			s.log.Error("board: login", slog.String("error", err.Error()))
			s.renderLogin(w, http.StatusInternalServerError, "The users file cannot be read; tell the administrator.")
			return
		}
	}
	if !ok {
		s.limiter.fail(now, "user:"+user, "ip:"+ip)
		rec := auditRecord{Action: "login-failed", From: ip}
		if validIdent(user) {
			rec.Who = user
		}
		s.audit.write(rec)
		s.log.Warn("board: login failed", slog.String("user", quoteCut(user, 64)), slog.String("remote", ip))
		s.renderLogin(w, http.StatusUnauthorized, "Wrong user name or password.")
		return
	}
	s.limiter.succeed("user:" + user)
	if !s.auditOrFail(w, auditRecord{Who: user, Action: "login", From: ip}) {
		return
	}
	ss := s.sessions.create(user, now)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: ss.token, Path: "/", HttpOnly: true,
		Secure: s.tls != nil, SameSite: http.SameSiteStrictMode, MaxAge: int(sessionLifetime / time.Second)})
	s.log.Info("board: login", slog.String("user", user), slog.String("remote", ip))
	http.Redirect(w, r, "/", http.StatusSeeOther)
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
