package board

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"hash/maphash"
	"slices"
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

// Login throttling. Failed logins are counted per (user name, address)
// pair, never per user alone or per address alone: an attacker hammering
// a name delays only his own pair, not the clinician at another station,
// nor others at his own.
const (
	// A pair makes loginFreeFailures attempts without waiting; its
	// loginFreeFailures-th failure makes its next attempt wait
	// loginDelay, and each further failure doubles the wait, up to
	// loginMaxDelay. A success clears the pair.
	loginFreeFailures = 5
	loginDelay        = time.Second
	loginMaxDelay     = 5 * time.Minute
	// loginForget: a pair that has not failed for this long is
	// forgotten (its next failures are free again).
	loginForget = time.Hour
	// An address that fails for more than sprayUsers distinct user
	// names within sprayWindow is spraying passwords: its pairs make one
	// attempt without waiting instead of loginFreeFailures. A pair that
	// has not failed is never refused, whatever its address does.
	sprayUsers  = 10
	sprayWindow = 15 * time.Minute
	// maxLoginPairs and maxLoginAddrs bound the limiter's tables.
	maxLoginPairs = 10000
	maxLoginAddrs = 4096
)

// limiter throttles logins per (user, address) pair with a growing delay,
// and notes which addresses spray passwords over many user names. Its
// tables are bounded; when one is full, entries forgotten by then go
// first, then those whose delay ends first (a pair delaying nothing
// before one that does), so flooding the table with new pairs does not
// free a pair whose delay is running.
type limiter struct {
	mu       sync.Mutex
	pairs    map[loginPair]*pairState
	addrs    map[string]*addrState
	seed     maphash.Seed
	maxPairs int // maxLoginPairs; smaller in tests
	maxAddrs int // maxLoginAddrs; smaller in tests
	// now is the login handler's clock: time.Now, a fake one in tests.
	now func() time.Time
}

// loginPair is a user name tried from an address.
type loginPair struct{ user, addr string }

// pairState is a pair's throttling state.
type pairState struct {
	fails    int       // failures since the last success
	inflight int       // attempts admitted and not yet decided
	last     time.Time // last failure (or when the entry was made)
	until    time.Time // no attempt of the pair before
}

// addrState is the distinct user names an address failed for, as
// hashes, from start on for sprayWindow; at most sprayUsers+1 are kept.
type addrState struct {
	start time.Time
	users []uint64
}

func newLimiter() *limiter {
	return &limiter{pairs: make(map[loginPair]*pairState), addrs: make(map[string]*addrState),
		seed: maphash.MakeSeed(), maxPairs: maxLoginPairs, maxAddrs: maxLoginAddrs, now: time.Now}
}

// admit reports whether user may try a password from addr at now, and
// counts the attempt as in flight until fail, succeed or release. When it
// may not, wait is how long until it may. Once a pair is delayed, one of
// its attempts at a time is admitted (so that concurrent requests cannot
// make more guesses than the delay allows); before, at most its free
// failures at a time.
func (l *limiter) admit(user, addr string, now time.Time) (wait time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := loginPair{user, addr}
	p := l.pairs[k]
	if p != nil && p.inflight == 0 && now.Sub(p.last) >= loginForget {
		delete(l.pairs, k)
		p = nil
	}
	if p == nil {
		p = &pairState{last: now}
		l.insertPair(k, p, now)
	}
	if wait := p.until.Sub(now); wait > 0 {
		return wait, false
	}
	if p.inflight > 0 && p.fails+p.inflight >= l.freeFailures(addr, now) {
		return loginDelay, false
	}
	p.inflight++
	return 0, true
}

// fail records that an admitted attempt failed at now and returns how
// long the pair's next attempt must wait (0: no wait).
func (l *limiter) fail(user, addr string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.noteAddr(user, addr, now)
	k := loginPair{user, addr}
	p := l.pairs[k]
	if p == nil { // evicted while the password was checked
		p = &pairState{}
		l.insertPair(k, p, now)
	} else if p.inflight > 0 {
		p.inflight--
	}
	p.fails++
	p.last = now
	d := failureDelay(p.fails, l.freeFailures(addr, now))
	if d > 0 {
		p.until = now.Add(d)
	}
	return d
}

// succeed records that an admitted attempt succeeded: the pair starts
// afresh.
func (l *limiter) succeed(user, addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := loginPair{user, addr}
	if p := l.pairs[k]; p != nil {
		if p.inflight <= 1 {
			delete(l.pairs, k)
			return
		}
		p.inflight--
		p.fails, p.until = 0, time.Time{}
	}
}

// release ends an admitted attempt that was neither a success nor a
// failure (the users file could not be read).
func (l *limiter) release(user, addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p := l.pairs[loginPair{user, addr}]; p != nil && p.inflight > 0 {
		p.inflight--
	}
}

// failureDelay is the wait after a pair's fails-th failure when its
// first free attempts need none: loginDelay after the free-th failure,
// doubling with each further one, up to loginMaxDelay.
func failureDelay(fails, free int) time.Duration {
	over := fails - free
	switch {
	case over < 0:
		return 0
	case over >= 30: // loginDelay << 30 is beyond any cap
		return loginMaxDelay
	}
	return min(loginDelay<<over, loginMaxDelay)
}

// freeFailures is how many attempts a pair from addr makes without
// waiting: one while addr sprays passwords, loginFreeFailures otherwise.
func (l *limiter) freeFailures(addr string, now time.Time) int {
	if a := l.addrs[addr]; a != nil && now.Sub(a.start) < sprayWindow && len(a.users) > sprayUsers {
		return 1
	}
	return loginFreeFailures
}

// noteAddr counts user among the names addr failed for in its window.
func (l *limiter) noteAddr(user, addr string, now time.Time) {
	a := l.addrs[addr]
	if a == nil || now.Sub(a.start) >= sprayWindow {
		if a == nil {
			l.makeRoomForAddr(now)
		}
		a = &addrState{start: now}
		l.addrs[addr] = a
	}
	if len(a.users) > sprayUsers {
		return
	}
	h := maphash.String(l.seed, user)
	if !slices.Contains(a.users, h) {
		a.users = append(a.users, h)
	}
}

// makeRoomForAddr makes room for one more address: those whose window
// is over go, then, if none was, the one whose window started first.
func (l *limiter) makeRoomForAddr(now time.Time) {
	if len(l.addrs) < l.maxAddrs {
		return
	}
	var oldest string
	var first time.Time
	for k, a := range l.addrs {
		if now.Sub(a.start) >= sprayWindow {
			delete(l.addrs, k)
		} else if oldest == "" || a.start.Before(first) {
			oldest, first = k, a.start
		}
	}
	if len(l.addrs) >= l.maxAddrs {
		delete(l.addrs, oldest)
	}
}

// insertPair adds p under k, making room first (see limiter).
func (l *limiter) insertPair(k loginPair, p *pairState, now time.Time) {
	if len(l.pairs) >= l.maxPairs {
		var victim loginPair
		var vs *pairState
		for pk, ps := range l.pairs {
			if ps.inflight == 0 && now.Sub(ps.last) >= loginForget {
				delete(l.pairs, pk)
			} else if vs == nil || evictBefore(ps, vs) {
				victim, vs = pk, ps
			}
		}
		if len(l.pairs) >= l.maxPairs {
			delete(l.pairs, victim)
		}
	}
	l.pairs[k] = p
}

// evictBefore reports whether a goes before b when the pair table is
// full: idle before in flight, then the delay that ends first, then the
// older failure.
func evictBefore(a, b *pairState) bool {
	if (a.inflight == 0) != (b.inflight == 0) {
		return a.inflight == 0
	}
	if !a.until.Equal(b.until) {
		return a.until.Before(b.until)
	}
	return a.last.Before(b.last)
}
