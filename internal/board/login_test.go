package board

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// fakeClock is the login limiter's clock in tests: it moves only when
// the test says.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// loginRig is a board served on 127.0.0.1 whose login limiter runs on a
// fake clock, with clients connecting from other loopback addresses
// (127.0.0.0/8 is all loopback), so that the board sees one address per
// nursing station.
type loginRig struct {
	t     *testing.T
	srv   *Server
	url   string
	clock *fakeClock
	t0    time.Time
}

func newLoginRig(t *testing.T) *loginRig {
	t.Helper()
	s, _ := newServer(t, testConfig(t, ""))
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	clock := &fakeClock{t: t0}
	s.limiter.now = clock.now
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return &loginRig{t: t, srv: s, url: ts.URL, clock: clock, t0: t0}
}

// try posts the login form as user with password from the loopback
// address from at t0+at, and returns the status and Retry-After.
func (r *loginRig) try(at time.Duration, from, user, password string) (int, string) {
	r.t.Helper()
	r.clock.set(r.t0.Add(at))
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(r.url+"/login", url.Values{"user": {user}, "password": {password}})
	if err != nil {
		r.t.Fatalf("login as %s from %s: %v", user, from, err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After")
}

const (
	stationA = "127.0.0.2" // the attacker's, and alice's own station
	stationB = "127.0.0.3" // another nursing station
	wrong    = "wrong password"
)

// TestLoginDelayIsPerUserAndAddress: an attacker at station A hammering
// alice delays only alice-at-A, growing; alice at station B and bob at A
// log in at once, and alice at A does once her pair's delay has run.
func TestLoginDelayIsPerUserAndAddress(t *testing.T) {
	r := newLoginRig(t)
	s := time.Second
	steps := []struct {
		name           string
		at             time.Duration
		from, user, pw string
		want           int
		retry          string
	}{
		{"1st failure", 0, stationA, "alice", wrong, 401, ""},
		{"2nd failure", 0, stationA, "alice", wrong, 401, ""},
		{"3rd failure", 0, stationA, "alice", wrong, 401, ""},
		{"4th failure", 0, stationA, "alice", wrong, 401, ""},
		{"5th failure starts a 1 s delay", 0, stationA, "alice", wrong, 401, ""},
		{"right password during the delay", 0, stationA, "alice", testPassword, 429, "1"},
		{"alice at another station", 0, stationB, "alice", testPassword, 303, ""},
		{"bob at the attacker's station", 0, stationA, "bob", testPassword, 303, ""},
		{"after the delay: 6th failure, 2 s", 1 * s, stationA, "alice", wrong, 401, ""},
		{"within the 2 s", 2 * s, stationA, "alice", wrong, 429, "1"},
		{"7th failure, 4 s", 3 * s, stationA, "alice", wrong, 401, ""},
		{"right password within the 4 s", 4 * s, stationA, "alice", testPassword, 429, "3"},
		{"alice at B meanwhile", 4 * s, stationB, "alice", wrong, 401, ""},
		{"alice at A after the delay", 7 * s, stationA, "alice", testPassword, 303, ""},
		{"a success clears the pair", 7 * s, stationA, "alice", wrong, 401, ""},
		{"and its next attempt is free", 7 * s, stationA, "alice", testPassword, 303, ""},
	}
	for _, st := range steps {
		code, retry := r.try(st.at, st.from, st.user, st.pw)
		if code != st.want || retry != st.retry {
			t.Fatalf("%s (%s from %s at +%v): status %d Retry-After %q, want %d %q", st.name, st.user, st.from, st.at, code, retry, st.want, st.retry)
		}
	}
	var failed int
	for _, rec := range auditRecords(t, r.srv.cfg.Audit) {
		if rec.Action == "login-failed" {
			failed++
			if rec.Who != "alice" || (rec.From != stationA && rec.From != stationB) {
				t.Errorf("audit: %+v", rec)
			}
		}
	}
	if failed != 9 {
		t.Errorf("%d failed logins audited, want 9 (a refused attempt is not a failure)", failed)
	}
}

// TestLoginDelayDoublesToItsCap: each failure once the delay has run
// doubles it, from 1 s to 5 min, and no further.
func TestLoginDelayDoublesToItsCap(t *testing.T) {
	r := newLoginRig(t)
	var at time.Duration
	for range loginFreeFailures - 1 {
		if code, _ := r.try(at, stationA, "alice", wrong); code != 401 {
			t.Fatalf("free failure: status %d, want 401", code)
		}
	}
	want := []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300}
	for i, w := range want {
		if code, _ := r.try(at, stationA, "alice", wrong); code != 401 {
			t.Fatalf("failure %d at +%v: status %d, want 401", loginFreeFailures+i, at, code)
		}
		code, retry := r.try(at, stationA, "alice", testPassword)
		if code != 429 || retry != strconv.Itoa(w) {
			t.Fatalf("after failure %d: status %d Retry-After %q, want 429 %d", loginFreeFailures+i, code, retry, w)
		}
		at += time.Duration(w) * time.Second
	}
	if code, _ := r.try(at, stationA, "alice", testPassword); code != 303 {
		t.Fatalf("right password once the 5 min have run: status %d, want 303", code)
	}
}

// TestLoginFromASprayingAddress: an address that fails for many names
// gets one free failure per name instead of five, but a name it has not
// failed for logs in, and other addresses are untouched.
func TestLoginFromASprayingAddress(t *testing.T) {
	r := newLoginRig(t)
	for i := range sprayUsers + 1 {
		if code, _ := r.try(0, stationA, fmt.Sprintf("nurse-%d", i), wrong); code != 401 {
			t.Fatalf("spraying nurse-%d: status %d, want 401", i, code)
		}
	}
	tests := []struct {
		name, from, user, pw string
		want                 int
	}{
		{"a new name from the spraying address fails", stationA, "alice", wrong, 401},
		{"and must wait at once", stationA, "alice", testPassword, 429},
		{"a name it never failed for logs in", stationA, "bob", testPassword, 303},
		{"another address keeps its free failures", stationB, "alice", wrong, 401},
		{"another address, 2nd failure", stationB, "alice", wrong, 401},
		{"another address logs in", stationB, "alice", testPassword, 303},
	}
	for _, tt := range tests {
		if code, _ := r.try(0, tt.from, tt.user, tt.pw); code != tt.want {
			t.Fatalf("%s (%s from %s): status %d, want %d", tt.name, tt.user, tt.from, code, tt.want)
		}
	}
}

// TestLoginLimiterIsBounded: however many names and addresses fail, the
// limiter's tables stay within their bounds, and filling them with new
// pairs, later than alice's last failure, does not free her pair while
// its delay runs (evicting the oldest entry would).
func TestLoginLimiterIsBounded(t *testing.T) {
	r := newLoginRig(t)
	l := r.srv.limiter
	l.maxPairs, l.maxAddrs = 4, 3
	s := time.Second
	for _, at := range []time.Duration{0, 0, 0, 0, 0, 1 * s, 3 * s} { // alice at A: to wait until +7 s
		if code, _ := r.try(at, stationA, "alice", wrong); code != 401 {
			t.Fatalf("alice at A at +%v: status %d, want 401", at, code)
		}
	}
	for i := range 12 {
		from := fmt.Sprintf("127.0.0.%d", 10+i%6)
		if code, _ := r.try(5*s, from, fmt.Sprintf("nurse-%d", i), wrong); code != 401 {
			t.Fatalf("nurse-%d from %s: status %d, want 401", i, from, code)
		}
		l.mu.Lock()
		pairs, addrs := len(l.pairs), len(l.addrs)
		l.mu.Unlock()
		if pairs > 4 || addrs > 3 {
			t.Fatalf("after %d more failures: %d pairs and %d addresses kept, want at most 4 and 3", i+1, pairs, addrs)
		}
	}
	if code, retry := r.try(5*s, stationA, "alice", testPassword); code != 429 || retry != "2" {
		t.Fatalf("alice at A after the flood: status %d Retry-After %q, want 429 2 (her pair's delay still running)", code, retry)
	}
	if code, _ := r.try(2*time.Hour, stationA, "alice", testPassword); code != 303 {
		t.Fatalf("alice at A two hours later: status %d, want 303", code)
	}
}

// TestLoginAttemptsInFlightAreCounted: concurrent requests cannot make
// more guesses than the delay allows: while its password is checked an
// attempt counts, so a delayed pair has one attempt at a time, and a
// fresh one its free failures.
func TestLoginAttemptsInFlightAreCounted(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		fails    int // failures before, at t0
		at       time.Duration
		admitted int // of 10 concurrent attempts
	}{
		{"fresh pair", 0, 0, loginFreeFailures},
		{"pair with 3 failures", 3, 0, loginFreeFailures - 3},
		{"delayed pair after its delay", loginFreeFailures, time.Second, 1},
		{"delayed pair during its delay", loginFreeFailures, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLimiter()
			for range tt.fails {
				if _, ok := l.admit("alice", stationA, t0); !ok {
					t.Fatal("setup: refused")
				}
				l.fail("alice", stationA, t0)
			}
			n := 0
			for range 10 {
				if _, ok := l.admit("alice", stationA, t0.Add(tt.at)); ok {
					n++
				}
			}
			if n != tt.admitted {
				t.Fatalf("%d of 10 concurrent attempts admitted, want %d", n, tt.admitted)
			}
			for range n {
				l.release("alice", stationA)
			}
			if _, ok := l.admit("alice", stationA, t0.Add(tt.at)); ok != (tt.admitted > 0) {
				t.Fatalf("after the attempts were released: admitted %v, want %v", ok, tt.admitted > 0)
			}
		})
	}
}
