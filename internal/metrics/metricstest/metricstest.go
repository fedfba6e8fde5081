// Package metricstest scrapes a metrics endpoint for tests: GET /metrics
// parsed into samples, GET /healthz as a status code and body.
package metricstest

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Samples maps a series, written as the text format writes it
// (`ictal_windows_total{quality="usable"}`), to its value.
type Samples map[string]float64

// Parse reads the Prometheus text format.
func Parse(r io.Reader) (Samples, error) {
	s := Samples{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			return nil, fmt.Errorf("metricstest: no value in %q", line)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("metricstest: %q: %w", line, err)
		}
		s[line[:i]] = v
	}
	return s, sc.Err()
}

// Scrape gets base+"/metrics" and parses it, failing the test on any
// error.
func Scrape(t testing.TB, base string) Samples {
	t.Helper()
	code, body := Get(t, base+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", code, body)
	}
	s, err := Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Get returns the status code and body of GET url.
func Get(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}
