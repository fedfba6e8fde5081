package board

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// The users file holds one user a line, "name:bcrypt-hash"; lines starting
// with '#' and blank lines are ignored.

// MinPasswordLength is the shortest password AddUser accepts.
const MinPasswordLength = 8

// ErrUser is wrapped by AddUser's errors about the name or password.
var ErrUser = errors.New("board: invalid user")

// AddUser sets the password of user name in the users file at path,
// creating the file (mode 0600) or replacing the user's line. The password
// is hashed with bcrypt; it must be 8 to 72 bytes.
func AddUser(path, name string, password []byte) error {
	if !validIdent(name) {
		return fmt.Errorf("%w: name %q: want 1 to 64 letters, digits, '.', '_', '@' or '-'", ErrUser, name)
	}
	if len(password) < MinPasswordLength || len(password) > 72 {
		return fmt.Errorf("%w: %s: password of %d bytes, want %d to 72", ErrUser, name, len(password), MinPasswordLength)
	}
	hash, err := bcrypt.GenerateFromPassword(password, bcrypt.DefaultCost)
	if err != nil {
		return fmt.Errorf("board: hash password of %s: %w", name, err)
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("board: users file: %w", err)
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

// writeFileAtomic replaces path with data (mode 0600) through a temporary
// file in the same directory.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".users-*")
	if err != nil {
		return fmt.Errorf("board: users file: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("board: users file %s: %w", f.Name(), err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("board: users file %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("board: users file %s: %w", f.Name(), err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("board: users file: %w", err)
	}
	return nil
}

// readUsers reads the users file into name → bcrypt hash.
func readUsers(path string) (map[string][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("board: users file: %w", err)
	}
	defer f.Close()
	users := make(map[string][]byte)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		name, hash, ok := strings.Cut(line, ":")
		if !ok || !validIdent(name) || !strings.HasPrefix(hash, "$2") {
			return nil, fmt.Errorf("board: users file %s:%d: want name:bcrypt-hash", path, n)
		}
		users[name] = []byte(hash)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("board: users file %s: %w", path, err)
	}
	return users, nil
}

// dummyHash is compared against when the user does not exist, so that a
// login takes as long whether or not the name is known.
// It is made at the first login, not when the program starts.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("not a password of anyone"), bcrypt.DefaultCost)
	return h
})

// checkPassword reports whether password is name's in the users file.
func checkPassword(path, name string, password []byte) (bool, error) {
	users, err := readUsers(path)
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
