package board

import (
	"github.com/ictal/ictal/internal/users"
)

// The users file (package users) holds one user a line,
// "name:bcrypt-hash"; ictald's embedded MQTT broker reads the same format.

// MinPasswordLength is the shortest password AddUser accepts.
const MinPasswordLength = users.MinPasswordLength

// ErrUser is wrapped by AddUser's errors about the name or password.
var ErrUser = users.ErrUser

// AddUser sets the password of user name in the users file at path,
// creating the file (mode 0600) or replacing the user's line. The password
// is hashed with bcrypt; it must be 8 to 72 bytes.
func AddUser(path, name string, password []byte) error { return users.Add(path, name, password) }

// readUsers reads the users file into name → bcrypt hash.
func readUsers(path string) (map[string][]byte, error) { return users.Read(path) }

// checkPassword reports whether password is name's in the users file.
func checkPassword(path, name string, password []byte) (bool, error) {
	return users.Check(path, name, password)
}
