package board

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"
)

// Client drives a board over its HTTP API as a browser would: it logs in
// (session cookie), fetches the CSRF token from GET /session and sends it
// with every state change. ictald's demo uses it to confirm and reject
// alerts.
type Client struct {
	base string
	hc   *http.Client
	csrf string
	user string
}

// Login logs user in to the board at base ("http://127.0.0.1:8080"),
// with hc's transport (nil: http.DefaultTransport; give one that trusts
// the board's certificate for https).
func Login(ctx context.Context, base, user, password string, hc *http.Client) (*Client, error) {
	jar, _ := cookiejar.New(nil) // never fails without options
	c := &Client{base: strings.TrimRight(base, "/"), hc: &http.Client{Jar: jar, Timeout: time.Minute}}
	if hc != nil {
		c.hc.Transport = hc.Transport
	}
	resp, err := c.do(ctx, "/login", url.Values{"user": {user}, "password": {password}})
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/session", nil)
	if err != nil {
		return nil, fmt.Errorf("board client: %w", err)
	}
	resp, err = c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("board client: GET /session: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("board client: login as %s: %s", user, resp.Status)
	}
	var s struct{ User, CSRF string }
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&s); err != nil {
		return nil, fmt.Errorf("board client: GET /session: %w", err)
	}
	c.csrf, c.user = s.CSRF, s.User
	return c, nil
}

// do POSTs a form; redirects are followed (login and logout answer 303).
func (c *Client) do(ctx context.Context, path string, form url.Values) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("board client: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", c.base)
	if c.csrf != "" {
		req.Header.Set("X-CSRF-Token", c.csrf)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("board client: POST %s: %w", path, err)
	}
	return resp, nil
}

// post POSTs a form and turns a non-2xx answer into an error with the
// board's message.
func (c *Client) post(ctx context.Context, path string, form url.Values) error {
	resp, err := c.do(ctx, path, form)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		return nil
	}
	var e struct{ Error string }
	json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&e)
	return fmt.Errorf("board client: POST %s: %s: %s", path, resp.Status, e.Error)
}

// User returns the logged-in user's name.
func (c *Client) User() string { return c.user }

// Verdict sends "confirmed" or "rejected" on an alert the board shows.
func (c *Client) Verdict(ctx context.Context, alertID, verdict string) error {
	return c.post(ctx, "/feedback", url.Values{"alert_id": {alertID}, "verdict": {verdict}})
}

// Label sends an interval label ("seizure" or "non-seizure") for a bed.
func (c *Client) Label(ctx context.Context, bed string, start, end time.Time, label string) error {
	return c.post(ctx, "/feedback", url.Values{"bed": {bed}, "label": {label},
		"start": {start.UTC().Format(time.RFC3339Nano)}, "end": {end.UTC().Format(time.RFC3339Nano)}})
}

// Acknowledge silences an alert's ringing on every screen.
func (c *Client) Acknowledge(ctx context.Context, alertID string) error {
	return c.post(ctx, "/acknowledge", url.Values{"alert_id": {alertID}})
}

// AlertIDs returns the IDs of the alerts the board lists, newest first.
func (c *Client) AlertIDs(ctx context.Context) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/state", nil)
	if err != nil {
		return nil, fmt.Errorf("board client: %w", err)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("board client: GET /state: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("board client: GET /state: %s", resp.Status)
	}
	var s struct {
		Alerts []struct {
			ID    string          `json:"id"`
			Alert json.RawMessage `json:"alert"`
		} `json:"alerts"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		return nil, fmt.Errorf("board client: GET /state: %w", err)
	}
	ids := []string{}
	for _, a := range s.Alerts {
		if a.Alert != nil {
			ids = append(ids, a.ID)
		}
	}
	return ids, nil
}

// Logout ends the session.
func (c *Client) Logout(ctx context.Context) error {
	if c.csrf == "" {
		return errors.New("board client: not logged in")
	}
	err := c.post(ctx, "/logout", nil)
	c.csrf = ""
	return err
}
