// Package datadir locates the project's shared data folder (../shared beside
// the repository, or $ICTAL_SHARED) for tests that read real data in place.
package datadir

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared folder. A test that needs it fails, never skips,
// when it is missing: CI must run those tests.
func Dir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("ICTAL_SHARED"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("datadir: %v", err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			s := filepath.Join(filepath.Dir(d), "shared")
			if _, err := os.Stat(filepath.Join(s, "data")); err != nil {
				t.Fatalf("shared data folder %s is missing (set ICTAL_SHARED): %v", s, err)
			}
			return s
		}
		if filepath.Dir(d) == d {
			t.Fatalf("datadir: no go.mod above %s", wd)
		}
	}
}

// Path joins elem onto the shared folder and fails the test if the result
// does not exist.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Dir(t)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared file missing: %v", err)
	}
	return p
}
