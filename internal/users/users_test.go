package users

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mustAdd adds user with password to the users file at path, failing the
// test if Add refuses.
func mustAdd(t *testing.T, path, user, password string) {
	t.Helper()
	if err := Add(path, user, []byte(password)); err != nil {
		t.Fatal(err)
	}
}

func TestAddThenCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "users")
	mustAdd(t, path, "alice", "alice-secret")
	mustAdd(t, path, "ictal-board", "board-secret")
	mustAdd(t, path, "alice", "alice-new-secret") // replaces her line
	tests := []struct {
		name, user, password string
		want                 bool
	}{
		{"new password", "alice", "alice-new-secret", true},
		{"replaced password", "alice", "alice-secret", false},
		{"other user", "ictal-board", "board-secret", true},
		{"another's password", "ictal-board", "alice-new-secret", false},
		{"unknown user", "mallory", "alice-new-secret", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Check(path, tt.user, []byte(tt.password))
			if err != nil || got != tt.want {
				t.Errorf("Check(%s) = %v, %v; want %v", tt.user, got, err, tt.want)
			}
		})
	}
	m, err := Read(path)
	if err != nil || len(m) != 2 {
		t.Errorf("Read: %d users, %v; want 2", len(m), err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("users file mode %v, %v; want 0600", fi.Mode(), err)
	}
}

func TestAddKeepsTheFilesMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "users")
	mustAdd(t, path, "alice", "alice-secret")
	if err := os.Chmod(path, 0o640); err != nil { // readable by ictald's group
		t.Fatal(err)
	}
	mustAdd(t, path, "bob", "bob-secret")
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("users file mode %v, %v after adding a user; want 0640 kept", fi.Mode(), err)
	}
}

func TestAddRefuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "users")
	for _, tt := range []struct{ name, user, password string }{
		{"short password", "alice", "short"},
		{"long password", "alice", strings.Repeat("x", 73)},
		{"colon in name", "al:ice", "alice-secret"},
		{"empty name", "", "alice-secret"},
	} {
		if err := Add(path, tt.user, []byte(tt.password)); !errors.Is(err, ErrUser) {
			t.Errorf("%s: %v, want ErrUser", tt.name, err)
		}
	}
}

func TestReadRejectsMalformedLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "users")
	os.WriteFile(path, []byte("# comment\n\nalice:plaintext\n"), 0o600)
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), path+":3") {
		t.Errorf("Read: %v, want an error naming line 3", err)
	}
}

// FuzzParse: whatever a users file holds, Parse returns users or an
// error naming the line, never a panic; every user it accepts has a valid
// name and a bcrypt-looking hash, and the users written back parse to the
// same.
func FuzzParse(f *testing.F) {
	f.Add("alice:$2a$10$abcdefghijklmnopqrstuv\n# a comment\n\nbob:$2b$10$xyz\n")
	f.Add("alice:notahash\n")
	f.Add("bad name:$2a$10$x\n")
	f.Add(":$2a$\n")
	f.Fuzz(func(t *testing.T, text string) {
		users, err := Parse(strings.NewReader(text), "fuzz")
		if err != nil {
			if !strings.Contains(err.Error(), "users file fuzz") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		var b strings.Builder
		for name, hash := range users {
			if !ValidName(name) || !strings.HasPrefix(string(hash), "$2") {
				t.Fatalf("accepted %q:%q", name, hash)
			}
			b.WriteString(name + ":" + string(hash) + "\n")
		}
		again, err := Parse(strings.NewReader(b.String()), "fuzz")
		if err != nil || len(again) != len(users) {
			t.Fatalf("written back: %v, %d of %d users", err, len(again), len(users))
		}
		for name, hash := range users {
			if string(again[name]) != string(hash) {
				t.Fatalf("%s: %q then %q", name, hash, again[name])
			}
		}
	})
}
