// Package users reads and writes the users file shared by the ward board
// (ictal board, its logins) and ictald's embedded MQTT broker (its
// clients): one user a line, "name:bcrypt-hash"; lines starting with '#'
// and blank lines are ignored. `ictal board user add` writes it.
package users

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/crypto/bcrypt"
)

// MinPasswordLength is the shortest password Add accepts; bcrypt takes
// at most 72 bytes.
const MinPasswordLength = 8

// ErrUser is wrapped by Add's errors about the name or password.
var ErrUser = errors.New("invalid user")

// nameRE is what a user name may be.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$`)

// ValidName reports whether s can be a user's name: 1 to 64 ASCII
// letters, digits, '.', '_', '@' or '-', starting with a letter or digit.
func ValidName(s string) bool { return nameRE.MatchString(s) }

// Add sets the password of user name in the users file at path, creating
// the file (mode 0600) or replacing the user's line. The password is
// hashed with bcrypt; it must be 8 to 72 bytes.
func Add(path, name string, password []byte) error {
	if !ValidName(name) {
		return fmt.Errorf("%w: name %q: want 1 to 64 letters, digits, '.', '_', '@' or '-'", ErrUser, name)
	}
	if len(password) < MinPasswordLength || len(password) > 72 {
		return fmt.Errorf("%w: %s: password of %d bytes, want %d to 72", ErrUser, name, len(password), MinPasswordLength)
	}
	hash, err := bcrypt.GenerateFromPassword(password, bcrypt.DefaultCost)
	if err != nil {
		return fmt.Errorf("users: hash password of %s: %w", name, err)
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("users file: %w", err)
	}
	var out bytes.Buffer
	for _, line := range strings.SplitAfter(string(old), "\n") {
		if n, _, ok := strings.Cut(line, ":"); ok && n == name {
			continue
		}
		out.WriteString(line)
	}
	if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
		out.WriteByte('\n')
	}
	fmt.Fprintf(&out, "%s:%s\n", name, hash)
	return writeFileAtomic(path, out.Bytes())
}

// writeFileAtomic replaces path with data through a temporary file in the
// same directory. A new file gets mode 0600; a replaced one keeps its
// mode, owner and group (ictald reads its broker_users through its group).
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".users-*")
	if err != nil {
		return fmt.Errorf("users file: %w", err)
	}
	defer os.Remove(f.Name())
	if err := keepAttributes(f, path); err != nil {
		f.Close()
		return fmt.Errorf("users file %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("users file %s: %w", f.Name(), err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("users file %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("users file %s: %w", f.Name(), err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("users file: %w", err)
	}
	return nil
}

// keepAttributes gives f the mode, owner and group of the file at path,
// if there is one.
func keepAttributes(f *os.File, path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && (int(st.Uid) != os.Geteuid() || int(st.Gid) != os.Getegid()) {
		if err := f.Chown(int(st.Uid), int(st.Gid)); err != nil {
			return err
		}
	}
	return f.Chmod(fi.Mode().Perm())
}

// Read reads the users file at path into name → bcrypt hash.
func Read(path string) (map[string][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("users file: %w", err)
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a users file's lines from r: name:bcrypt-hash, blank lines
// and # comments. Errors name the file (as name) and the line.
func Parse(r io.Reader, name string) (map[string][]byte, error) {
	users := make(map[string][]byte)
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		user, hash, ok := strings.Cut(line, ":")
		if !ok || !ValidName(user) || !strings.HasPrefix(hash, "$2") {
			return nil, fmt.Errorf("users file %s:%d: want name:bcrypt-hash", name, n)
		}
		users[user] = []byte(hash)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("users file %s: %w", name, err)
	}
	return users, nil
}

// dummyHash is compared against when the user does not exist, so that a
// check takes as long whether or not the name is known. It is made at
// the first check, not when the program starts.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("not a password of anyone"), bcrypt.DefaultCost)
	return h
})

// Check reads the users file at path and reports whether password is
// name's. It takes as long for an unknown name as for a known one.
func Check(path, name string, password []byte) (bool, error) {
	users, err := Read(path)
	if err != nil {
		return false, err
	}
	hash, ok := users[name]
	if !ok {
		hash = dummyHash()
	}
	err = bcrypt.CompareHashAndPassword(hash, password)
	return ok && err == nil, nil
}
