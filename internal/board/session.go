package board

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"sync"
	"time"
)

// Session and login limits.
const (
	// sessionLifetime is how long a login lasts; sessionIdle how long
	// without any request (an open event stream counts as activity).
	sessionLifetime = 12 * time.Hour
	sessionIdle     = 2 * time.Hour
	// maxSessions bounds the session table; the oldest go first.
	maxSessions = 1000
	// loginFailures failed logins for a user or from an address within
	// loginWindow block further attempts until the window has passed.
	loginFailures = 5
	loginWindow   = 15 * time.Minute
	// maxLimiterKeys bounds the failed-login table.
	maxLimiterKeys = 10000
)

// session is one logged-in browser (or client).
type session struct {
	token   string
	user    string
	csrf    string
	created time.Time
	seen    time.Time
}

// sessions is the table of live sessions, keyed by cookie token.
type sessions struct {
	mu sync.Mutex
	m  map[string]*session
}

func newSessions() *sessions { return &sessions{m: make(map[string]*session)} }

// randomToken returns 32 random bytes in hex.
func randomToken() string {
	var b [32]byte
	rand.Read(b[:]) // never fails
	return hex.EncodeToString(b[:])
}

// create starts a session for user.
func (ss *sessions) create(user string, now time.Time) *session {
	s := &session{token: randomToken(), user: user, csrf: randomToken(), created: now, seen: now}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.expireLocked(now)
	for len(ss.m) >= maxSessions {
		var oldest *session
		for _, o := range ss.m {
			if oldest == nil || o.seen.Before(oldest.seen) {
				oldest = o
			}
		}
		delete(ss.m, oldest.token)
	}
	ss.m[s.token] = s
	return s
}

// get returns the live session of a token and marks it seen.
func (ss *sessions) get(token string, now time.Time) (*session, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s, ok := ss.m[token]
	if !ok {
		return nil, false
	}
	if now.Sub(s.created) > sessionLifetime || now.Sub(s.seen) > sessionIdle {
		delete(ss.m, token)
		return nil, false
	}
	s.seen = now
	c := *s
	return &c, true
}

// delete ends a session.
func (ss *sessions) delete(token string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.m, token)
}

func (ss *sessions) expireLocked(now time.Time) {
	for t, s := range ss.m {
		if now.Sub(s.created) > sessionLifetime || now.Sub(s.seen) > sessionIdle {
			delete(ss.m, t)
		}
	}
}

// validCSRF compares a request's CSRF token with the session's in
// constant time.
func (s *session) validCSRF(token string) bool {
	return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.csrf)) == 1
}

// limiter counts failed logins per key ("user:NAME", "ip:ADDR").
type limiter struct {
	mu sync.Mutex
	m  map[string]*failures
}

type failures struct {
	n     int
	first time.Time
}

func newLimiter() *limiter { return &limiter{m: make(map[string]*failures)} }

// blocked reports whether any of keys has failed loginFailures times in
// the current window.
func (l *limiter) blocked(now time.Time, keys ...string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		if f := l.m[k]; f != nil && now.Sub(f.first) < loginWindow && f.n >= loginFailures {
			return true
		}
	}
	return false
}

// fail counts a failed login against keys.
func (l *limiter) fail(now time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) >= maxLimiterKeys {
		for k, f := range l.m {
			if now.Sub(f.first) >= loginWindow {
				delete(l.m, k)
			}
		}
	}
	for _, k := range keys {
		f := l.m[k]
		if f == nil || now.Sub(f.first) >= loginWindow {
			if len(l.m) >= maxLimiterKeys && f == nil {
				continue // table full of live entries: count nothing new rather than grow
			}
			f = &failures{first: now}
			l.m[k] = f
		}
		f.n++
	}
}

// succeed clears the user's count after a successful login.
func (l *limiter) succeed(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.m, key)
}
