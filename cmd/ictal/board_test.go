package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBoardUserAdd(t *testing.T) {
	users := filepath.Join(t.TempDir(), "users")
	tests := []struct {
		name, stdin string
		args        []string
		wantErr     string
	}{
		{"adds alice", "a long password\n", []string{"-users", users, "alice"}, ""},
		{"replaces alice", "another password\n", []string{"-users", users, "alice"}, ""},
		{"adds bob without newline", "bobs password", []string{"-users", users, "bob"}, ""},
		{"short password", "short\n", []string{"-users", users, "carol"}, "password of 5 bytes"},
		{"bad name", "a long password\n", []string{"-users", users, "../x"}, "name"},
		{"no file", "a long password\n", []string{"alice"}, "want -users FILE"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		err := runBoardUserAdd(tt.args, strings.NewReader(tt.stdin), &stderr)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		}
	}
	b, err := os.ReadFile(users)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "alice:$2") || !strings.HasPrefix(lines[1], "bob:$2") {
		t.Fatalf("users file:\n%s", b)
	}
	if fi, err := os.Stat(users); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("users file mode %v, %v; want 0600", fi.Mode(), err)
	}
}

func TestBoardNeedsItsFiles(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := runBoard([]string{"-site", "ward-7"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "users") {
		t.Fatalf("ictal board without -users: %v", err)
	}
}
