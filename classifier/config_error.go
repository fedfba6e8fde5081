package classifier

import (
	"errors"
	"fmt"
)

// ErrConfig is wrapped by every error about a Config.
var ErrConfig = errors.New("classifier: invalid config")

// ConfigError says which field of a Config is wrong, with what value and
// why, in the spirit of json.UnmarshalTypeError: callers that present the
// configuration under other names (ictald's TOML keys) map Field, never the
// message.
type ConfigError struct {
	Field  string // the Config field ("Members"); empty for the whole Config
	Value  any
	Reason string
}

func (e *ConfigError) Error() string {
	if e.Field == "" {
		return "classifier: Config: " + e.Reason
	}
	if s, ok := e.Value.(string); ok {
		return fmt.Sprintf("classifier: Config.%s %q: %s", e.Field, s, e.Reason)
	}
	return fmt.Sprintf("classifier: Config.%s %v: %s", e.Field, e.Value, e.Reason)
}

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

func configErr(field string, value any, format string, args ...any) error {
	return &ConfigError{Field: field, Value: value, Reason: fmt.Sprintf(format, args...)}
}
